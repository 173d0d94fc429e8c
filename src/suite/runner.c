/*
 * The runner: one open target, the plan's steps in order, each recorded as
 * a step row with its parameters, outcome and error, rests between them.
 * Resume skips the steps whose row says "done" and marks rows left
 * "running", "interrupted" or "failed" as "partial" before running their
 * step again: their samples stay in the store, marked.
 */
#include "suite/runner.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/json.h"
#include "device/host.h"
#include "device/safety.h"
#include "device/target_json.h"
#include "engine/engine.h"
#include "sim/sim.h"
#include "suite/device_io.h"
#include "suite/record.h"
#include "suite/step.h"
#include "suite/target.h"

typedef int (*step_fn)(struct step_ctx *c, struct sb_err *e);

static const struct {
	const char *kind;
	step_fn fn;
} step_fns[] = {
	{ "purge", step_run_purge },
	{ "peak", step_run_peak },
	{ "fill", step_run_fill },
	{ "active_range", step_run_active_range },
	{ "cssd_precond", step_run_cssd_precond },
	{ "sync_write", step_run_sync_write },
	{ "rw_ratio", step_run_rw_ratio },
	{ "reclaim", step_run_reclaim },
	{ "ss_precond", step_run_ss_precond },
	{ "sweep", step_run_sweep },
	{ "tail", step_run_sweep },
	{ "boot", step_run_boot },
	{ "load_sweep", step_run_load_sweep },
	{ "profiles", step_run_profiles },
};

static step_fn fn_of(const struct step_kind *k)
{
	for (size_t i = 0; i < sizeof step_fns / sizeof step_fns[0]; i++)
		if (!strcmp(step_fns[i].kind, k->name))
			return step_fns[i].fn;
	return NULL;
}

static void fill_step_params(struct json_writer *w, const void *arg)
{
	const struct plan_step *st = arg;
	json_object_begin(w, NULL);
	json_string(w, "kind", st->kind->name);
	for (int i = 0; i < step_nparams(st); i++)
		json_string(w, step_desc(st, i)->key, st->v[i].text);
	json_object_end(w);
}

static int record_facts(struct store *s, int64_t run_id, const char *when,
			const struct target_facts *f, struct sb_err *e)
{
	char *json = target_facts_json_string(f);
	if (!json)
		return sb_errf(e, "out of memory");
	int rc = store_run_target_facts(s, run_id, when, json, e);
	free(json);
	return rc;
}

static uint32_t enabled_steps(const struct plan *p)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < p->nsteps; i++)
		n += step_enabled(&p->steps[i]);
	return n;
}

/* Which plan steps a stored run already finished; others left marked. */
static int scan_steps(struct store *s, int64_t run_id, const struct plan *p,
		      bool *done, struct sb_err *e)
{
	struct step_row *rows;
	size_t n;
	if (store_list_steps(s, run_id, &rows, &n, e))
		return -1;
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		int seq = rows[i].seq;
		if (seq < 1 || (uint32_t)seq > p->nsteps ||
		    strcmp(rows[i].name, p->steps[seq - 1].name))
			continue;
		if (!strcmp(rows[i].status, "done"))
			done[seq - 1] = true;
		else if (strcmp(rows[i].status, "partial"))
			rc = store_step_finish(s, rows[i].id, "partial",
					       "cut short; the step ran again on resume", e);
	}
	store_step_rows_free(rows, n);
	return rc;
}

struct run_state {
	struct store *s;
	int64_t run_id;
	const struct plan *p;
	const struct suite_opts *o;
	struct suite_record rec;
	struct plan_target t;
	struct engine_opts eo;
	struct engine *eng;
	struct suite_monitor *mon;	/* temperature and health, or NULL */
	bool have_facts_before;		/* a resumed run recorded them */
	double clock_base_s;		/* target clock lost to reopens, s */
	/* A simulated drive's streams, kept across its purges (reopens):
	   one asked again of the same fresh drive repeats its record. */
	struct sim_memo *memo;
};

/*
 * The step's figures, into the store as metrics as soon as it is done.  A
 * figure that cannot be computed is no reason to stop measuring: the
 * samples are kept and `analyze` can compute it again; the user is told.
 */
static void step_figures(struct run_state *rs, struct step_ctx *c,
			 int64_t step_id)
{
	struct step_row *rows;
	size_t n;
	struct sb_err fe;
	if (!rs->o->step_figures)
		return;
	if (store_list_steps(rs->s, rs->run_id, &rows, &n, &fe)) {
		step_note(c, "%s: figures not computed: %s", c->step->name, fe.msg);
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (rows[i].id == step_id &&
		    rs->o->step_figures(rs->s, rs->run_id, rs->p, c->size, &rows[i], &fe))
			step_note(c, "%s: figures not computed: %s", c->step->name, fe.msg);
	store_step_rows_free(rows, n);
}

static int run_one(struct run_state *rs, uint32_t i, uint32_t step_no,
		   double rest_s, bool *stopped, int64_t *step_id_out,
		   struct sb_err *e)
{
	const struct plan_step *st = &rs->p->steps[i];
	char *params = json_to_string(fill_step_params, st);
	int64_t step_id;
	int rc = store_step_begin(rs->s, rs->run_id, (int)i + 1, st->name, params,
				  &step_id, e);
	free(params);
	if (rc)
		return -1;
	*step_id_out = step_id;
	const struct target_facts *f = engine_facts(rs->eng);
	struct step_ctx c = {
		.eng = rs->eng, .eopts = &rs->eo, .store = rs->s, .opts = rs->o,
		.plan = rs->p, .step = st, .run_id = rs->run_id, .step_id = step_id,
		.size = f->size, .lb = f->logical_block, .is_file = f->is_file,
		.is_sim = f->is_sim, .interval_ns = rs->eo.interval_ns,
		.seed = suite_param(rs->p, "seed")->u,
		.step_no = step_no, .nsteps = enabled_steps(rs->p),
		.rest_of_plan_s = rest_s, .mon = rs->mon,
		.clock_base_s = rs->clock_base_s,
	};
	c.step_t0 = step_clock_s(&c);
	step_readings(&c);
	char why[160];
	const char *skip = plan_step_skip_reason(st, &rs->t, why, sizeof why);
	if (skip) {
		step_note(&c, "%s: skipped: %s", st->name, skip);
		char msg[200];
		snprintf(msg, sizeof msg, "skipped: %s", skip);
		return store_step_finish(rs->s, step_id, "done", msg, e);
	}
	step_fn fn = fn_of(st->kind);
	rc = fn ? fn(&c, e) : sb_errf(e, "no code runs steps of kind %s", st->kind->name);
	if (!rc)
		rc = plan_step_bug(st, e);
	rs->eng = c.eng;	/* a purge may reopen it */
	rs->clock_base_s = c.clock_base_s;
	if (rs->eng)	/* a format may have changed the logical block */
		rs->t.logical_block = engine_facts(rs->eng)->logical_block;
	step_readings(&c);
	struct sb_err se;
	if (rc) {
		sb_err_wrap(e, "step %s", st->name);
		store_step_finish(rs->s, step_id, "failed", e->msg, &se);
		return -1;
	}
	*stopped = c.stopped;
	if (store_step_finish(rs->s, step_id, c.stopped ? "interrupted" : "done",
			      NULL, e) ||
	    store_tick(rs->s, true, e))
		return -1;
	if (!c.stopped)
		step_figures(rs, &c, step_id);
	return 0;
}

/* Open the target after the same checks as before any run's first I/O. */
static int open_target(struct run_state *rs, struct sb_err *e)
{
	if (plan_target_probe(rs->rec.target, rs->rec.file_size, &rs->t, e) ||
	    plan_check(rs->p, &rs->t, e))
		return -1;
	if (!rs->t.is_sim) {
		struct safety_request sr = { rs->rec.target, true, rs->rec.destroy_data };
		if (safety_check(&sr, e))
			return -1;
	}
	memset(&rs->eo, 0, sizeof rs->eo);
	rs->eo.target = rs->rec.target;
	rs->eo.file_size = rs->rec.file_size;
	rs->eo.interrupted = rs->o->interrupted;
	rs->eo.interval_ns = suite_param(rs->p, "interval")->u;
	rs->eo.allow_write = true;
	if (rs->t.is_sim) {
		if (sim_memo_new(&rs->memo, e))
			return -1;
		rs->eo.sim_memo = rs->memo;
	}
	if (engine_open(&rs->eo, &rs->eng, e)) {
		sim_memo_free(rs->memo);
		rs->memo = NULL;
		return -1;
	}
	return 0;
}

static int run_plan(struct run_state *rs, bool resuming, enum suite_outcome *out,
		    struct sb_err *e)
{
	struct sb_err se;
	*out = SUITE_FAILED;
	bool done[PLAN_STEPS_MAX] = { false };
	/* Refused before anything is touched: a second writer of a run must
	   not mark the first one's run failed. */
	if (store_lease_take(rs->s, rs->run_id, e))
		return -1;
	if (open_target(rs, e)) {
		store_run_finish(rs->s, rs->run_id, "failed", e->msg, &se);
		store_lease_release(rs->s, rs->run_id, &se);
		return 0;
	}
	if (suite_monitor_open(engine_facts(rs->eng), &rs->mon, &se))
		rs->mon = NULL;	/* no readings is no reason not to measure */
	if ((resuming && scan_steps(rs->s, rs->run_id, rs->p, done, e)) ||
	    (!rs->have_facts_before && record_facts(rs->s, rs->run_id, "before",
						    engine_facts(rs->eng), e)))
		goto fail;
	/* The estimate of every step still to run, for the plan's ETA. */
	double left[PLAN_STEPS_MAX + 1] = { 0 };
	for (int i = (int)rs->p->nsteps - 1; i >= 0; i--) {
		left[i] = left[i + 1];
		const struct plan_step *st = &rs->p->steps[i];
		if (step_enabled(st) && !done[i]) {
			struct step_estimate est;
			plan_estimate_step(st, &rs->t, &est);
			left[i] += est.seconds;
		}
	}
	uint32_t step_no = 0, last = 0;
	for (uint32_t i = 0; i < rs->p->nsteps; i++)
		if (step_enabled(&rs->p->steps[i]))
			last = i;
	for (uint32_t i = 0; i < rs->p->nsteps; i++) {
		const struct plan_step *st = &rs->p->steps[i];
		if (!step_enabled(st))
			continue;
		step_no++;
		if (done[i])
			continue;
		bool stopped = false;
		int64_t step_id = 0;
		struct step_ctx clk = { .eng = rs->eng, .opts = rs->o,
					.is_sim = rs->t.is_sim,
					.clock_base_s = rs->clock_base_s };
		double t0 = step_clock_s(&clk);
		if (run_one(rs, i, step_no, left[i + 1], &stopped, &step_id, e))
			goto fail;
		clk.eng = rs->eng;
		clk.clock_base_s = rs->clock_base_s;
		if (!stopped && i != last && step_u64(st, "rest"))
			step_idle(&clk, step_u64(st, "rest"));
		/* What the step took with its rest, on the target's clock: the
		   plan's estimate of it is checked against this. */
		char key[64];
		snprintf(key, sizeof key, "%s.step_seconds", st->name);
		if (!stopped && step_id &&
		    store_put_metric(rs->s, rs->run_id, step_id, 0, key,
				     step_clock_s(&clk) - t0, "s", e))
			goto fail;
		if (stopped || (rs->o->interrupted && *rs->o->interrupted)) {
			store_run_finish(rs->s, rs->run_id, "interrupted", NULL, &se);
			*out = SUITE_INTERRUPTED;
			goto close;
		}
	}
	if (record_facts(rs->s, rs->run_id, "after", engine_facts(rs->eng), e) ||
	    store_run_finish(rs->s, rs->run_id, "done", NULL, e))
		goto fail;
	*out = SUITE_DONE;
	goto close;
fail:
	store_run_finish(rs->s, rs->run_id, "failed", e->msg, &se);
close:
	suite_monitor_close(rs->mon);
	rs->mon = NULL;
	engine_close(rs->eng);
	rs->eng = NULL;
	sim_memo_free(rs->memo);
	rs->memo = NULL;
	store_tick(rs->s, true, &se);
	store_lease_release(rs->s, rs->run_id, &se);
	return 0;
}

int suite_start(struct store *s, const struct plan *p,
		const struct suite_opts *o, int64_t *run_id,
		enum suite_outcome *out, struct sb_err *e)
{
	/* The plan as it runs: with the seed it uses, which is recorded. */
	struct plan *rp = malloc(sizeof *rp);
	if (!rp)
		return sb_errno(e, ENOMEM, "plan");
	*rp = *p;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	plan_resolve_seed(rp, !strncmp(o->target, "sim:", 4),
			  (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec);
	struct run_state rs = { .s = s, .p = rp, .o = o };
	snprintf(rs.rec.target, sizeof rs.rec.target, "%s", o->target);
	rs.rec.file_size = o->file_size;
	rs.rec.destroy_data = o->destroy_data;
	rs.rec.plan_text = plan_canonical(rp);
	if (!rs.rec.plan_text) {
		free(rp);
		return sb_errf(e, "out of memory for the plan's text");
	}
	char *params = suite_record_json(&rs.rec);
	char *host = host_facts_json_string();
	struct run_begin b = {
		.kind = "suite", .target = o->target,
		.command_line = o->command_line, .params_json = params,
		.host_json = host,
	};
	int rc = store_run_begin(s, &b, run_id, e);
	free(params);
	free(host);
	if (!rc) {
		rs.run_id = *run_id;
		if (o->ui.started)
			o->ui.started(o->ui.ctx, *run_id);
		rc = run_plan(&rs, false, out, e);
	}
	free(rs.rec.plan_text);
	free(rp);
	return rc;
}

int suite_resume(struct store *s, int64_t run_id, const struct suite_opts *o,
		 enum suite_outcome *out, struct sb_err *e)
{
	struct run_state rs = { .s = s, .run_id = run_id, .o = o };
	struct run_row row;
	if (store_get_run(s, run_id, &row, e))
		return -1;
	bool finished = !strcmp(row.status, "done");
	rs.have_facts_before = row.facts_before_json != NULL;
	bool suite = !strcmp(row.kind, "suite");
	store_run_row_free(&row);
	if (!suite)
		return sb_errf(e, "run %lld is not a suite run", (long long)run_id);
	if (finished)
		return sb_errf(e, "run %lld is already complete", (long long)run_id);
	if (suite_record_load(s, run_id, &rs.rec, e))
		return -1;
	struct plan *p = malloc(sizeof *p);
	if (!p) {
		free(rs.rec.plan_text);
		return sb_errf(e, "out of memory");
	}
	int rc = plan_from_canonical(p, rs.rec.plan_text, e);
	if (!rc) {
		rs.p = p;
		rc = run_plan(&rs, true, out, e);
	}
	free(p);
	free(rs.rec.plan_text);
	return rc;
}
