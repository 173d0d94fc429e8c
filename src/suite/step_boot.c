/*
 * The boot workload (METHODOLOGY §4.4, OCP BootBench): discard the drive,
 * write it randomly `prefill_writes` times, then search the number N of
 * QD1 random readers the drive serves within the latency limits while a
 * buffered writer (with fsyncs) and a trimmer run beside them.
 *
 * Search: N = n_start, doubling (double_time runs) until a run fails or N
 * reaches n_max; then bisection between the last pass and the first fail
 * (bisect_time runs); then, from the best passing N down, confirm_runs
 * runs of confirm_time each until all of them pass.  The score is the
 * minimum read IOPS of those confirming runs, recorded as boot.score_iops
 * with boot.score_readers; boot.pass is score >= pass_iops.
 *
 * Each trial's three workloads are named "n=N phase=P run=K readers",
 * "... writer", "... trimmer".
 */
#include "suite/step.h"

struct trial {
	bool pass;
	double iops;
};

static int run_trial(struct step_ctx *c, uint32_t n, const char *phase,
		     unsigned k, uint64_t time_ns, struct trial *t,
		     struct sb_err *e)
{
	const struct plan_step *st = c->step;
	struct workload w[3];
	step_workload(c, &w[0], "n=%u phase=%s run=%u readers", n, phase, k);
	w[0].pattern = PATTERN_RAND;
	w[0].read_pct = 100;
	w[0].bs = (uint32_t)step_u64(st, "read_bs");
	w[0].qd = 1;
	w[0].jobs = n;
	step_workload(c, &w[1], "n=%u phase=%s run=%u writer", n, phase, k);
	w[1].pattern = PATTERN_RAND;
	w[1].read_pct = 0;
	w[1].bs = (uint32_t)step_u64(st, "writer_bs");
	w[1].buffered = !c->is_sim;
	w[1].fsync_every = step_u64(st, "fsync_every");
	w[1].rate = step_u64(st, "writer_rate");
	step_workload(c, &w[2], "n=%u phase=%s run=%u trimmer", n, phase, k);
	w[2].pattern = PATTERN_RAND;
	w[2].trim_pct = 100;
	w[2].bs = (uint32_t)step_u64(st, "trim_bs");
	w[2].rate = step_u64(st, "trim_rate");
	for (int i = 0; i < 3; i++)
		w[i].stop_time_ns = time_ns;
	struct engine_result res;
	int rc = step_run(c, w, 3, NULL, NULL, &res, e);
	if (!rc && !c->stopped) {
		const struct lat_hist *h = res.wl[0].hist[DIR_READ];
		t->iops = result_iops(&res.wl[0], DIR_READ);
		t->pass = h->count > 0 &&
			  hist_percentile(h, 99) <= step_u64(st, "p99") &&
			  hist_percentile(h, 99.9) <= step_u64(st, "p999") &&
			  h->max <= step_u64(st, "max");
	}
	engine_result_free(&res);
	return rc;
}

int step_run_boot(struct step_ctx *c, struct sb_err *e)
{
	const struct plan_step *st = c->step;
	uint32_t n0 = (uint32_t)step_u64(st, "n_start");
	uint32_t nmax = (uint32_t)step_u64(st, "n_max");
	unsigned confirm = (unsigned)step_u64(st, "confirm_runs");
	c->units_total = 2 + 8 + 8 + confirm;
	if (engine_discard(c->eng, 0, c->size, e))
		return sb_err_wrap(e, "boot: discarding the drive");
	c->units_done++;
	struct workload w;
	step_workload(c, &w, "prefill");
	w.pattern = PATTERN_RAND;
	w.read_pct = 0;
	w.bs = (uint32_t)step_u64(st, "prefill_bs");
	w.qd = (uint32_t)step_u64(st, "prefill_qd");
	w.stop_bytes = (uint64_t)(step_double(st, "prefill_writes") * (double)c->size);
	w.stop_bytes -= w.stop_bytes % w.bs;
	if (w.stop_bytes && step_run1(c, &w, e))
		return -1;
	if (c->stopped)
		return 0;

	struct trial t;
	uint32_t lo = 0, hi = 0, n = n0;
	for (;;) {	/* doubling */
		if (run_trial(c, n, "double", 1, step_u64(st, "double_time"), &t, e))
			return -1;
		if (c->stopped)
			return 0;
		if (!t.pass) {
			hi = n;
			break;
		}
		lo = n;
		if (n >= nmax)
			break;
		n = n > nmax / 2 ? nmax : n * 2;
	}
	while (hi && hi - lo > 1) {	/* bisection */
		uint32_t mid = lo + (hi - lo) / 2;
		if (run_trial(c, mid, "bisect", 1, step_u64(st, "bisect_time"), &t, e))
			return -1;
		if (c->stopped)
			return 0;
		if (t.pass)
			lo = mid;
		else
			hi = mid;
	}
	double score = 0;
	uint32_t readers = 0;
	for (n = lo; n >= 1 && !readers; n--) {	/* step down */
		double min_iops = 0;
		bool all = true;
		for (unsigned k = 1; k <= confirm && all; k++) {
			if (run_trial(c, n, "confirm", k, step_u64(st, "confirm_time"), &t, e))
				return -1;
			if (c->stopped)
				return 0;
			all = t.pass;
			if (k == 1 || t.iops < min_iops)
				min_iops = t.iops;
		}
		if (all) {
			readers = n;
			score = min_iops;
		}
	}
	if (step_metric(c, "boot.score_iops", score, "IOPS", e) ||
	    step_metric(c, "boot.score_readers", readers, "", e) ||
	    step_metric(c, "boot.pass", score >= (double)step_u64(st, "pass_iops"), "", e))
		return -1;
	return 0;
}
