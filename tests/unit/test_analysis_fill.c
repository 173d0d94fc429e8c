/* Fill Drive analysis against synthetic passes whose truth is known: the
   SN8100's two passes (cache, direct stage, four folding levels), flat
   drives that must show no cache, and a QLC drive's stalls. */
#include "check.h"

#include "analysis/fill.h"
#include "synth.h"

#define GB 1e9

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The whole-pass figures, checked directly: exact sums and a sort. */
static void check_whole_pass(const struct trace_pt *t, size_t n,
			     const struct fill_result *r)
{
	uint64_t bytes = 0, ns = 0;
	double *v = malloc(n * sizeof *v), sum = 0;
	for (size_t i = 0; i < n; i++) {
		bytes += t[i].bytes;
		ns += t[i].ns;
		v[i] = (double)t[i].bytes * 1e9 / (double)t[i].ns;
		sum += v[i];
	}
	CHECK(r->true_avg == (double)bytes * 1e9 / (double)ns);
	CHECK(r->total_bytes == (double)bytes);
	uint64_t slow = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i] < 0.5 * r->true_avg)
			slow += t[i].ns;
	CHECK_REL(r->below_half_share, (double)slow / (double)ns, 1e-12);
	/* samples are the ~100 ms slices: a last one under 50 ms (the pass
	   stops mid-slice) is not a sample */
	if (n > 1 && t[n - 1].ns < 50000000) {
		sum -= v[n - 1];
		n--;
	}
	CHECK_REL(r->mean_of_samples, sum / (double)n, 1e-12);
	qsort(v, n, sizeof *v, cmp_d);
	size_t k = (size_t)ceil(0.01 * (double)n);
	CHECK(r->p1 == v[k - 1]);
	CHECK(r->min == v[0]);
	CHECK(r->max == v[n - 1]);
	free(v);
}

/* SN8100 pass 1 as the simulator's profile describes it. */
static struct trace_pt *sn8100_pass1(uint64_t seed, double *cache_truth,
				     size_t *n)
{
	struct synth s = { 0 };
	struct rng r;
	rng_seed(&r, seed);
	/* 677 GB of cache at 14.1 GB/s with two short dips inside */
	synth_add_bytes(&s, 14.1 * GB, 141 * GB);
	synth_add_bytes(&s, 4.2 * GB, 1.26 * GB);
	synth_add_bytes(&s, 14.1 * GB, 282 * GB);
	synth_add_bytes(&s, 5.0 * GB, 1.0 * GB);
	synth_add_bytes(&s, 14.1 * GB, (677 - 141 - 1.26 - 282 - 1.0) * GB);
	*cache_truth = 677 * GB;
	/* direct to TLC until 1160 GB */
	synth_add_bytes(&s, 3.94 * GB, 483 * GB);
	/* folding rounds to the end: 3980 / 2120 / 1330 / 684 MB/s */
	double written = 1160 * GB;
	while (written < 2000 * GB) {
		static const double lv[4] = { 3.98, 2.12, 1.33, 0.684 };
		static const double secs[4] = { 0.6, 1.8, 1.6, 0.6 };
		for (int i = 0; i < 4; i++) {
			double d = secs[i] * (0.8 + 0.4 * rng_unit(&r));
			synth_add(&s, lv[i] * GB, d);
			written += lv[i] * GB * d;
		}
	}
	struct trace_pt *t = synth_trace(&s, 0.1, 0.02, 0.03, 0.8, seed, 0, n);
	free(s.segs);
	return t;
}

TEST(fill_sn8100_pass1_cache_stages_levels)
{
	for (uint64_t seed = 1; seed <= 8; seed++) {
		size_t n;
		double truth;
		struct trace_pt *t = sn8100_pass1(seed, &truth, &n);
		struct fill_params p;
		fill_params_default(&p);
		struct fill_result r;
		struct sb_err e;
		CHECK(fill_analyze(t, n, &p, &r, &e) == 0);
		check_whole_pass(t, n, &r);
		CHECK(r.has_cache);
		CHECK_REL(r.cache_bytes, truth, 0.01);
		CHECK_REL(r.cache_speed, 14.1 * GB, 0.02);
		CHECK(r.nstages == 3);
		if (r.nstages == 3) {
			CHECK_NEAR(r.stages[1].start_bytes, 677 * GB, 20 * GB);
			CHECK_REL(r.stages[1].mean, 3.94 * GB, 0.02);
			CHECK_NEAR(r.stages[2].start_bytes, 1160 * GB, 20 * GB);
			/* rounds average: (lv x secs) / secs */
			CHECK_REL(r.stages[2].mean, 8.73 / 4.6 * GB, 0.03);
		}
		static const double want[4] = { 3.98, 2.12, 1.33, 0.684 };
		CHECK(r.nlevels == 4);
		for (size_t i = 0; i < 4 && i < r.nlevels; i++)
			CHECK_REL(r.levels[i].rate, want[i] * GB, 0.02);
		free(t);
	}
}

/* One pass of `s`, analysed with the defaults; the whole-pass figures
   checked; returns the result. */
static struct fill_result analyse_synth(const struct synth *s, uint64_t seed)
{
	size_t n;
	struct trace_pt *t = synth_trace(s, 0.1, 0.02, 0.03, 0.8, seed, 0, &n);
	struct fill_params p;
	fill_params_default(&p);
	struct fill_result r;
	struct sb_err e;
	CHECK(fill_analyze(t, n, &p, &r, &e) == 0);
	check_whole_pass(t, n, &r);
	free(t);
	return r;
}

TEST(fill_sn8100_pass2_small_cache_and_subtle_step)
{
	struct synth s = { 0 };
	synth_add_bytes(&s, 14.1 * GB, 11 * GB);
	synth_add_bytes(&s, 3.75 * GB, 666 * GB);
	synth_add_bytes(&s, 3.89 * GB, 1323 * GB);
	for (uint64_t seed = 10; seed < 18; seed++) {
		struct fill_result r = analyse_synth(&s, seed);
		CHECK(r.has_cache);
		CHECK_REL(r.cache_bytes, 11 * GB, 0.01);
		CHECK(r.nstages == 3);
		if (r.nstages == 3) {
			CHECK_NEAR(r.stages[2].start_bytes, 677 * GB, 20 * GB);
			CHECK_REL(r.stages[1].mean, 3.75 * GB, 0.02);
			CHECK_REL(r.stages[2].mean, 3.89 * GB, 0.02);
		}
	}
	free(s.segs);
}

/*
 * A cache shorter than a stage, as in the demo's pass 2 (a miniature at
 * scale 0.1 sampled every 10 ms): the static SLC of a full SN8100, 1.1 GB
 * at 14.1 GB/s, is 8 slices of a 5000-slice pass, under the 3 blocks of
 * 25 slices a stage needs; after it 3.6 GB/s for 30 GB, then 3.9 to the
 * end, under the simulator's noise (sd 4 %, correlated over 0.45 s: 45
 * slices, so block means wander as much as the cache lifts the first).
 * Found all the same, to half a slice.
 */
TEST(fill_cache_shorter_than_a_stage)
{
	struct synth s = { 0 };
	synth_add_bytes(&s, 14.1 * GB, 1.1 * GB);
	synth_add_bytes(&s, 3.6 * GB, 30 * GB);
	synth_add_bytes(&s, 3.9 * GB, 168.9 * GB);
	const double dt = 0.01, sigma = 0.04, phi = exp(-dt / 0.45);
	struct fill_params p;
	fill_params_default(&p);
	for (uint64_t seed = 50; seed < 66; seed++) {
		size_t n;
		struct trace_pt *t = synth_trace(&s, dt, 0.02, sigma, phi, seed, 0, &n);
		struct fill_result r;
		struct sb_err e;
		CHECK(fill_analyze(t, n, &p, &r, &e) == 0);
		free(t);
		if (!r.has_cache) {
			CHECK_FAIL("seed %llu: no cache found", (unsigned long long)seed);
			continue;
		}
		CHECK(r.cache_start_bytes == 0);
		CHECK_NEAR(r.cache_bytes, 1.1 * GB, 0.5 * 14.1 * GB * dt);
		/* 8 slices of one stretch of slow noise: within 3 sd */
		CHECK_REL(r.cache_speed, 14.1 * GB, 3 * sigma);
		CHECK_EQ_U64(r.cache_phases, 1);
	}
	free(s.segs);
}

/*
 * Folding rounds alone, no cache (a pass whose every write folds): 0.6 s
 * at 3.98 GB/s, 1.8 s at 2.12, 1.6 s at 1.33, 0.6 s at 0.684, over and
 * over.  Each 3.98 round is short and fast beside what follows, but it
 * recurs: one level of an alternation, not a cache.
 */
TEST(fill_folding_rounds_alone_are_no_cache)
{
	struct synth s = { 0 };
	static const double lv[4] = { 3.98, 2.12, 1.33, 0.684 };
	static const double secs[4] = { 0.6, 1.8, 1.6, 0.6 };
	struct rng g;
	rng_seed(&g, 3);
	for (int k = 0; k < 120; k++)
		for (int i = 0; i < 4; i++)
			synth_add(&s, lv[i] * GB, secs[i] * (0.8 + 0.4 * rng_unit(&g)));
	for (uint64_t seed = 60; seed < 64; seed++) {
		struct fill_result r = analyse_synth(&s, seed);
		if (r.has_cache)
			CHECK_FAIL("seed %llu: a %.1f GB cache at %.2f GB/s",
				   (unsigned long long)seed, r.cache_bytes / GB,
				   r.cache_speed / GB);
	}
	free(s.segs);
}

/*
 * The cache is the fast phase wherever it is: a second pass that writes
 * 285 GB at 3.8 GB/s (the drive still folding the first pass) before its
 * 14.1 GB/s cache returns for 392 GB, then 3.89 GB/s to the end.
 */
TEST(fill_cache_that_starts_late)
{
	struct synth s = { 0 };
	synth_add_bytes(&s, 3.8 * GB, 285 * GB);
	synth_add_bytes(&s, 14.1 * GB, 392 * GB);
	synth_add_bytes(&s, 3.89 * GB, 1323 * GB);
	for (uint64_t seed = 20; seed < 24; seed++) {
		struct fill_result r = analyse_synth(&s, seed);
		CHECK(r.has_cache);
		CHECK_REL(r.cache_start_bytes, 285 * GB, 0.01);
		CHECK_REL(r.cache_bytes, 392 * GB, 0.01);
		CHECK_REL(r.cache_speed, 14.1 * GB, 0.02);
		CHECK_EQ_U64(r.cache_stage, 1);
		CHECK_EQ_U64(r.cache_phases, 1);
		if (r.nstages >= 3) {
			CHECK_REL(r.stages[0].mean, 3.8 * GB, 0.02);
			CHECK_REL(r.stages[2].mean, 3.89 * GB, 0.02);
		}
		CHECK_REL(r.post.mean, 3.89 * GB, 0.02);
	}
	free(s.segs);
}

/* A cache that refills during the pass: the first fast run is the cache,
   and the pass says the cache came back. */
TEST(fill_cache_that_recurs)
{
	struct synth s = { 0 };
	synth_add_bytes(&s, 14.1 * GB, 100 * GB);
	synth_add_bytes(&s, 3.9 * GB, 300 * GB);
	synth_add_bytes(&s, 14.1 * GB, 50 * GB);
	synth_add_bytes(&s, 3.9 * GB, 300 * GB);
	for (uint64_t seed = 30; seed < 34; seed++) {
		struct fill_result r = analyse_synth(&s, seed);
		CHECK(r.has_cache);
		CHECK_REL(r.cache_bytes, 100 * GB, 0.01);
		CHECK(r.cache_start_bytes == 0);
		CHECK_EQ_U64(r.cache_phases, 2);
		/* cache, slower, the cache again, slower */
		CHECK(r.nstages == 4);
		if (r.nstages == 4) {
			CHECK_REL(r.stages[2].start_bytes, 400 * GB, 0.01);
			/* to a slice (1.41 GB) at each end */
			CHECK_NEAR(r.stages[2].bytes, 50 * GB, 2 * 1.41 * GB);
			CHECK_REL(r.stages[3].mean, 3.9 * GB, 0.02);
		}
	}
	free(s.segs);
}

/*
 * A scaled drive (1 % of 2 TB): 13.6 GB of cache at 14.1 GB/s (10 slices)
 * and 8 GB at 3.9 GB/s after it (21 slices), a pass of 3 s.  A fixed 5 s
 * window finds no "sustained" drop in 2 s; windows that scale with the
 * pass do.
 */
TEST(fill_cache_on_a_small_drive)
{
	struct synth s = { 0 };
	synth_add_bytes(&s, 14.1 * GB, 13.6 * GB);
	synth_add_bytes(&s, 3.9 * GB, 8 * GB);
	for (uint64_t seed = 40; seed < 44; seed++) {
		struct fill_result r = analyse_synth(&s, seed);
		CHECK(r.has_cache);
		CHECK_REL(r.cache_bytes, 13.6 * GB, 0.03);
		CHECK_REL(r.cache_speed, 14.1 * GB, 0.03);
		/* 21 slices of AR(1) noise and the slice the drop cuts */
		CHECK_REL(r.post.mean, 3.9 * GB, 0.10);
	}
	free(s.segs);
}

TEST(fill_flat_drives_have_no_cache)
{
	struct fill_params p;
	fill_params_default(&p);
	struct sb_err e;
	struct fill_result r;
	size_t n;
	/* Optane-like: flat 2.31 GB/s, 1 % noise */
	struct synth s = { 0 };
	synth_add_bytes(&s, 2.31 * GB, 375 * GB);
	struct trace_pt *t = synth_trace(&s, 0.1, 0.02, 0.01, 0.8, 5, 0, &n);
	CHECK(fill_analyze(t, n, &p, &r, &e) == 0);
	CHECK(!r.has_cache && r.nstages == 1);
	CHECK(r.nlevels == 1 && fabs(r.levels[0].rate / (2.31 * GB) - 1) < 0.02);
	free(t);
	free(s.segs);
	/* Micron-like: 540 MB/s, a 90 ms flush every 4 s */
	s = (struct synth){ 0 };
	for (int i = 0; i < 480; i++) {
		synth_add(&s, 0.54 * GB, 3.91);
		synth_add(&s, 0, 0.09);
	}
	t = synth_trace(&s, 0.1, 0.02, 0.01, 0.5, 6, 0, &n);
	CHECK(fill_analyze(t, n, &p, &r, &e) == 0);
	CHECK(!r.has_cache);
	check_whole_pass(t, n, &r);
	free(t);
	free(s.segs);
	/* PM1725-like: 1.79 GB/s with 20 % noise */
	s = (struct synth){ 0 };
	synth_add_bytes(&s, 1.79 * GB, 600 * GB);
	t = synth_trace(&s, 0.1, 0.02, 0.20, 0.8, 7, 0, &n);
	CHECK(fill_analyze(t, n, &p, &r, &e) == 0);
	CHECK(!r.has_cache);
	free(t);
	free(s.segs);
}

TEST(fill_qlc_cache_then_stalls)
{
	/* P1-like: 140 GB at 1.65 GB/s, then 0.3 s bursts and ~4.5 s stalls
	   at almost nothing: a low true average hidden by the bursts */
	struct synth s = { 0 };
	synth_add_bytes(&s, 1.65 * GB, 140 * GB);
	for (int i = 0; i < 200; i++) {
		synth_add(&s, 1.65 * GB, 0.3);
		synth_add(&s, 0.01 * GB, 4.5);
	}
	size_t n;
	struct trace_pt *t = synth_trace(&s, 0.1, 0.02, 0.04, 0.5, 8, 0, &n);
	struct fill_params p;
	fill_params_default(&p);
	struct fill_result r;
	struct sb_err e;
	CHECK(fill_analyze(t, n, &p, &r, &e) == 0);
	CHECK(r.has_cache);
	CHECK_REL(r.cache_bytes, 140 * GB, 0.01);
	CHECK_REL(r.post.mean, (1.65 * 0.3 + 0.01 * 4.5) / 4.8 * GB, 0.03);
	CHECK(r.below_half_share > 0.5);
	check_whole_pass(t, n, &r);
	free(t);
	free(s.segs);
}

TEST(fill_reclaim_minute_with_known_speed)
{
	/* 7 GB regained: half a second at cache speed, then direct */
	struct synth s = { 0 };
	synth_add_bytes(&s, 14.1 * GB, 7 * GB);
	synth_add(&s, 3.94 * GB, 59.5);
	size_t n, end;
	struct trace_pt *t = synth_trace(&s, 0.1, 0.02, 0.03, 0.8, 9, 0, &n);
	struct fill_params p;
	fill_params_default(&p);
	p.ref_speed = 14.1 * GB;
	double bytes;
	struct sb_err e;
	CHECK(fill_find_cache(t, n, &p, &end, &bytes, &e) == 0);
	CHECK(end > 0);
	CHECK_NEAR(bytes, 7 * GB, 0.4 * GB);
	free(t);
	free(s.segs);
}

/*
 * The dirty-test tool's average against the true one, by hand: one 100 ms
 * slice at 1000 MB/s (100 MB) and nine at 100 MB/s (10 MB each).  True
 * average 190 MB / 1 s = 190 MB/s; the mean of the samples (equal
 * slices) (1000 + 9 x 100) / 10 = 190 MB/s too; averaged over the
 * position written, (100 x 1000 + 90 x 100) / 190 = 573.68 MB/s: what a
 * speed-vs-position curve shows, three times the truth.
 */
TEST(fill_tool_average_over_position_vs_true_average)
{
	struct trace_pt t[10];
	for (int i = 0; i < 10; i++) {
		t[i].ns = 100000000;
		t[i].bytes = i == 0 ? 100000000 : 10000000;
		t[i].ios = t[i].bytes / 131072;
	}
	struct fill_params p;
	struct fill_result r;
	struct sb_err e;
	fill_params_default(&p);
	CHECK(fill_analyze(t, 10, &p, &r, &e) == 0);
	CHECK_REL(r.true_avg, 190e6, 1e-12);
	CHECK_REL(r.mean_of_samples, 190e6, 1e-12);
	CHECK_REL(r.position_avg, (100.0 * 1000 + 90.0 * 100) / 190 * 1e6, 1e-12);
	/* 100 MB/s is above half of 190: no time below half the average */
	CHECK(r.below_half_share == 0);
	CHECK(r.min == 100e6);
}

TEST(fill_bad_input)
{
	struct fill_params p;
	fill_params_default(&p);
	struct fill_result r;
	struct sb_err e;
	CHECK(fill_analyze(NULL, 0, &p, &r, &e) == -1 && strstr(e.msg, "empty"));
	struct trace_pt t[2] = { { 100, 5, 1 }, { 0, 5, 1 } };
	CHECK(fill_analyze(t, 2, &p, &r, &e) == -1 && strstr(e.msg, "zero duration"));
	t[1].ns = 100;
	p.drop_frac = 1.5;
	CHECK(fill_analyze(t, 2, &p, &r, &e) == -1 && strstr(e.msg, "drop fraction"));
}

TEST(fill_levels_of_a_known_mixture)
{
	/* three levels with 5 % noise and unequal shares */
	struct rng r;
	rng_seed(&r, 77);
	size_t n = 20000;
	double *v = malloc(n * sizeof *v);
	static const double lv[3] = { 500e6, 1200e6, 3000e6 };
	for (size_t i = 0; i < n; i++) {
		int k = i % 10 < 2 ? 0 : i % 10 < 6 ? 1 : 2;
		v[i] = lv[k] * (1 + 0.05 * synth_gauss(&r));
	}
	struct fill_level out[8];
	size_t nl = fill_levels(v, NULL, n, 0.03, 0.03, out, 8);
	CHECK(nl == 3);
	for (size_t i = 0; i < nl && i < 3; i++)
		CHECK_REL(out[i].rate, lv[2 - i], 0.02);
	if (nl == 3) {
		CHECK_NEAR(out[0].time_share, 0.4, 0.02);
		CHECK_NEAR(out[1].time_share, 0.4, 0.02);
		CHECK_NEAR(out[2].time_share, 0.2, 0.02);
	}
	/* a third of the slices stalled: a level at 0, the others' shares
	   shrink to two thirds */
	double *v2 = malloc(3 * n / 2 * sizeof *v2);
	memcpy(v2, v, n * sizeof *v);
	for (size_t i = n; i < 3 * n / 2; i++)
		v2[i] = 0;
	nl = fill_levels(v2, NULL, 3 * n / 2, 0.03, 0.03, out, 8);
	CHECK(nl == 4);
	if (nl == 4) {
		CHECK(out[3].rate == 0);
		CHECK_NEAR(out[3].time_share, 1.0 / 3, 1e-12);
		CHECK_NEAR(out[0].time_share, 0.4 * 2 / 3, 0.02);
		CHECK_REL(out[2].rate, lv[0], 0.02);
	}
	free(v2);
	free(v);
}

CHECK_MAIN("analysis_fill")
