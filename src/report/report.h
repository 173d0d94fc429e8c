/*
 * The report: stored runs in, one self-contained HTML page and every chart
 * (SVG, PNG, and the gnuplot data and script behind it) out.  The first run
 * is the device under test; the others are comparison devices, overlaid on
 * its charts and ranked beside it in bars.  Nothing here measures: every
 * figure comes from the store, through the model in model.h.
 */
#ifndef SSDBENCH_REPORT_REPORT_H
#define SSDBENCH_REPORT_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "report/model.h"

struct report_opts {
	const char *out_dir;	/* created if missing */
	bool mib;		/* MiB/s instead of MB/s */
	const char *datasheet;	/* INI file of spec values, or NULL */
	double opacity;		/* preconditioning scatter markers, 0..1 */
	double clip_time_s;	/* preconditioning x clip, 0 = none */
	double clip_latency_ms;	/* preconditioning latency y clip, 0 = none */
	const char *tool_version;
};

void report_opts_defaults(struct report_opts *o);

struct report_stats {
	size_t charts;		/* rendered */
	size_t tables;
};

/*
 * Write OUT_DIR/index.html and the charts.  `runs[0]` is the DUT.
 * Fails with a message when the output cannot be written or gnuplot fails.
 */
int report_build(const struct rpt_run *runs, size_t nruns,
		 const struct report_opts *o, struct report_stats *st,
		 struct sb_err *e);

#endif
