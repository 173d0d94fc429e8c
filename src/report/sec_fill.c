/*
 * Fill drive (METHODOLOGY 3.2): each pass's bandwidth against GB written
 * (the overlay that lines devices up by where their cache ends) and against
 * time, latency against time, and the ranked figures: the mean of the
 * 100 ms samples per pass and pass 1's 1st percentile.  The headline states
 * only what the samples show: amount, time, true average beside the mean of
 * samples, low percentile, minimum, time spent below half the average;
 * cache size and stages come from the analysis' findings when stored.
 */
#include "report/report_int.h"
#include "report/timeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PASSES 16

struct pass_stats {
	double bytes, secs;
	double true_avg, mean, p1, min, below_half;	/* bytes/s, share */
};

static void pass_stats(const struct rpt_workload *w, struct pass_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->bytes = (double)(w->bytes[0] + w->bytes[1]);
	s->secs = w->measured_s;
	s->true_avg = s->secs > 0 ? s->bytes / s->secs : NAN;
	size_t n;
	double *v = sample_values(w, false, &n);
	if (!v)
		return;
	double below = 0, total = 0;
	for (size_t i = 0, k = 0; i < w->npts; i++) {
		const struct rpt_point *p = &w->pts[i];
		if (p->ramp || p->dur_s <= 0)
			continue;
		total += p->dur_s;
		if (v[k++] < 0.5 * s->true_avg)
			below += p->dur_s;
	}
	s->below_half = total > 0 ? below / total : NAN;
	s->mean = mean_of(v, n);
	s->p1 = quantile_sorted_inplace(v, n, 0.01);
	s->min = n ? v[0] : NAN;
	free(v);
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

static void pass_headline(struct rctx *x, const char *step, int pass,
			  const struct pass_stats *s)
{
	const struct rpt_run *dut = &x->runs[0];
	char key[160], cache[256] = "", b[6][48];
	bufprintf(key, sizeof(key), "%s.pass%d.slc_cache_gb", step, pass);
	const struct rpt_metric *m = rpt_metric(dut, key);
	if (m)
		bufprintf(cache, sizeof(cache), "SLC cache %.0f GB (analysis). ",
			 m->value);
	headline(x, step,
		 "Pass %d: %s%s in %.0f s; true average %s (mean of samples "
		 "%s), 1st percentile %s, minimum %s; %.1f %% of the time "
		 "below half the average.", pass, cache,
		 fmt_size(x, s->bytes, b[0], 48), s->secs,
		 fmt_rate(x, s->true_avg, b[1], 48),
		 fmt_rate(x, s->mean, b[2], 48), fmt_rate(x, s->p1, b[3], 48),
		 fmt_rate(x, s->min, b[4], 48), 100 * s->below_half);
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

	for (size_t k = 0; k < np[0]; k++) {
		const struct rpt_workload *per[RPT_MAX_RUNS];
		double mean[RPT_MAX_RUNS];
		for (size_t r = 0; r < x->nruns; r++) {
			per[r] = k < np[r] ? pw[r][k] : NULL;
			mean[r] = NAN;
			if (!per[r])
				continue;
			struct pass_stats s;
			pass_stats(per[r], &s);
			mean[r] = s.mean / x->bw_div;
			if (k == 0)
				p1_of_pass1[r] = s.p1 / x->bw_div;
			if (r == 0)
				pass_headline(x, step, (int)k + 1, &s);
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

		bufprintf(what, sizeof(what), "pass%zu-mean", k + 1);
		bufprintf(title, sizeof(title), "Fill pass %zu: mean of the "
			 "interval samples", k + 1);
		if (rank_bars(x, step, what, title, ylab, mean, 0, NULL))
			return -1;
		bufprintf(h, sizeof(h), "Pass %zu mean of samples", k + 1);
		struct figure *f = figure_add(x, step_title(step), h, x->bw_unit);
		if (f)
			memcpy(f->v, mean, sizeof(double) * x->nruns);
	}
	struct figure *f = figure_add(x, step_title(step),
				      "Pass 1 1st percentile of samples",
				      x->bw_unit);
	if (f)
		for (size_t r = 0; r < x->nruns; r++)
			f->v[r] = np[r] ? p1_of_pass1[r] : NAN;
	for (size_t r = 0; r < x->nruns; r++)
		if (!np[r])
			p1_of_pass1[r] = NAN;
	return rank_bars(x, step, "pass1-p1", "Fill pass 1: 1st percentile "
			 "of the interval samples", ylab, p1_of_pass1, 0, NULL);
}
