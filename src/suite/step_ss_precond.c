/*
 * SEQ and RND preconditioning to steady state (METHODOLOGY §4.1): write
 * the whole drive until the analysis library's online detector sees a
 * steady window (after at least min_writes x capacity), giving up at
 * max_writes x capacity.  The detector is fed from the engine's interval
 * hook, so the run stops the moment steady state is reached.
 */
#include <string.h>

#include "analysis/steady.h"
#include <stdio.h>

#include "suite/step.h"

struct ss_ctx {
	struct ss_detector *det;
	uint64_t interval_ns;	/* the nominal slice */
	bool reached;
};

static int feed(void *ctx, const struct interval_sample *s, struct sb_err *e)
{
	(void)e;
	struct ss_ctx *x = ctx;
	if (s->ramp || s->t_end_ns <= s->t_start_ns)
		return 0;
	struct trace_pt pt = {
		.ns = s->t_end_ns - s->t_start_ns,
		.bytes = s->dir[DIR_WRITE].bytes,
		.ios = s->dir[DIR_WRITE].ios,
	};
	/* only the first or the last slice can be cut short; it is no
	   interval for the rule (trace_whole offline, the same test here) */
	if (trace_slice_partial(pt.ns, x->interval_ns))
		ss_pass(x->det, &pt);
	else if (ss_push(x->det, &pt))
		x->reached = true;
	return x->reached ? 1 : 0;
}

/* The detector's parameters from a step's settings. */
void ss_params_of_step(const struct plan_step *st, uint64_t size,
		       uint64_t interval_ns, struct ss_params *p)
{
	ss_params_default(p);
	const char *rule = step_param(st, "rule")->s;
	p->rule = !strcmp(rule, "snia") ? SS_SNIA :
		  !strcmp(rule, "deviation") ? SS_FIO_DEVIATION : SS_FIO_SLOPE;
	p->metric = strcmp(step_param(st, "track")->s, "iops") ? TRACE_BW : TRACE_IOPS;
	/* the 100 ms samples, added up into the rule's ss_interval */
	p->sample_s = (double)interval_ns / 1e9;
	p->interval_s = (double)step_u64(st, "ss_interval") / 1e9;
	p->window_s = (double)step_u64(st, "window") / 1e9;
	p->slope_limit_pct = step_double(st, "slope_tol");
	p->excursion_limit_pct = step_double(st, "excursion_tol");
	p->capacity_bytes = size;
	p->min_bytes = (uint64_t)(step_double(st, "min_writes") * (double)size);
}

int step_run_ss_precond(struct step_ctx *c, struct sb_err *e)
{
	const struct plan_step *st = c->step;
	struct ss_params sp;
	ss_params_of_step(st, c->size, c->interval_ns, &sp);
	struct ss_ctx x = { .interval_ns = c->interval_ns };
	if (ss_new(&sp, &x.det, e))
		return sb_err_wrap(e, "steady-state detector");
	struct workload w;
	step_workload(c, &w, "precond");
	w.pattern = strcmp(step_param(st, "pattern")->s, "rand") ? PATTERN_SEQ : PATTERN_RAND;
	w.read_pct = 0;
	w.bs = (uint32_t)step_u64(st, "bs");
	w.qd = (uint32_t)step_u64(st, "qd");
	w.stop_bytes = (uint64_t)(step_double(st, "max_writes") * (double)c->size);
	w.stop_bytes -= w.stop_bytes % w.bs;
	c->units_total = 1;
	struct engine_result res;
	int rc = step_run(c, &w, 1, feed, &x, &res, e);
	engine_result_free(&res);
	ss_free(x.det);
	if (rc || c->stopped)
		return rc;
	if (!x.reached)
		step_note(c, "%s: no steady state within %s drive-writes", st->name,
			  step_param(st, "max_writes")->text);
	char key[96];
	snprintf(key, sizeof key, "%s.stopped_at_steady_state", st->name);
	return step_metric(c, key, x.reached, "", e);
}
