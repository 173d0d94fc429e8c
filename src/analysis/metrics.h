/*
 * Findings as named figures, so the suite stores them (store_put_metric)
 * and the report reads them under the same keys.  Each function hands
 * (key, value, unit) to `fn` in a fixed order; keys are `prefix` + a fixed
 * suffix, listed in docs/analysis.md.  Units are short: "GB", "MB/s",
 * "IOPS", "s", "%", "DW", "" (a count or a flag 0/1).  A figure that does
 * not exist (no cache, steady state not reached) is left out rather than
 * given a made-up value; flags say which.  A failing `fn` stops the walk.
 */
#ifndef SSDBENCH_ANALYSIS_METRICS_H
#define SSDBENCH_ANALYSIS_METRICS_H

#include "analysis/bursts.h"
#include "analysis/consistency.h"
#include "analysis/fill.h"
#include "analysis/reclaim.h"
#include "analysis/steady.h"
#include "common/error.h"

typedef int (*metric_fn)(void *ctx, const char *key, double value,
			 const char *unit, struct sb_err *e);

/* prefix "fill.pass1": fill.pass1.slc_cache_gb, ... */
int metrics_fill(const struct fill_result *r, const char *prefix,
		 metric_fn fn, void *ctx, struct sb_err *e);
/* prefix "precondition.rnd": precondition.rnd.steady.fio-slope.reached ... */
int metrics_steady(const struct ss_result *r, const char *prefix,
		   metric_fn fn, void *ctx, struct sb_err *e);
int metrics_consistency(const struct consistency_result *r,
			enum trace_metric m, const char *prefix, metric_fn fn,
			void *ctx, struct sb_err *e);
int metrics_bursts(const struct burst_result *r, enum trace_metric m,
		   const char *prefix, metric_fn fn, void *ctx,
		   struct sb_err *e);
int metrics_reclaim(const struct reclaim_result *r, const char *prefix,
		    metric_fn fn, void *ctx, struct sb_err *e);

#endif
