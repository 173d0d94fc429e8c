/*
 * Bursts (METHODOLOGY §4.1): recurring short excursions far above the
 * running level, as in a drive's steady random writes where garbage
 * collection banks free space and then lets the host write at full speed
 * for half a second (SN8100: 15-25 k IOPS, bursts of 0.9-1 M IOPS for
 * 0.4-0.6 s every 19-22 s, ~1.5 GB each).
 *
 * The running level is the median of `level_window_s` blocks, so the
 * bursts themselves (a few % of the samples) do not lift it.  A burst is a
 * run of samples above `factor` x that level; runs closer than
 * `merge_gap_s` are one burst.  Its height is the median of its plateau
 * (the samples above half its peak), so one noisy slice does not set it;
 * its duration the equivalent width (excess volume / (height - level)),
 * so slices half-covered by a burst at its edges do not lengthen it by a
 * whole slice each.
 */
#ifndef SSDBENCH_ANALYSIS_BURSTS_H
#define SSDBENCH_ANALYSIS_BURSTS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/trace.h"
#include "common/error.h"

struct burst_params {
	double factor;		/* above this x the running level: 4 */
	double level_window_s;	/* median blocks for the level: 10 s */
	double merge_gap_s;	/* runs this close are one burst: 0.25 s */
};

void burst_params_default(struct burst_params *p);

struct burst {
	size_t first, end;	/* samples [first, end) */
	double start_s;		/* time at the start of sample `first` */
	double duration_s;	/* equivalent width */
	double height;		/* plateau rate (B/s or IOPS) */
	double peak;		/* highest sample rate */
	double base;		/* running level under it */
	double bytes;		/* written in the burst's samples */
};

/* min / median / max of a burst property. */
struct burst_stat {
	double min, median, max;
};

struct burst_result {
	size_t count;
	double base;			/* median running level */
	struct burst_stat period_s;	/* start to next start (count >= 2) */
	struct burst_stat duration_s;
	struct burst_stat height;	/* plateau rate */
	struct burst_stat bytes;
};

/*
 * Find the bursts of `m` in t[n].  When `list` is not NULL it receives a
 * malloc'd array of the bursts (free() it; NULL when none).
 */
int burst_analyze(const struct trace_pt *t, size_t n, enum trace_metric m,
		  const struct burst_params *p, struct burst_result *out,
		  struct burst **list, struct sb_err *e);

/*
 * The true average rate (count / time) over the whole burst periods that
 * end with trace sample `end` (inclusive): as many periods as fit in
 * window_s, at least one, taking the samples whose middle lies in that
 * span.  A steady-state window's mean depends on how many bursts it
 * happens to catch; this does not.  NAN without a period or when the
 * trace does not reach a whole period back.
 */
double level_over_periods(const struct trace_pt *t, size_t n, enum trace_metric m,
			  size_t end, double period_s, double window_s);

/*
 * Average rate at given drive-write points: for each dw[i], the true
 * average (count / time) over the samples whose middle lies within
 * window_s / 2 of the moment dw[i] x capacity bytes had been written.
 * NAN for a point the trace never reaches.
 */
int level_at_drive_writes(const struct trace_pt *t, size_t n,
			  enum trace_metric m, uint64_t capacity,
			  const double *dw, size_t ndw, double window_s,
			  double *out, struct sb_err *e);

#endif
