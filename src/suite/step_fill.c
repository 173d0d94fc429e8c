/*
 * Fill Drive (METHODOLOGY §3.2): from FOB, sequential writes over `share`
 * of the drive, `passes` times, with `pass_rest` of idle between passes.
 */
#include "suite/step.h"

int step_run_fill(struct step_ctx *c, struct sb_err *e)
{
	uint64_t passes = step_u64(c->step, "passes");
	uint64_t bs = step_u64(c->step, "bs");
	uint64_t bytes = step_amount(c->step, "share", c->size, bs);
	c->units_total = (double)passes;
	for (uint64_t k = 1; k <= passes; k++) {
		if (k > 1) {
			step_idle(c, step_u64(c->step, "pass_rest"));
			if (c->stopped)
				return 0;
		}
		struct workload w;
		step_workload(c, &w, "pass=%llu", (unsigned long long)k);
		w.pattern = PATTERN_SEQ;
		w.read_pct = 0;
		w.bs = (uint32_t)bs;
		w.qd = (uint32_t)step_u64(c->step, "qd");
		w.span_len = bytes;
		w.stop_bytes = bytes;
		if (step_run1(c, &w, e))
			return -1;
		if (c->stopped)
			return 0;
	}
	return 0;
}
