/*
 * Running a step's workloads with everything recorded: each workload gets
 * its row, every interval sample goes to the store as it arrives, totals
 * and histograms are checkpointed about once a second (so a crash loses at
 * most that), and the final totals are written when it ends.
 */
#include "suite/step.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/json.h"
#include "common/rng.h"
#include "suite/totals.h"

#define STEP_MAX_WORKLOADS 8

struct recorder {
	struct step_ctx *c;
	uint32_t n;
	int64_t wid[STEP_MAX_WORKLOADS];
	/* The newest interval's rate of each workload, for the progress. */
	double bps[STEP_MAX_WORKLOADS], iops[STEP_MAX_WORKLOADS];
	step_interval_fn fn;
	void *fn_ctx;
};

double step_clock_s(const struct step_ctx *c)
{
	if (!c->is_sim)
		return step_wall_s();
	return c->clock_base_s + (c->eng ? (double)engine_now(c->eng) / 1e9 : 0);
}

/* The progress' view of one interval: its rate, and what it wrote. */
static void progress_interval(struct recorder *r, const struct interval_sample *s)
{
	double ns = (double)(s->t_end_ns - s->t_start_ns);
	uint64_t ios = 0, bytes = 0;
	for (int d = 0; d < DIR_COUNT; d++) {
		ios += s->dir[d].ios;
		bytes += s->dir[d].bytes;
	}
	r->c->step_written += s->dir[DIR_WRITE].bytes;
	r->bps[s->workload] = ns > 0 ? (double)bytes * 1e9 / ns : 0;
	r->iops[s->workload] = ns > 0 ? (double)ios * 1e9 / ns : 0;
	r->c->rate_bps = r->c->rate_iops = 0;
	for (uint32_t i = 0; i < r->n; i++) {
		r->c->rate_bps += r->bps[i];
		r->c->rate_iops += r->iops[i];
	}
}

double step_wall_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int on_interval(void *ctx, const struct interval_sample *s,
		       struct sb_err *e)
{
	struct recorder *r = ctx;
	if (s->workload >= r->n)
		return sb_errf(e, "sample of unknown workload %u", s->workload);
	progress_interval(r, s);
	if (store_add_sample(r->c->store, r->wid[s->workload], s, e) ||
	    store_tick(r->c->store, false, e))
		return -1;
	return r->fn ? r->fn(r->fn_ctx, s, e) : 0;
}

/* One reading of the device into the store; returns the query's backend
   time, start and end. */
static void take_readings(struct step_ctx *c, uint64_t *t0, uint64_t *t1)
{
	const char *keys[16];
	double v[16];
	*t0 = engine_now(c->eng);
	size_t n = suite_monitor_sample(c->mon, keys, v, 16);
	*t1 = engine_now(c->eng);
	struct sb_err e;
	for (size_t i = 0; i < n; i++)
		if (store_add_device_reading(c->store, c->run_id, *t0, keys[i], v[i], &e))
			break;	/* the samples matter more; the next try may work */
	c->last_reading = step_wall_s();
}

void step_readings(struct step_ctx *c)
{
	uint64_t t0, t1;
	if (c->mon && c->eng)
		take_readings(c, &t0, &t1);
}

/*
 * Readings while the workloads run, only when the step asks (monitor=, for
 * fills and preconditioning): the query's moment goes with every running
 * workload's samples, so the intervals it may have disturbed are known.
 */
static void readings_during(struct recorder *r, const struct workload_result *so_far)
{
	struct step_ctx *c = r->c;
	uint64_t every = step_u64(c->step, "monitor");
	/* A device with no source is not queried: nothing to mark. */
	if (!c->mon || !c->eng || !every || !strcmp(suite_monitor_source(c->mon), "none") ||
	    step_wall_s() - c->last_reading < (double)every / 1e9)
		return;
	uint64_t t0, t1;
	take_readings(c, &t0, &t1);
	uint64_t base = so_far->started_ns;
	struct sb_err e;
	for (uint32_t i = 0; i < r->n; i++)
		if (store_add_device_query(c->store, r->wid[i], t0 > base ? t0 - base : 0,
					   t1 > base ? t1 - base : 0,
					   suite_monitor_source(c->mon), &e))
			break;
}

static int on_checkpoint(void *ctx, uint32_t wl, const struct workload_result *so_far,
			 struct sb_err *e)
{
	struct recorder *r = ctx;
	readings_during(r, so_far);
	struct store_totals t;
	store_totals_of(so_far, &t);
	if (wl >= r->n)
		return sb_errf(e, "checkpoint of unknown workload %u", wl);
	return store_workload_totals(r->c->store, r->wid[wl], &t, so_far->hist,
				     false, e);
}

static void report(struct step_ctx *c, double workload_fraction)
{
	if (!c->opts->ui.progress)
		return;
	struct suite_progress p = {
		.step = c->step->name, .step_no = c->step_no, .nsteps = c->nsteps,
		.doing = c->doing, .step_fraction = -1, .step_eta_s = -1,
		.plan_eta_s = -1, .virtual_clock = c->is_sim,
		.rate_bps = c->rate_bps, .rate_iops = c->rate_iops,
		.step_drive_writes = c->size ? (double)c->step_written / (double)c->size : 0,
	};
	if (c->units_total > 0) {
		double f = (c->units_done + (workload_fraction > 0 ? workload_fraction : 0)) /
			   c->units_total;
		p.step_fraction = f > 1 ? 1 : f;
		double elapsed = step_clock_s(c) - c->step_t0;
		if (f > 0.001) {
			p.step_eta_s = elapsed * (1 - p.step_fraction) / p.step_fraction;
			p.plan_eta_s = p.step_eta_s + c->rest_of_plan_s;
		}
	}
	c->opts->ui.progress(c->opts->ui.ctx, &p);
}

static void on_progress(void *ctx, double fraction, double eta_s,
			const struct workload_result *so_far)
{
	(void)eta_s;
	(void)so_far;
	struct recorder *r = ctx;
	report(r->c, fraction);
}

/* The workload as JSON, for its row: everything needed to repeat it. */
int step_run(struct step_ctx *c, struct workload *w, uint32_t n,
	     step_interval_fn fn, void *fn_ctx, struct engine_result *res,
	     struct sb_err *e)
{
	memset(res, 0, sizeof *res);
	if (n > STEP_MAX_WORKLOADS)
		return sb_errf(e, "%u workloads at once (at most %d)", n,
			       STEP_MAX_WORKLOADS);
	if (c->opts->interrupted && *c->opts->interrupted) {
		c->stopped = true;
		return 0;
	}
	struct recorder r = { .c = c, .n = n, .fn = fn, .fn_ctx = fn_ctx };
	for (uint32_t i = 0; i < n; i++) {
		char *spec = workload_json_string(&w[i]);
		int rc = store_workload_begin(c->store, c->run_id, c->step_id,
					      c->next_index++, w[i].name, spec,
					      &r.wid[i], e);
		free(spec);
		if (rc)
			return -1;
	}
	snprintf(c->doing, sizeof c->doing, "%s", w[0].name);
	c->rate_bps = c->rate_iops = 0;	/* until its first interval */
	report(c, 0);
	struct engine_hooks hooks = {
		.ctx = &r, .on_interval = on_interval,
		.on_checkpoint = on_checkpoint, .on_progress = on_progress,
	};
	struct sb_err run_err;
	int run_rc = engine_run(c->eng, w, n, &hooks, res, &run_err);
	bool interrupted = c->opts->interrupted && *c->opts->interrupted;
	/*
	 * Whatever happened, what was measured is kept.  The engine's error is
	 * the one to report; a store error only when the engine had none.
	 */
	struct sb_err se;
	bool store_failed = false;
	const char *status = run_rc ? "failed" : interrupted ? "interrupted" : "done";
	for (uint32_t i = 0; i < n && res->wl; i++) {
		struct store_totals t;
		store_totals_of(&res->wl[i], &t);
		if (!store_failed &&
		    (store_workload_totals(c->store, r.wid[i], &t, res->wl[i].hist,
					   !run_rc && !interrupted, &se) ||
		     store_workload_finish(c->store, r.wid[i], status, res->mode, &se)))
			store_failed = true;
	}
	if (!store_failed && res->mode[0] &&
	    store_run_engine_mode(c->store, c->run_id, res->mode, &se))
		store_failed = true;
	if (!store_failed && store_tick(c->store, true, &se))
		store_failed = true;
	c->units_done += 1;
	if (interrupted)
		c->stopped = true;
	if (run_rc) {
		*e = run_err;
		return sb_err_wrap(e, "%s", w[0].name);
	}
	if (store_failed) {
		*e = se;
		return sb_err_wrap(e, "recording %s", w[0].name);
	}
	return 0;
}

int step_run1(struct step_ctx *c, struct workload *w, struct sb_err *e)
{
	struct engine_result res;
	int rc = step_run(c, w, 1, NULL, NULL, &res, e);
	engine_result_free(&res);
	return rc;
}

void step_workload(struct step_ctx *c, struct workload *w, const char *fmt, ...)
{
	workload_defaults(w);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(w->name, sizeof w->name, fmt, ap);
	va_end(ap);
	if (c->seed) {
		uint64_t x = c->seed + c->next_index;
		w->seed = seed_draw(&x);
	}
}

void step_idle(struct step_ctx *c, uint64_t ns)
{
	if (c->is_sim) {
		engine_idle(c->eng, ns);
		return;
	}
	/* A real rest sleeps; in slices, so Ctrl-C is seen within 0.2 s. */
	const uint64_t slice = 200000000ull;
	while (ns > 0) {
		if (c->opts->interrupted && *c->opts->interrupted) {
			c->stopped = true;
			return;
		}
		uint64_t d = ns < slice ? ns : slice;
		engine_idle(c->eng, d);
		ns -= d;
	}
}

int step_metric(struct step_ctx *c, const char *key, double v,
		const char *unit, struct sb_err *e)
{
	return store_put_metric(c->store, c->run_id, c->step_id, 0, key, v,
				unit, e);
}

void step_note(struct step_ctx *c, const char *fmt, ...)
{
	if (!c->opts->ui.note)
		return;
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	c->opts->ui.note(c->opts->ui.ctx, msg);
}

double result_bps(const struct workload_result *r)
{
	if (!r->measured_ns)
		return 0;
	uint64_t b = r->bytes[DIR_READ] + r->bytes[DIR_WRITE];
	return (double)b * 1e9 / (double)r->measured_ns;
}

double result_iops(const struct workload_result *r, int dir)
{
	if (!r->measured_ns)
		return 0;
	return (double)r->ios[dir] * 1e9 / (double)r->measured_ns;
}
