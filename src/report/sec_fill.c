/*
 * Fill drive (METHODOLOGY 3.2): each pass's bandwidth against GB written
 * (the overlay that lines devices up by where their cache ends) and against
 * time, latency against time; the DUT's pass alone with what the analysis
 * found marked on it (cache level and where the cache ends and folding
 * begins, later stages, post-cache levels); the ranked figures: the mean
 * of the 100 ms samples per pass, its minimum sample, pass 1's 1st
 * percentile; and per device the true average beside the averages a tool
 * shows (mean of samples, average over the amount written) and the share
 * of time below half the average (the magazine review's point).  The
 * headline is the fill analysis' reading of each pass (analysis/fill.h).
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

/* The DUT's pass with its cache, stages and levels marked. */
static int levels_chart(struct rctx *x, const char *step, size_t k,
			const struct rpt_workload *w, const struct fill_result *f)
{
	struct chart_mark m[2 + FILL_MAX_STAGES + FILL_MAX_LEVELS];
	size_t n = 0;
	char b[48];
	if (f->has_cache) {
		m[n] = (struct chart_mark){ false, f->cache_speed / x->bw_div, "" };
		bufprintf(m[n].label, sizeof(m[n].label), "SLC cache %s",
			  fmt_rate(x, f->cache_speed, b, 48));
		n++;
		double end = f->cache_start_bytes + f->cache_bytes;
		m[n] = (struct chart_mark){ true, end / x->size_div, "" };
		bufprintf(m[n].label, sizeof(m[n].label), "cache ends at %s: "
			  "folding", fmt_size(x, end, b, 48));
		n++;
	}
	/* Stages after the cache, where each begins. */
	for (size_t i = f->has_cache ? f->cache_stage + 2 : 1;
	     i < f->nstages && n < 2 + FILL_MAX_STAGES; i++) {
		m[n] = (struct chart_mark){ true, f->stages[i].start_bytes /
						  x->size_div, "" };
		bufprintf(m[n].label, sizeof(m[n].label), "stage %s",
			  fmt_rate(x, f->stages[i].mean, b, 48));
		n++;
	}
	for (size_t i = 0; i < f->nlevels; i++) {
		m[n] = (struct chart_mark){ false, f->levels[i].rate / x->bw_div, "" };
		bufprintf(m[n].label, sizeof(m[n].label), "level %s (%.0f %% "
			  "of the time after the cache)",
			  fmt_rate(x, f->levels[i].rate, b, 48),
			  100 * f->levels[i].time_share);
		n++;
	}
	const struct rpt_workload *per[RPT_MAX_RUNS] = { w };
	char what[64], title[192];
	bufprintf(what, sizeof(what), "pass%zu-levels", k + 1);
	bufprintf(title, sizeof(title), "Fill pass %zu, %s: cache, stages and "
		  "levels found", k + 1, x->runs[0].label);
	struct tl_spec t = { .step = step, .what = what, .title = title,
			     .col = TL_BW, .axis = TL_WRITTEN, .kind = CHART_LINES,
			     .dut_only = true, .marks = m, .nmarks = n };
	return timeline_chart(x, &t, per, x->e);
}

/*
 * Per device: the true average (bytes / time) beside what tools show --
 * the mean of the 100 ms samples and the average over the amount written
 * (a dirty-test tool's speed-vs-position curve) -- and the share of time
 * below half the true average; as a table and as grouped bars.
 */
static int averages(struct rctx *x, const char *step, size_t k,
		    const struct fill_result *f, const bool *ok)
{
	FILE *o = x->pg.body;
	char cap[160];
	bufprintf(cap, sizeof(cap), "Fill pass %zu: true average and tool "
		  "averages (%s)", k + 1, x->bw_unit);
	page_table_begin(o, &x->pg, cap, "Device", "True average (bytes / "
			 "time)", "Mean of the samples", "Average over the "
			 "amount written (dirty-test tool)", "Tool over true (%)",
			 "Time below half the average (%)", "Minimum sample",
			 (const char *)NULL);
	for (size_t r = 0; r < x->nruns; r++) {
		page_tr(o);
		page_td(o, "%s", x->runs[r].label);
		const char *why = "no fill pass";
		page_td_num(o, ok[r] ? f[r].true_avg / x->bw_div : NAN, -1, why);
		page_td_num(o, ok[r] ? f[r].mean_of_samples / x->bw_div : NAN, -1, why);
		page_td_num(o, ok[r] ? f[r].position_avg / x->bw_div : NAN, -1, why);
		page_td_num(o, ok[r] && f[r].true_avg > 0
			    ? 100 * f[r].position_avg / f[r].true_avg : NAN, 1, why);
		page_td_num(o, ok[r] ? 100 * f[r].below_half_share : NAN, 1, why);
		page_td_num(o, ok[r] ? f[r].min / x->bw_div : NAN, -1, why);
	}
	page_table_end(o);

	struct chart c;
	char name[96], what[64], title[192], ylab[64];
	bufprintf(what, sizeof(what), "pass%zu-averages", k + 1);
	chart_name(x, name, sizeof(name), step, what);
	bufprintf(title, sizeof(title), "Fill pass %zu: true average vs the "
		  "averages tools show", k + 1);
	chart_init(&c, name, title, CHART_BARS);
	chart_axis_set(&c.x, "Device", false);
	bufprintf(ylab, sizeof(ylab), "Average (%s)", x->bw_unit);
	chart_axis_set(&c.y, ylab, false);
	static const char *const kinds[] = {
		"True average (bytes / time)", "Mean of the samples",
		"Average over the amount written (dirty-test tool)",
	};
	int rc = 0;
	for (int j = 0; j < 3 && !rc; j++) {
		struct chart_series *s = chart_add_series(&c, kinds[j], x->e);
		if (!s)
			rc = -1;
		else	/* colours no device has (devices take 0, 1, 2 ...) */
			s->colour = 7 + j;
		for (size_t r = 0; s && r < x->nruns && !rc; r++) {
			if (!ok[r])
				continue;
			double v = j == 0 ? f[r].true_avg : j == 1
				   ? f[r].mean_of_samples : f[r].position_avg;
			rc = series_add(s, (double)r, v / x->bw_div,
					x->runs[r].label, x->e);
		}
	}
	if (!rc)
		rc = rpt_chart(x, &c);
	chart_free(&c);
	return rc;
}

/*
 * The views of pass k that read the analysis of every device: the DUT's
 * levels chart, the minimum 100 ms sample ranked, the averages.
 */
static int pass_views(struct rctx *x, const char *step, size_t k,
		      const struct rpt_workload *const *per)
{
	struct fill_result fr[RPT_MAX_RUNS];
	bool ok[RPT_MAX_RUNS] = { false };
	double minimum[RPT_MAX_RUNS];
	for (size_t r = 0; r < x->nruns; r++) {
		ok[r] = per[r] && analyze(per[r], &fr[r]);
		minimum[r] = ok[r] ? fr[r].min / x->bw_div : NAN;
	}
	if (ok[0] && levels_chart(x, step, k, per[0], &fr[0]))
		return -1;
	char what[64], title[160], ylab[64];
	bufprintf(ylab, sizeof(ylab), "Bandwidth (%s)", x->bw_unit);
	bufprintf(what, sizeof(what), "pass%zu-min", k + 1);
	char sw[48];
	bufprintf(title, sizeof(title), "Fill pass %zu: minimum %s sample",
		  k + 1, sample_words(x, sw, sizeof sw));
	if (rank_bars(x, step, what, title, ylab, minimum, 0, NULL))
		return -1;
	return averages(x, step, k, fr, ok);
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
		struct tl_spec t = { .step = step, .what = what, .title = title,
				     .col = TL_BW, .axis = TL_WRITTEN,
				     .kind = CHART_LINES };
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
		if (pass_views(x, step, k, per))
			return -1;

		bufprintf(what, sizeof(what), "pass%zu-mean", k + 1);
		bufprintf(title, sizeof(title), "Fill pass %zu: mean of the "
			 "interval samples", k + 1);
		if (rank_bars(x, step, what, title, ylab, mean, 0, NULL))
			return -1;
	}
	return rank_bars(x, step, "pass1-p1", "Fill pass 1: 1st percentile "
			 "of the interval samples", ylab, p1_of_pass1, 0, NULL);
}
