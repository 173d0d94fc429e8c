/*
 * Preconditioning (METHODOLOGY 3.4 and 4.1): every 100 ms sample as a
 * scatter, IOPS (RND) or bandwidth (SEQ) against time and against drive
 * writes, and latency against time.  Marker opacity and the clipping of
 * time and latency axes are report options (the reviewer clips x to
 * 2500 s and latency to 50 ms).  The steady-state verdict is the suite's
 * and is quoted from its findings when stored.
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
		char what[96], title[192], who[160];
		/* "RND preconditioning", or with the workload when several. */
		if (n == 1)
			bufprintf(who, sizeof(who), "%s", step_title(step));
		else
			bufprintf(who, sizeof(who), "%s, %s", step_title(step),
				  wl[i]->label);
		struct tl_spec t = { step, what, title, NULL,
				     rnd ? TL_IOPS : TL_BW, TL_TIME,
				     CHART_SCATTER, false };
		bufprintf(what, sizeof(what), "%s-time", wl[i]->name);
		bufprintf(title, sizeof(title), "%s: %s per 100 ms sample vs time",
			 who, rnd ? "IOPS" : "bandwidth");
		if (timeline_chart(x, &t, per, x->e))
			return -1;
		bufprintf(what, sizeof(what), "%s-dw", wl[i]->name);
		bufprintf(title, sizeof(title), "%s: %s per 100 ms sample vs "
			 "drive writes", who, rnd ? "IOPS" : "bandwidth");
		t.axis = TL_DRIVE_WRITES;
		if (timeline_chart(x, &t, per, x->e))
			return -1;
		bufprintf(what, sizeof(what), "%s-lat-time", wl[i]->name);
		bufprintf(title, sizeof(title), "%s: mean latency per 100 ms "
			 "sample vs time", who);
		t.axis = TL_TIME;
		t.col = TL_LAT_MEAN;
		if (timeline_chart(x, &t, per, x->e))
			return -1;
		bufprintf(what, sizeof(what), "%s-lat-dw", wl[i]->name);
		bufprintf(title, sizeof(title), "%s: mean latency per 100 ms "
			 "sample vs drive writes", who);
		t.axis = TL_DRIVE_WRITES;
		if (timeline_chart(x, &t, per, x->e))
			return -1;
		device_query_note(x, per);
	}
	return 0;
}
