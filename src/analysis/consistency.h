/*
 * Consistency (METHODOLOGY §4.3): the 99.9 % value -- exceeded by 99.9 % of
 * the samples, i.e. the 0.1th percentile by the rank rule of trace.h --
 * over the mean, x 100.  Bandwidth for sequential steps, IOPS for random.
 * From the 100 ms samples (the reviewer's figure) and from 1 s samples
 * (Intel's datasheet definition: consecutive groups of `group` slices
 * merged, a trailing partial group dropped).  Only whole slices are
 * samples (trace_whole): a run's last 7 us sliver is not one.  Both are labelled by the
 * caller; both come with the standard deviation of their samples.
 */
#ifndef SSDBENCH_ANALYSIS_CONSISTENCY_H
#define SSDBENCH_ANALYSIS_CONSISTENCY_H

#include <stddef.h>

#include "analysis/trace.h"
#include "common/error.h"

struct consistency_view {
	size_t n;		/* samples */
	double mean;		/* of the sample rates */
	double p01;		/* 0.1th percentile sample */
	double score;		/* p01 / mean x 100 */
	double stddev;		/* sample standard deviation */
	double cv;		/* stddev / mean */
};

struct consistency_result {
	struct consistency_view fine;	/* the slices as given (100 ms) */
	struct consistency_view coarse;	/* groups of `group` (1 s); n = 0
					   when the trace is shorter */
	unsigned group;
};

/*
 * `group` slices make one coarse sample; 0 picks the count closest to one
 * second from the median slice length.
 */
int consistency_analyze(const struct trace_pt *t, size_t n,
			enum trace_metric m, unsigned group,
			struct consistency_result *out, struct sb_err *e);

#endif
