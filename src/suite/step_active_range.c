/*
 * Active Range (METHODOLOGY §3.3): after Fill Drive, `amount` of random
 * reads over spans growing from `span_start` to the whole drive.  A drive
 * whose mapping cache covers less than the span slows down as it grows.
 */
#include "suite/kinds.h"
#include "suite/step.h"

int step_run_active_range(struct step_ctx *c, struct sb_err *e)
{
	uint64_t spans[64];
	uint64_t bs = step_u64(c->step, "bs");
	uint32_t n = active_range_spans(c->step, c->size, bs, spans, 64);
	c->units_total = n;
	for (uint32_t i = 0; i < n; i++) {
		struct workload w;
		step_workload(c, &w, "span=%llu", (unsigned long long)spans[i]);
		w.pattern = PATTERN_RAND;
		w.read_pct = 100;
		w.bs = (uint32_t)bs;
		w.qd = (uint32_t)step_u64(c->step, "qd");
		w.span_len = spans[i];
		w.stop_bytes = step_u64(c->step, "amount");
		if (step_run1(c, &w, e))
			return -1;
		if (c->stopped)
			return 0;
	}
	return 0;
}
