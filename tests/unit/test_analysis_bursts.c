/* Bursts against an SN8100-like RND preconditioning trace built with known
   bursts, and the level at drive-write points against direct sums. */
#include "check.h"

#include "analysis/bursts.h"
#include "synth.h"

struct true_burst {
	double start, secs, iops;
};

TEST(bursts_sn8100_rnd_preconditioning)
{
	struct rng r;
	rng_seed(&r, 99);
	struct synth s = { 0 };
	struct true_burst tb[64];
	size_t ntb = 0;
	double now = 0;
	synth_add(&s, 20000, 15);
	now = 15;
	while (now < 600 && ntb < 64) {
		double secs = 0.4 + 0.2 * rng_unit(&r);
		double iops = 0.9e6 + 0.1e6 * rng_unit(&r);
		double gap = 19 + 3 * rng_unit(&r) - secs;
		tb[ntb++] = (struct true_burst){ now, secs, iops };
		/* the burst moves a fixed amount with 3 % noise of its own */
		synth_add_bytes(&s, iops, iops * secs);
		s.segs[s.nsegs - 1].sigma = 0.03;
		synth_add(&s, 20000, gap);
		now += secs + gap;
	}
	size_t n;
	/* the baseline wanders 15-25 k: 12 % noise */
	struct trace_pt *t = synth_trace(&s, 0.1, 0.01, 0.12, 0.8, 4, 4096, &n);
	struct burst_params p;
	burst_params_default(&p);
	struct burst_result res;
	struct burst *list;
	struct sb_err e;
	CHECK(burst_analyze(t, n, TRACE_IOPS, &p, &res, &list, &e) == 0);
	CHECK_EQ_U64(res.count, ntb);
	CHECK_REL(res.base, 20000, 0.1);
	CHECK(res.period_s.min >= 18.9 && res.period_s.max <= 22.1);
	CHECK(res.duration_s.min >= 0.35 && res.duration_s.max <= 0.65);
	CHECK(res.height.min >= 0.85e6 && res.height.max <= 1.05e6);
	for (size_t i = 0; i < res.count && i < ntb; i++) {
		/* each found burst is the true one, measured */
		CHECK_NEAR(list[i].start_s, tb[i].start, 0.15);
		CHECK_NEAR(list[i].duration_s, tb[i].secs, 0.06);
		CHECK_REL(list[i].height, tb[i].iops, 0.10);
		/* its I/Os, give or take an edge slice: a slice holding a
		   sliver of the burst stays below the threshold, one holding
		   most of it brings some baseline along */
		double truth = tb[i].iops * tb[i].secs * 4096;
		CHECK_REL(list[i].bytes, truth, 0.03);
	}
	free(list);

	/* a flat trace with the same noise has none */
	struct synth flat = { 0 };
	synth_add(&flat, 20000, 300);
	free(t);
	t = synth_trace(&flat, 0.1, 0.01, 0.12, 0.8, 5, 4096, &n);
	CHECK(burst_analyze(t, n, TRACE_IOPS, &p, &res, NULL, &e) == 0);
	CHECK_EQ_U64(res.count, 0);
	CHECK(isnan(res.period_s.median));
	free(t);
	free(flat.segs);
	free(s.segs);
}

TEST(bursts_level_at_drive_writes)
{
	/* 100 slices of 0.1 s: 1000 IOs (4 MB) each for the first 50, then
	   3000 each: capacity 100 MB -> 0.2 DW at slice 5 and 1.0 at 25 */
	struct trace_pt t[100];
	for (size_t i = 0; i < 100; i++) {
		uint64_t ios = i < 50 ? 1000 : 3000;
		t[i] = (struct trace_pt){ 100000000, ios * 4000, ios };
	}
	double dw[4] = { 0.2, 1.0, 2.2, 99 }, out[4];
	struct sb_err e;
	CHECK(level_at_drive_writes(t, 100, TRACE_IOPS, 100000000, dw, 4, 1.0,
				    out, &e) == 0);
	CHECK_NEAR(out[0], 10000, 1e-6);
	CHECK_NEAR(out[1], 10000, 1e-6);
	/* 2.2 DW = 220 MB: 200 MB by slice 50, then 12 MB a slice: 51.67
	   slices in, at 5.167 s; the window [4.667, 5.667] holds the slices
	   with mid-points 4.75 .. 5.65, i.e. 47..56: 3 at 1000, 7 at 3000 */
	CHECK_NEAR(out[2], 24000, 1e-6);
	CHECK(isnan(out[3]));
	CHECK(level_at_drive_writes(t, 100, TRACE_IOPS, 0, dw, 4, 1.0, out, &e) == -1);
}

/*
 * A drive that bursts every P seconds: the mean of a 30 s window depends on
 * how many bursts it catches (one or two of a 20.4 s cycle), the mean over
 * whole periods does not.  Noiseless 0.1 s slices: a base of 20000 IOPS
 * with a 0.4 s burst of 900000 IOPS every 20.4 s, so over whole periods
 * the rate is 20000 + 880000 x 0.4 / 20.4 exactly.
 */
TEST(bursts_level_over_whole_periods)
{
	enum { N = 3060 };	/* 306 s: 15 periods */
	static struct trace_pt t[N];
	for (size_t i = 0; i < N; i++) {
		size_t in_period = i % 204;
		uint64_t ios = in_period >= 100 && in_period < 104 ? 90000 : 2000;
		t[i] = (struct trace_pt){ 100000000, ios * 4096, ios };
	}
	double truth = 20000 + 880000 * 0.4 / 20.4;
	/* windows of 30 s ending at every slice of the last periods: the
	   window's mean swings between one and two bursts' worth, the whole
	   periods' level stays */
	double lo = INFINITY, hi = 0;
	for (size_t end = N - 204; end < N; end++) {
		double win = 0;
		for (size_t i = end + 1 - 300; i <= end; i++)
			win += (double)t[i].ios;
		win /= 30.0;
		lo = win < lo ? win : lo;
		hi = win > hi ? win : hi;
		double lv = level_over_periods(t, N, TRACE_IOPS, end, 20.4, 30.0);
		CHECK_REL(lv, truth, 1e-9);
	}
	CHECK(hi > 1.3 * lo);	/* the phase does matter to the window */
	/* shorter than one period behind the end: no whole period */
	CHECK(isnan(level_over_periods(t, N, TRACE_IOPS, 150, 20.4, 30.0)));
	CHECK(isnan(level_over_periods(t, N, TRACE_IOPS, N - 1, NAN, 30.0)));
}

CHECK_MAIN("analysis_bursts")
