/*
 * QD sweeps (METHODOLOGY §4.2, §4.4) and tail latency (§4.5): for each
 * read share ("mix"), each queue depth, a ramp then a measured time over
 * `span`.  Workloads are "mix=M qd=Q".  The histograms kept per workload
 * give the QoS table at every queue depth.
 */
#include <string.h>

#include "suite/step.h"

int step_run_sweep(struct step_ctx *c, struct sb_err *e)
{
	const struct plan_step *st = c->step;
	bool tail = !strcmp(st->kind->name, "tail");
	const struct param_value *mixes = step_param(st, "mixes");
	const struct param_value *qds = tail ? NULL : step_param(st, "qds");
	uint32_t nqd = tail ? 1 : qds->n;
	uint32_t bs = (uint32_t)step_u64(st, "bs");
	c->units_total = (double)mixes->n * nqd;
	for (uint32_t m = 0; m < mixes->n; m++)
		for (uint32_t q = 0; q < nqd; q++) {
			struct workload w;
			uint32_t qd = tail ? (uint32_t)step_u64(st, "qd") : (uint32_t)qds->ulist[q];
			step_workload(c, &w, "mix=%llu qd=%u",
				      (unsigned long long)mixes->ulist[m], qd);
			w.pattern = tail || !strcmp(step_param(st, "pattern")->s, "rand")
					    ? PATTERN_RAND : PATTERN_SEQ;
			w.read_pct = (uint32_t)mixes->ulist[m];
			w.bs = bs;
			w.qd = qd;
			w.span_len = step_amount(st, "span", c->size, bs);
			w.ramp_ns = step_u64(st, "ramp");
			w.stop_time_ns = step_u64(st, "time");
			/* A sweep point's figures are its rate, mean and
			   percentiles to 99.99 %, which a calibrated bulk
			   stream gives; the tail step counts every I/O. */
			w.bulk_any_depth = !tail;
			if (step_run1(c, &w, e))
				return -1;
			if (c->stopped)
				return 0;
		}
	return 0;
}
