/*
 * Fill drive (METHODOLOGY 3.2): each pass's bandwidth against GB written
 * (the overlay that lines devices up by where their cache ends) and against
 * time, latency against time, and the ranked figures: the mean of the
 * 100 ms samples per pass and pass 1's 1st percentile.  The headline is
 * the fill analysis' reading of each pass (analysis/fill.h): cache size and
 * speed, stages, levels, true average beside the mean of samples.
 */
#include "analysis/fill.h"
#include "report/report_int.h"
#include "report/timeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PASSES 16

/* The analysis of one pass; false (and a zeroed result) if it failed. */
static bool analyze(const struct rpt_workload *w, struct fill_result *res)
{
	memset(res, 0, sizeof(*res));
	size_t n;
	struct trace_pt *t = rpt_trace(w, &n);
	if (!t)
		return false;
	struct fill_params p;
	struct sb_err e;
	fill_params_default(&p);
	int rc = fill_analyze(t, n, &p, res, &e);
	free(t);
	return rc == 0;
}

/* The workloads that wrote, in order: the passes. */
static size_t passes(const struct rpt_run *r, const char *step,
		     const struct rpt_workload **out)
{
	const struct rpt_workload *wl[256];
	size_t n = step_workloads(r, step, wl, 256), k = 0;
	for (size_t i = 0; i < n && k < MAX_PASSES; i++)
		if (wl[i]->bytes[1] > 0)
			out[k++] = wl[i];
	return k;
}

/*
 * "Pass 1: SLC cache 677 GB at 14.1 GB/s; after it 3.75 GB/s, then
 * 3.89 GB/s from 677 GB; levels 3980, 2120 MB/s. ..."  Every number is the
 * analysis' (analysis/fill.h); nothing is said that it did not find.
 */
static void pass_headline(struct rctx *x, const char *step, int pass,
			  const struct fill_result *f)
{
	char text[2048], b[5][48];
	size_t u = 0, len = sizeof(text);
	u += bufprintf(text + u, len - u, "Pass %d: ", pass);
	if (f->has_cache) {
		u += bufprintf(text + u, len - u, "SLC cache %s at %s",
			       fmt_size(x, f->cache_bytes, b[0], 48),
			       fmt_rate(x, f->cache_speed, b[1], 48));
		if (f->cache_start_bytes > 0)
			u += bufprintf(text + u, len - u, " from %s",
				       fmt_size(x, f->cache_start_bytes, b[0], 48));
		if (f->cache_phases > 1)
			u += bufprintf(text + u, len - u, ", back %u more "
				       "time%s", f->cache_phases - 1,
				       f->cache_phases > 2 ? "s" : "");
		u += bufprintf(text + u, len - u, "; ");
		u += bufprintf(text + u, len - u, "after it %s",
			       fmt_rate(x, f->post.mean, b[0], 48));
	} else {
		u += bufprintf(text + u, len - u, "no SLC cache found (no "
			       "sustained drop); %s", fmt_rate(x, f->post.mean,
							       b[0], 48));
	}
	size_t first = f->has_cache ? f->cache_stage + 1 : 0;
	if (f->nstages > first + 1) {
		u += bufprintf(text + u, len - u, " in %zu stages:",
			       f->nstages - first);
		for (size_t i = first; i < f->nstages && i < first + 5; i++)
			u += bufprintf(text + u, len - u, "%s %s from %s",
				       i > first ? "," : "",
				       fmt_rate(x, f->stages[i].mean, b[0], 48),
				       fmt_size(x, f->stages[i].start_bytes,
						b[1], 48));
	}
	if (f->nlevels > 1) {
		u += bufprintf(text + u, len - u, "; levels");
		for (size_t i = 0; i < f->nlevels; i++)
			u += bufprintf(text + u, len - u, "%s %s (%.0f %% of "
				       "the time)", i ? "," : "",
				       fmt_rate(x, f->levels[i].rate, b[0], 48),
				       100 * f->levels[i].time_share);
	}
	u += bufprintf(text + u, len - u, ". Whole pass: %s in %.0f s, true "
		       "average %s (mean of samples %s), 1st percentile %s, "
		       "minimum %s; %.1f %% of the time below half the average.",
		       fmt_size(x, f->total_bytes, b[0], 48), f->total_s,
		       fmt_rate(x, f->true_avg, b[1], 48),
		       fmt_rate(x, f->mean_of_samples, b[2], 48),
		       fmt_rate(x, f->p1, b[3], 48),
		       fmt_rate(x, f->min, b[4], 48), 100 * f->below_half_share);
	headline(x, step, "%s", text);
}

int sec_fill(struct rctx *x, const char *step)
{
	const struct rpt_workload *pw[RPT_MAX_RUNS][MAX_PASSES];
	size_t np[RPT_MAX_RUNS];
	for (size_t r = 0; r < x->nruns; r++)
		np[r] = passes(&x->runs[r], step, pw[r]);
	if (!np[0]) {
		page_para(x->pg.body, "No fill pass wrote anything.");
		return 0;
	}
	char ylab[64];
	bufprintf(ylab, sizeof(ylab), "Bandwidth (%s)", x->bw_unit);
	double p1_of_pass1[RPT_MAX_RUNS];
	for (size_t r = 0; r < RPT_MAX_RUNS; r++)
		p1_of_pass1[r] = NAN;

	for (size_t k = 0; k < np[0]; k++) {
		const struct rpt_workload *per[RPT_MAX_RUNS];
		double mean[RPT_MAX_RUNS];
		for (size_t r = 0; r < x->nruns; r++) {
			per[r] = k < np[r] ? pw[r][k] : NULL;
			mean[r] = NAN;
			if (!per[r])
				continue;
			struct fill_result f;
			if (!analyze(per[r], &f))
				continue;
			mean[r] = f.mean_of_samples / x->bw_div;
			if (k == 0)
				p1_of_pass1[r] = f.p1 / x->bw_div;
			if (r == 0)
				pass_headline(x, step, (int)k + 1, &f);
		}
		char h[64], what[64], title[160];
		bufprintf(h, sizeof(h), "Pass %zu", k + 1);
		page_h3(&x->pg, h);
		struct tl_spec t = { step, what, title, NULL, TL_BW, TL_WRITTEN,
				     CHART_LINES, false };
		bufprintf(what, sizeof(what), "pass%zu-bw-written", k + 1);
		bufprintf(title, sizeof(title), "Fill pass %zu: bandwidth vs "
			 "amount written", k + 1);
		if (timeline_chart(x, &t, per, x->e))
			return -1;
		bufprintf(what, sizeof(what), "pass%zu-bw-time", k + 1);
		bufprintf(title, sizeof(title), "Fill pass %zu: bandwidth vs "
			 "time", k + 1);
		t.axis = TL_TIME;
		if (timeline_chart(x, &t, per, x->e))
			return -1;
		bufprintf(what, sizeof(what), "pass%zu-lat-time", k + 1);
		bufprintf(title, sizeof(title), "Fill pass %zu: mean latency "
			 "vs time", k + 1);
		t.col = TL_LAT_MEAN;
		if (timeline_chart(x, &t, per, x->e))
			return -1;
		device_query_note(x, per);

		bufprintf(what, sizeof(what), "pass%zu-mean", k + 1);
		bufprintf(title, sizeof(title), "Fill pass %zu: mean of the "
			 "interval samples", k + 1);
		if (rank_bars(x, step, what, title, ylab, mean, 0, NULL))
			return -1;
	}
	return rank_bars(x, step, "pass1-p1", "Fill pass 1: 1st percentile "
			 "of the interval samples", ylab, p1_of_pass1, 0, NULL);
}
