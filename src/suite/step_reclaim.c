/*
 * SLC cache reclaim (METHODOLOGY §3.7): for each idle time T, purge, fill
 * `fill_share` sequentially, idle T, then write sequentially for
 * `write_time` from where the fill ended.  The minute after the idle shows
 * how much cache came back.  Workloads are "idle=T phase=fill|write", T in
 * milliseconds.
 */
#include "suite/step.h"

int step_run_reclaim(struct step_ctx *c, struct sb_err *e)
{
	const struct plan_step *st = c->step;
	const struct param_value *idles = step_param(st, "idles");
	uint32_t bs = (uint32_t)step_u64(st, "bs");
	uint64_t fill = step_amount(st, "fill_share", c->size, bs);
	c->units_total = idles->n * 2.0;
	for (uint32_t i = 0; i < idles->n; i++) {
		unsigned long long ms = (unsigned long long)(idles->ulist[i] / 1000000);
		if (step_purge(c, step_param(st, "method")->s, e))
			return -1;
		step_idle(c, step_u64(st, "purge_rest"));
		if (c->stopped)
			return 0;
		struct workload w;
		step_workload(c, &w, "idle=%llu phase=fill", ms);
		w.pattern = PATTERN_SEQ;
		w.read_pct = 0;
		w.bs = bs;
		w.qd = (uint32_t)step_u64(st, "qd");
		w.span_len = fill;
		w.stop_bytes = fill;
		if (step_run1(c, &w, e))
			return -1;
		if (c->stopped)
			return 0;
		step_idle(c, idles->ulist[i]);
		if (c->stopped)
			return 0;
		step_workload(c, &w, "idle=%llu phase=write", ms);
		w.pattern = PATTERN_SEQ;
		w.read_pct = 0;
		w.bs = bs;
		w.qd = (uint32_t)step_u64(st, "qd");
		w.span_offset = fill < c->size ? fill : 0;
		w.stop_time_ns = step_u64(st, "write_time");
		if (step_run1(c, &w, e))
			return -1;
		if (c->stopped)
			return 0;
	}
	return 0;
}
