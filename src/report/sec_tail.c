/*
 * Tail latency (METHODOLOGY 4.5): per workload, the nines chart with every
 * device and direction overlaid (x latency 1 µs-10 ms on a log axis, y the
 * percentile on a nines scale to 99.9999 %, the IOPS in the legend), and a
 * QoS table.  Every I/O was counted into the histograms, so the chart costs
 * nothing like the per-I/O logs the reviewer plotted; a percentile is only
 * drawn where the I/O count supports it (n I/Os support log10(n) nines).
 */
#include "report/report_int.h"

#include <math.h>
#include <string.h>

static void qos_table(struct rctx *x, const struct rpt_workload *const *wl,
		      size_t n)
{
	FILE *f = x->pg.body;
	bool marked = false;
	page_table_begin(f, &x->pg, "QoS: completion latency percentiles",
			 "Workload", "Device", "Dir", "IOPS", QOS_HEADERS,
			 (const char *)NULL);
	for (size_t i = 0; i < n; i++) {
		const struct rpt_workload *per[RPT_MAX_RUNS];
		match_runs(x, wl[i], per);
		for (size_t r = 0; r < x->nruns; r++) {
			for (int d = 0; per[r] && d < 2; d++) {
				const struct rpt_lat *l = &per[r]->lat[d];
				if (!l->count)
					continue;
				page_tr(f);
				page_td(f, "%s", per[r]->label);
				page_td(f, "%s", x->runs[r].label);
				page_td(f, "%s", d ? "write" : "read");
				page_td_class(f, "num", "%.0f",
					      per[r]->measured_s > 0
					      ? (double)per[r]->ios[d] /
						per[r]->measured_s : NAN);
				marked |= qos_cells(f, l);
			}
		}
	}
	page_table_end(f);
	pct_note(f, marked);
}

/*
 * The DUT's burst latency beside its steady-state latency in one nines
 * chart (the Micron 1300 review): burst from the R/W-ratio step (short,
 * light loads of under a GB each, METHODOLOGY 3.6) at the same pattern,
 * block size, read share and QD; steady state from this step, after the
 * drive was preconditioned to it.  Of the R/W-ratio runs of a point, the
 * one with the most I/Os (it supports the most nines).
 */
static const struct rpt_workload *burst_of(const struct rpt_run *r,
					   const struct rpt_workload *w)
{
	const struct rpt_workload *best = NULL;
	for (size_t i = 0; i < r->nwl; i++) {
		const struct rpt_workload *b = &r->wl[i];
		if (strcmp(step_kind(r, b->step), "rw_ratio") ||
		    strcmp(b->spec.pattern, w->spec.pattern) ||
		    b->spec.bs != w->spec.bs || b->spec.qd != w->spec.qd ||
		    b->spec.read_pct != w->spec.read_pct)
			continue;
		if (!best || b->ios[0] + b->ios[1] > best->ios[0] + best->ios[1])
			best = b;
	}
	return best;
}

static int burst_steady_chart(struct rctx *x, const char *step,
			      const struct rpt_workload *const *wl, size_t n)
{
	struct chart c;
	char name[96], title[192];
	chart_name(x, name, sizeof(name), step, "burst-steady-nines");
	bufprintf(title, sizeof(title), "%s: burst (R/W ratio step) and steady "
		  "state (this step) latency", x->runs[0].label);
	chart_init(&c, name, title, CHART_NINES);
	chart_axis_set(&c.x, "Latency (µs)", true);
	chart_axis_range(&c.x, 1, 10000);
	chart_axis_set(&c.y, "Percentile (%)", false);
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		int rp = wl[i]->spec.read_pct;
		if (rp != 0 && rp != 100)
			continue;	/* the pure directions, as the review */
		const struct rpt_workload *b = burst_of(&x->runs[0], wl[i]);
		if (!b)
			continue;
		int d = rp ? 0 : 1;
		char st[192];
		bufprintf(st, sizeof(st), "burst: %s", b->label);
		rc = nines_series(&c, st, &b->lat[d], x->e);
		bufprintf(st, sizeof(st), "steady state: %s", wl[i]->label);
		if (!rc)
			rc = nines_series(&c, st, &wl[i]->lat[d], x->e);
	}
	/* Colours no device has (devices take 0, 1, 2 ...): the chart is
	   the DUT's, its lines are phases. */
	for (size_t i = 0; i < c.nseries; i++)
		c.series[i].colour = 6 + (int)(i % 4);
	if (!rc && chart_points(&c) == 0) {
		page_para(x->pg.body, "No burst latency to set beside the steady "
			  "state: the run has no R/W-ratio point of the same "
			  "pattern, block size, read share and QD.");
	} else if (!rc) {
		rc = rpt_chart_of(x, &c, false);
	}
	chart_free(&c);
	return rc;
}

int sec_tail(struct rctx *x, const char *step)
{
	const struct rpt_workload *wl[256];
	size_t n = step_workloads(&x->runs[0], step, wl, 256);
	if (!n) {
		page_para(x->pg.body, "No tail-latency workload was stored.");
		return 0;
	}
	char sum[1024] = "";
	size_t used = 0;
	for (size_t i = 0; i < n && used < sizeof(sum) - 160; i++) {
		for (int d = 0; d < 2; d++) {
			const struct rpt_lat *l = &wl[i]->lat[d];
			/* 99.99 % needs one I/O beyond it: 10^4 I/Os. */
			if (!qos_supported(l, 99.99))
				continue;
			char b1[32], b2[32];
			/* A mixed workload has two directions; a pure one's
			   label says it already. */
			int rp = wl[i]->spec.read_pct;
			const char *dir = rp == 0 || rp == 100 ? "" : d ? ", write" : ", read";
			used += bufprintf(sum + used, sizeof(sum) - used,
				"%s%s%s: p99 %s, p99.99 %s", used ? "; " : "",
				wl[i]->label, dir,
				fmt_lat(rpt_lat_at(l, 99), b1, 32),
				fmt_lat(rpt_lat_at(l, 99.99), b2, 32));
		}
	}
	if (used)
		headline(x, step, "%s.", sum);
	else
		headline(x, step, "Too few I/Os per workload to state a "
			 "99.99th percentile.");
	for (size_t i = 0; i < n; i++) {
		char lab[64], title[192];
		spec_label(&wl[i]->spec, lab, sizeof(lab));
		if (wl[i]->spec.qd > 0)
			bufprintf(title, sizeof(title), "Tail latency: %s QD%d",
				  lab[0] ? lab : wl[i]->name, wl[i]->spec.qd);
		else
			bufprintf(title, sizeof(title), "Tail latency: %s",
				  lab[0] ? lab : wl[i]->name);
		if (nines_chart(x, step, wl[i], title))
			return -1;
	}
	if (burst_steady_chart(x, step, wl, n))
		return -1;
	qos_table(x, wl, n);
	return 0;
}
