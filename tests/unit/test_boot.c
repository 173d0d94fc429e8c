/* The boot search and its rate check against hand-worked runs of
   BootBench's run.py (rrbench_bisect) and of fio's __check_min_rate on a
   drive whose answer is known: it passes every N up to `cap`. */
#include "check.h"

#include <math.h>

#include "analysis/rate_min.h"
#include "suite/boot_search.h"

#define S 1000000000ull
#define MAXT 64

struct fake_drive {
	uint32_t cap;		/* passes N <= cap */
	unsigned stop_at;	/* the user stops at this trial (1-based); 0 never */
	unsigned n;
	uint32_t ns_readers[MAXT];
	char phase[MAXT];	/* d, b, c */
	uint64_t secs[MAXT];
};

static int fake_trial(void *ctx, uint32_t n, const char *phase, unsigned k,
		      uint64_t ns, struct boot_trial *t, struct sb_err *e)
{
	(void)e;
	struct fake_drive *d = ctx;
	if (d->n < MAXT) {
		d->ns_readers[d->n] = n;
		d->phase[d->n] = phase[0];
		d->secs[d->n] = ns / S;
	}
	d->n++;
	if (d->stop_at && d->n == d->stop_at)
		return 1;
	t->pass = n <= d->cap;
	t->iops = 1000.0 * n - k;	/* runs of one N differ a little */
	return 0;
}

static const struct boot_search_params bootbench = {
	BOOT_SEARCH_BOOTBENCH, 1, 256, 30 * S, 60 * S, 120 * S, 3,
};

/* The trials run, as "N phase" and the score, checked against a list
   worked out by hand from run.py. */
static void check_run(struct boot_search_params p, uint32_t cap,
		      const uint32_t *want_n, const char *want_phase,
		      size_t nwant, bool met, uint32_t readers, double iops)
{
	struct fake_drive d = { .cap = cap };
	struct boot_score s;
	struct sb_err e = { 0 };
	CHECK(boot_search_run(&p, fake_trial, &d, &s, &e) == 0);
	CHECK_EQ_U64(d.n, nwant);
	CHECK_EQ_U64(s.trials, nwant);
	for (size_t i = 0; i < nwant && i < d.n; i++) {
		if (d.ns_readers[i] != want_n[i] || d.phase[i] != want_phase[i])
			CHECK_FAIL("trial %zu: N=%u %c, want N=%u %c", i + 1,
				   d.ns_readers[i], d.phase[i], want_n[i],
				   want_phase[i]);
		uint64_t want_s = want_phase[i] == 'd' ? 30 : want_phase[i] == 'b' ? 60 : 120;
		CHECK_EQ_U64(d.secs[i], want_s);
	}
	CHECK(s.met == met);
	CHECK_EQ_U64(s.readers, readers);
	CHECK_NEAR(s.iops, iops, 1e-9);
}

TEST(bootbench_last_bisection_passes_scores_that_run)
{
	/* 64 fails; 48 f, 40 f, 36 p, 38 f, 37 p: high - low = 1, the last
	   run passed, so its 60 s run is the score */
	const uint32_t n[] = { 1, 2, 4, 8, 16, 32, 64, 48, 40, 36, 38, 37 };
	check_run(bootbench, 37, n, "dddddddbbbbb", 12, true, 37, 36999);
}

TEST(bootbench_last_bisection_fails_steps_down_with_one_run)
{
	/* ... 36 p, 38 p, 39 f: N - 1 = 38 once more for 120 s */
	const uint32_t n[] = { 1, 2, 4, 8, 16, 32, 64, 48, 40, 36, 38, 39, 38 };
	check_run(bootbench, 38, n, "dddddddbbbbbc", 13, true, 38, 37999);
}

TEST(bootbench_passing_n_max_still_bisects_and_scores_n_max_minus_one)
{
	const uint32_t n[] = { 1, 2, 4, 8, 16, 32, 64, 128, 256,
			       192, 224, 240, 248, 252, 254, 255 };
	check_run(bootbench, 1000, n, "dddddddddbbbbbbb", 16, true, 255, 254999);
}

TEST(bootbench_first_run_failing_at_one_reader_cannot_meet)
{
	const uint32_t n[] = { 1 };
	check_run(bootbench, 0, n, "d", 1, false, 0, 0);
}

TEST(bootbench_failing_n_start_steps_down_one_reader_at_a_time)
{
	/* low = high = 4: no bisection; 3 f, 2 p (single 120 s runs) */
	struct boot_search_params p = bootbench;
	p.n_start = 4;
	const uint32_t n[] = { 4, 3, 2 };
	check_run(p, 2, n, "dcc", 3, true, 2, 1999);
	const uint32_t n0[] = { 4, 3, 2, 1 };
	check_run(p, 0, n0, "dccc", 4, false, 0, 0);
}

TEST(confirm_search_bisects_below_n_start_and_takes_the_minimum_of_its_runs)
{
	struct boot_search_params p = bootbench;
	p.search = BOOT_SEARCH_CONFIRM;
	p.n_start = 4;
	/* 4 f: bisect (0, 4): 2 p, 3 f; confirm 2 three times, min 2000 - 3 */
	const uint32_t n[] = { 4, 2, 3, 2, 2, 2 };
	check_run(p, 2, n, "dbbccc", 6, true, 2, 1997);
	/* every N up to n_max passes: no bisection, confirmed at n_max */
	p.n_max = 16;
	const uint32_t n2[] = { 4, 8, 16, 16, 16, 16 };
	check_run(p, 100, n2, "dddccc", 6, true, 16, 15997);
}

TEST(a_stop_ends_the_search_without_a_score)
{
	struct fake_drive d = { .cap = 37, .stop_at = 3 };
	struct boot_score s;
	struct sb_err e = { 0 };
	CHECK(boot_search_run(&bootbench, fake_trial, &d, &s, &e) == 1);
	CHECK_EQ_U64(d.n, 3);
	CHECK(!s.met);
}

TEST(search_names_parse)
{
	CHECK(boot_search_parse("bootbench") == BOOT_SEARCH_BOOTBENCH);
	CHECK(boot_search_parse("confirm") == BOOT_SEARCH_CONFIRM);
	CHECK(boot_search_parse("bisect") == -1);
}

/* --- fio's rate_min over 100 ms samples ---------------------------------- */

#define MIB 1048576.0
#define SLICE (S / 10)
/* 15 MiB/s for a tenth of a second */
#define B15 1572864ull

/* A writer at 15 MiB/s for `secs`, with nothing completing in
   (stall_from, stall_to] seconds. */
static void feed(struct rate_min_check *c, unsigned secs, double stall_from,
		 double stall_to)
{
	for (unsigned i = 1; i <= secs * 10; i++) {
		double t = i / 10.0;
		bool stalled = t > stall_from + 1e-9 && t <= stall_to + 1e-9;
		rate_min_feed(c, i * SLICE, stalled ? 0 : B15);
	}
}

TEST(rate_min_passes_a_steady_writer)
{
	struct rate_min_check c;
	rate_min_init(&c, 5 * MIB, 5 * S, RATE_MIN_SETTLE_NS);
	feed(&c, 30, 0, 0);
	/* base at 2 s, checks at 7, 12, 17, 22, 27 s */
	CHECK_EQ_U64(c.windows, 5);
	CHECK(!c.failed);
	CHECK_NEAR(c.lowest_bps, 15 * MIB, 1e-6);
}

TEST(rate_min_fails_a_window_below_the_minimum)
{
	struct rate_min_check c;
	rate_min_init(&c, 5 * MIB, 5 * S, RATE_MIN_SETTLE_NS);
	/* (7, 12]: only 7.1 .. 8.0 completes: 10 x B15 / 5 s = 3 MiB/s */
	feed(&c, 30, 8, 16);
	CHECK(c.failed);
	CHECK_NEAR(c.lowest_bps, 3 * MIB, 1e-6);
	/* 2 MiB/s is the trimmer's minimum: 3 MiB/s is enough for it */
	rate_min_init(&c, 2 * MIB, 5 * S, RATE_MIN_SETTLE_NS);
	feed(&c, 30, 8, 16);
	CHECK(!c.failed);
}

TEST(rate_min_ignores_the_settle_period_and_a_trailing_part_cycle)
{
	struct rate_min_check c;
	rate_min_init(&c, 5 * MIB, 5 * S, RATE_MIN_SETTLE_NS);
	feed(&c, 30, 0, 2);	/* nothing in the first 2 s */
	CHECK(!c.failed);
	rate_min_init(&c, 5 * MIB, 5 * S, RATE_MIN_SETTLE_NS);
	feed(&c, 11, 7, 11);	/* stalls after the one full window */
	CHECK_EQ_U64(c.windows, 1);
	CHECK(!c.failed);
	rate_min_init(&c, 0, 5 * S, RATE_MIN_SETTLE_NS);	/* no check */
	feed(&c, 30, 0, 30);
	CHECK_EQ_U64(c.windows, 0);
	CHECK(!c.failed && isnan(c.lowest_bps));
}

CHECK_MAIN("boot")
