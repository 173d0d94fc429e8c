/*
 * cSSD preconditioning (METHODOLOGY §3.4): purge; sequential writes over
 * the whole drive `seq_passes` times; random writes over the first
 * `rnd_span`; TRIM of the last `trim_share`, so that 75 % is in use.
 */
#include "suite/step.h"

int step_run_cssd_precond(struct step_ctx *c, struct sb_err *e)
{
	const struct plan_step *st = c->step;
	uint64_t passes = step_u64(st, "seq_passes");
	c->units_total = (double)passes + 3;
	if (step_purge(c, step_param(st, "method")->s, e))
		return -1;
	c->units_done++;
	step_idle(c, step_u64(st, "purge_rest"));
	if (c->stopped)
		return 0;
	for (uint64_t k = 1; k <= passes; k++) {
		struct workload w;
		step_workload(c, &w, "seq pass=%llu", (unsigned long long)k);
		w.pattern = PATTERN_SEQ;
		w.read_pct = 0;
		w.bs = (uint32_t)step_u64(st, "seq_bs");
		w.qd = (uint32_t)step_u64(st, "seq_qd");
		w.stop_bytes = c->size - c->size % w.bs;
		if (step_run1(c, &w, e))
			return -1;
		if (c->stopped)
			return 0;
	}
	uint64_t rbs = step_u64(st, "rnd_bs");
	uint64_t span = step_amount(st, "rnd_span", c->size, rbs);
	uint64_t amount = (uint64_t)(step_double(st, "rnd_writes") * (double)span);
	amount -= amount % rbs;
	if (amount) {
		struct workload w;
		step_workload(c, &w, "rnd");
		w.pattern = PATTERN_RAND;
		w.read_pct = 0;
		w.bs = (uint32_t)rbs;
		w.qd = (uint32_t)step_u64(st, "rnd_qd");
		w.span_len = span;
		w.stop_bytes = amount;
		if (step_run1(c, &w, e))
			return -1;
		if (c->stopped)
			return 0;
	}
	uint64_t trim = step_amount(st, "trim_share", c->size, c->lb);
	if (trim && engine_discard(c->eng, c->size - trim, trim, e))
		return sb_err_wrap(e, "trim of the last %s", step_param(st, "trim_share")->text);
	c->units_done++;
	return step_metric(c, "cssd_precond.trimmed_bytes", (double)trim, "B", e);
}
