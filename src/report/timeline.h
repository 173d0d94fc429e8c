/*
 * Per-sample charts of one workload across the runs (timeline.c).
 */
#ifndef SSDBENCH_REPORT_TIMELINE_H
#define SSDBENCH_REPORT_TIMELINE_H

#include <stdbool.h>

#include "report/report_int.h"

enum tl_col { TL_BW, TL_IOPS, TL_LAT_MEAN, TL_LAT_P99 };
enum tl_axis { TL_TIME, TL_WRITTEN, TL_DRIVE_WRITES };

struct tl_spec {
	const char *step;
	const char *what;	/* chart name part: "pass1-bw-time" */
	const char *title;
	const char *series_title;	/* after the device label, or NULL */
	enum tl_col col;
	enum tl_axis axis;
	enum chart_kind kind;	/* lines, or scatter (opacity, clipping) */
	bool ylog;
	bool dut_only;		/* the DUT's view: no other device, none missed */
	const struct chart_mark *marks;	/* labelled levels and moments */
	size_t nmarks;
	/* Scatter views: override the report's options (0: theirs; a
	   negative clip: none). */
	double opacity, clip_time_s, clip_latency_ms;
};

/* `per_run[r]` is run r's workload, NULL where the run lacks it. */
int timeline_chart(struct rctx *x, const struct tl_spec *t,
		   const struct rpt_workload *const *per_run,
		   struct sb_err *e);

/* Under a workload's charts: per run whose workload had device queries
   during it, how many, when and for how long. */
void device_query_note(struct rctx *x, const struct rpt_workload *const *per_run);

#endif
