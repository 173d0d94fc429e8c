/*
 * QoS per QD (METHODOLOGY 4.5: the QoS table per QD the reviewer only drew
 * internally, because per-I/O logs made it slow).  Every I/O was counted
 * into the stored histograms, so each point is a lookup: latency at 99 ...
 * 99.9999 % vs QD on log axes.  A percentile is drawn only where the
 * point's I/O count supports it (at least one I/O beyond it), the same
 * rule as the tables.
 */
#include "report/report_int.h"

#include <math.h>
#include <string.h>

static const double qos_pcts[] = { 99, 99.9, 99.99, 99.999, 99.9999 };
#define NPCT (sizeof(qos_pcts) / sizeof(qos_pcts[0]))
/* The percentile the device comparison shows: a datasheet's QoS figure. */
#define CMP_PCT 99.99

/* Reads when the workload read anything (the latency a mixed load's
   reader waits for), else writes. */
static const struct rpt_lat *qos_lat(const struct rpt_workload *w)
{
	return w->ios[0] ? &w->lat[0] : &w->lat[1];
}

static bool mixed(const struct rpt_workload *w)
{
	return w->spec.read_pct > 0 && w->spec.read_pct < 100;
}

static int add_point(struct chart_series *s, const struct rpt_workload *w,
		     double p, struct sb_err *e)
{
	const struct rpt_lat *l = qos_lat(w);
	if (w->spec.qd <= 0 || !qos_supported(l, p))
		return 0;
	return series_add(s, w->spec.qd, rpt_lat_at(l, p), NULL, e);
}

static void init_chart(struct chart *c, struct rctx *x, const char *step,
		       const char *label, const char *what, const char *title,
		       bool mix)
{
	char name[96], stem[96];
	bufprintf(stem, sizeof(stem), "%s-%s", label, what);
	chart_name(x, name, sizeof(name), step, stem);
	chart_init(c, name, title, CHART_LINES);
	chart_axis_set(&c->x, "Queue depth", true);
	c->x.pow2_ticks = true;
	chart_axis_set(&c->y, mix ? "Read latency (µs)" : "Latency (µs)", true);
}

/*
 * One sentence under the chart: the DUT's 99.99 % at the lowest and the
 * highest QD that have enough I/Os for it; nothing when fewer than two do.
 */
static void qos_para(struct rctx *x, const char *label,
		     const struct rpt_workload *const *w, size_t n)
{
	const struct rpt_workload *lo = NULL, *hi = NULL;
	for (size_t k = 0; k < n; k++)
		if (w[k]->spec.qd > 0 && qos_supported(qos_lat(w[k]), CMP_PCT)) {
			if (!lo)
				lo = w[k];
			hi = w[k];
		}
	if (!lo || lo == hi)
		return;
	char b1[32], b2[32];
	page_para(x->pg.body, "%s, %g %% latency%s: %s at QD%d, %s at QD%d.",
		  label, CMP_PCT, mixed(lo) ? " of reads" : "",
		  fmt_lat(rpt_lat_at(qos_lat(lo), CMP_PCT), b1, sizeof(b1)),
		  lo->spec.qd,
		  fmt_lat(rpt_lat_at(qos_lat(hi), CMP_PCT), b2, sizeof(b2)),
		  hi->spec.qd);
}

int qos_qd_charts(struct rctx *x, const char *step, const char *label,
		  const struct rpt_workload *const *w, size_t n)
{
	if (!n)
		return 0;
	struct chart c;
	char title[192];
	bool mix = mixed(w[0]);
	bufprintf(title, sizeof(title), "%s (%s): QoS per QD, latency at 99 "
		  "... 99.9999 %%%s", label, x->runs[0].label,
		  mix ? " (reads)" : "");
	init_chart(&c, x, step, label, "qos", title, mix);
	int rc = 0;
	for (size_t i = 0; i < NPCT && !rc; i++) {
		char st[32];
		bufprintf(st, sizeof(st), "%g %%", qos_pcts[i]);
		struct chart_series *s = chart_add_series(&c, st, x->e);
		if (!s)
			rc = -1;
		for (size_t k = 0; s && k < n && !rc; k++)
			rc = add_point(s, w[k], qos_pcts[i], x->e);
	}
	if (!rc)
		rc = rpt_chart(x, &c);
	chart_free(&c);
	if (rc)
		return rc;
	qos_para(x, label, w, n);
	if (x->nruns < 2)
		return 0;

	bufprintf(title, sizeof(title), "%s: %g %% latency per QD, every "
		  "device%s", label, CMP_PCT, mix ? " (reads)" : "");
	init_chart(&c, x, step, label, "qos-p9999", title, mix);
	for (size_t r = 0; r < x->nruns && !rc; r++) {
		struct chart_series *s = chart_add_series(&c, x->runs[r].label,
							  x->e);
		if (!s)
			rc = -1;
		for (size_t k = 0; s && k < n && !rc; k++) {
			const struct rpt_workload *v = match_run(x, r, w[k]);
			if (v)
				rc = add_point(s, v, CMP_PCT, x->e);
		}
	}
	if (!rc)
		rc = rpt_chart(x, &c);
	chart_free(&c);
	return rc;
}
