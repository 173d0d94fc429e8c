/*
 * Sync Write (METHODOLOGY §3.5): random O_SYNC writes at QD1 in the first
 * `span`, `amount` in total, stopped at `time`.
 */
#include "suite/step.h"

int step_run_sync_write(struct step_ctx *c, struct sb_err *e)
{
	const struct plan_step *st = c->step;
	struct workload w;
	c->units_total = 1;
	step_workload(c, &w, "sync");
	w.pattern = PATTERN_RAND;
	w.read_pct = 0;
	w.bs = (uint32_t)step_u64(st, "bs");
	w.qd = 1;
	w.sync = true;
	w.span_len = step_amount(st, "span", c->size, w.bs);
	w.stop_bytes = step_u64(st, "amount");
	w.stop_time_ns = step_u64(st, "time");
	return step_run1(c, &w, e);
}
