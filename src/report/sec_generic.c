/*
 * Any workload, whatever step ran it: bandwidth and latency over time, the
 * tail-latency "nines" chart from its histograms, and a summary table.
 * This is the whole report of a plain `ssdbench run`, and the fallback for
 * a step the report has no special drawing for.
 */
#include "report/report_int.h"
#include "report/timeline.h"

#include <math.h>
#include <string.h>

/* More workloads than this in a step get a table, not three charts each. */
#define GENERIC_CHART_MAX 8

static int workload_charts(struct rctx *x, const struct rpt_workload *w)
{
	const struct rpt_workload *per[RPT_MAX_RUNS];
	match_runs(x, w, per);
	char title[256], what[96];
	bool iops = !strcmp(w->spec.pattern, "rand");

	bufprintf(what, sizeof(what), "%s-%s", w->name, iops ? "iops" : "bw");
	bufprintf(title, sizeof(title), "%s: %s vs time", w->label,
		 iops ? "IOPS" : "bandwidth");
	struct tl_spec t = { .step = w->step, .what = what, .title = title,
			     .col = iops ? TL_IOPS : TL_BW, .axis = TL_TIME,
			     .kind = CHART_LINES };
	if (timeline_chart(x, &t, per, x->e))
		return -1;

	bufprintf(what, sizeof(what), "%s-lat", w->name);
	bufprintf(title, sizeof(title), "%s: mean latency vs time", w->label);
	t.what = what;
	t.title = title;
	t.col = TL_LAT_MEAN;
	if (timeline_chart(x, &t, per, x->e))
		return -1;

	bufprintf(title, sizeof(title), "%s: latency percentiles", w->label);
	return nines_chart(x, w->step, w, title);
}

/* One row per workload per run: throughput and latency percentiles. */
void workload_table(struct rctx *x, const struct rpt_workload *const *wl,
		    size_t n, const char *caption)
{
	FILE *f = x->pg.body;
	char unit[32];
	bufprintf(unit, sizeof(unit), "%s", x->bw_unit);
	bool marked = false;
	page_table_begin(f, &x->pg, caption, "Workload", "Device", unit,
			 "IOPS", "Mean", "p50", "p99", "p99.9", "p99.99", "p99.999", "Max",
			 (const char *)NULL);
	for (size_t i = 0; i < n; i++) {
		const struct rpt_workload *per[RPT_MAX_RUNS];
		match_runs(x, wl[i], per);
		for (size_t r = 0; r < x->nruns; r++) {
			const struct rpt_workload *w = per[r];
			if (!w)
				continue;
			/* The direction that did most I/O speaks for latency. */
			const struct rpt_lat *l = &w->lat[w->ios[1] > w->ios[0]];
			char b[2][32];
			page_tr(f);
			page_td(f, "%s", w->label);
			page_td(f, "%s", x->runs[r].label);
			page_td_class(f, "num", "%.1f", rpt_bw(w) / x->bw_div);
			page_td_class(f, "num", "%.0f", rpt_iops(w));
			page_td_class(f, "num", "%s", fmt_lat(l->mean_us, b[0], 32));
			marked |= pct_cell(f, l, 50);
			marked |= pct_cell(f, l, 99);
			marked |= pct_cell(f, l, 99.9);
			marked |= pct_cell(f, l, 99.99);
			marked |= pct_cell(f, l, 99.999);
			page_td_class(f, "num", "%s", fmt_lat(l->max_us, b[1], 32));
		}
	}
	page_table_end(f);
	pct_note(f, marked);
}

int sec_generic(struct rctx *x, const char *step)
{
	const struct rpt_workload *wl[1024];
	size_t n = step_workloads(&x->runs[0], step, wl, 1024);
	if (!n)
		return 0;
	char b1[32], b2[32];
	const struct rpt_workload *w = wl[0];
	if (n == 1)
		headline(x, step, "%s: %s, %s over %.1f s.", w->label,
			 fmt_rate(x, rpt_bw(w), b1, sizeof(b1)),
			 fmt_iops(rpt_iops(w), b2, sizeof(b2)), w->measured_s);
	else
		headline(x, step, "%zu workloads; the first, %s: %s, %s.", n,
			 w->label, fmt_rate(x, rpt_bw(w), b1, sizeof(b1)),
			 fmt_iops(rpt_iops(w), b2, sizeof(b2)));
	workload_table(x, wl, n, "Throughput and completion latency");
	if (n > GENERIC_CHART_MAX)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (workload_charts(x, wl[i]))
			return -1;
	return 0;
}
