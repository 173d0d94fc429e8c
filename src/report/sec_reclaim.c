/*
 * SLC cache reclaim (METHODOLOGY 3.7): after each idle T, a timed write
 * shows how much cache came back.  Charts: GB written in that write per T
 * (devices side by side); the DUT's amount written vs time, one line per
 * T (the knee of each line is where the regained cache ran out); its
 * bandwidth over time, one line per T; and, with comparison devices,
 * written vs time after one idle, every device overlaid (one line per T
 * per device would be unreadable).
 *
 * Which workloads are the timed writes: in each cycle the suite fills, then
 * idles, then writes; the fill is named with "fill", the write carries the
 * idle time in its name ("idle=5000 phase=write").  A write whose name has
 * no time is numbered by order instead, and the chart says "cycle".
 */
#include "analysis/fill.h"
#include "analysis/reclaim.h"
#include "report/report_int.h"
#include "report/timeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CYCLES 64

struct probe {
	const struct rpt_workload *w;
	const struct rpt_workload *fill;	/* of the same cycle, or NULL */
	double idle_s;		/* NaN: unknown */
	char label[32];
};

/*
 * The idle of a cycle in seconds: the suite names its writes
 * "idle=<ms> phase=write"; other names may say "30s" or "2m".
 */
static double idle_from_name(const char *name)
{
	const char *kv = strstr(name, "idle=");
	if (kv) {
		char *end;
		double ms = strtod(kv + 5, &end);
		if (end != kv + 5)
			return ms / 1000;
	}
	for (const char *p = name; *p; p++) {
		if (*p < '0' || *p > '9' || (p > name && p[-1] >= '0' &&
					      p[-1] <= '9') ||
		    (p > name && p[-1] == '.'))
			continue;
		char *end;
		double v = strtod(p, &end);
		if (!strncmp(end, "ms", 2))
			return v / 1000;
		if (*end == 's')
			return v;
		if (!strncmp(end, "min", 3) || *end == 'm')
			return v * 60;
		if (*end == 'h')
			return v * 3600;
	}
	return NAN;
}

static size_t probes(const struct rpt_run *r, const char *step,
		     struct probe *out)
{
	const struct rpt_workload *wl[512];
	size_t n = step_workloads(r, step, wl, 512), k = 0;
	const struct rpt_workload *fill = NULL;
	for (size_t i = 0; i < n && k < MAX_CYCLES; i++) {
		if (strstr(wl[i]->name, "fill")) {
			fill = wl[i];
			continue;
		}
		if (!wl[i]->bytes[1])
			continue;
		out[k].w = wl[i];
		out[k].fill = fill;
		fill = NULL;
		out[k].idle_s = idle_from_name(wl[i]->name);
		if (isfinite(out[k].idle_s))
			bufprintf(out[k].label, sizeof(out[k].label), "%gs",
				 out[k].idle_s);
		else
			bufprintf(out[k].label, sizeof(out[k].label),
				 "cycle %zu", k + 1);
		k++;
	}
	return k;
}

/*
 * The cache regained after each idle, by the analysis: the bytes the
 * timed write put down at the cycle's fill cache speed (analysis/fill.h),
 * then the recovery rate and time over all idles (analysis/reclaim.h).
 */
static void recovery(struct rctx *x, const char *step,
		     const struct probe *pr, size_t n)
{
	struct reclaim_point pts[MAX_CYCLES];
	size_t np = 0;
	for (size_t k = 0; k < n; k++) {
		if (!pr[k].fill || !isfinite(pr[k].idle_s))
			continue;
		size_t nf, nw;
		struct trace_pt *tf = rpt_trace(pr[k].fill, &nf);
		struct trace_pt *tw = rpt_trace(pr[k].w, &nw);
		struct sb_err e;
		double bytes;
		if (tf && tw && !reclaim_cycle_cache(tf, nf, tw, nw, &bytes, &e) &&
		    isfinite(bytes)) {
			pts[np].idle_s = pr[k].idle_s;
			pts[np].cache_bytes = bytes;
			np++;
		}
		free(tf);
		free(tw);
	}
	struct reclaim_result res;
	struct sb_err e;
	char b[3][48];
	if (np == 0 || reclaim_analyze(pts, np, RECLAIM_SATURATION, &res, &e)) {
		page_para(x->pg.body, "The analysis found no cache speed to "
			  "measure recovery against (no SLC cache in the fills, "
			  "or idle times unknown).");
		return;
	}
	char rate[96] = "no recovery rate (fewer than two points before "
			"saturation)";
	if (isfinite(res.rate))
		bufprintf(rate, sizeof(rate), "recovery rate %s of cache per "
			  "second of idle", fmt_rate(x, res.rate, b[0], 48));
	headline(x, step, "Cache regained up to %s; %s; %s.",
		 fmt_size(x, res.recovered_bytes, b[1], 48), rate,
		 res.saturated ? "full recovery reached" :
				 "full recovery not reached in the idles tried");
	if (res.saturated && isfinite(res.full_s))
		page_para(x->pg.body, "Idle time to full recovery: about %.0f s "
			  "(the fit meets the recovered size).", res.full_s);
}

/* Cumulative amount written vs time of one timed write, from (0, 0). */
static int written_series(struct rctx *x, struct chart *c, const char *title,
			  const struct rpt_workload *w)
{
	struct chart_series *s = chart_add_series(c, title, x->e);
	if (!s || series_add(s, 0, 0, NULL, x->e))
		return -1;
	double sum = 0;
	for (size_t i = 0; i < w->npts; i++) {
		sum += (double)w->pts[i].bytes[1];
		if (series_add(s, w->pts[i].t_s, sum / x->size_div, NULL, x->e))
			return -1;
	}
	return 0;
}

static void written_axes(struct rctx *x, struct chart *c)
{
	char ylab[64];
	chart_axis_set(&c->x, "Time into the timed write (s)", false);
	bufprintf(ylab, sizeof(ylab), "Written (%s)", x->size_unit);
	chart_axis_set(&c->y, ylab, false);
}

/* The DUT: one line per idle. */
static int written_per_idle(struct rctx *x, const char *step,
			    const struct probe *pr, size_t n)
{
	struct chart c;
	char name[96], title[192];
	chart_name(x, name, sizeof(name), step, "written-time-per-idle");
	bufprintf(title, sizeof(title), "%s: amount written vs time in the "
		  "timed write after each idle", x->runs[0].label);
	chart_init(&c, name, title, CHART_LINES);
	written_axes(x, &c);
	int rc = 0;
	for (size_t k = 0; k < n && !rc; k++) {
		char st[64];
		bufprintf(st, sizeof(st), "idle %s", pr[k].label);
		rc = written_series(x, &c, st, pr[k].w);
	}
	if (!rc)
		rc = rpt_chart(x, &c);
	chart_free(&c);
	return rc;
}

/*
 * Every device after one idle: the longest idle of the DUT that every
 * comparison device also ran (the most cache regained, so the drives'
 * recovered sizes show best), else the DUT's longest.
 */
static int written_compare(struct rctx *x, const char *step,
			   struct probe (*pr)[MAX_CYCLES], const size_t *np)
{
	size_t pick = np[0], any = np[0];
	for (size_t k = 0; k < np[0]; k++) {
		bool all = true;
		for (size_t r = 1; r < x->nruns && all; r++) {
			size_t j = 0;
			while (j < np[r] && strcmp(pr[r][j].label, pr[0][k].label))
				j++;
			all = j < np[r];
		}
		if (any == np[0] || pr[0][k].idle_s > pr[0][any].idle_s)
			any = k;
		if (all && (pick == np[0] || pr[0][k].idle_s > pr[0][pick].idle_s))
			pick = k;
	}
	if (pick == np[0])
		pick = any;
	const char *lab = pr[0][pick].label;
	struct chart c;
	char name[96], title[192];
	chart_name(x, name, sizeof(name), step, "written-time-compare");
	bufprintf(title, sizeof(title), "Amount written vs time in the timed "
		  "write after idle %s, every device", lab);
	chart_init(&c, name, title, CHART_LINES);
	written_axes(x, &c);
	int rc = 0;
	for (size_t r = 0; r < x->nruns && !rc; r++)
		for (size_t j = 0; j < np[r] && !rc; j++)
			if (!strcmp(pr[r][j].label, lab))
				rc = written_series(x, &c, x->runs[r].label,
						    pr[r][j].w);
	if (!rc)
		rc = rpt_chart(x, &c);
	chart_free(&c);
	return rc;
}

int sec_reclaim(struct rctx *x, const char *step)
{
	struct probe pr[RPT_MAX_RUNS][MAX_CYCLES];
	size_t np[RPT_MAX_RUNS];
	for (size_t r = 0; r < x->nruns; r++)
		np[r] = probes(&x->runs[r], step, pr[r]);
	if (!np[0]) {
		page_para(x->pg.body, "No write after an idle was stored.");
		return 0;
	}
	struct chart c;
	char name[96], ylab[64];
	bufprintf(ylab, sizeof(ylab), "Written in the timed write (%s)",
		 x->size_unit);
	chart_name(x, name, sizeof(name), step, "written-per-idle");
	chart_init(&c, name, "SLC cache reclaim: amount written after each idle",
		   CHART_BARS);
	chart_axis_set(&c.x, "Idle before the write", false);
	chart_axis_set(&c.y, ylab, false);
	int rc = 0;
	for (size_t r = 0; r < x->nruns && !rc; r++) {
		struct chart_series *s = chart_add_series(&c, x->runs[r].label,
							  x->e);
		if (!s)
			rc = -1;
		for (size_t k = 0; s && k < np[r] && !rc; k++)
			rc = series_add(s, (double)k,
					(double)pr[r][k].w->bytes[1] / x->size_div,
					pr[r][k].label, x->e);
	}
	if (!rc)
		rc = rpt_chart(x, &c);
	chart_free(&c);
	if (rc)
		return -1;

	if (written_per_idle(x, step, pr[0], np[0]) ||
	    (x->nruns > 1 && written_compare(x, step, pr, np)))
		return -1;

	/* Bandwidth vs time per idle, the DUT's cycles in one chart. */
	chart_name(x, name, sizeof(name), step, "bw-per-idle");
	char title[192];
	bufprintf(title, sizeof(title), "%s: bandwidth of the timed write after "
		 "each idle", x->runs[0].label);
	chart_init(&c, name, title, CHART_LINES);
	chart_axis_set(&c.x, "Time (s)", false);
	bufprintf(ylab, sizeof(ylab), "Bandwidth (%s)", x->bw_unit);
	chart_axis_set(&c.y, ylab, false);
	c.y.has_min = true;	/* from 0: the drop after the cache at scale */
	c.y.min = 0;
	for (size_t k = 0; k < np[0] && !rc; k++) {
		char st[64];
		bufprintf(st, sizeof(st), "idle %s", pr[0][k].label);
		struct chart_series *s = chart_add_series(&c, st, x->e);
		const struct rpt_workload *w = pr[0][k].w;
		if (!s)
			rc = -1;
		size_t first, end;
		whole_points(w, &first, &end);
		for (size_t i = first; s && i < end && !rc; i++)
			rc = series_add(s, w->pts[i].t_s,
					pt_bw(&w->pts[i]) / x->bw_div, NULL, x->e);
	}
	if (!rc)
		rc = rpt_chart(x, &c);
	chart_free(&c);
	if (rc)
		return -1;

	char sum[1024] = "", b[48];
	size_t used = 0;
	for (size_t k = 0; k < np[0] && used < sizeof(sum) - 80; k++)
		used += bufprintf(sum + used, sizeof(sum) - used,
					 "%s%s after %s", k ? ", " : "",
					 fmt_size(x, (double)pr[0][k].w->bytes[1],
						  b, 48), pr[0][k].label);
	headline(x, step, "Written in the timed write: %s.", sum);
	recovery(x, step, pr[0], np[0]);
	return 0;
}
