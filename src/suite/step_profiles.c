/*
 * Named workloads as a step: each profile of `profiles` (the table `run
 * --profile` uses, engine/profiles.h) for a ramp then a measured time over
 * `span`.  Workloads are named after their profile, so the report and
 * `show` tell them apart; qd=0 keeps each profile's own depth.
 */
#include "engine/profiles.h"
#include "suite/kinds.h"
#include "suite/step.h"

int step_run_profiles(struct step_ctx *c, struct sb_err *e)
{
	const struct plan_step *st = c->step;
	const struct workload_profile *p[PARAM_LIST_MAX];
	uint32_t n = step_profiles_list(st, p, PARAM_LIST_MAX);
	c->units_total = n;
	for (uint32_t i = 0; i < n; i++) {
		struct workload w;
		step_workload(c, &w, "profile=%s", p[i]->name);
		if (workload_profile_apply(p[i], &w, e))
			return -1;
		if (step_u64(st, "qd"))
			w.qd = (uint32_t)step_u64(st, "qd");
		w.span_len = step_amount(st, "span", c->size, workload_bs_max(&w));
		w.ramp_ns = step_u64(st, "ramp");
		w.stop_time_ns = step_u64(st, "time");
		if (step_run1(c, &w, e))
			return sb_err_wrap(e, "profile %s", p[i]->name);
		if (c->stopped)
			return 0;
	}
	return 0;
}
