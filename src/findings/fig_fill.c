/*
 * Fill Drive and SLC cache reclaim figures (METHODOLOGY §3.2, §3.7), from
 * the analysis library's fill and reclaim analyses of the 100 ms traces.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/fill.h"
#include "analysis/reclaim.h"
#include "findings/internal.h"

#define MB 1e6
#define GB 1e9

/*
 * The fill analysis of a workload's writes: *out is NULL (and 0 returned)
 * when the trace has nothing to analyse, a pass cut short for instance.
 */
static int analyze_fill(struct fctx *c, const struct workload_row *w,
			struct fill_result **out, struct sb_err *e)
{
	struct trace_pt *t;
	size_t n;
	*out = NULL;
	if (load_trace(c, w->id, 1u << DIR_WRITE, &t, &n, e))
		return -1;
	struct fill_params fp;
	fill_params_default(&fp);
	struct fill_result *r = malloc(sizeof *r);
	struct sb_err ae;
	if (r && n && !fill_analyze(t, n, &fp, r, &ae))
		*out = r;
	else
		free(r);
	free(t);
	return 0;
}

static int fill_pass(struct fctx *c, const struct workload_row *w, uint64_t k,
		     struct sb_err *e)
{
	struct fill_result *r;
	if (analyze_fill(c, w, &r, e))
		return -1;
	if (!r)
		return 0;
	unsigned long long kk = k;
	const char *u = "MB/s";
	fig(c, "", r->has_cache, "pass%llu.has_slc_cache", kk);
	fig(c, "GB", r->has_cache ? r->cache_bytes / GB : 0, "pass%llu.slc_cache_gb", kk);
	fig(c, u, r->has_cache ? r->cache_speed / MB : NAN, "pass%llu.slc_speed_mbps", kk);
	fig(c, "s", r->has_cache ? r->cache_s : 0, "pass%llu.slc_cache_s", kk);
	fig(c, "GB", r->has_cache ? r->cache_start_bytes / GB : NAN, "pass%llu.slc_cache_start_gb", kk);
	fig(c, "", r->cache_phases, "pass%llu.slc_cache_phases", kk);
	fig(c, u, r->mean_of_samples / MB, "pass%llu.mean_mbps", kk);
	fig(c, u, r->true_avg / MB, "pass%llu.true_avg_mbps", kk);
	fig(c, u, r->position_avg / MB, "pass%llu.position_avg_mbps", kk);
	fig(c, u, r->p1 / MB, "pass%llu.p1_mbps", kk);
	fig(c, u, r->min / MB, "pass%llu.min_mbps", kk);
	fig(c, u, r->max / MB, "pass%llu.max_mbps", kk);
	fig(c, "s", r->total_s, "pass%llu.total_s", kk);
	fig(c, "GB", r->total_bytes / GB, "pass%llu.written_gb", kk);
	fig(c, "", r->below_half_share, "pass%llu.below_half_avg_share", kk);
	fig(c, u, r->post.mean / MB, "pass%llu.post_cache.mean_mbps", kk);
	fig(c, u, r->post.median / MB, "pass%llu.post_cache.median_mbps", kk);
	fig(c, u, r->post.p10 / MB, "pass%llu.post_cache.p10_mbps", kk);
	fig(c, "", (double)r->nstages, "pass%llu.stage_count", kk);
	for (size_t i = 0; i < r->nstages; i++) {
		fig(c, "GB", r->stages[i].start_bytes / GB, "pass%llu.stage%zu.start_gb", kk, i + 1);
		fig(c, "GB", r->stages[i].bytes / GB, "pass%llu.stage%zu.gb", kk, i + 1);
		fig(c, u, r->stages[i].mean / MB, "pass%llu.stage%zu.mbps", kk, i + 1);
	}
	fig(c, "", (double)r->nlevels, "pass%llu.level_count", kk);
	for (size_t i = 0; i < r->nlevels; i++) {
		fig(c, u, r->levels[i].rate / MB, "pass%llu.level%zu.mbps", kk, i + 1);
		fig(c, "", r->levels[i].time_share, "pass%llu.level%zu.share", kk, i + 1);
	}
	free(r);
	return 0;
}

int fig_fill(struct fctx *c, struct sb_err *e)
{
	for (size_t i = 0; i < c->nwl; i++) {
		uint64_t k;
		if (name_u64(c->wl[i].name, "pass", &k) && fill_pass(c, &c->wl[i], k, e))
			return -1;
	}
	return 0;
}

static void idle_label(uint64_t ms, char *buf, size_t len)
{
	if (ms % 1000 == 0)
		snprintf(buf, len, "%llus", (unsigned long long)(ms / 1000));
	else
		snprintf(buf, len, "%llums", (unsigned long long)ms);
}

int fig_reclaim(struct fctx *c, struct sb_err *e)
{
	struct reclaim_point pts[PARAM_LIST_MAX];
	size_t np = 0;
	for (size_t i = 0; i < c->nwl && np < PARAM_LIST_MAX; i++) {
		char phase[16];
		uint64_t ms;
		if (!name_u64(c->wl[i].name, "idle", &ms) ||
		    !name_word(c->wl[i].name, "phase", phase, sizeof phase) ||
		    strcmp(phase, "write") || i == 0)
			continue;
		struct trace_pt *tf, *t;
		size_t nf, n;
		if (load_trace(c, c->wl[i - 1].id, 1u << DIR_WRITE, &tf, &nf, e))
			return -1;
		if (load_trace(c, c->wl[i].id, 1u << DIR_WRITE, &t, &n, e)) {
			free(tf);
			return -1;
		}
		double cache = NAN;
		struct sb_err ae;
		if (nf && n && reclaim_cycle_cache(tf, nf, t, n, &cache, &ae))
			cache = NAN;
		free(tf);
		free(t);
		char l[32];
		idle_label(ms, l, sizeof l);
		fig(c, "GB", (double)c->wl[i].totals.bytes[DIR_WRITE] / GB, "idle_%s.written_gb", l);
		fig(c, "GB", cache / GB, "idle_%s.cache_gb", l);
		if (isfinite(cache))
			pts[np++] = (struct reclaim_point){ (double)ms / 1e3, cache };
	}
	struct reclaim_result r;
	struct sb_err ae;
	if (np && !reclaim_analyze(pts, np, RECLAIM_SATURATION, &r, &ae)) {
		fig(c, "GB/s", r.rate / GB, "rate_gbps");
		fig(c, "GB", r.recovered_bytes / GB, "recovered_gb");
		fig(c, "", r.saturated, "saturated");
		fig(c, "s", r.full_s, "full_recovery_s");
	}
	return 0;
}
