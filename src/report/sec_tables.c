/*
 * The tables that are not about one step: the devices and platform (what
 * ran where, how: kernel, CPU, tool version, engine mode, polling), the
 * target facts, the headline figures of every test side by side, and the
 * analysis' stored findings.
 */
#include "report/json_scan.h"
#include "report/report_int.h"

#include <math.h>
#include <string.h>

/* Polling is on when the engine mode says so; "virtual" is the simulator. */
static const char *polling(const char *mode)
{
	if (!mode[0])
		return "unknown";
	if (strstr(mode, "poll"))
		return "yes";
	if (!strcmp(mode, "virtual"))
		return "n/a (simulated)";
	return "no";
}

struct kv_table {
	FILE *f;
	const struct rctx *x;
	const char *const *json;	/* per run */
	size_t from;
};

/* A key's row: its value in every run's object, "-" where absent. */
static int kv_row(void *ctx, const struct json_member *m)
{
	struct kv_table *t = ctx;
	page_tr(t->f);
	page_td(t->f, "%s", m->key);
	for (size_t r = 0; r < t->x->nruns; r++) {
		struct json_member v;
		if (json_get_member(t->json[r], m->key, &v))
			page_td(t->f, "%s", v.value);
		else
			page_td(t->f, "-");
	}
	return 0;
}

/* Keys that run `from` has and no earlier run had: one row each. */
static int kv_row_missing(void *ctx, const struct json_member *m)
{
	struct kv_table *t = ctx;
	struct json_member v;
	for (size_t q = 0; q < t->from; q++)
		if (t->json[q] && json_get_member(t->json[q], m->key, &v))
			return 0;
	return kv_row(ctx, m);
}

/*
 * One row per key: the DUT's keys in its order, then keys only the
 * comparison runs have; nested values (lists, objects) as their JSON.
 */
static void kv_table(struct rctx *x, const char *caption,
		     const char *const *json)
{
	FILE *f = x->pg.top;
	x->pg.ntables++;
	fputs("<table>\n<caption>", f);
	page_esc(f, caption);
	fputs("</caption>\n<tr><th></th>", f);
	for (size_t r = 0; r < x->nruns; r++) {
		fputs("<th>", f);
		page_esc(f, x->runs[r].label);
		fputs("</th>", f);
	}
	struct kv_table t = { f, x, json, 0 };
	for (t.from = 0; t.from < x->nruns; t.from++)
		if (json[t.from])
			json_scan_object(json[t.from], kv_row_missing, &t);
	page_table_end(f);
}

void sec_devices(struct rctx *x)
{
	FILE *f = x->pg.top;
	fputs("<h2 id=\"devices\">Devices and platform</h2>\n", f);
	page_table_begin(f, &x->pg, "Runs in this report", "", "Device",
			 "Target", "Run", "Database", "Kind", "Status",
			 "Started (UTC)", "Finished (UTC)", "Engine mode",
			 "Polling", "Driver stalls", (const char *)NULL);
	for (size_t r = 0; r < x->nruns; r++) {
		const struct rpt_run *run = &x->runs[r];
		page_tr(f);
		page_td(f, "%s", r ? "comparison" : "DUT");
		page_td(f, "%s", run->label);
		page_td(f, "%s", run->target);
		page_td_class(f, "num", "%lld", (long long)run->id);
		page_td(f, "%s", run->source);
		page_td(f, "%s", run->kind);
		page_td(f, "%s", run->status);
		page_td(f, "%s", run->started_at);
		page_td(f, "%s", run->finished_at);
		page_td(f, "%s", run->engine_mode[0] ? run->engine_mode : "-");
		page_td(f, "%s", polling(run->engine_mode));
		/* Waits of the I/O threads for the store: nothing was submitted
		   meanwhile, so a non-zero count says the run was disturbed. */
		if (run->stalls_known)
			page_td_class(f, "num", "%llu (%.3f s)", (unsigned long long)run->driver_stalls,
				      (double)run->driver_stall_ns / 1e9);
		else
			page_td(f, "%s", "not recorded");
	}
	page_table_end(f);

	const char *json[RPT_MAX_RUNS];
	for (size_t r = 0; r < x->nruns; r++)
		json[r] = x->runs[r].host_json;
	kv_table(x, "Platform (kernel, CPU, tool version)", json);
	for (size_t r = 0; r < x->nruns; r++)
		json[r] = x->runs[r].facts_json;
	kv_table(x, "Device summary (target facts after the run)", json);
}

void figures_table(struct rctx *x)
{
	if (!x->nfig)
		return;
	FILE *f = x->pg.top;
	fputs("<h2 id=\"figures\">Headline figures</h2>\n", f);
	x->pg.ntables++;
	fputs("<table>\n<tr><th>Test</th><th>Figure</th><th>Unit</th>", f);
	for (size_t r = 0; r < x->nruns; r++) {
		fputs("<th>", f);
		page_esc(f, x->runs[r].label);
		fputs("</th>", f);
	}
	for (size_t i = 0; i < x->nfig; i++) {
		const struct figure *g = &x->fig[i];
		page_tr(f);
		page_td(f, "%s", g->test);
		page_td(f, "%s", g->what);
		page_td(f, "%s", g->unit);
		for (size_t r = 0; r < x->nruns; r++)
			if (isfinite(g->v[r]))
				page_td_class(f, "num", fabs(g->v[r]) < 1e4
					      ? "%.4g" : "%.0f", g->v[r]);
			else
				page_td_class(f, "num", "-");
	}
	page_table_end(f);
}

void sec_metrics(struct rctx *x)
{
	const struct rpt_run *r = &x->runs[0];
	if (!r->nmetrics)
		return;
	FILE *f = x->pg.body;
	page_h2(&x->pg, "findings", "Findings of the analysis");
	page_para(f, "Every figure the analysis stored for %s, as stored.",
		  r->label);
	page_table_begin(f, &x->pg, NULL, "Step", "Key", "Value", "Unit",
			 (const char *)NULL);
	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct rpt_metric *m = &r->metrics[i];
		page_tr(f);
		page_td(f, "%s", m->step[0] ? m->step : "-");
		page_td(f, "%s", m->key);
		page_td_class(f, "num", "%.6g", m->value);
		page_td(f, "%s", m->unit);
	}
	page_table_end(f);
}
