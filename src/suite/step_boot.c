/*
 * The boot workload (METHODOLOGY §4.4, OCP BootBench): discard the drive,
 * write it randomly `prefill_writes` times, then search the number N of
 * QD1 random readers the drive serves within the latency limits while a
 * buffered writer (with fsyncs) and a trimmer run beside them.
 *
 * A trial passes when the readers' p99, p99.9 and max are within limits
 * and -- as fio fails BootBench's writer and trimmer jobs on rate_min --
 * neither the writer nor the trimmer averaged below its rate_min over a
 * rate_cycle (analysis/rate_min.h).  The search is suite/boot_search.h.
 * Recorded: boot.score_iops and boot.score_readers (0 when no N meets the
 * limits), boot.pass (score >= pass_iops), boot.rate_failed_trials, and
 * the lowest rate_cycle average of the writer and the trimmer in the
 * trials that gave the score (boot.writer_low_bps, boot.trimmer_low_bps).
 *
 * Each trial's three workloads are named "n=N phase=P run=K readers",
 * "... writer", "... trimmer".
 */
#include "suite/step.h"

#include <math.h>

#include "analysis/rate_min.h"
#include "suite/boot_search.h"

struct boot_ctx {
	struct step_ctx *c;
	struct rate_min_check rate[3];	/* [1] writer, [2] trimmer */
	unsigned rate_failed;		/* trials failed by the rate check */
	uint32_t lows_n;		/* N of the trials in `low` */
	double low[3];			/* lowest window at lows_n */
};

/* The writer's and trimmer's samples through fio's rate_min check. */
static int on_boot_interval(void *ctx, const struct interval_sample *s,
			    struct sb_err *e)
{
	(void)e;
	struct boot_ctx *b = ctx;
	if (s->workload == 1 || s->workload == 2) {
		const struct interval_dir *d =
			&s->dir[s->workload == 1 ? DIR_WRITE : DIR_TRIM];
		rate_min_feed(&b->rate[s->workload], s->t_end_ns, d->bytes);
	}
	return 0;
}

static double lower(double a, double b)
{
	return isnan(a) || b < a ? b : a;
}

static int run_trial(void *ctx, uint32_t n, const char *phase, unsigned k,
		     uint64_t time_ns, struct boot_trial *t, struct sb_err *e)
{
	struct boot_ctx *b = ctx;
	struct step_ctx *c = b->c;
	const struct plan_step *st = c->step;
	struct workload w[3];
	step_workload(c, &w[0], "n=%u phase=%s run=%u readers", n, phase, k);
	w[0].pattern = PATTERN_RAND;
	w[0].read_pct = 100;
	w[0].bs = (uint32_t)step_u64(st, "read_bs");
	w[0].qd = 1;
	w[0].jobs = n;
	/* Its p99, p99.9 and max, and its rate, are read as well from the
	   recurring windows of a sampled stream (the writer's and trimmer's
	   I/Os all go on). */
	w[0].sampled_ok = true;
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
	uint64_t cycle = step_u64(st, "rate_cycle");
	rate_min_init(&b->rate[1], (double)step_u64(st, "writer_rate_min"),
		      cycle, RATE_MIN_SETTLE_NS);
	rate_min_init(&b->rate[2], (double)step_u64(st, "trim_rate_min"),
		      cycle, RATE_MIN_SETTLE_NS);
	struct engine_result res;
	int rc = step_run(c, w, 3, on_boot_interval, b, &res, e);
	if (!rc && !c->stopped) {
		const struct lat_hist *h = res.wl[0].hist[DIR_READ];
		bool rates = !b->rate[1].failed && !b->rate[2].failed;
		t->iops = result_iops(&res.wl[0], DIR_READ);
		t->pass = h->count > 0 && rates &&
			  hist_percentile(h, 99) <= step_u64(st, "p99") &&
			  hist_percentile(h, 99.9) <= step_u64(st, "p999") &&
			  h->max <= step_u64(st, "max");
		b->rate_failed += !rates;
		if (n != b->lows_n)
			b->low[1] = b->low[2] = NAN;
		b->lows_n = n;
		for (int i = 1; i <= 2; i++)
			b->low[i] = lower(b->low[i], b->rate[i].lowest_bps);
	}
	engine_result_free(&res);
	if (rc)
		return -1;
	return c->stopped ? 1 : 0;
}

static int prefill(struct step_ctx *c, struct sb_err *e)
{
	const struct plan_step *st = c->step;
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
	return w.stop_bytes ? step_run1(c, &w, e) : 0;
}

int step_run_boot(struct step_ctx *c, struct sb_err *e)
{
	const struct plan_step *st = c->step;
	struct boot_search_params p = {
		.search = (enum boot_search)boot_search_parse(step_param(st, "search")->s),
		.n_start = (uint32_t)step_u64(st, "n_start"),
		.n_max = (uint32_t)step_u64(st, "n_max"),
		.double_ns = step_u64(st, "double_time"),
		.bisect_ns = step_u64(st, "bisect_time"),
		.confirm_ns = step_u64(st, "confirm_time"),
		.confirm_runs = (unsigned)step_u64(st, "confirm_runs"),
	};
	c->units_total = 2 + 8 + 8 + (p.search == BOOT_SEARCH_CONFIRM ? p.confirm_runs : 1);
	if (prefill(c, e))
		return -1;
	if (c->stopped)
		return 0;
	struct boot_ctx b = { .c = c, .low = { NAN, NAN, NAN } };
	struct boot_score s;
	int rc = boot_search_run(&p, run_trial, &b, &s, e);
	if (rc < 0)
		return -1;
	if (rc > 0)
		return 0;
	bool scored = s.met && s.readers == b.lows_n;
	if (step_metric(c, "boot.score_iops", s.iops, "IOPS", e) ||
	    step_metric(c, "boot.score_readers", s.readers, "", e) ||
	    step_metric(c, "boot.pass", s.met && s.iops >= (double)step_u64(st, "pass_iops"), "", e) ||
	    step_metric(c, "boot.rate_failed_trials", b.rate_failed, "trials", e) ||
	    step_metric(c, "boot.writer_low_bps", scored ? b.low[1] : NAN, "B/s", e) ||
	    step_metric(c, "boot.trimmer_low_bps", scored ? b.low[2] : NAN, "B/s", e))
		return -1;
	return 0;
}
