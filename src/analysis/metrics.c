#include "analysis/metrics.h"

#include <math.h>
#include <stdio.h>

/* One figure; NAN figures are left out.  Keys longer than the store's 127
   characters are refused rather than cut. */
static int put(metric_fn fn, void *ctx, const char *prefix, const char *suffix,
	       double value, const char *unit, struct sb_err *e)
{
	if (isnan(value))
		return 0;
	char key[128];
	if (snprintf(key, sizeof key, "%s.%s", prefix, suffix) >= (int)sizeof key)
		return sb_errf(e, "metric key '%s.%s' is too long", prefix, suffix);
	return fn(ctx, key, value, unit, e);
}

#define PUT(suffix, value, unit)                                           \
	do {                                                               \
		if (put(fn, ctx, prefix, suffix, value, unit, e))          \
			return -1;                                         \
	} while (0)

static const char *rate_unit(enum trace_metric m)
{
	return m == TRACE_BW ? "MB/s" : "IOPS";
}

/* Rates are stored as shown: MB/s (10^6) for bandwidth, IOPS as is. */
static double rate_value(enum trace_metric m, double v)
{
	return m == TRACE_BW ? v / 1e6 : v;
}

int metrics_fill(const struct fill_result *r, const char *prefix,
		 metric_fn fn, void *ctx, struct sb_err *e)
{
	char k[64];
	PUT("true_avg_mbps", r->true_avg / 1e6, "MB/s");
	PUT("mean_mbps", r->mean_of_samples / 1e6, "MB/s");
	PUT("p1_mbps", r->p1 / 1e6, "MB/s");
	PUT("min_mbps", r->min / 1e6, "MB/s");
	PUT("total_s", r->total_s, "s");
	PUT("total_gb", r->total_bytes / 1e9, "GB");
	PUT("below_half_pct", 100 * r->below_half_share, "%");
	PUT("has_cache", r->has_cache, "");
	if (r->has_cache) {
		PUT("slc_cache_gb", r->cache_bytes / 1e9, "GB");
		PUT("slc_speed_mbps", r->cache_speed / 1e6, "MB/s");
		PUT("slc_s", r->cache_s, "s");
	}
	if (r->post.end > r->post.first) {
		PUT("post_mean_mbps", r->post.mean / 1e6, "MB/s");
		PUT("post_median_mbps", r->post.median / 1e6, "MB/s");
		PUT("post_p10_mbps", r->post.p10 / 1e6, "MB/s");
	}
	PUT("stages", (double)r->nstages, "");
	for (size_t i = 0; i < r->nstages; i++) {
		const struct fill_stage *s = &r->stages[i];
		snprintf(k, sizeof k, "stage%zu.start_gb", i + 1);
		PUT(k, s->start_bytes / 1e9, "GB");
		snprintf(k, sizeof k, "stage%zu.gb", i + 1);
		PUT(k, s->bytes / 1e9, "GB");
		snprintf(k, sizeof k, "stage%zu.mean_mbps", i + 1);
		PUT(k, s->mean / 1e6, "MB/s");
		snprintf(k, sizeof k, "stage%zu.s", i + 1);
		PUT(k, s->seconds, "s");
	}
	PUT("levels", (double)r->nlevels, "");
	for (size_t i = 0; i < r->nlevels; i++) {
		snprintf(k, sizeof k, "level%zu_mbps", i + 1);
		PUT(k, r->levels[i].rate / 1e6, "MB/s");
		snprintf(k, sizeof k, "level%zu_time_pct", i + 1);
		PUT(k, 100 * r->levels[i].time_share, "%");
	}
	return 0;
}

int metrics_steady(const struct ss_result *r, const char *prefix,
		   metric_fn fn, void *ctx, struct sb_err *e)
{
	enum trace_metric m = r->metric && r->metric[0] == 'b' ? TRACE_BW : TRACE_IOPS;
	char k[64];
	snprintf(k, sizeof k, "steady.%s.reached", r->rule);
	PUT(k, r->reached, "");
	if (!r->reached)
		return 0;
	snprintf(k, sizeof k, "steady.%s.s", r->rule);
	PUT(k, r->seconds, "s");
	snprintf(k, sizeof k, "steady.%s.gb", r->rule);
	PUT(k, r->bytes / 1e9, "GB");
	snprintf(k, sizeof k, "steady.%s.drive_writes", r->rule);
	PUT(k, r->drive_writes, "DW");
	snprintf(k, sizeof k, "steady.%s.value", r->rule);
	PUT(k, rate_value(m, r->value), rate_unit(m));
	return 0;
}

int metrics_consistency(const struct consistency_result *r,
			enum trace_metric m, const char *prefix, metric_fn fn,
			void *ctx, struct sb_err *e)
{
	PUT("consistency_pct", r->fine.score, "%");
	if (r->coarse.n)
		PUT("consistency_1s_pct", r->coarse.score, "%");
	PUT("stddev", rate_value(m, r->fine.stddev), rate_unit(m));
	PUT("cv_pct", 100 * r->fine.cv, "%");
	return 0;
}

int metrics_bursts(const struct burst_result *r, enum trace_metric m,
		   const char *prefix, metric_fn fn, void *ctx,
		   struct sb_err *e)
{
	PUT("bursts.count", (double)r->count, "");
	PUT("bursts.base", rate_value(m, r->base), rate_unit(m));
	if (r->count == 0)
		return 0;
	PUT("bursts.period_s", r->period_s.median, "s");
	PUT("bursts.duration_s", r->duration_s.median, "s");
	PUT("bursts.height", rate_value(m, r->height.median), rate_unit(m));
	PUT("bursts.gb", r->bytes.median / 1e9, "GB");
	return 0;
}

int metrics_reclaim(const struct reclaim_result *r, const char *prefix,
		    metric_fn fn, void *ctx, struct sb_err *e)
{
	PUT("rate_gbps", r->rate / 1e9, "GB/s");
	PUT("recovered_gb", r->recovered_bytes / 1e9, "GB");
	PUT("saturated", r->saturated, "");
	PUT("full_s", r->full_s, "s");
	return 0;
}
