/*
 * Performance by R/W ratio (METHODOLOGY §3.6): for every read share and
 * queue depth, runs of at most `amount` and `time` in the first `span`,
 * repeated by the analysis library's repetition rule (at least min_runs;
 * stable when the relative standard error of the last rse_window runs is
 * under `rse`; at most max_runs, then flagged).  Each run is a workload
 * named "read=R qd=Q run=K", so the findings apply the same rule to the
 * stored runs and report the same value.
 */
#include "analysis/lowqd.h"
#include "suite/step.h"

int step_run_rw_ratio(struct step_ctx *c, struct sb_err *e)
{
	const struct plan_step *st = c->step;
	const struct param_value *pcts = step_param(st, "read_pcts");
	const struct param_value *qds = step_param(st, "qds");
	struct rep_rule rule = {
		.min_runs = (unsigned)step_u64(st, "min_runs"),
		.max_runs = (unsigned)step_u64(st, "max_runs"),
		.last_k = (unsigned)step_u64(st, "rse_window"),
		.rse_limit = step_double(st, "rse") / 100.0,
	};
	uint32_t bs = (uint32_t)step_u64(st, "bs");
	uint64_t span = step_amount(st, "span", c->size, bs);
	c->units_total = (double)pcts->n * qds->n * rule.min_runs;
	for (uint32_t i = 0; i < pcts->n; i++)
		for (uint32_t q = 0; q < qds->n; q++) {
			struct rep_state rs;
			if (rep_init(&rs, &rule, e))
				return sb_err_wrap(e, "repetition rule");
			enum rep_verdict v = REP_AGAIN;
			for (unsigned k = 1; v == REP_AGAIN; k++) {
				if (k > 1 || i || q) {
					step_idle(c, step_u64(st, "point_rest"));
					if (c->stopped)
						return 0;
				}
				struct workload w;
				step_workload(c, &w, "read=%llu qd=%llu run=%u",
					      (unsigned long long)pcts->ulist[i],
					      (unsigned long long)qds->ulist[q], k);
				w.pattern = PATTERN_RAND;
				w.read_pct = (uint32_t)pcts->ulist[i];
				w.bs = bs;
				w.qd = (uint32_t)qds->ulist[q];
				w.span_len = span;
				w.stop_bytes = step_u64(st, "amount");
				w.stop_time_ns = step_u64(st, "time");
				/* A run's figure is its rate, which a calibrated
				   bulk stream gives (on a simulated SN850X within
				   0.3 % of every I/O simulated at each point:
				   bench/README.md); no per-I/O tail is asked. */
				w.bulk_any_depth = true;
				struct engine_result res;
				int rc = step_run(c, &w, 1, NULL, NULL, &res, e);
				double bps = rc ? 0 : result_bps(&res.wl[0]);
				engine_result_free(&res);
				if (rc)
					return -1;
				if (c->stopped)
					return 0;
				v = rep_add(&rs, bps);
				if (k >= rule.min_runs && v == REP_AGAIN)
					c->units_total += 1;
			}
		}
	return 0;
}
