/*
 * Performance by R/W ratio (METHODOLOGY 3.6): bandwidth per read share,
 * one line per QD; the weighted line (the step's weights, by default
 * 0.80 QD1 + 0.15 QD2 + 0.05 QD4, through analysis/lowqd.h) with
 * every device; and the ranking: the mean of the weighted values over the
 * mixed ratios (0 % and 100 % read excluded).  A point is the suite's
 * stored value (STEP.read<R>.qd<Q>.mbps, by its repetition rule) when
 * there is one, else the median of the point's runs.
 */
#include "analysis/lowqd.h"
#include "report/report_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PCT 32
#define MAX_QD 8
#define MAX_REP 32

/* The QDs and weights of the weighted graph: the step's, or 1, 2, 4 with
   0.80, 0.15, 0.05. */
struct weights {
	int qd[MAX_QD];
	double w[MAX_QD];
	int n;
};

static int parse_list(const char *text, double *v, int max)
{
	int n = 0;
	for (const char *p = text; *p && n < max;) {
		char *end;
		v[n] = strtod(p, &end);
		if (end == p)
			return -1;
		n++;
		p = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return -1;
	}
	return n;
}

static void load_weights(const struct rpt_run *r, const char *step,
			 struct weights *wt)
{
	char qds[192], ws[192];
	double q[MAX_QD], w[MAX_QD];
	int nq, nw;
	if (rpt_step_param(r, step, "qds", qds, sizeof(qds)) &&
	    rpt_step_param(r, step, "weights", ws, sizeof(ws)) &&
	    (nq = parse_list(qds, q, MAX_QD)) > 0 &&
	    (nw = parse_list(ws, w, MAX_QD)) == nq) {
		wt->n = nq;
		for (int i = 0; i < nq; i++) {
			wt->qd[i] = (int)q[i];
			wt->w[i] = w[i];
		}
		return;
	}
	static const int dq[] = { 1, 2, 4 };
	wt->n = LOWQD_DEFAULT_NQD;
	for (int i = 0; i < wt->n; i++) {
		wt->qd[i] = dq[i];
		wt->w[i] = lowqd_default_weights[i];
	}
}

struct grid {
	int pct[MAX_PCT], npct;
	int qd[MAX_QD], nqd;
	double v[MAX_PCT][MAX_QD];	/* median bytes/s, NaN if none */
};

static int slot(int *list, int *n, int max, int value)
{
	int i = 0;
	while (i < *n && list[i] != value)
		i++;
	if (i == *n) {
		if (*n == max)
			return -1;
		/* Keep ascending. */
		while (i > 0 && list[i - 1] > value) {
			list[i] = list[i - 1];
			i--;
		}
		list[i] = value;
		(*n)++;
	}
	return i;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Median of v[n] (sorted in place); the mean of the middle two for an
   even count; NaN for none. */
static double median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(double), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void make_grid(const struct rpt_run *r, const char *step,
		      struct grid *g)
{
	const struct rpt_workload *wl[2048];
	size_t n = step_workloads(r, step, wl, 2048);
	memset(g, 0, sizeof(*g));
	for (size_t i = 0; i < n; i++)
		if (wl[i]->spec.read_pct >= 0 && wl[i]->spec.qd > 0) {
			slot(g->pct, &g->npct, MAX_PCT, wl[i]->spec.read_pct);
			slot(g->qd, &g->nqd, MAX_QD, wl[i]->spec.qd);
		}
	for (int a = 0; a < g->npct; a++)
		for (int b = 0; b < g->nqd; b++) {
			double rep[MAX_REP];
			size_t k = 0;
			for (size_t i = 0; i < n && k < MAX_REP; i++)
				if (wl[i]->spec.read_pct == g->pct[a] &&
				    wl[i]->spec.qd == g->qd[b] &&
				    wl[i]->measured_s > 0)
					rep[k++] = rpt_bw(wl[i]);
			g->v[a][b] = median(rep, k);
			/* The suite's value by its repetition rule wins. */
			char key[160];
			bufprintf(key, sizeof(key), "%s.read%d.qd%d.mbps", step,
				  g->pct[a], g->qd[b]);
			const struct rpt_metric *m = rpt_metric(r, key);
			if (m && isfinite(m->value))
				g->v[a][b] = m->value * 1e6;
		}
}

/* The weighted value at read share a, by analysis/lowqd.h; NaN when a
   weighted QD was not measured there. */
static double weighted(const struct grid *g, int a, const struct weights *wt)
{
	double row[MAX_QD], out;
	struct sb_err e;
	for (int k = 0; k < wt->n; k++) {
		int b = 0;
		while (b < g->nqd && g->qd[b] != wt->qd[k])
			b++;
		if (b == g->nqd || !isfinite(g->v[a][b]))
			return NAN;
		row[k] = g->v[a][b];
	}
	if (lowqd_weighted(row, 1, (size_t)wt->n, wt->w, &out, &e))
		return NAN;
	return out;
}

int sec_rwratio(struct rctx *x, const char *step)
{
	struct weights wt;
	load_weights(&x->runs[0], step, &wt);
	struct grid *g = calloc(x->nruns, sizeof(*g));
	if (!g)
		return sb_errf(x->e, "out of memory");
	for (size_t r = 0; r < x->nruns; r++)
		make_grid(&x->runs[r], step, &g[r]);
	int rc = 0;
	char ylab[64], name[96], title[192];
	bufprintf(ylab, sizeof(ylab), "Bandwidth (%s)", x->bw_unit);
	if (!g[0].npct) {
		page_para(x->pg.body, "No R/W-ratio points were stored.");
		goto out;
	}

	/* Lines per QD, one chart per device. */
	for (size_t r = 0; r < x->nruns && !rc; r++) {
		struct chart c;
		char what[96];
		bufprintf(what, sizeof(what), "per-qd-%zu", r);
		chart_name(x, name, sizeof(name), step, what);
		bufprintf(title, sizeof(title), "%s: bandwidth by read share, "
			 "per QD", x->runs[r].label);
		chart_init(&c, name, title, CHART_LINES);
		chart_axis_set(&c.x, "Read share (%)", false);
		chart_axis_range(&c.x, 0, 100);
		chart_axis_set(&c.y, ylab, false);
		for (int b = 0; b < g[r].nqd && !rc; b++) {
			char st[32];
			bufprintf(st, sizeof(st), "QD%d", g[r].qd[b]);
			struct chart_series *s = chart_add_series(&c, st, x->e);
			if (!s)
				rc = -1;
			for (int a = 0; s && a < g[r].npct && !rc; a++)
				rc = series_add(s, g[r].pct[a],
						g[r].v[a][b] / x->bw_div, NULL,
						x->e);
		}
		if (!rc)
			rc = rpt_chart(x, &c);
		chart_free(&c);
	}

	/* Weighted lines, every device; and the score. */
	double score[RPT_MAX_RUNS];
	struct chart c;
	chart_name(x, name, sizeof(name), step, "weighted");
	char wdesc[128];
	size_t u = 0;
	for (int k = 0; k < wt.n; k++)
		u += bufprintf(wdesc + u, sizeof(wdesc) - u, "%s%.2f QD%d",
			       k ? " + " : "", wt.w[k], wt.qd[k]);
	bufprintf(title, sizeof(title), "Weighted low-QD bandwidth by read "
		  "share (%s)", wdesc);
	chart_init(&c, name, title, CHART_LINES);
	chart_axis_set(&c.x, "Read share (%)", false);
	chart_axis_range(&c.x, 0, 100);
	chart_axis_set(&c.y, ylab, false);
	for (size_t r = 0; r < x->nruns && !rc; r++) {
		struct chart_series *s = chart_add_series(&c, x->runs[r].label,
							  x->e);
		double sum = 0;
		int nmix = 0;
		if (!s)
			rc = -1;
		for (int a = 0; s && a < g[r].npct && !rc; a++) {
			double w = weighted(&g[r], a, &wt);
			rc = series_add(s, g[r].pct[a], w / x->bw_div, NULL, x->e);
			if (g[r].pct[a] > 0 && g[r].pct[a] < 100 && isfinite(w)) {
				sum += w;
				nmix++;
			}
		}
		score[r] = nmix ? sum / nmix / x->bw_div : NAN;
	}
	if (!rc)
		rc = rpt_chart(x, &c);
	chart_free(&c);
	if (rc)
		goto out;
	char b[48];
	if (isfinite(score[0]))
		headline(x, step, "Weighted low-QD score (mean over the mixed "
			 "ratios): %s.", fmt_rate(x, score[0] * x->bw_div, b, 48));
	else
		headline(x, step, "No weighted score: the weighted QDs (%s) "
			 "were not all measured at a mixed ratio.", wdesc);
	rc = rank_bars(x, step, "score", "R/W ratio: weighted score, mean over "
		       "the mixed ratios", ylab, score, 0, NULL);
out:
	free(g);
	return rc;
}
