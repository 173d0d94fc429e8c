/*
 * Latency at a given load (load_sweep): per read share, the response
 * latency's p50, p99, p99.9 and p99.99 against the IOPS achieved at each
 * load level (the "hockey stick"), the step's limit as a line, every
 * device's p99.99 curve when there are comparison runs, a table of the
 * levels, and the finding: the load at which p99.99 first exceeds the
 * limit, or that it never does.  Everything is drawn from the figures the
 * findings stored (findings/fig_load.c).
 */
#include "report/report_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const curve_keys[] = { "50", "99", "99_9", "99_99" };
static const char *const curve_names[] = { "p50", "p99", "p99.9", "p99.99" };
#define NCURVE 4

/* A figure of the step for one read share, NaN when absent. */
static double mfig(const struct rpt_run *r, const char *step, unsigned long long mix,
		   const char *rest)
{
	char key[160];
	bufprintf(key, sizeof key, "%s.mix%llu.%s", step, mix, rest);
	const struct rpt_metric *m = rpt_metric(r, key);
	return m ? m->value : NAN;
}

static double level_fig(const struct rpt_run *r, const char *step, unsigned long long mix,
			unsigned long long load, const char *what)
{
	char rest[96];
	bufprintf(rest, sizeof rest, "load%llu.%s", load, what);
	return mfig(r, step, mix, rest);
}

/* The load levels of one read share in run r, in run order. */
static size_t levels_of(const struct rpt_run *r, const char *step, unsigned long long mix,
			unsigned long long *out, size_t max)
{
	const struct rpt_workload *wl[512];
	size_t n = step_workloads(r, step, wl, 512), k = 0;
	for (size_t i = 0; i < n && k < max; i++) {
		unsigned long long m, l;
		if (sscanf(wl[i]->name, "mix=%llu load=%llu", &m, &l) == 2 && m == mix)
			out[k++] = l;
	}
	return k;
}

static int curve_chart(struct rctx *x, const char *step, unsigned long long mix,
		       const char *label, const unsigned long long *lv, size_t nl)
{
	struct chart c;
	char name[96], title[192], what[32], ylab[64];
	bufprintf(what, sizeof what, "mix%llu", mix);
	chart_name(x, name, sizeof name, step, what);
	bufprintf(title, sizeof title, "Response latency vs load: %s", label);
	chart_init(&c, name, title, CHART_LINES);
	chart_axis_set(&c.x, "Achieved IOPS", false);
	bufprintf(ylab, sizeof ylab, "Response latency (µs)");
	chart_axis_set(&c.y, ylab, true);
	double limit = mfig(&x->runs[0], step, mix, "limit_us");
	if (isfinite(limit)) {
		c.has_hline = true;
		c.hline = limit;
		char b[32];
		bufprintf(c.hline_title, sizeof c.hline_title, "limit %s",
			  fmt_lat(limit, b, sizeof b));
	}
	int rc = 0;
	for (int k = 0; k < NCURVE && !rc; k++) {
		struct chart_series *s = chart_add_series(&c, curve_names[k], x->e);
		if (!s) {
			rc = -1;
			break;
		}
		s->colour = k;
		for (size_t i = 0; i < nl && !rc; i++) {
			char w[32];
			bufprintf(w, sizeof w, "resp_p%s_us", curve_keys[k]);
			double iops = level_fig(&x->runs[0], step, mix, lv[i], "iops");
			double us = level_fig(&x->runs[0], step, mix, lv[i], w);
			if (isfinite(iops) && isfinite(us) && us > 0)
				rc = series_add(s, iops, us, NULL, x->e);
		}
	}
	if (!rc)
		rc = page_chart(&x->pg, &c, x->e);
	chart_free(&c);
	if (rc || x->nruns < 2)
		return rc;

	/* Every device's p99.99, the DUT emphasised. */
	bufprintf(what, sizeof what, "mix%llu-devices", mix);
	chart_name(x, name, sizeof name, step, what);
	bufprintf(title, sizeof title, "p99.99 response latency vs load: %s", label);
	chart_init(&c, name, title, CHART_LINES);
	chart_axis_set(&c.x, "Achieved IOPS", false);
	chart_axis_set(&c.y, ylab, true);
	for (size_t r = 0; r < x->nruns && !rc; r++) {
		unsigned long long rl[512];
		size_t m = levels_of(&x->runs[r], step, mix, rl, 512);
		struct chart_series *s = chart_add_series(&c, x->runs[r].label, x->e);
		if (!s)
			rc = -1;
		for (size_t i = 0; s && i < m && !rc; i++) {
			double iops = level_fig(&x->runs[r], step, mix, rl[i], "iops");
			double us = level_fig(&x->runs[r], step, mix, rl[i], "resp_p99_99_us");
			if (isfinite(iops) && isfinite(us) && us > 0)
				rc = series_add(s, iops, us, NULL, x->e);
		}
	}
	if (!rc)
		rc = rpt_chart(x, &c);
	chart_free(&c);
	return rc;
}

static void level_table(struct rctx *x, const char *step, unsigned long long mix,
			const char *label, const unsigned long long *lv, size_t nl)
{
	FILE *f = x->pg.body;
	char cap[192];
	bufprintf(cap, sizeof cap, "%s: response latency (from each I/O's scheduled "
		  "arrival) at each load; service latency from its submission", label);
	page_table_begin(f, &x->pg, cap, "Load", "Target IOPS", "Achieved IOPS",
			 "p50", "p99", "p99.9", "p99.99", "Service p99.99",
			 "Late starts", (const char *)NULL);
	const struct rpt_run *r = &x->runs[0];
	for (size_t i = 0; i < nl; i++) {
		char b[32];
		page_tr(f);
		page_td(f, "%llu %%", lv[i]);
		page_td_num(f, level_fig(r, step, mix, lv[i], "target_iops"), 0, "-");
		page_td_num(f, level_fig(r, step, mix, lv[i], "iops"), 0, "-");
		for (int k = 0; k < NCURVE; k++) {
			char w[32];
			bufprintf(w, sizeof w, "resp_p%s_us", curve_keys[k]);
			page_td_class(f, "num", "%s",
				      fmt_lat(level_fig(r, step, mix, lv[i], w), b, sizeof b));
		}
		page_td_class(f, "num", "%s",
			      fmt_lat(level_fig(r, step, mix, lv[i], "svc_p99_99_us"), b, sizeof b));
		double late = level_fig(r, step, mix, lv[i], "late_share");
		if (isfinite(late))
			page_td_class(f, "num", "%.2f %%", late * 100);
		else
			page_td(f, "-");
	}
	page_table_end(f);
}

/* The finding in words, and the summary figure per device. */
static void finding(struct rctx *x, const char *step, unsigned long long mix,
		    const char *label, char *sum, size_t len, size_t *used)
{
	const struct rpt_run *r = &x->runs[0];
	char b1[32], b2[32], b3[32];
	double limit = mfig(r, step, mix, "limit_us");
	double crossed = mfig(r, step, mix, "limit_crossed");
	double max = mfig(r, step, mix, "max_iops");
	if (!isfinite(crossed))
		return;
	if (crossed > 0)
		*used += bufprintf(sum + *used, len - *used,
			"%s%s: p99.99 response latency exceeds %s at %.0f %% load "
			"(%s achieved of %s at most)", *used ? "; " : "", label,
			fmt_lat(limit, b1, sizeof b1),
			mfig(r, step, mix, "limit_crossed_load_pct"),
			fmt_iops(mfig(r, step, mix, "limit_crossed_iops"), b2, sizeof b2),
			fmt_iops(max, b3, sizeof b3));
	else
		*used += bufprintf(sum + *used, len - *used,
			"%s%s: p99.99 response latency stays within %s at every load "
			"up to %s (maximum %s)", *used ? "; " : "", label,
			fmt_lat(limit, b1, sizeof b1),
			fmt_iops(mfig(r, step, mix, "limit_ok_iops"), b2, sizeof b2),
			fmt_iops(max, b3, sizeof b3));
}

int sec_load(struct rctx *x, const char *step)
{
	const struct rpt_workload *wl[512];
	size_t n = step_workloads(&x->runs[0], step, wl, 512);
	char sum[2048] = "";
	size_t used = 0;
	bool any = false;
	for (size_t i = 0; i < n; i++) {
		unsigned long long mix;
		char phase[8];
		if (sscanf(wl[i]->name, "mix=%llu phase=%7s", &mix, phase) != 2 ||
		    strcmp(phase, "max"))
			continue;
		unsigned long long lv[512];
		size_t nl = levels_of(&x->runs[0], step, mix, lv, 512);
		char label[96];
		spec_label(&wl[i]->spec, label, sizeof label);
		if (!label[0])
			bufprintf(label, sizeof label, "%llu %% read", mix);
		page_h3(&x->pg, label);
		if (!nl) {
			page_para(x->pg.body, "No load level was measured (the maximum "
				  "completed nothing, or the step was stopped).");
			continue;
		}
		any = true;
		if (curve_chart(x, step, mix, label, lv, nl))
			return -1;
		level_table(x, step, mix, label, lv, nl);
		finding(x, step, mix, label, sum, sizeof sum, &used);
	}
	if (!any) {
		page_para(x->pg.body, "No load level was stored.");
		return 0;
	}
	page_para(x->pg.body, "Each level is an open loop: I/Os arrive on a "
		  "schedule at that share of the closed loop's maximum whatever "
		  "the drive does, and response latency runs from each I/O's "
		  "arrival, so a stall counts for every I/O that waited behind it "
		  "(a closed loop's latency, and fio's, would leave those out).");
	if (used)
		headline(x, step, "%s.", sum);
	return 0;
}
