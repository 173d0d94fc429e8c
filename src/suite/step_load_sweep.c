/*
 * Latency at a given load (METHODOLOGY §7: "latency at a given IOPS"): for
 * each read share, first the most a closed loop does at the step's queue
 * depth ("mix=M phase=max"), then an open loop (docs/run.md) at each of
 * `levels` per cent of it ("mix=M load=L").  Each level's I/Os arrive on
 * the schedule whatever the drive does, the queue depth caps what is
 * outstanding, and the latency that counts is the response latency, from
 * each I/O's arrival: the latency-throughput curve ("hockey stick") of
 * enterprise datasheets and SNIA's latency tests.  The figures (findings)
 * and the chart (report/sec_load.c) come from the stored workloads.
 */
#include <math.h>
#include <string.h>

#include "suite/step.h"

static void level_workload(struct step_ctx *c, struct workload *w, uint64_t mix,
			   const char *what, uint64_t load)
{
	const struct plan_step *st = c->step;
	if (load)
		step_workload(c, w, "mix=%llu load=%llu", (unsigned long long)mix,
			      (unsigned long long)load);
	else
		step_workload(c, w, "mix=%llu phase=%s", (unsigned long long)mix, what);
	w->pattern = PATTERN_RAND;
	w->read_pct = (uint32_t)mix;
	w->bs = (uint32_t)step_u64(st, "bs");
	w->qd = (uint32_t)step_u64(st, "qd");
	w->span_len = step_amount(st, "span", c->size, w->bs);
	w->ramp_ns = step_u64(st, "ramp");
	w->stop_time_ns = step_u64(st, "time");
}

int step_run_load_sweep(struct step_ctx *c, struct sb_err *e)
{
	const struct plan_step *st = c->step;
	const struct param_value *mixes = step_param(st, "mixes");
	const struct param_value *levels = step_param(st, "levels");
	enum arrival_process proc;
	if (arrival_process_parse(step_param(st, "process")->s, &proc, e))
		return -1;
	c->units_total = (double)mixes->n * (levels->n + 1);
	for (uint32_t m = 0; m < mixes->n; m++) {
		uint64_t mix = mixes->ulist[m];
		struct workload w;
		struct engine_result res;
		level_workload(c, &w, mix, "max", 0);
		int rc = step_run(c, &w, 1, NULL, NULL, &res, e);
		double max = rc ? 0 : result_iops(&res.wl[0], DIR_READ) +
				      result_iops(&res.wl[0], DIR_WRITE);
		engine_result_free(&res);
		if (rc)
			return -1;
		if (c->stopped)
			return 0;
		if (!(max >= 1)) {
			/* nothing to take a share of: said, and the levels
			   left out rather than run at a made-up rate */
			step_note(c, "%s: mix=%llu completed no I/O at its maximum; "
				  "no load levels", st->name, (unsigned long long)mix);
			c->units_done += levels->n;
			continue;
		}
		for (uint32_t l = 0; l < levels->n; l++) {
			level_workload(c, &w, mix, NULL, levels->ulist[l]);
			double rate = max * (double)levels->ulist[l] / 100.0;
			w.rate_iops = rate >= 1 ? (uint64_t)llround(rate) : 1;
			w.rate_process = proc;
			if (step_run1(c, &w, e))
				return -1;
			if (c->stopped)
				return 0;
		}
	}
	return 0;
}
