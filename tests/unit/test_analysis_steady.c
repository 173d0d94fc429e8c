/* Steady state: the O(1) online detector against a direct O(n w)
   transcription of each rule (fio's steadystate.c: slope, mean deviation;
   SNIA PTS), with the trace's samples added up into ss_interval samples
   by hand, on random and constructed traces. */
#include "check.h"

#include "analysis/steady.h"
#include "common/rng.h"

/* The rule as written: every window from scratch, centred least squares in
   long double.  Returns whether the window ending at `end` holds. */
static bool direct_rule(const uint64_t *y, size_t end, size_t w,
			const struct ss_params *p)
{
	size_t first = end + 1 - w;
	long double sum = 0, mx = (long double)(w - 1) / 2, sxx = 0, sxy = 0;
	uint64_t hi = y[first], lo = y[first];
	for (size_t i = first; i <= end; i++) {
		sum += y[i];
		if (y[i] > hi)
			hi = y[i];
		if (y[i] < lo)
			lo = y[i];
	}
	long double mean = sum / w;
	if (sum == 0)
		return false;
	for (size_t i = first; i <= end; i++) {
		long double x = (long double)(i - first) - mx;
		sxx += x * x;
		sxy += x * ((long double)y[i] - mean);
	}
	long double slope_pct = 100 * (sxy / sxx) / mean;
	if (p->rule == SS_FIO_SLOPE)
		return fabsl(slope_pct) < p->slope_limit_pct;
	if (p->rule == SS_FIO_DEVIATION) {
		/* fio: max over the window of |y - mean|, % of the mean */
		long double dev = 0;
		for (size_t i = first; i <= end; i++)
			if (fabsl((long double)y[i] - mean) > dev)
				dev = fabsl((long double)y[i] - mean);
		return 100 * dev / mean < p->slope_limit_pct;
	}
	return 100 * (long double)(hi - lo) / mean <= p->excursion_limit_pct &&
	       fabsl(slope_pct) * (w - 1) <= p->slope_limit_pct;
}

/* Feed t through the detector; every window's verdict must equal the
   direct rule's on the trace added up by hand into groups of
   interval_s / sample_s samples, and the result must name the first
   steady one (as the index of the trace sample that completes it). */
static void agree(const struct trace_pt *t, size_t n, const struct ss_params *p,
		  long *first_steady)
{
	struct sb_err e;
	struct ss_detector *d;
	CHECK(ss_new(p, &d, &e) == 0);
	size_t k = (size_t)llround(p->interval_s / p->sample_s);
	if (k < 1)
		k = 1;
	size_t w = (size_t)(p->window_s / (p->sample_s * (double)k) + 0.5);
	uint64_t *y = calloc(n / k + 1, sizeof *y), bytes = 0;
	long first = -1;
	size_t mismatches = 0;
	for (size_t i = 0; i < n; i++) {
		size_t j = i / k;
		y[j] += trace_count(&t[i], p->metric);
		bytes += t[i].bytes;
		bool got = ss_push(d, &t[i]);
		bool whole = (i + 1) % k == 0;
		bool want = whole && j + 1 >= w && bytes >= p->min_bytes &&
			    direct_rule(y, j, w, p);
		if (got != want && mismatches++ < 5)
			CHECK_FAIL("window ending %zu: detector %d, rule %d", i,
				   got, want);
		if (want && first < 0)
			first = (long)i;
	}
	struct ss_result r;
	ss_result(d, &r);
	CHECK(r.reached == (first >= 0));
	if (first >= 0)
		CHECK_EQ_U64(r.index, (uint64_t)first);
	CHECK_EQ_STR(r.rule, ss_rule_name(p->rule));
	/* offline on the stored trace: the same verdict */
	struct ss_result off;
	CHECK(ss_analyze(t, n, p, &off, &e) == 0);
	CHECK(off.reached == r.reached && off.index == r.index);
	*first_steady = first;
	ss_free(d);
	free(y);
}

/* A trace that settles: exponential approach to a level, noise, jitter in
   the slice length, and occasional dips. */
static struct trace_pt *settling_trace(struct rng *r, size_t n, double noise,
				       double tau)
{
	struct trace_pt *t = malloc(n * sizeof *t);
	double level = 2e5 + rng_unit(r) * 1e6;
	for (size_t i = 0; i < n; i++) {
		double v = level * (1 + 3 * exp(-(double)i / tau));
		v *= 1 + noise * (2 * rng_unit(r) - 1);
		if (rng_below(r, 3000) == 0)
			v *= 0.3;
		t[i].ns = 100000000 + rng_below(r, 2000000);
		t[i].ios = (uint64_t)v;
		t[i].bytes = t[i].ios * 4096;
	}
	return t;
}

TEST(steady_fio_and_snia_agree_with_direct_rules_on_random_traces)
{
	struct rng r;
	rng_seed(&r, 2024);
	int reached[3] = { 0, 0, 0 };
	for (int trial = 0; trial < 24; trial++) {
		size_t n = 1500 + rng_below(&r, 1500);
		double noise = 0.02 + (trial % 2 ? 0.06 : 0.3) * rng_unit(&r);
		struct trace_pt *t = settling_trace(&r, n, noise,
						    50 + rng_below(&r, 400));
		for (int rule = 0; rule < 3; rule++) {
			struct ss_params p;
			ss_params_default(&p);
			p.interval_s = p.sample_s;
			p.rule = rule == 1 ? SS_SNIA : rule == 2 ? SS_FIO_DEVIATION
							 : SS_FIO_SLOPE;
			p.metric = trial % 2 ? TRACE_IOPS : TRACE_BW;
			p.window_s = 5 + (double)rng_below(&r, 30);
			if (trial % 3 == 0)
				p.slope_limit_pct = rule == 1 ? 10 : rule == 2 ? 40 : 0.05;
			if (trial % 5 == 0)
				p.min_bytes = t[0].bytes * 300;
			long first;
			agree(t, n, &p, &first);
			reached[rule] += first >= 0;
		}
		free(t);
	}
	/* the traces were built to settle: most must reach it, so the test
	   exercises both verdicts */
	CHECK(reached[0] > 12);
	CHECK(reached[1] > 6);
	CHECK(reached[2] > 6);
}

TEST(steady_constructed_traces)
{
	struct sb_err e;
	struct ss_params p;
	ss_params_default(&p);
	p.interval_s = p.sample_s;
	p.window_s = 3;		/* 30 samples */
	size_t n = 200;
	struct trace_pt t[200];
	/* constant: steady at the first full window, value exact */
	for (size_t i = 0; i < n; i++)
		t[i] = (struct trace_pt){ 100000000, 1000000, 250 };
	for (int rule = 0; rule < 2; rule++) {
		p.rule = rule ? SS_SNIA : SS_FIO_SLOPE;
		struct ss_result res;
		CHECK(ss_analyze(t, n, &p, &res, &e) == 0);
		CHECK(res.reached && res.index == 29);
		CHECK_NEAR(res.value, 1e7, 1e-6);
		CHECK_NEAR(res.seconds, 3.0, 1e-9);
	}
	/* a ramp of 2 % of the mean per sample: fio at limit 10 % calls it
	   steady (its rule is loose), SNIA never (fit excursion 58 %) */
	for (size_t i = 0; i < n; i++)
		t[i].bytes = 1000000 + 20000 * i;
	long first;
	p.rule = SS_FIO_SLOPE;
	agree(t, n, &p, &first);
	CHECK(first == 29);
	p.slope_limit_pct = 0.5;	/* slope/mean falls below 0.5 % at mean 4e6 */
	agree(t, n, &p, &first);
	/* slope 20000 / mean (1e6 + 20000 (i - 14.5)) < 0.005  <=>  i > 164.5 */
	CHECK(first == 165);
	p.rule = SS_SNIA;
	p.slope_limit_pct = 10;
	agree(t, n, &p, &first);
	CHECK(first == -1);
	/* alternating +-15 %: no slope but data excursion 30 % > 20 % */
	for (size_t i = 0; i < n; i++)
		t[i].bytes = i % 2 ? 1150000 : 850000;
	agree(t, n, &p, &first);
	CHECK(first == -1);
	p.rule = SS_FIO_SLOPE;
	agree(t, n, &p, &first);
	CHECK(first == 29);
	/* all zero: never steady, no division by zero */
	for (size_t i = 0; i < n; i++)
		t[i].bytes = 0;
	agree(t, n, &p, &first);
	CHECK(first == -1);
}

TEST(steady_online_drive_writes_and_bad_params)
{
	struct sb_err e;
	struct ss_params p;
	ss_params_default(&p);
	p.interval_s = p.sample_s;
	p.capacity_bytes = 1000000000;
	p.min_bytes = 2 * p.capacity_bytes;
	p.window_s = 10;	/* 100 samples, full long before 2 GB */
	struct ss_detector *d;
	CHECK(ss_new(&p, &d, &e) == 0);
	struct trace_pt pt = { 100000000, 10000000, 0 };	/* 100 MB/s */
	size_t i = 0;
	while (!ss_push(d, &pt))
		i++;
	/* 2 GB at 10 MB a sample: sample 199 is the first allowed */
	CHECK_EQ_U64(i, 199);
	struct ss_result r;
	ss_result(d, &r);
	CHECK_NEAR(r.drive_writes, 2.0, 1e-12);
	CHECK_NEAR(r.seconds, 20.0, 1e-9);
	CHECK_NEAR(r.value, 1e8, 1e-3);
	ss_free(d);

	p.window_s = 0.1;
	CHECK(ss_new(&p, &d, &e) == -1 && strstr(e.msg, "window"));
	ss_params_default(&p);
	p.slope_limit_pct = 0;
	CHECK(ss_new(&p, &d, &e) == -1 && strstr(e.msg, "limit"));
	struct trace_pt z = { 0, 1, 1 };
	CHECK(ss_analyze(&z, 1, &p, &r, &e) == -1 && strstr(e.msg, "zero duration"));
}

/* fio's names say what is judged: bw_slope bandwidth, iops IOPS ... */
TEST(steady_rule_names_pick_the_metric)
{
	struct sb_err e;
	static const struct { const char *name; enum ss_rule rule; int metric; } k[] = {
		{ "bw_slope", SS_FIO_SLOPE, TRACE_BW },
		{ "iops_slope", SS_FIO_SLOPE, TRACE_IOPS },
		{ "bw", SS_FIO_DEVIATION, TRACE_BW },
		{ "iops", SS_FIO_DEVIATION, TRACE_IOPS },
		{ "fio-slope", SS_FIO_SLOPE, -1 },
		{ "fio-deviation", SS_FIO_DEVIATION, -1 },
		{ "snia", SS_SNIA, -1 },
	};
	for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
		enum ss_rule rule = SS_SNIA;
		int metric = 99;
		CHECK(ss_rule_parse(k[i].name, &rule, &metric, &e) == 0);
		CHECK(rule == k[i].rule && metric == k[i].metric);
	}
	enum ss_rule rule;
	int metric;
	CHECK(ss_rule_parse("bogus", &rule, &metric, &e) == -1 && strstr(e.msg, "bogus"));
}

/*
 * The detector's spacing is ss_interval, not the trace's: a ramp of 100 ms
 * samples y_i = 1e5 (1 + i).  Judged per 100 ms over 30 s (300 samples)
 * its slope is 1e5 / (1e5 (1 + 149.5)) = 0.66 % per sample: "steady" at a
 * 5 % limit from the first window.  Per 1 s (fio's default) the samples
 * are sums of ten, the slope 100 x 1e5 over a mean of 10 x 1e5 (1 + 149.5)
 * + ...: 6.6 % per sample, not steady until the ramp has flattened
 * relative to its level; the direct rule on hand-made 1 s sums says when.
 */
TEST(steady_interval_is_not_the_trace_spacing)
{
	size_t n = 20000;
	struct trace_pt *t = malloc(n * sizeof *t);
	for (size_t i = 0; i < n; i++)
		t[i] = (struct trace_pt){ 100000000, 100000 * (1 + i), 1 + i };
	struct ss_params p;
	ss_params_default(&p);
	p.slope_limit_pct = 5;
	long first_100ms, first_1s;
	p.interval_s = 0.1;
	agree(t, n, &p, &first_100ms);
	CHECK(first_100ms == 299);
	p.interval_s = 1;	/* the default */
	agree(t, n, &p, &first_1s);
	/* 1 s sums S_j = 1e5 (10 + 100 j + 45) over 30 of them: slope 1e7,
	   mean 1e5 (55 + 100 (j0 + 14.5)) for the window from j0; 100 x
	   1e7 / mean < 5 <=> 100 j0 > 495, so the window is j0 = 5 .. 34
	   and its last trace sample 10 x 34 + 9 */
	CHECK(first_1s == 349);
	struct sb_err e;
	struct ss_result r;
	CHECK(ss_analyze(t, n, &p, &r, &e) == 0);
	CHECK(r.per_interval == 10 && r.window == 30);
	CHECK_NEAR(r.interval_s, 1.0, 1e-12);
	CHECK_NEAR(r.window_s, 30.0, 1e-9);
	CHECK_NEAR(r.limit_pct, 5.0, 0);
	free(t);
}

/*
 * fio's slope criterion divides by sum_y / dur in integer arithmetic.  A
 * window 100, 101, 103: slope (307 - 3 x 304 / 3) / (5 - 9 / 3) = 1.5;
 * fio 100 x 1.5 / 101 = 1.485149 %, the exact mean 304 / 3 gives
 * 1.480263 %.  Mean deviation: max(|100 - 101.333|, |103 - 101.333|) =
 * 1.6667, 1.644737 % of the mean.
 */
TEST(steady_fio_truncated_mean_and_deviation_by_hand)
{
	struct trace_pt t[3] = {
		{ 1000000000, 100, 100 }, { 1000000000, 101, 101 }, { 1000000000, 103, 103 },
	};
	struct ss_params p;
	ss_params_default(&p);
	p.sample_s = p.interval_s = 1;
	p.window_s = 3;
	p.slope_limit_pct = 1.483;
	struct sb_err e;
	struct ss_result r;
	CHECK(ss_analyze(t, 3, &p, &r, &e) == 0);
	CHECK(r.reached);	/* fio, with its truncated mean, would say no */
	CHECK_NEAR(r.at.slope_pct, 150.0 / (304.0 / 3), 1e-12);
	CHECK_NEAR(r.at.slope_pct_fio, 150.0 / 101, 1e-12);
	CHECK_NEAR(r.at.criterion_pct, r.at.slope_pct, 0);
	p.rule = SS_FIO_DEVIATION;
	p.slope_limit_pct = 1.6;
	CHECK(ss_analyze(t, 3, &p, &r, &e) == 0);
	CHECK(!r.reached);
	CHECK_NEAR(r.at.max_deviation_pct, 100 * (103 - 304.0 / 3) / (304.0 / 3), 1e-12);
	CHECK_EQ_STR(r.rule, "fio-deviation");
}

/*
 * A run's cut-short first or last slice is not an interval (trace_whole):
 * here the last is a 7 us sliver with 1 I/O.  Whole slices 1000, 1100,
 * 1300 I/Os of 1 s, window 3: by hand the slope is (1300 - 1000) / 2 =
 * 150 per sample over a mean of 3400 / 3, 13.235 % -- not steady, at
 * 1133.3 IOPS.  Taken as a fourth sample the sliver would judge the window
 * 1100, 1300, 1: slope -549.5 over a mean of 800.  A 7 us sliver in front
 * of the same slices must not shift them either.
 */
TEST(steady_partial_first_and_last_slice_not_an_interval)
{
	struct trace_pt t[5] = {
		{ 7000, 4096, 1 },
		{ 1000000000, 1000 * 4096ull, 1000 },
		{ 1000000000, 1100 * 4096ull, 1100 },
		{ 1000000000, 1300 * 4096ull, 1300 },
		{ 7000, 4096, 1 },
	};
	struct ss_params p;
	ss_params_default(&p);
	p.metric = TRACE_IOPS;
	p.sample_s = p.interval_s = 1;
	p.window_s = 3;
	struct sb_err e;
	struct ss_result r;
	for (size_t lead = 0; lead < 2; lead++) {
		CHECK(ss_analyze(t + 1 - lead, 4 + lead, &p, &r, &e) == 0);
		CHECK(!r.reached);
		CHECK(r.at.full);
		CHECK_NEAR(r.at.criterion_pct, 100 * 150 / (3400.0 / 3), 1e-9);
		CHECK_NEAR(r.value, 3400.0 / 3, 1e-9);
		/* the slivers were still run and written */
		CHECK_NEAR(r.seconds, 3 + 7e-6 * (double)(1 + lead), 1e-12);
		CHECK_NEAR(r.bytes, (3400.0 + 1 + (double)lead) * 4096, 0);
	}
	/* without the sliver at the end, 1000, 1100, 1120 is steady at the
	   last whole slice (slope 60 of 1073.3, 5.59 %), as with it */
	t[3] = (struct trace_pt){ 1000000000, 1120 * 4096ull, 1120 };
	CHECK(ss_analyze(t, 5, &p, &r, &e) == 0);
	CHECK(r.reached);
	CHECK_EQ_U64(r.index, 3);
	CHECK_NEAR(r.value, 3220.0 / 3, 1e-9);
}

CHECK_MAIN("analysis_steady")
