/*
 * Sampled streams (sim/sampled.h): reads beside side streams simulated in
 * recurring windows, the slices between repeating theirs.  Against the
 * same stream exact (every read simulated) from the same state: the
 * readers' rate and p99 follow the drive while a heavy writer moves its
 * state; the side streams' I/Os all reach the drive; many reads are
 * repeated, not simulated; a SATA drive, or a stream deeper than the
 * interface's queue, is not sampled.  (The same seed giving the same samples: test_sim_engine.)
 * A sweep's sequential mix, sampled with its gaps warped, against the
 * same mix exact; the same seed, the same sampled mix.
 */
#include "check.h"
#include "sim_fixture.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "sim/sampled.h"
#include "sim/sim.h"

#define SLICE 100000000ull	/* 100 ms */
#define SECS 8

/* What the slices said, per second and in all. */
struct seen {
	double reads[SECS + 1], written, trimmed;
	struct lat_hist *h, *late;	/* the readers' latencies; the last 2 s' */
	uint64_t t0;
};

static int on_slice(void *ctx, const struct sim_slice *sl, struct sb_err *e)
{
	(void)e;
	struct seen *a = ctx;
	uint64_t sec = (sl->t_end_ns - 1 - a->t0) / 1000000000ull;
	a->reads[sec < SECS ? sec : SECS] += (double)sl->ios;
	a->written += (double)sl->side[0].bytes;
	a->trimmed += (double)sl->side[1].bytes;
	hist_merge(a->h, sl->lat);
	if (sec >= SECS - 2 && sec < SECS)
		hist_merge(a->late, sl->lat);
	return 0;
}

/* The drive, scaled (qd_cap: its interface queue, 0 = the profile's),
   filled sequentially, then idle for a minute. */
static struct sim *filled(const char *name, double scale, int qd_cap)
{
	struct sim *s = open_scaled_cap(name, scale, 3, qd_cap);
	if (!s)
		return NULL;
	struct sb_err e;
	uint64_t cap = sim_capacity(s) / 131072 * 131072;
	struct sim_stream st = { .write = true, .bs = 131072, .qd = 256, .span_len = cap };
	struct seen a = { .h = hist_new(), .late = hist_new() };
	if (sim_run_fluid(s, &st, cap, 0, SLICE, on_slice, &a, &e))
		CHECK_FAIL("fill: %s", e.msg);
	hist_free(a.h);
	hist_free(a.late);
	sim_idle(s, 60000000000ull);
	return s;
}

/* A boot-like trial: `readers` 32 KiB random readers, a writer at
   `wrate` with an fsync every 2 s of its writes, a trimmer at 5 MiB/s. */
static bool trial(struct sim *s, uint32_t readers, uint64_t wrate, bool sampled,
		  struct seen *a, double *host_written)
{
	uint64_t cap = sim_capacity(s) / 131072 * 131072;
	struct sim_side side[2] = {
		{ .op = SIM_WRITE, .bs = 131072, .span_len = cap, .rate = wrate,
		  .flush_every = 2 * wrate, .seed = 5 },
		{ .op = SIM_TRIM, .bs = 131072, .span_len = cap, .rate = 5u << 20, .seed = 6 },
	};
	struct sim_stream st = {
		.random = true, .bs = 32768, .qd = readers, .span_len = cap, .seed = 7,
		.side = side, .nside = 2, .sampled = sampled,
	};
	*a = (struct seen){ .h = hist_new(), .late = hist_new(), .t0 = sim_now(s) };
	struct sim_state s0, s1;
	sim_state(s, &s0);
	struct sb_err e;
	if (sim_run_fluid(s, &st, 0, SECS * 1000000000ull, SLICE, on_slice, a, &e)) {
		CHECK_FAIL("trial: %s", e.msg);
		return false;
	}
	sim_state(s, &s1);
	*host_written = s1.host_bytes - s0.host_bytes;
	if (sim_check_invariants(s, &e))
		CHECK_FAIL("invariants: %s", e.msg);
	return true;
}

static void seen_free(struct seen *a)
{
	hist_free(a->h);
	hist_free(a->late);
}

/*
 * A writer at 400 MiB/s fills the SN8100's SLC cache within the trial
 * (at 0.5 % scale), so the drive's regime and the reads' waits behind its
 * programs change as it goes: the sampled trial follows, second by
 * second (reads within 2 %), its p99 within 2 % overall and over the last
 * 2 s; every byte of the writer's reaches the drive, and it writes within
 * 1.5 % of what it does beside every read simulated (its I/Os in a gap
 * wait at least a latency drawn from the window's: -1.2 % here, -0.2 %
 * with gaps half as long; the boot search's rate-limited writer writes
 * the same to the byte).  Many of its reads are repeated, not simulated:
 * at most 25 of every 28 slices after the first 8 (the gap and the
 * lead), fewer as each new regime of the write path (direct, GC, bursts)
 * ends a gap.
 */
TEST(sampled_trial_follows_a_moving_drive)
{
	struct sim *x = filled("sn8100-2tb", 0.005, 0), *y = filled("sn8100-2tb", 0.005, 0);
	if (!x || !y)
		return;
	struct seen a, b;
	double wx = 0, wy = 0;
	struct sim_state sy0, sy1;
	sim_state(y, &sy0);
	bool ok = trial(x, 32, 400u << 20, false, &a, &wx) && trial(y, 32, 400u << 20, true, &b, &wy);
	sim_state(y, &sy1);
	if (ok) {
		double n = 0;
		for (int i = 0; i < SECS; i++) {
			CHECK_REL(b.reads[i], a.reads[i], 0.02);
			n += b.reads[i];
		}
		CHECK_REL((double)hist_percentile(b.h, 99), (double)hist_percentile(a.h, 99), 0.02);
		CHECK_REL((double)hist_percentile(b.late, 99), (double)hist_percentile(a.late, 99), 0.02);
		CHECK_REL(b.written, a.written, 0.015);
		CHECK_REL(b.trimmed, a.trimmed, 0.01);
		/* the writer's bytes went through the write path, gaps or not */
		CHECK_REL(wy, b.written, 1e-9);
		CHECK_REL(wx, a.written, 1e-9);
		double virt = sy1.repeated_reads - sy0.repeated_reads;
		CHECK(virt > 0.4 * n && virt < 0.75 * n);
	}
	seen_free(&a);
	seen_free(&b);
	sim_close(x);
	sim_close(y);
}

/*
 * Beside reads that wait for a slot of the interface's queue, or that
 * share one half-duplex link with the writes, the side streams' and the
 * reads' times depend on each other I/O by I/O: a SATA drive (the
 * Micron) is never sampled, nor a stream deeper than the queue (an
 * SN8100 given a queue of 32: 64 readers); 16 readers within it are.
 */
TEST(sata_and_streams_deeper_than_the_queue_are_not_sampled)
{
	static const struct { const char *drive; int qd_cap; uint32_t readers; bool sampled; } cases[] = {
		{ "micron1300-1tb", 0, 16, false },
		{ "sn8100-2tb", 32, 64, false },
		{ "sn8100-2tb", 32, 16, true },
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		struct sim *s = filled(cases[k].drive, 0.01, cases[k].qd_cap);
		if (!s)
			return;
		struct seen a;
		double w;
		struct sim_state s0, s1;
		sim_state(s, &s0);
		bool ok = trial(s, cases[k].readers, 15u << 20, true, &a, &w);
		sim_state(s, &s1);
		if (ok)
			CHECK((s1.repeated_reads > s0.repeated_reads) == cases[k].sampled);
		seen_free(&a);
		sim_close(s);
	}
}

/* A sequential 95:5 mix's slices, in all and one by one. */
struct mix_seen {
	double reads, writes, wbytes;
	uint64_t next_off;
	struct sim_slice *sl;	/* counts only (no histograms) */
	uint32_t n, cap;
	struct lat_hist *h;
};

static int on_mix_slice(void *ctx, const struct sim_slice *sl, struct sb_err *e)
{
	(void)e;
	struct mix_seen *a = ctx;
	a->reads += (double)sl->ios;
	a->writes += (double)sl->wios;
	a->wbytes += (double)sl->wbytes;
	a->next_off = sl->next_off;
	hist_merge(a->h, sl->lat);
	if (a->n == a->cap) {
		uint32_t c = a->cap ? 2 * a->cap : 256;
		struct sim_slice *x = realloc(a->sl, c * sizeof *x);
		if (!x)
			return -1;
		a->sl = x;
		a->cap = c;
	}
	struct sim_slice *k = &a->sl[a->n++];
	*k = *sl;
	k->lat = k->wlat = NULL;
	memset(k->side, 0, sizeof k->side);
	return 0;
}

/* `secs` of the 128 KiB sequential 95:5 mix at qd, exact or sampled (its
   gaps warped); *host_written: what reached the write path. */
static bool mix_run(struct sim *s, uint32_t qd, bool sampled, uint32_t secs,
		    struct mix_seen *a, double *host_written, double *repeated)
{
	uint64_t cap = sim_capacity(s) / 131072 * 131072;
	struct sim_stream st = {
		.bs = 131072, .qd = qd, .span_len = cap, .start_off = cap / 2, .seed = 9,
		.read_pct = 95, .exact = true, .sampled = sampled,
	};
	*a = (struct mix_seen){ .h = hist_new() };
	struct sim_state s0, s1;
	sim_state(s, &s0);
	struct sb_err e;
	if (sim_run_fluid(s, &st, 0, secs * 1000000000ull, SLICE, on_mix_slice, a, &e)) {
		CHECK_FAIL("mix: %s", e.msg);
		return false;
	}
	sim_state(s, &s1);
	*host_written = s1.host_bytes - s0.host_bytes;
	*repeated = s1.repeated_reads - s0.repeated_reads + s1.repeated_writes - s0.repeated_writes;
	if (sim_check_invariants(s, &e))
		CHECK_FAIL("invariants: %s", e.msg);
	return true;
}

static void mix_free(struct mix_seen *a)
{
	free(a->sl);
	hist_free(a->h);
}

/*
 * A sampled sequential mix (a sweep's 95:5, its gaps warped) against the
 * same mix exact from the same filled drive (the SN8100 at a tenth, QD 4,
 * 30 s, where its write buffer keeps room): reads and writes within 1 %,
 * the reads' p99 within 3 %; every write it reports went through the write
 * path (the drive's host bytes, to the byte), and its cursor stands where
 * the exact one does, within 1 % of what it moved; most of its I/Os were
 * repeated, not simulated.
 */
TEST(sampled_mix_follows_the_exact_one)
{
	struct sim *x = filled("sn8100-2tb", 0.1, 0), *y = filled("sn8100-2tb", 0.1, 0);
	if (!x || !y)
		return;
	struct mix_seen a, b;
	double wx = 0, wy = 0, rx = 0, ry = 0;
	bool ok = mix_run(x, 4, false, 30, &a, &wx, &rx) && mix_run(y, 4, true, 30, &b, &wy, &ry);
	if (ok) {
		CHECK_REL(b.reads, a.reads, 0.01);
		CHECK_REL(b.writes, a.writes, 0.01);
		CHECK_REL((double)hist_percentile(b.h, 99), (double)hist_percentile(a.h, 99), 0.03);
		CHECK_REL(wy, b.wbytes, 1e-12);
		CHECK_REL(wx, a.wbytes, 1e-12);
		CHECK(rx == 0);
		CHECK(ry > 0.5 * (b.reads + b.writes));
		uint64_t cap = sim_capacity(x) / 131072 * 131072;
		double moved = (a.reads + a.writes) * 131072;
		double da = (double)((a.next_off + cap - cap / 2) % cap);
		double db = (double)((b.next_off + cap - cap / 2) % cap);
		CHECK(fabs(db - da) < 0.01 * moved);
	}
	mix_free(&a);
	mix_free(&b);
	sim_close(x);
	sim_close(y);
}

/* The same seed gives the same sampled mix, slice by slice. */
TEST(sampled_mix_reruns_are_identical)
{
	struct sim *x = filled("sn8100-2tb", 0.1, 0), *y = filled("sn8100-2tb", 0.1, 0);
	if (!x || !y)
		return;
	struct mix_seen a, b;
	double w, r;
	if (mix_run(x, 32, true, 10, &a, &w, &r) && mix_run(y, 32, true, 10, &b, &w, &r)) {
		CHECK(a.n == b.n && a.n > 0);
		for (uint32_t i = 0; i < a.n && i < b.n; i++)
			CHECK(!memcmp(&a.sl[i], &b.sl[i], sizeof a.sl[i]));
		CHECK_EQ_U64(hist_percentile(a.h, 99), hist_percentile(b.h, 99));
	}
	mix_free(&a);
	mix_free(&b);
	sim_close(x);
	sim_close(y);
}

/* A sampled stream has side streams or is a sequential mix: anything
   else (here random reads) is refused. */
TEST(only_reads_beside_side_streams_are_sampled)
{
	struct sim *s = open_scaled("sn8100-2tb", 0.005, 3);
	if (!s)
		return;
	struct sim_stream st = {
		.random = true, .bs = 4096, .qd = 1, .span_len = 1u << 30, .exact = true,
		.sampled = true,
	};
	struct seen a = { .h = hist_new(), .late = hist_new() };
	struct sb_err e;
	CHECK(sim_run_fluid(s, &st, 0, SLICE, SLICE, on_slice, &a, &e) == -1);
	CHECK(strstr(e.msg, "sampled") != NULL);
	seen_free(&a);
	sim_close(s);
}

/* The held side completions (smp_hold, smp_held_next, smp_release, which
   keeps a count to answer "none" at once) against a scan of what was held
   and not yet released, over random holds and releases. */
TEST(held_completions_are_the_ones_not_released)
{
	struct smp_window m;
	if (smp_init(&m, 3, false, 1))
		CHECK_FAIL("smp_init");
	uint64_t held[3] = { 0 };	/* t_done + 1 of each side's, 0: none */
	uint64_t x = 42;
	size_t bad = 0;
	for (int i = 0; i < 20000; i++) {
		uint32_t k = (uint32_t)(splitmix64(&x) % 3);
		if (splitmix64(&x) % 2) {
			if (!held[k]) {	/* one I/O in flight per side stream */
				uint64_t t = splitmix64(&x) % 1000;
				smp_hold(&m, 2 + k, t, 7);
				held[k] = t + 1;
			}
		} else {
			const struct smp_held *v = smp_held_next(&m);
			if (v) {
				struct smp_held r = smp_release(&m, v);
				bad += !held[r.tag - 2] || held[r.tag - 2] != r.t_done + 1;
				held[r.tag - 2] = 0;
			}
		}
		const struct smp_held *v = smp_held_next(&m);
		uint64_t first = 0;	/* the scan's earliest, + 1 */
		for (int j = 0; j < 3; j++)
			if (held[j] && (!first || held[j] < first))
				first = held[j];
		bad += first ? !v || v->t_done + 1 != first : v != NULL;
	}
	CHECK(bad == 0);
	smp_free(&m);
}

CHECK_MAIN("test_sim_sampled")
