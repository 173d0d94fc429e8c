/*
 * The steps that draw one or two simple charts: active range (IOPS vs
 * span), sync write (ranked bars), boot (ranked bars with the pass line).
 * Peak numbers are in sec_peak.c.
 */
#include "common/units.h"
#include "report/report_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A workload's span in GiB: from its spec, else unknown (NaN). */
static double span_gib(const struct rpt_workload *w)
{
	return w->spec.span > 0 ? (double)w->spec.span / 1073741824.0 : NAN;
}

int sec_active_range(struct rctx *x, const char *step)
{
	const struct rpt_workload *wl[256];
	size_t n = step_workloads(&x->runs[0], step, wl, 256);
	if (!n) {
		page_para(x->pg.body, "No active-range workload was stored.");
		return 0;
	}
	struct chart c;
	char name[96];
	chart_name(x, name, sizeof(name), step, "iops-span");
	chart_init(&c, name, "Active range: random read IOPS vs span",
		   CHART_LINES);
	chart_axis_set(&c.x, "Span (GiB)", true);
	chart_axis_set(&c.y, "IOPS", false);
	int rc = 0;
	for (size_t r = 0; r < x->nruns && !rc; r++) {
		const struct rpt_workload *rw[256];
		size_t m = step_workloads(&x->runs[r], step, rw, 256);
		struct chart_series *s = chart_add_series(&c, x->runs[r].label,
							  x->e);
		if (!s)
			rc = -1;
		for (size_t i = 0; s && i < m && !rc; i++)
			rc = series_add(s, span_gib(rw[i]), rpt_iops(rw[i]),
					NULL, x->e);
	}
	if (!rc)
		rc = rpt_chart(x, &c);
	chart_free(&c);
	char b1[32], b2[32], s1[32], s2[32];
	headline(x, step, "%s over %s; %s over %s.",
		 fmt_iops(rpt_iops(wl[0]), b1, 32),
		 fmt_bytes((uint64_t)(wl[0]->spec.span > 0 ? wl[0]->spec.span : 0),
			   s1, 32),
		 fmt_iops(rpt_iops(wl[n - 1]), b2, 32),
		 fmt_bytes((uint64_t)(wl[n - 1]->spec.span > 0
				      ? wl[n - 1]->spec.span : 0), s2, 32));
	return rc;
}

/* A per-device figure from each run's workloads of a step. */
static void per_run(struct rctx *x, const char *step,
		    double (*fn)(const struct rpt_workload *), double *v)
{
	for (size_t r = 0; r < x->nruns; r++) {
		const struct rpt_workload *wl[16];
		size_t n = step_workloads(&x->runs[r], step, wl, 16);
		v[r] = n ? fn(wl[n - 1]) : NAN;
	}
}

static double write_bw(const struct rpt_workload *w)
{
	return w->measured_s > 0 ? (double)w->bytes[1] / w->measured_s : NAN;
}

int sec_sync(struct rctx *x, const char *step)
{
	double v[RPT_MAX_RUNS];
	per_run(x, step, write_bw, v);
	if (!isfinite(v[0])) {
		page_para(x->pg.body, "No sync write was stored.");
		return 0;
	}
	char b[48], ylab[64];
	headline(x, step, "%s with O_SYNC at QD1 (meaningless for drives "
		 "with power-loss protection).", fmt_rate(x, v[0], b, 48));
	for (size_t r = 0; r < x->nruns; r++)
		v[r] /= x->bw_div;
	bufprintf(ylab, sizeof(ylab), "Bandwidth (%s)", x->bw_unit);
	return rank_bars(x, step, "sync", "Sync write: RND 4 KiB QD1 O_SYNC",
			 ylab, v, 0, NULL);
}

/*
 * The boot score is the suite's (a search over reader counts with pass
 * criteria); the report draws it and never re-derives it.
 */
static bool boot_score(const struct rpt_run *r, double *v)
{
	const struct rpt_metric *m = rpt_metric(r, "boot.score_iops");
	if (!m)
		return false;
	*v = m->value;
	return true;
}

/* OCP BootBench's pass mark; a plan may lower it (quick does). */
#define BOOT_OCP_PASS_IOPS 60000.0

int sec_boot(struct rctx *x, const char *step)
{
	double v[RPT_MAX_RUNS], pass = BOOT_OCP_PASS_IOPS;
	char text[64];
	if (rpt_step_param(&x->runs[0], step, "pass_iops", text, sizeof(text)))
		pass = strtod(text, NULL);
	for (size_t r = 0; r < x->nruns; r++)
		if (!boot_score(&x->runs[r], &v[r]))
			v[r] = NAN;
	if (!isfinite(v[0])) {
		headline(x, step, "No boot score was stored (boot.score_iops); "
			 "the workloads follow.");
		return sec_generic(x, step);
	}
	char b[32], line[64];
	const struct rpt_metric *ok = rpt_metric(&x->runs[0], "boot.pass");
	const struct rpt_metric *nr = rpt_metric(&x->runs[0],
						 "boot.score_readers");
	char readers[48] = "";
	if (nr)
		bufprintf(readers, sizeof(readers), " with %.0f readers",
			  nr->value);
	char mark[32], lowered[160] = "";
	fmt_iops(pass, mark, sizeof(mark));
	if (pass < BOOT_OCP_PASS_IOPS)
		bufprintf(lowered, sizeof(lowered), " This plan lowers the pass "
			  "mark to %s (OCP BootBench: 60 k IOPS), so the verdict "
			  "is a smoke test, not the OCP one.", mark);
	headline(x, step, "Score %s%s: %s the %s read pass mark.%s",
		 fmt_iops(v[0], b, 32), readers,
		 (ok ? ok->value > 0 : v[0] >= pass) ? "passes" : "fails", mark,
		 lowered);
	bufprintf(line, sizeof(line), "pass mark: %s%s", mark,
		  pass < BOOT_OCP_PASS_IOPS ? " (lowered)" : "");
	return rank_bars(x, step, "score", "Boot workload: read IOPS at the "
			 "largest passing reader count", "Read IOPS", v, pass,
			 line);
}

/* What a purge method leaves behind and how it was checked. */
static const char *purge_verification(const char *method)
{
	if (!strcmp(method, "sim-format"))
		return "the simulated drive was opened afresh: no data mapped, "
		       "empty SLC cache, no garbage-collection state";
	if (!strcmp(method, "recreate"))
		return "the file was deleted and created again, empty, at its size";
	return "after the purge the device answered Identify and its first "
	       "block was read back (the purge fails otherwise)";
}

/*
 * A purge step: per device the method used, how long the purge took and
 * how it was verified (METHODOLOGY §2).
 */
int sec_purge(struct rctx *x, const char *step)
{
	char key[96], b[32];
	FILE *f = x->pg.body;
	bufprintf(key, sizeof(key), "%s.purge_method", step);
	const struct rpt_metric *m = rpt_metric(&x->runs[0], key);
	if (!m) {
		headline(x, step, "No purge was recorded (the step may have been "
			 "skipped or cut short).");
		return 0;
	}
	bufprintf(key, sizeof(key), "%s.purge_seconds", step);
	const struct rpt_metric *t = rpt_metric(&x->runs[0], key);
	headline(x, step, "Purged by %s%s%s%s.", m->unit,
		 t ? " in " : "", t ? page_num(t->value, 1, b, sizeof(b)) : "",
		 t ? " s" : "");
	page_table_begin(f, &x->pg, "Purge: method, time and verification",
			 "Device", "Method", "Time (s)", "Verification",
			 (const char *)NULL);
	for (size_t r = 0; r < x->nruns; r++) {
		bufprintf(key, sizeof(key), "%s.purge_method", step);
		const struct rpt_metric *mr = rpt_metric(&x->runs[r], key);
		bufprintf(key, sizeof(key), "%s.purge_seconds", step);
		const struct rpt_metric *tr = rpt_metric(&x->runs[r], key);
		page_tr(f);
		page_td(f, "%s", x->runs[r].label);
		page_td(f, "%s", mr ? mr->unit : "not recorded");
		page_td_num(f, tr ? tr->value : NAN, 1, "not recorded");
		page_td(f, "%s", mr ? purge_verification(mr->unit) : "-");
	}
	page_table_end(f);
	return 0;
}
