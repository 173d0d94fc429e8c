/*
 * Preconditioning (METHODOLOGY 3.4 and 4.1): every sample (100 ms) as a
 * scatter, IOPS (RND) or bandwidth (SEQ) against time and against drive
 * writes, and latency against time.  Marker opacity and the clipping of
 * time and latency axes are report options.  RND preconditioning comes in
 * the four views the reviewer publishes: the whole run, x clipped (at
 * --clip-time, else his 2500 s), latency clipped too (at --clip-latency,
 * else his 50 ms), and IOPS with fainter markers (a quarter of
 * --opacity) so the dense band shows its gaps.  Per device, the maximum
 * latency of any I/O during each workload (the histogram's exact max).
 * The steady-state verdict is the suite's, quoted from its findings.
 */
#include "analysis/trace.h"
#include "report/report_int.h"
#include "report/timeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A figure the suite stored for this step, or NULL. */
static const struct rpt_metric *fig(const struct rctx *x, const char *step,
				    const char *key)
{
	char k[160];
	bufprintf(k, sizeof(k), "%s.%s", step, key);
	return rpt_metric(&x->runs[0], k);
}

/* A rate figure ("..._iops" or "..._mbps") as text. */
static const char *fig_rate(const struct rctx *x, const struct rpt_metric *m,
			    bool iops, char *buf, size_t len)
{
	return iops ? fmt_iops(m->value, buf, len)
		    : fmt_rate(x, m->value * 1e6, buf, len);
}

/*
 * What the suite's findings say about steady state and bursts
 * (docs/suite.md, "Figures"): quoted, never re-derived; nothing when the
 * run has no findings.
 */
static void steady_text(const struct rctx *x, const char *step, bool iops,
			char *out, size_t len)
{
	const char *unit = iops ? "iops" : "mbps";
	char k[64], b[4][48];
	size_t u = 0;
	out[0] = '\0';
	const struct rpt_metric *reached = fig(x, step, "steady_reached");
	const struct rpt_metric *snia = fig(x, step, "rule_snia");
	const struct rpt_metric *dev = fig(x, step, "rule_fio_deviation");
	const struct rpt_metric *ivl = fig(x, step, "steady_interval_s");
	const struct rpt_metric *win = fig(x, step, "steady_window_s");
	const struct rpt_metric *lim = fig(x, step, "steady_limit_pct");
	char how[160] = "";
	if (ivl && win && lim)
		bufprintf(how, sizeof how, ": %s, %.0f s window of %.3g s samples, "
			  "limit %.3g %%", iops ? "IOPS" : "bandwidth", win->value,
			  ivl->value, lim->value);
	const struct rpt_metric *ss_s = fig(x, step, "steady_s");
	const struct rpt_metric *ss_dw = fig(x, step, "steady_drive_writes");
	bufprintf(k, sizeof(k), "steady_%s", unit);
	const struct rpt_metric *ss_v = fig(x, step, k);
	if (reached && reached->value > 0 && ss_s && ss_dw && ss_v)
		u += bufprintf(out + u, len - u, " Steady state (%s rule%s) after "
			       "%.0f s, %.2f drive writes, at %s.",
			       snia && snia->value > 0 ? "SNIA" :
			       dev && dev->value > 0 ? "fio mean-deviation" : "fio slope", how,
			       ss_s->value, ss_dw->value,
			       fig_rate(x, ss_v, iops, b[0], 48));
	else if (reached)
		u += bufprintf(out + u, len - u, " Steady state %s.",
			       reached->value > 0 ? "reached" : "not reached");
	const struct rpt_metric *nb = fig(x, step, "bursts.count");
	bufprintf(k, sizeof(k), "bursts.height_%s", unit);
	const struct rpt_metric *h = fig(x, step, k);
	bufprintf(k, sizeof(k), "bursts.base_%s", unit);
	const struct rpt_metric *base = fig(x, step, k);
	const struct rpt_metric *d = fig(x, step, "bursts.duration_s");
	const struct rpt_metric *p = fig(x, step, "bursts.period_s");
	const struct rpt_metric *gb = fig(x, step, "bursts.gb");
	if (nb && nb->value > 0 && h && base && d && p && gb)
		u += bufprintf(out + u, len - u, " %.0f recurring bursts from "
			       "%s to %s for %.2f s every %.1f s, %.2f GB each.",
			       nb->value, fig_rate(x, base, iops, b[1], 48),
			       fig_rate(x, h, iops, b[2], 48), d->value, p->value,
			       gb->value);
	else if (nb && nb->value == 0)
		u += bufprintf(out + u, len - u, " No recurring bursts.");
	bufprintf(k, sizeof(k), "steady_periods_%s", unit);
	const struct rpt_metric *per = fig(x, step, k);
	if (per && ss_v && reached && reached->value > 0)
		u += bufprintf(out + u, len - u, " Over whole burst periods to the "
			       "steady window's end: %s (the window's own mean is "
			       "the phase of the bursts it caught).",
			       fig_rate(x, per, iops, b[3], 48));
	static const char *const at[] = { "0_2", "1_0", "1_5" };
	static const char *const dw[] = { "0.2", "1.0", "1.5" };
	for (int i = 0; i < 3; i++) {
		bufprintf(k, sizeof(k), "avg_%s_at_dw_%s", unit, at[i]);
		const struct rpt_metric *m = fig(x, step, k);
		if (m)
			u += bufprintf(out + u, len - u, "%s %s at %s",
				       i ? "," : " Average", fig_rate(x, m, iops,
								      b[3], 48),
				       dw[i]);
	}
	if (u && out[u - 1] != '.')
		bufprintf(out + u, len - u, " drive writes.");
}

/* The reviewer's clips of RND preconditioning. */
#define REVIEW_CLIP_TIME_S 2500.0
#define REVIEW_CLIP_LATENCY_MS 50.0

/* The longest of the runs' workloads, in seconds of samples. */
static double longest_s(const struct rctx *x,
			const struct rpt_workload *const *per)
{
	double t = 0;
	for (size_t r = 0; r < x->nruns; r++)
		if (per[r] && per[r]->npts && per[r]->pts[per[r]->npts - 1].t_s > t)
			t = per[r]->pts[per[r]->npts - 1].t_s;
	return t;
}

/* RND preconditioning's clipped and faint views (the full ones are drawn
   by the caller). */
static int rnd_views(struct rctx *x, const char *step,
		     const struct rpt_workload *w,
		     const struct rpt_workload *const *per, const char *who)
{
	double clip_t = x->o->clip_time_s > 0 ? x->o->clip_time_s
					      : REVIEW_CLIP_TIME_S;
	double clip_l = x->o->clip_latency_ms > 0 ? x->o->clip_latency_ms
						  : REVIEW_CLIP_LATENCY_MS;
	double faint = x->o->opacity / 4;
	char what[96], title[192], ct[32], cl[32], sw[48];
	sample_words(x, sw, sizeof sw);
	page_num(clip_t, -1, ct, sizeof(ct));
	page_num(clip_l, -1, cl, sizeof(cl));
	struct tl_spec t = { .step = step, .what = what, .title = title,
			     .col = TL_IOPS, .axis = TL_TIME, .kind = CHART_SCATTER,
			     .clip_time_s = clip_t, .clip_latency_ms = -1 };
	if (longest_s(x, per) <= clip_t) {
		page_para(x->pg.body, "%s: every run is shorter than %s s, so "
			  "the views with time clipped at %s s would be the "
			  "full ones; the latency view clipped at %s ms and the "
			  "fainter one are over the whole run.", who, ct, ct, cl);
		t.clip_time_s = -1;
	} else {
		bufprintf(what, sizeof(what), "%s-time-clip", w->name);
		bufprintf(title, sizeof(title), "%s: IOPS per %s sample, "
			  "first %s s", who, sw, ct);
		if (timeline_chart(x, &t, per, x->e))
			return -1;
		bufprintf(what, sizeof(what), "%s-lat-time-clip", w->name);
		bufprintf(title, sizeof(title), "%s: mean latency per %s "
			  "sample, first %s s", who, sw, ct);
		t.col = TL_LAT_MEAN;
		if (timeline_chart(x, &t, per, x->e))
			return -1;
	}
	char first[48] = "";
	if (t.clip_time_s > 0)
		bufprintf(first, sizeof(first), ", first %s s", ct);
	bufprintf(what, sizeof(what), "%s-lat-time-clip-lat", w->name);
	bufprintf(title, sizeof(title), "%s: mean latency per %s sample%s, "
		  "latency axis cut at %s ms", who, sw, first, cl);
	t.col = TL_LAT_MEAN;
	t.clip_latency_ms = clip_l;
	if (timeline_chart(x, &t, per, x->e))
		return -1;
	bufprintf(what, sizeof(what), "%s-time-faint", w->name);
	bufprintf(title, sizeof(title), "%s: IOPS per %s sample%s, fainter "
		  "markers (a quarter of the opacity)", who, sw, first);
	t.col = TL_IOPS;
	t.clip_latency_ms = 0;
	t.opacity = faint;
	return timeline_chart(x, &t, per, x->e);
}

/* The maximum latency of any I/O (either direction) during w, in ms. */
static double max_latency_ms(const struct rpt_workload *w)
{
	double m = NAN;
	for (int d = 0; w && d < 2; d++)
		if (w->lat[d].count && !(w->lat[d].max_us / 1000 <= m))
			m = w->lat[d].max_us / 1000;
	return m;
}

int sec_precond(struct rctx *x, const char *step)
{
	const struct rpt_workload *wl[256];
	size_t n = step_workloads(&x->runs[0], step, wl, 256);
	if (!n) {
		page_para(x->pg.body, "No preconditioning workload was stored.");
		return 0;
	}
	double written = 0, secs = 0;
	for (size_t i = 0; i < n; i++) {
		written += (double)wl[i]->bytes[1];
		secs += wl[i]->measured_s;
	}
	char b[48], dw[64] = "";
	if (x->runs[0].capacity)
		bufprintf(dw, sizeof(dw), " (%.2f drive writes)",
			 written / (double)x->runs[0].capacity);
	const struct rpt_workload *last = wl[n - 1];
	bool iops = strcmp(last->spec.pattern, "seq") != 0;
	char endv[48];
	size_t ns = 0;
	double *v = sample_values(last, iops, &ns);
	double tailmean = NAN;
	if (v && ns) {
		/* The last 30 s of samples: where steady state is judged. */
		size_t from = ns > 300 ? ns - 300 : 0;
		tailmean = stat_mean(v + from, ns - from);
	}
	free(v);
	if (iops)
		fmt_iops(tailmean, endv, sizeof(endv));
	else
		fmt_rate(x, tailmean, endv, sizeof(endv));
	char more[1024];
	steady_text(x, step, iops, more, sizeof(more));
	headline(x, step, "Wrote %s%s in %.0f s; the last 30 s of samples "
		 "average %s.%s", fmt_size(x, written, b, sizeof(b)), dw, secs,
		 endv, more);

	for (size_t i = 0; i < n; i++) {
		const struct rpt_workload *per[RPT_MAX_RUNS];
		match_runs(x, wl[i], per);
		bool rnd = strcmp(wl[i]->spec.pattern, "seq") != 0;
		char what[96], title[192], who[160], sw[48];
		sample_words(x, sw, sizeof sw);
		/* "RND preconditioning", or with the workload when several. */
		if (n == 1)
			bufprintf(who, sizeof(who), "%s", step_title(step));
		else
			bufprintf(who, sizeof(who), "%s, %s", step_title(step),
				  wl[i]->label);
		/* RND: these are the full views (the clipped ones follow);
		   SEQ: as the report's options say. */
		struct tl_spec t = { .step = step, .what = what, .title = title,
				     .col = rnd ? TL_IOPS : TL_BW, .axis = TL_TIME,
				     .kind = CHART_SCATTER,
				     .clip_time_s = rnd ? -1 : 0,
				     .clip_latency_ms = rnd ? -1 : 0 };
		bufprintf(what, sizeof(what), "%s-time", wl[i]->name);
		bufprintf(title, sizeof(title), "%s: %s per %s sample vs time",
			 who, rnd ? "IOPS" : "bandwidth", sw);
		if (timeline_chart(x, &t, per, x->e))
			return -1;
		bufprintf(what, sizeof(what), "%s-dw", wl[i]->name);
		bufprintf(title, sizeof(title), "%s: %s per %s sample vs "
			 "drive writes", who, rnd ? "IOPS" : "bandwidth", sw);
		t.axis = TL_DRIVE_WRITES;
		if (timeline_chart(x, &t, per, x->e))
			return -1;
		bufprintf(what, sizeof(what), "%s-lat-time", wl[i]->name);
		bufprintf(title, sizeof(title), "%s: mean latency per %s "
			 "sample vs time", who, sw);
		t.axis = TL_TIME;
		t.col = TL_LAT_MEAN;
		if (timeline_chart(x, &t, per, x->e))
			return -1;
		bufprintf(what, sizeof(what), "%s-lat-dw", wl[i]->name);
		bufprintf(title, sizeof(title), "%s: mean latency per %s "
			 "sample vs drive writes", who, sw);
		t.axis = TL_DRIVE_WRITES;
		if (timeline_chart(x, &t, per, x->e))
			return -1;
		if (rnd && rnd_views(x, step, wl[i], per, who))
			return -1;
		device_query_note(x, per);
		double mx[RPT_MAX_RUNS];
		for (size_t r = 0; r < x->nruns; r++)
			mx[r] = max_latency_ms(per[r]);
		bufprintf(what, sizeof(what), "%s-max-latency", wl[i]->name);
		bufprintf(title, sizeof(title), "%s: maximum latency of any I/O",
			  who);
		if (rank_bars(x, step, what, title, "Maximum latency (ms)", mx,
			      0, NULL))
			return -1;
	}
	return 0;
}
