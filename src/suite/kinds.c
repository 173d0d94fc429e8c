/*
 * The kinds of step a plan is made of: their parameters, the checks of
 * their values against a target, and their cost estimates.  The defaults
 * (the reviewer's numbers) live in presets.c; how each kind runs lives in
 * its own step_NAME.c.
 */
#include "suite/kinds.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine/profiles.h"

#define KiB 1024.0
#define GiB (1024.0 * 1024.0 * 1024.0)
#define MAX_BS (64.0 * 1024 * 1024)
#define PURGE_METHODS "auto|format|format-crypto|sanitize-block|sanitize-crypto|ata-secure-erase|discard"

const struct param_desc step_common_params[] = {
	{ "enabled", PT_BOOL, 0, 0, NULL, "run this step (yes/no)" },
	{ "rest", PT_DURATION, 0, 0, NULL, "idle time after the step" },
	{ "monitor", PT_DURATION, 0, 0, NULL, "device readings (health, temperature) every this long while the step's workloads run; 0 = only before and after the step.  Fills and preconditioning only: a health query (on SATA a non-queued command, so the drive drains its queue) disturbs the latency being measured" },
	{ NULL, 0, 0, 0, NULL, NULL },
};

const struct param_desc suite_params[] = {
	{ "interval", PT_DURATION, 0, 60, NULL, "sample interval of every workload" },
	{ "seed", PT_UINT, 0, 1e18, NULL, "seed of offsets and data: a number, auto or 0 (a fixed seed on a simulated drive, one from the clock on a real one) or random (from the clock); the seed used is recorded with the run" },
	{ "steps", PT_ENUM_LIST, 0, 0, NULL, "the steps in the order to run them (default: the methodology's)" },
	{ "scale", PT_DOUBLE, 1e-4, 1, NULL, "the share of a full-size review this plan's capacity-bound sizes and times are (1: none; full-scaled: 0.1, for a simulated drive at scale=0.1): the analysis scales its time windows (bursts, 1 s consistency, the averages at drive-writes) by it and the report shows such figures at full size too" },
	{ NULL, 0, 0, 0, NULL, NULL },
};

static const struct param_desc purge_params[] = {
	{ "method", PT_ENUM, 0, 0, PURGE_METHODS, "how to return to fresh-out-of-box; auto picks the strongest the device has" },
	{ "lbaf", PT_ENUM, 0, 0, "keep|0|1|2|3|4|5|6|7|8|9|10|11|12|13|14|15", "NVMe LBA format to format into (512 B or 4 KiB sectors ...); keep = the current one" },
	{ NULL, 0, 0, 0, NULL, NULL },
};

static const struct param_desc peak_params[] = {
	{ "profiles", PT_ENUM_LIST, 0, 0, "default|nvme", "CrystalDiskMark-like profiles to run" },
	{ "region", PT_SIZE, 4096, 0, NULL, "test region at the start of the target" },
	{ "passes", PT_UINT, 1, 100, NULL, "passes per test; the best is reported" },
	{ "pass_time", PT_DURATION, 0, 3600, NULL, "length of one pass" },
	{ NULL, 0, 0, 0, NULL, NULL },
};

static const struct param_desc fill_params[] = {
	{ "passes", PT_UINT, 1, 16, NULL, "fills of the drive" },
	{ "share", PT_AMOUNT, 0, 0, NULL, "how much of the drive each pass writes" },
	{ "bs", PT_SIZE, 512, MAX_BS, NULL, "block size" },
	{ "qd", PT_UINT, 1, 1024, NULL, "queue depth" },
	{ "pass_rest", PT_DURATION, 0, 0, NULL, "idle time between passes" },
	{ NULL, 0, 0, 0, NULL, NULL },
};

static const struct param_desc active_range_params[] = {
	{ "bs", PT_SIZE, 512, MAX_BS, NULL, "block size of the random reads" },
	{ "qd", PT_UINT, 1, 1024, NULL, "queue depth" },
	{ "amount", PT_SIZE, 4096, 0, NULL, "bytes read per span" },
	{ "span_start", PT_AMOUNT, 0, 0, NULL, "first span" },
	{ "span_factor", PT_UINT, 2, 16, NULL, "each span is this times the last, up to the whole drive" },
	{ NULL, 0, 0, 0, NULL, NULL },
};

static const struct param_desc cssd_precond_params[] = {
	{ "method", PT_ENUM, 0, 0, PURGE_METHODS, "purge method at the start" },
	{ "purge_rest", PT_DURATION, 0, 0, NULL, "idle after the purge" },
	{ "seq_passes", PT_UINT, 0, 16, NULL, "sequential fills of the whole drive" },
	{ "seq_bs", PT_SIZE, 512, MAX_BS, NULL, "sequential block size" },
	{ "seq_qd", PT_UINT, 1, 1024, NULL, "sequential queue depth" },
	{ "rnd_span", PT_AMOUNT, 0, 0, NULL, "random region at the start of the drive" },
	{ "rnd_bs", PT_SIZE, 512, MAX_BS, NULL, "random block size" },
	{ "rnd_qd", PT_UINT, 1, 1024, NULL, "random queue depth" },
	{ "rnd_writes", PT_DOUBLE, 0, 100, NULL, "random writes, in multiples of rnd_span" },
	{ "trim_share", PT_AMOUNT, 0, 0, NULL, "trimmed at the end of the drive" },
	{ NULL, 0, 0, 0, NULL, NULL },
};

static const struct param_desc sync_write_params[] = {
	{ "bs", PT_SIZE, 512, MAX_BS, NULL, "block size" },
	{ "span", PT_AMOUNT, 0, 0, NULL, "region at the start of the drive" },
	{ "amount", PT_SIZE, 4096, 0, NULL, "bytes written at most" },
	{ "time", PT_DURATION, 0, 0, NULL, "time at most" },
	{ NULL, 0, 0, 0, NULL, NULL },
};

static const struct param_desc rw_ratio_params[] = {
	{ "bs", PT_SIZE, 512, MAX_BS, NULL, "block size" },
	{ "span", PT_AMOUNT, 0, 0, NULL, "region at the start of the drive" },
	{ "read_pcts", PT_UINT_LIST, 0, 100, NULL, "read shares in %" },
	{ "qds", PT_UINT_LIST, 1, 1024, NULL, "queue depths" },
	{ "weights", PT_DOUBLE_LIST, 0, 1, NULL, "weight of each queue depth in the weighted graph" },
	{ "amount", PT_SIZE, 4096, 0, NULL, "bytes per run at most" },
	{ "time", PT_DURATION, 0, 0, NULL, "time per run at most" },
	{ "point_rest", PT_DURATION, 0, 0, NULL, "idle time between runs" },
	{ "min_runs", PT_UINT, 1, 100, NULL, "runs of each point at least" },
	{ "max_runs", PT_UINT, 1, 100, NULL, "runs of each point at most" },
	{ "rse_window", PT_UINT, 2, 100, NULL, "last runs the relative standard error looks at" },
	{ "rse", PT_PERCENT, 0, 100, NULL, "relative standard error under which a point is stable" },
	{ NULL, 0, 0, 0, NULL, NULL },
};

static const struct param_desc reclaim_params[] = {
	{ "idles", PT_DURATION_LIST, 0, 0, NULL, "idle times to test" },
	{ "method", PT_ENUM, 0, 0, PURGE_METHODS, "purge method before each cycle" },
	{ "purge_rest", PT_DURATION, 0, 0, NULL, "idle after each purge, before the fill" },
	{ "fill_share", PT_AMOUNT, 0, 0, NULL, "filled before the idle" },
	{ "bs", PT_SIZE, 512, MAX_BS, NULL, "block size" },
	{ "qd", PT_UINT, 1, 1024, NULL, "queue depth" },
	{ "write_time", PT_DURATION, 0, 0, NULL, "write after the idle" },
	{ NULL, 0, 0, 0, NULL, NULL },
};

static const struct param_desc ss_precond_params[] = {
	{ "pattern", PT_ENUM, 0, 0, "seq|rand", "access pattern" },
	{ "bs", PT_SIZE, 512, MAX_BS, NULL, "block size" },
	{ "qd", PT_UINT, 1, 1024, NULL, "queue depth" },
	{ "track", PT_ENUM, 0, 0, "bw|iops", "what steady state tracks" },
	{ "rule", PT_ENUM, 0, 0, "slope|deviation|snia",
	  "steady-state rule: fio's slope (ss=*_slope), fio's mean deviation (ss=bw/iops) or SNIA PTS" },
	{ "ss_interval", PT_DURATION, 0, 0, NULL,
	  "the rule's sample spacing (fio's ss_interval), made of the 100 ms samples" },
	{ "window", PT_DURATION, 0, 0, NULL, "steady-state window" },
	{ "slope_tol", PT_PERCENT, 0, 100, NULL, "slope, deviation (or SNIA slope excursion) limit, % of the mean" },
	{ "excursion_tol", PT_PERCENT, 0, 100, NULL, "SNIA data excursion limit, % of the mean" },
	{ "min_writes", PT_DOUBLE, 0, 1000, NULL, "capacity multiples written before steady state counts" },
	{ "max_writes", PT_DOUBLE, 0.01, 1000, NULL, "capacity multiples after which steady state is given up" },
	{ NULL, 0, 0, 0, NULL, NULL },
};

static const struct param_desc sweep_params[] = {
	{ "pattern", PT_ENUM, 0, 0, "seq|rand", "access pattern" },
	{ "bs", PT_SIZE, 512, MAX_BS, NULL, "block size" },
	{ "mixes", PT_UINT_LIST, 0, 100, NULL, "read shares in %, one QD sweep each" },
	{ "qds", PT_UINT_LIST, 1, 1024, NULL, "queue depths" },
	{ "ramp", PT_DURATION, 0, 0, NULL, "unmeasured start of each point" },
	{ "time", PT_DURATION, 0, 0, NULL, "measured time of each point" },
	{ "span", PT_AMOUNT, 0, 0, NULL, "region at the start of the drive" },
	{ NULL, 0, 0, 0, NULL, NULL },
};

static const struct param_desc tail_params[] = {
	{ "bs", PT_SIZE, 512, MAX_BS, NULL, "block size" },
	{ "qd", PT_UINT, 1, 1024, NULL, "queue depth" },
	{ "mixes", PT_UINT_LIST, 0, 100, NULL, "read shares in %" },
	{ "ramp", PT_DURATION, 0, 0, NULL, "unmeasured start" },
	{ "time", PT_DURATION, 0, 0, NULL, "measured time of each mix" },
	{ "span", PT_AMOUNT, 0, 0, NULL, "region at the start of the drive" },
	{ NULL, 0, 0, 0, NULL, NULL },
};

static const struct param_desc load_sweep_params[] = {
	{ "mixes", PT_UINT_LIST, 0, 100, NULL, "read shares in %, one curve each (random I/O)" },
	{ "bs", PT_SIZE, 512, MAX_BS, NULL, "block size" },
	{ "qd", PT_UINT, 1, 1024, NULL, "queue depth: of the closed loop that finds the maximum, and the cap on outstanding I/Os at each level" },
	{ "levels", PT_UINT_LIST, 1, 1000, NULL, "loads in % of the maximum IOPS, one open-loop run each" },
	{ "process", PT_ENUM, 0, 0, "uniform|poisson", "arrivals: evenly spaced, or a Poisson process (exponential gaps)" },
	{ "ramp", PT_DURATION, 0, 0, NULL, "unmeasured start of each run" },
	{ "time", PT_DURATION, 0, 0, NULL, "measured time of each run (the maximum and every level)" },
	{ "limit", PT_DURATION, 0, 0, NULL, "response-latency limit of the finding: the load at which p99.99 first exceeds it" },
	{ "span", PT_AMOUNT, 0, 0, NULL, "region at the start of the drive" },
	{ NULL, 0, 0, 0, NULL, NULL },
};

static const struct param_desc boot_params[] = {
	{ "pass_iops", PT_UINT, 0, 1e9, NULL, "read IOPS a drive needs to pass" },
	{ "prefill_bs", PT_SIZE, 512, MAX_BS, NULL, "block size of the random prefill" },
	{ "prefill_qd", PT_UINT, 1, 1024, NULL, "queue depth of the prefill" },
	{ "prefill_writes", PT_DOUBLE, 0, 100, NULL, "prefill, in capacity multiples" },
	{ "read_bs", PT_SIZE, 512, MAX_BS, NULL, "block size of each reader (QD1)" },
	{ "writer_bs", PT_SIZE, 512, MAX_BS, NULL, "block size of the buffered writer" },
	{ "writer_rate", PT_RATE, 0, 0, NULL, "rate of the writer" },
	{ "fsync_every", PT_SIZE, 0, 0, NULL, "writer bytes between fsyncs" },
	{ "trim_bs", PT_SIZE, 512, MAX_BS, NULL, "block size of the trimmer" },
	{ "trim_rate", PT_RATE, 0, 0, NULL, "rate of the trimmer" },
	{ "writer_rate_min", PT_RATE, 0, 0, NULL, "a trial fails when the writer averages less over a rate_cycle (fio's rate_min; 0: no check)" },
	{ "trim_rate_min", PT_RATE, 0, 0, NULL, "the same for the trimmer" },
	{ "rate_cycle", PT_DURATION, 0, 0, NULL, "window of the rate_min checks (fio's rate_cycle)" },
	{ "p99", PT_DURATION, 0, 0, NULL, "read p99 latency limit" },
	{ "p999", PT_DURATION, 0, 0, NULL, "read p99.9 latency limit" },
	{ "max", PT_DURATION, 0, 0, NULL, "read max latency limit" },
	{ "search", PT_ENUM, 0, 0, "bootbench|confirm", "bootbench: BootBench's run.py (score = the last, passing run); confirm: step down with confirm_runs runs each, the minimum counts" },
	{ "n_start", PT_UINT, 1, 4096, NULL, "readers in the first run" },
	{ "n_max", PT_UINT, 1, 4096, NULL, "readers at most" },
	{ "double_time", PT_DURATION, 0, 0, NULL, "run length while doubling" },
	{ "bisect_time", PT_DURATION, 0, 0, NULL, "run length while bisecting" },
	{ "confirm_time", PT_DURATION, 0, 0, NULL, "run length while stepping down" },
	{ "confirm_runs", PT_UINT, 1, 100, NULL, "search=confirm: runs per step down; the minimum IOPS counts" },
	{ NULL, 0, 0, 0, NULL, NULL },
};

static const struct param_desc profiles_params[] = {
	{ "profiles", PT_ENUM_LIST, 0, 0, WORKLOAD_PROFILE_CHOICES, "named workloads (run --profile), one after the other: jesd219, oltp, vdi, cdn (docs/run.md)" },
	{ "qd", PT_UINT, 0, 1024, NULL, "queue depth; 0 = each profile's own" },
	{ "ramp", PT_DURATION, 0, 0, NULL, "unmeasured start of each profile" },
	{ "time", PT_DURATION, 0, 0, NULL, "measured time of each profile" },
	{ "span", PT_AMOUNT, 0, 0, NULL, "region at the start of the drive" },
	{ NULL, 0, 0, 0, NULL, NULL },
};

/* --- checks ---------------------------------------------------------------- */

static int check_purge(const struct plan_step *st, const struct plan_target *t,
		       struct sb_err *e)
{
	if (strcmp(step_param(st, "lbaf")->s, "keep") && !t->is_block_device)
		return sb_errf(e, "lbaf=%s needs an NVMe block device", step_param(st, "lbaf")->s);
	return 0;
}

static int check_rw_ratio(const struct plan_step *st,
			  const struct plan_target *t, struct sb_err *e)
{
	(void)t;
	const struct param_value *q = step_param(st, "qds");
	const struct param_value *w = step_param(st, "weights");
	if (q->n != w->n)
		return sb_errf(e, "weights has %u values but qds has %u: one weight per queue depth",
			       w->n, q->n);
	double sum = 0;
	for (uint32_t i = 0; i < w->n; i++)
		sum += w->dlist[i];
	if (fabs(sum - 1.0) > 1e-6)
		return sb_errf(e, "weights add up to %g, not 1", sum);
	if (step_u64(st, "min_runs") > step_u64(st, "max_runs"))
		return sb_errf(e, "min_runs (%s) is above max_runs (%s)",
			       step_param(st, "min_runs")->text,
			       step_param(st, "max_runs")->text);
	if (step_u64(st, "rse_window") > step_u64(st, "min_runs"))
		return sb_errf(e, "rse_window (%s) is above min_runs (%s)",
			       step_param(st, "rse_window")->text,
			       step_param(st, "min_runs")->text);
	return 0;
}

static int check_ss_precond(const struct plan_step *st,
			    const struct plan_target *t, struct sb_err *e)
{
	(void)t;
	if (step_double(st, "min_writes") > step_double(st, "max_writes"))
		return sb_errf(e, "min_writes (%s) is above max_writes (%s)",
			       step_param(st, "min_writes")->text,
			       step_param(st, "max_writes")->text);
	if (step_u64(st, "window") == 0)
		return sb_errf(e, "window must be longer than 0");
	if (step_u64(st, "ss_interval") == 0 ||
	    2 * step_u64(st, "ss_interval") > step_u64(st, "window"))
		return sb_errf(e, "ss_interval (%s) must be above 0 and at most half "
			       "the window (%s)", step_param(st, "ss_interval")->text,
			       step_param(st, "window")->text);
	return 0;
}

static int check_boot(const struct plan_step *st, const struct plan_target *t,
		      struct sb_err *e)
{
	(void)t;
	if (step_u64(st, "n_start") > step_u64(st, "n_max"))
		return sb_errf(e, "n_start (%s) is above n_max (%s)",
			       step_param(st, "n_start")->text,
			       step_param(st, "n_max")->text);
	return 0;
}

static int check_timed(const struct plan_step *st, const struct plan_target *t,
		       struct sb_err *e)
{
	(void)t;
	if (step_u64(st, "time") == 0)
		return sb_errf(e, "time must be longer than 0");
	return 0;
}

/* --- estimates ------------------------------------------------------------- */

/* Seconds to move `bytes` at the assumed rate. */
static double at_rate(const struct plan_target *t, double bytes)
{
	return bytes / (double)(t->assumed_rate ? t->assumed_rate : 1);
}

static double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* A rate of the target, or the assumed one where it has none. */
static double rate_or_assumed(const struct plan_target *t, double rate)
{
	return rate > 0 ? rate : (double)(t->assumed_rate ? t->assumed_rate : 1);
}

/*
 * Seconds to write `bytes` sequentially, from an empty drive or a full
 * one.  Each pass over the drive first fills the SLC cache (an empty
 * drive's, then a full one's) at the cache's rate; once a pass goes past
 * it, the rest and the folding of what the cache took share the native
 * rate.  Without a cache it is bytes at the one rate.
 */
static double seq_write_s(const struct plan_target *t, double bytes, bool from_empty)
{
	const struct plan_rates *r = &t->rates;
	double cache_bps = rate_or_assumed(t, r->cache_bps);
	double seq_bps = rate_or_assumed(t, r->seq_bps);
	double size = t->size ? (double)t->size : bytes;
	double s = 0;
	for (int pass = 0; bytes > 0 && pass < 1000; pass++) {
		double b = bytes < size ? bytes : size;
		double cache = pass == 0 && from_empty ? r->cache_empty : r->cache_full;
		if (cache >= b)
			s += b / cache_bps;
		else
			s += cache / cache_bps + b / seq_bps;
		bytes -= b;
	}
	return s;
}

/* Seconds of 4 KiB random writes over a full drive. */
static double rnd_write_s(const struct plan_target *t, double bytes)
{
	return bytes / rate_or_assumed(t, t->rates.rnd_bps);
}

/* A purge: a format is seconds, a discard of a large drive a little more. */
#define PURGE_SECONDS 10.0

static void est_purge(const struct plan_step *st, const struct plan_target *t,
		      struct step_estimate *est)
{
	(void)st;
	(void)t;
	est->seconds = PURGE_SECONDS;
	est->exact = false;
}

static void est_peak(const struct plan_step *st, const struct plan_target *t,
		     struct step_estimate *est)
{
	/* Four tests per profile, each read and write, `passes` times. */
	double runs = 4.0 * 2 * (double)step_param(st, "profiles")->n *
		      (double)step_u64(st, "passes");
	double pass = secs(step_u64(st, "pass_time"));
	est->seconds = runs * pass;
	est->bytes_written = (uint64_t)(runs / 2 * pass * (double)t->assumed_rate);
	est->exact = true;
}

static void est_fill(const struct plan_step *st, const struct plan_target *t,
		     struct step_estimate *est)
{
	uint64_t passes = step_u64(st, "passes");
	double bytes = (double)step_amount(st, "share", t->size, 1);
	est->bytes_written = (uint64_t)((double)passes * bytes);
	for (uint64_t i = 0; i < passes; i++)
		est->seconds += seq_write_s(t, bytes, i == 0);
	est->seconds += (double)(passes - 1) * secs(step_u64(st, "pass_rest"));
}

/* The spans active_range reads: start, start*f, ... and the whole drive. */
uint32_t active_range_spans(const struct plan_step *st, uint64_t size,
			    uint64_t align, uint64_t *spans, uint32_t max)
{
	uint64_t s = step_amount(st, "span_start", size, align);
	uint64_t f = step_u64(st, "span_factor");
	uint32_t n = 0;
	if (s == 0)
		s = align;
	while (s < size && n + 1 < max) {
		spans[n++] = s;
		s = s > size / f ? size : s * f;
	}
	spans[n++] = size;
	return n;
}

static void est_active_range(const struct plan_step *st,
			     const struct plan_target *t,
			     struct step_estimate *est)
{
	uint64_t spans[64];
	uint32_t n = active_range_spans(st, t->size, t->logical_block, spans, 64);
	est->seconds = n * at_rate(t, (double)step_u64(st, "amount"));
}

static void est_cssd_precond(const struct plan_step *st,
			     const struct plan_target *t,
			     struct step_estimate *est)
{
	double seq = (double)step_u64(st, "seq_passes") * (double)t->size;
	double rnd = step_double(st, "rnd_writes") *
		     (double)step_amount(st, "rnd_span", t->size, 1);
	est->bytes_written = (uint64_t)(seq + rnd);
	est->seconds = PURGE_SECONDS + secs(step_u64(st, "purge_rest")) +
		       seq_write_s(t, seq, true) + rnd_write_s(t, rnd);
}

static void est_sync_write(const struct plan_step *st,
			   const struct plan_target *t, struct step_estimate *est)
{
	/* The amount or the time limit, whichever comes first; without the
	   cost of one O_SYNC write, assume the limit. */
	double limit = secs(step_u64(st, "time"));
	double amount = (double)step_u64(st, "amount");
	double per_io = t->rates.sync_write_s;
	double all = per_io > 0 ? amount / (double)step_u64(st, "bs") * per_io : limit;
	est->seconds = all < limit ? all : limit;
	est->bytes_written = (uint64_t)(all < limit ? amount : amount * limit / all);
}

static void est_rw_ratio(const struct plan_step *st,
			 const struct plan_target *t, struct step_estimate *est)
{
	const struct param_value *pcts = step_param(st, "read_pcts");
	double qds = step_param(st, "qds")->n;
	double runs = (double)step_u64(st, "min_runs");
	double run_s = secs(step_u64(st, "time"));
	double amount = (double)step_u64(st, "amount");
	if (at_rate(t, amount) < run_s)
		run_s = at_rate(t, amount);
	double per_run = run_s * (double)t->assumed_rate;
	for (uint32_t i = 0; i < pcts->n; i++)
		est->bytes_written += (uint64_t)(runs * qds * per_run *
						 (100.0 - (double)pcts->ulist[i]) / 100.0);
	est->seconds = pcts->n * qds * runs *
		       (run_s + secs(step_u64(st, "point_rest")));
	est->bytes_written_max = (uint64_t)((double)est->bytes_written *
					    (double)step_u64(st, "max_runs") / runs);
}

static void est_reclaim(const struct plan_step *st, const struct plan_target *t,
			struct step_estimate *est)
{
	const struct param_value *idles = step_param(st, "idles");
	double fill = (double)step_amount(st, "fill_share", t->size, 1);
	double w = secs(step_u64(st, "write_time"));
	for (uint32_t i = 0; i < idles->n; i++) {
		est->seconds += PURGE_SECONDS + secs(step_u64(st, "purge_rest")) +
				seq_write_s(t, fill, true) + secs(idles->ulist[i]) + w;
		est->bytes_written += (uint64_t)(fill + w * (double)t->assumed_rate);
	}
}

static void est_ss_precond(const struct plan_step *st,
			   const struct plan_target *t, struct step_estimate *est)
{
	/* Sequential preconditioning follows a purge in the methodology;
	   random preconditioning runs on the full drive the sweeps left.
	   It writes at least min_writes drive-writes and one window. */
	bool seq = strcmp(step_param(st, "pattern")->s, "rand") != 0;
	double rate = rate_or_assumed(t, seq ? t->rates.seq_bps : t->rates.rnd_bps);
	double lo = step_double(st, "min_writes") * (double)t->size;
	double hi = step_double(st, "max_writes") * (double)t->size;
	double window = rate * secs(step_u64(st, "window"));
	if (lo < window)
		lo = window;
	est->bytes_written = (uint64_t)lo;
	est->bytes_written_max = (uint64_t)hi;
	est->seconds = seq ? seq_write_s(t, lo, true) : rnd_write_s(t, lo);
	est->seconds_max = seq ? seq_write_s(t, hi, true) : rnd_write_s(t, hi);
}

static void est_sweep(const struct plan_step *st, const struct plan_target *t,
		      struct step_estimate *est)
{
	const struct param_value *mixes = step_param(st, "mixes");
	double qds = step_param(st, "qds")->n;
	double point = secs(step_u64(st, "ramp") + step_u64(st, "time"));
	for (uint32_t i = 0; i < mixes->n; i++)
		est->bytes_written += (uint64_t)(qds * point * (double)t->assumed_rate *
						 (100.0 - (double)mixes->ulist[i]) / 100.0);
	est->seconds = mixes->n * qds * point;
	est->exact = true;
}

static void est_tail(const struct plan_step *st, const struct plan_target *t,
		     struct step_estimate *est)
{
	const struct param_value *mixes = step_param(st, "mixes");
	double point = secs(step_u64(st, "ramp") + step_u64(st, "time"));
	for (uint32_t i = 0; i < mixes->n; i++)
		est->bytes_written += (uint64_t)(point * (double)t->assumed_rate *
						 (100.0 - (double)mixes->ulist[i]) / 100.0);
	est->seconds = mixes->n * point;
	est->exact = true;
}

static void est_load_sweep(const struct plan_step *st, const struct plan_target *t,
			   struct step_estimate *est)
{
	/* The maximum at the assumed rate, then each level at its share. */
	const struct param_value *mixes = step_param(st, "mixes");
	const struct param_value *levels = step_param(st, "levels");
	double run = secs(step_u64(st, "ramp") + step_u64(st, "time"));
	double shares = 1;
	for (uint32_t l = 0; l < levels->n; l++)
		shares += (double)levels->ulist[l] / 100.0;
	for (uint32_t i = 0; i < mixes->n; i++)
		est->bytes_written += (uint64_t)(shares * run * (double)t->assumed_rate *
						 (100.0 - (double)mixes->ulist[i]) / 100.0);
	est->seconds = mixes->n * (levels->n + 1) * run;
	est->exact = true;
}

uint32_t step_profiles_list(const struct plan_step *st,
			    const struct workload_profile **out, uint32_t max)
{
	char buf[PARAM_TEXT_MAX];
	snprintf(buf, sizeof buf, "%s", step_param(st, "profiles")->s);
	char *save = NULL;
	uint32_t n = 0;
	for (char *w = strtok_r(buf, ",", &save); w && n < max; w = strtok_r(NULL, ",", &save))
		if ((out[n] = workload_profile_find(w)))	/* the choices are its names */
			n++;
	return n;
}

static void est_profiles(const struct plan_step *st, const struct plan_target *t,
			 struct step_estimate *est)
{
	const struct workload_profile *p[PARAM_LIST_MAX];
	uint32_t n = step_profiles_list(st, p, PARAM_LIST_MAX);
	double each = secs(step_u64(st, "ramp") + step_u64(st, "time"));
	for (uint32_t i = 0; i < n; i++) {
		double writes = (100.0 - (double)p[i]->read_pct) / 100.0;
		est->bytes_written += (uint64_t)(each * (double)t->assumed_rate * writes);
		est->seconds += each;
	}
	est->exact = true;
}

static void est_boot(const struct plan_step *st, const struct plan_target *t,
		     struct step_estimate *est)
{
	double prefill = step_double(st, "prefill_writes") * (double)t->size;
	double n0 = (double)step_u64(st, "n_start");
	double n1 = (double)step_u64(st, "n_max");
	double doublings = floor(log2(n1 / n0)) + 1;
	double bisections = doublings > 1 ? log2(n1 / 2) : 0;
	double dbl = doublings * secs(step_u64(st, "double_time"));
	double bis = bisections * secs(step_u64(st, "bisect_time"));
	double conf = secs(step_u64(st, "confirm_time"));
	/* bootbench bisects below n_max even when every N passes, and steps
	   down with single confirm runs only after a failure; the older
	   "confirm" search needs no bisection when every N passes but always
	   confirms.  What a failure adds is the most the search can take. */
	bool bootbench = strcmp(step_param(st, "search")->s, "confirm") != 0;
	double search = bootbench ? dbl + bis :
			dbl + (double)step_u64(st, "confirm_runs") * conf;
	double failure = bootbench ? conf : bis;
	double writer = (double)(step_u64(st, "writer_rate"));
	est->bytes_written = (uint64_t)(prefill + search * writer);
	est->seconds = PURGE_SECONDS + seq_write_s(t, prefill, true) + search;
	est->seconds_max = est->seconds + failure;
}

void plan_estimate_step(const struct plan_step *st, const struct plan_target *t,
			struct step_estimate *est)
{
	memset(est, 0, sizeof *est);
	st->kind->estimate(st, t, est);
	if (est->bytes_written_max < est->bytes_written)
		est->bytes_written_max = est->bytes_written;
	if (est->seconds_max < est->seconds)
		est->seconds_max = est->seconds;
	est->seconds += secs(step_u64(st, "rest"));
	est->seconds_max += secs(step_u64(st, "rest"));
}

/* --- the table ------------------------------------------------------------- */

const struct step_kind step_kinds[] = {
	{ "purge", purge_params, true, true, check_purge, est_purge },
	{ "peak", peak_params, true, false, NULL, est_peak },
	{ "fill", fill_params, true, false, NULL, est_fill },
	{ "active_range", active_range_params, false, false, NULL, est_active_range },
	{ "cssd_precond", cssd_precond_params, true, true, NULL, est_cssd_precond },
	{ "sync_write", sync_write_params, true, false, check_timed, est_sync_write },
	{ "rw_ratio", rw_ratio_params, true, false, check_rw_ratio, est_rw_ratio },
	{ "reclaim", reclaim_params, true, true, NULL, est_reclaim },
	{ "ss_precond", ss_precond_params, true, false, check_ss_precond, est_ss_precond },
	{ "sweep", sweep_params, true, false, check_timed, est_sweep },
	{ "tail", tail_params, true, false, check_timed, est_tail },
	{ "boot", boot_params, true, true, check_boot, est_boot },
	{ "load_sweep", load_sweep_params, true, false, check_timed, est_load_sweep },
	{ "profiles", profiles_params, true, false, check_timed, est_profiles },
	{ NULL, NULL, false, false, NULL, NULL },
};

bool step_kind_may_monitor(const struct step_kind *k)
{
	/* Long writes whose figures are throughput over minutes, where a
	   reading every few seconds costs nothing that is reported. */
	static const char *const kinds[] = { "fill", "cssd_precond", "ss_precond" };
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (!strcmp(k->name, kinds[i]))
			return true;
	return false;
}

const struct step_kind *step_kind_find(const char *name)
{
	for (const struct step_kind *k = step_kinds; k->name; k++)
		if (!strcmp(k->name, name))
			return k;
	return NULL;
}
