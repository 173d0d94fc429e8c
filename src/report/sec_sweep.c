/*
 * QD sweeps (METHODOLOGY 4.2-4.4: 4-corners and the named workloads).
 * Workloads are grouped by what they do (pattern, block size, read share)
 * and ordered by queue depth.  Per group:
 *   - the "2-in-1" chart: x = MB/s (SEQ) or IOPS (RND), y = p50 latency on
 *     a log axis, one point per QD, points over 1 ms dropped; and the same
 *     with every point;
 *   - consistency per QD (analysis/consistency.h): the value 99.9 % of the
 *     100 ms samples exceed, as a share of their mean (bandwidth for SEQ,
 *     IOPS for RND), y 0-110 %;
 *   - the same from 1 s samples (Intel's datasheet definition), labelled
 *     with its interval; a sweep whose points ran under a second has none;
 *   - QoS per QD (sec_qos.c): latency percentiles 99 ... 99.9999 % vs QD;
 *   - a table per QD: standard deviation, consistency from 100 ms and from
 *     1 s samples (Intel's definition, labelled), QoS percentiles.
 * Mixed workloads plot the read latency: that is what the reader of a
 * mixed load waits for, and the caption says so.
 */
#include "analysis/consistency.h"
#include "report/report_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_GROUPS 16
#define MAX_QDS 64
#define TWO_IN_ONE_CLIP_US 1000.0

struct group {
	char label[64];
	bool iops;		/* RND: IOPS; SEQ: bandwidth */
	const struct rpt_workload *w[MAX_QDS];	/* DUT's, by ascending QD */
	size_t n;
};

static bool same_kind(const struct rpt_spec *a, const struct rpt_spec *b)
{
	return !strcmp(a->pattern, b->pattern) && a->bs == b->bs &&
	       a->read_pct == b->read_pct;
}

static size_t make_groups(const struct rpt_workload *const *wl, size_t n,
			  struct group *g)
{
	size_t ng = 0;
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;
		while (j < ng && !same_kind(&g[j].w[0]->spec, &wl[i]->spec))
			j++;
		if (j == ng) {
			if (ng == MAX_GROUPS)
				continue;
			memset(&g[ng], 0, sizeof(g[ng]));
			spec_label(&wl[i]->spec, g[ng].label,
				   sizeof(g[ng].label));
			if (!g[ng].label[0])
				bufprintf(g[ng].label, sizeof(g[ng].label),
					 "%s", wl[i]->label);
			g[ng].iops = strcmp(wl[i]->spec.pattern, "seq") != 0;
			ng++;
		}
		if (g[j].n < MAX_QDS) {
			/* Insert by QD; a repeated QD keeps the later run. */
			size_t k = g[j].n;
			while (k > 0 && g[j].w[k - 1]->spec.qd > wl[i]->spec.qd) {
				g[j].w[k] = g[j].w[k - 1];
				k--;
			}
			g[j].w[k] = wl[i];
			g[j].n++;
		}
	}
	return ng;
}

static const struct rpt_lat *p50_lat(const struct rpt_workload *w)
{
	return w->ios[0] ? &w->lat[0] : &w->lat[1];
}

static double throughput(const struct rctx *x, const struct group *g,
			 const struct rpt_workload *w)
{
	return g->iops ? rpt_iops(w) : rpt_bw(w) / x->bw_div;
}

/* The analysis' consistency of a point, 100 ms and 1 s views; false if
   it has no measured samples. */
static bool consistency(const struct rpt_workload *w, bool iops,
			struct consistency_result *c)
{
	size_t n;
	struct trace_pt *t = rpt_trace(w, &n);
	struct sb_err e;
	memset(c, 0, sizeof(*c));
	int rc = t ? consistency_analyze(t, n, iops ? TRACE_IOPS : TRACE_BW, 0,
					 c, &e) : -1;
	free(t);
	return rc == 0;
}

/* The consistency score of a point from 100 ms samples, or from 1 s
   samples (NaN when the point ran for less than a second). */
static double consistency_score(const struct rpt_workload *w, bool iops,
				bool coarse)
{
	struct consistency_result c;
	if (!consistency(w, iops, &c))
		return NAN;
	if (coarse)
		return c.coarse.n ? c.coarse.score : NAN;
	return c.fine.score;
}

/* Under a 2-in-1 chart: each stalled point, by device and QD. */
static void stall_notes(struct rctx *x, const struct group *g, bool clip)
{
	for (size_t r = 0; r < x->nruns; r++)
		for (size_t k = 0; k < g->n; k++) {
			const struct rpt_workload *w = match_run(x, r, g->w[k]);
			double s = w ? rpt_stall_window_s(w) : 0;
			if (s > 0)
				page_para(x->pg.body, "%s at QD%d: stalled, no I/O "
					  "completed in the %g s window; %s at 0 %s, "
					  "latency at least the window.",
					  x->runs[r].label, w->spec.qd, s,
					  clip ? "over 1 ms, so only on the all-points "
						 "chart," : "drawn",
					  g->iops ? "IOPS" : x->bw_unit);
		}
}

static int two_in_one(struct rctx *x, const char *step, const struct group *g,
		      bool clip)
{
	struct chart c;
	char name[96], what[96], title[192], xl[64];
	bufprintf(what, sizeof(what), "%s-2in1%s", g->label, clip ? "" : "-all");
	chart_name(x, name, sizeof(name), step, what);
	bufprintf(title, sizeof(title), "%s: %s vs p50 latency per QD%s",
		 g->label, g->iops ? "IOPS" : x->bw_unit,
		 clip ? " (points over 1 ms dropped)" : " (all points)");
	chart_init(&c, name, title, CHART_LINES);
	bufprintf(xl, sizeof(xl), "%s", g->iops ? "IOPS" : x->bw_unit);
	if (!g->iops)
		bufprintf(xl, sizeof(xl), "Bandwidth (%s)", x->bw_unit);
	chart_axis_set(&c.x, xl, false);
	chart_axis_set(&c.y, g->w[0]->spec.read_pct > 0 &&
			     g->w[0]->spec.read_pct < 100
			     ? "p50 read latency (µs)" : "p50 latency (µs)",
		       true);
	int rc = 0;
	for (size_t r = 0; r < x->nruns && !rc; r++) {
		struct chart_series *s = chart_add_series(&c, x->runs[r].label,
							  x->e);
		if (!s)
			rc = -1;
		for (size_t k = 0; k < g->n && !rc; k++) {
			const struct rpt_workload *w = match_run(x, r, g->w[k]);
			if (!w)
				continue;
			double stall_s = rpt_stall_window_s(w);
			/* a stall: 0 IOPS, every I/O waited at least the window */
			double lat = stall_s > 0 ? stall_s * 1e6
						 : rpt_lat_at(p50_lat(w), 50);
			if (clip && lat > TWO_IN_ONE_CLIP_US)
				continue;
			char qd[16];
			bufprintf(qd, sizeof(qd), "QD%d", w->spec.qd);
			rc = series_add(s, throughput(x, g, w), lat,
					w->spec.qd > 0 ? qd : NULL, x->e);
		}
	}
	if (!rc)
		rc = rpt_chart(x, &c);
	chart_free(&c);
	if (!rc)
		stall_notes(x, g, clip);
	return rc;
}

/*
 * Consistency per QD, y fixed to 0-110 %: from the 100 ms samples (the
 * reviewer's figure), or from 1 s samples (Intel's datasheet definition);
 * the title and the file name say which.  RND QD1 is left out: the
 * methodology reads QD1 in the tail-latency step (METHODOLOGY 4.3); its
 * scores stay in the table.
 */
static int consistency_chart(struct rctx *x, const char *step,
			     const struct group *g, bool coarse)
{
	struct chart c;
	char name[96], what[96], title[256], sw[64], ylabel[96];
	bufprintf(what, sizeof(what), "%s-consistency%s", g->label,
		  coarse ? "-1s" : "");
	chart_name(x, name, sizeof(name), step, what);
	/* the fine view is of the samples as stored: 100 ms in the review,
	   10 ms in a miniature */
	if (coarse)
		bufprintf(sw, sizeof(sw), "1 s");
	else
		sample_words(x, sw, sizeof(sw));
	bufprintf(title, sizeof(title), "%s: consistency per QD, %s interval%s "
		 "(99.9 %% of %s %s samples above this share of the mean)", g->label,
		 sw, coarse ? ", Intel's definition" : "", sw,
		 g->iops ? "IOPS" : "bandwidth");
	bufprintf(ylabel, sizeof(ylabel), "Consistency, %s samples (%%)", sw);
	chart_init(&c, name, title, CHART_LINES);
	chart_axis_set(&c.x, "Queue depth", true);
	c.x.pow2_ticks = true;
	chart_axis_set(&c.y, ylabel, false);
	chart_axis_range(&c.y, 0, 110);
	bool qd1_left = false;
	int rc = 0;
	for (size_t r = 0; r < x->nruns && !rc; r++) {
		struct chart_series *s = chart_add_series(&c, x->runs[r].label,
							  x->e);
		if (!s)
			rc = -1;
		for (size_t k = 0; k < g->n && !rc; k++) {
			const struct rpt_workload *w = match_run(x, r, g->w[k]);
			if (w && g->iops && w->spec.qd == 1) {
				qd1_left = true;
				continue;
			}
			double v = w ? consistency_score(w, g->iops, coarse)
				     : NAN;
			if (w && w->spec.qd > 0 && isfinite(v))
				rc = series_add(s, w->spec.qd, v, NULL, x->e);
		}
	}
	size_t drawn = chart_points(&c);
	if (!rc)
		rc = rpt_chart(x, &c);
	chart_free(&c);
	if (!rc && qd1_left && drawn == 0)
		page_para(x->pg.body, "Only QD1 was measured: RND QD1 is read "
			  "in the tail-latency step, not as consistency.");
	else if (!rc && qd1_left)
		page_para(x->pg.body, "RND QD1 is left out of this chart: the "
			  "methodology reads it in the tail-latency step (its "
			  "score is in the table below).");
	return rc;
}

static void group_table(struct rctx *x, const struct group *g)
{
	FILE *f = x->pg.body;
	char cap[192], unit[32], sw[32], sd_head[48], cons_head[48];
	run_sample_words(&x->runs[0], sw, sizeof(sw));
	bufprintf(cap, sizeof(cap), "%s (%s): per QD, from the %s samples "
		 "and the latency histograms", g->label, x->runs[0].label, sw);
	bufprintf(unit, sizeof(unit), "%s", g->iops ? "IOPS" : x->bw_unit);
	bufprintf(sd_head, sizeof(sd_head), "Std dev (%s)", sw);
	bufprintf(cons_head, sizeof(cons_head), "Consistency %% (%s)", sw);
	bool marked = false;
	page_table_begin(f, &x->pg, cap, "QD", unit, sd_head,
			 "CV %", cons_head, "Consistency % (1 s)",
			 QOS_HEADERS, (const char *)NULL);
	for (size_t k = 0; k < g->n; k++) {
		const struct rpt_workload *w = g->w[k];
		struct consistency_result c;
		bool ok = consistency(w, g->iops, &c);
		double div = g->iops ? 1 : x->bw_div;
		page_tr(f);
		page_td_class(f, "num", "%d", w->spec.qd);
		double stall_s = rpt_stall_window_s(w);
		if (stall_s > 0)
			page_td_class(f, "num", "stalled: no I/O completed in the "
				      "%g s window", stall_s);
		else
			page_td_num(f, throughput(x, g, w), -1, "not measured");
		page_td_num(f, ok ? c.fine.stddev / div : NAN, -1, "too few samples");
		page_td_num(f, ok ? 100 * c.fine.cv : NAN, 2, "too few samples");
		page_td_num(f, ok ? c.fine.score : NAN, 1, "too few samples");
		page_td_num(f, ok && c.coarse.n ? c.coarse.score : NAN, 1,
			    "point under 1 s");
		marked |= qos_cells(f, p50_lat(w));
	}
	page_table_end(f);
	pct_note(f, marked);
}

/*
 * The standard deviation of the 100 ms samples per QD, every device side
 * by side (the Optane review's table: a faulty unit stood out there), with
 * the coefficient of variation beside it.
 */
static void stddev_table(struct rctx *x, const struct group *g)
{
	if (x->nruns < 2)
		return;
	FILE *f = x->pg.body;
	char cap[192], sw[64];
	bufprintf(cap, sizeof(cap), "%s: standard deviation of the %s "
		  "samples per QD (%s; CV in brackets), every device", g->label,
		  sample_words(x, sw, sizeof(sw)), g->iops ? "IOPS" : x->bw_unit);
	device_table_begin(x, f, NULL, cap, "QD");
	double div = g->iops ? 1 : x->bw_div;
	for (size_t k = 0; k < g->n; k++) {
		page_tr(f);
		page_td_class(f, "num", "%d", g->w[k]->spec.qd);
		for (size_t r = 0; r < x->nruns; r++) {
			const struct rpt_workload *w = match_run(x, r, g->w[k]);
			struct consistency_result c;
			char sd[48], cv[48];
			if (!w)
				page_td(f, "not measured");
			else if (!consistency(w, g->iops, &c))
				page_td(f, "too few samples");
			else if (!isfinite(c.fine.cv))	/* a stall: mean 0 */
				page_td_class(f, "num", "%s (no CV: the mean is 0)",
					      page_num(c.fine.stddev / div, -1, sd,
						       sizeof(sd)));
			else
				page_td_class(f, "num", "%s (%s %%)",
					      page_num(c.fine.stddev / div, -1, sd,
						       sizeof(sd)),
					      page_num(100 * c.fine.cv, 2, cv,
						       sizeof(cv)));
		}
	}
	page_table_end(f);
}

int sec_sweep(struct rctx *x, const char *step)
{
	const struct rpt_workload *wl[1024];
	size_t n = step_workloads(&x->runs[0], step, wl, 1024);
	struct group g[MAX_GROUPS];
	size_t ng = make_groups(wl, n, g);
	if (!ng) {
		page_para(x->pg.body, "No sweep points were stored.");
		return 0;
	}
	char sum[1024] = "", b1[48], b2[48];
	size_t used = 0;
	for (size_t i = 0; i < ng && used < sizeof(sum) - 200; i++) {
		const struct rpt_workload *lo = g[i].w[0], *hi = g[i].w[g[i].n - 1];
		double vlo = throughput(x, &g[i], lo), vhi = throughput(x, &g[i], hi);
		used += bufprintf(sum + used, sizeof(sum) - used,
			"%s%s: %s at QD%d, %s at QD%d", i ? "; " : "",
			g[i].label,
			g[i].iops ? fmt_iops(vlo, b1, 48)
				  : fmt_rate(x, vlo * x->bw_div, b1, 48),
			lo->spec.qd,
			g[i].iops ? fmt_iops(vhi, b2, 48)
				  : fmt_rate(x, vhi * x->bw_div, b2, 48),
			hi->spec.qd);
	}
	headline(x, step, "%s.", sum);
	for (size_t i = 0; i < ng; i++) {
		page_h3(&x->pg, g[i].label);
		if (two_in_one(x, step, &g[i], true) ||
		    two_in_one(x, step, &g[i], false) ||
		    consistency_chart(x, step, &g[i], false) ||
		    consistency_chart(x, step, &g[i], true) ||
		    qos_qd_charts(x, step, g[i].label, g[i].w, g[i].n))
			return -1;
		group_table(x, &g[i]);
		stddev_table(x, &g[i]);
	}
	return 0;
}
