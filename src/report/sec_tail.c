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
	qos_table(x, wl, n);
	return 0;
}
