/* Consistency exact against a sort, the repetition rule and low-QD score
   as transcriptions of the method, reclaim against the SN8100 regain
   model, latency tables from histograms, and the hand calculations. */
#include "check.h"

#include "analysis/consistency.h"
#include "analysis/fill.h"
#include "analysis/latency.h"
#include "analysis/lowqd.h"
#include "analysis/reclaim.h"
#include "synth.h"

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The 99.9 % value by a full sort: exceeded by 99.9 % of the samples. */
static double sorted_p01(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_d);
	size_t k = (size_t)ceil(0.001 * (double)n);
	return v[(k ? k : 1) - 1];
}

static void direct_view(double *v, size_t n, struct consistency_view *o)
{
	double s = 0, ss = 0;
	for (size_t i = 0; i < n; i++)
		s += v[i];
	o->mean = s / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - o->mean) * (v[i] - o->mean);
	o->stddev = sqrt(ss / (double)(n - 1));
	o->p01 = sorted_p01(v, n);
	o->score = o->p01 / o->mean * 100;
}

TEST(consistency_exact_against_sort)
{
	struct rng r;
	rng_seed(&r, 31);
	for (int trial = 0; trial < 6; trial++) {
		size_t n = 3000 + rng_below(&r, 5000);
		struct trace_pt *t = malloc(n * sizeof *t);
		for (size_t i = 0; i < n; i++) {
			uint64_t ios = 50000 + rng_below(&r, 20000);
			if (rng_below(&r, 500) == 0)
				ios /= 10;	/* rare deep dips set the 0.1 % */
			t[i] = (struct trace_pt){ 100000000 + rng_below(&r, 3000000),
						  ios * 4096, ios };
		}
		struct consistency_result res;
		struct sb_err e;
		CHECK(consistency_analyze(t, n, trial % 2 ? TRACE_IOPS : TRACE_BW, 0,
					  &res, &e) == 0);
		CHECK(res.group == 10);
		double *v = malloc(n * sizeof *v);
		for (size_t i = 0; i < n; i++)
			v[i] = trace_rate(&t[i], trial % 2 ? TRACE_IOPS : TRACE_BW);
		struct consistency_view want;
		direct_view(v, n, &want);
		CHECK(res.fine.p01 == want.p01);
		CHECK_REL(res.fine.mean, want.mean, 1e-12);
		CHECK_REL(res.fine.stddev, want.stddev, 1e-9);
		CHECK_REL(res.fine.score, want.score, 1e-12);
		/* 1 s: ten slices merged, the tail dropped */
		size_t nc = n / 10;
		for (size_t k = 0; k < nc; k++) {
			uint64_t c = 0, ns = 0;
			for (size_t i = 10 * k; i < 10 * k + 10; i++) {
				c += trace_count(&t[i], trial % 2 ? TRACE_IOPS : TRACE_BW);
				ns += t[i].ns;
			}
			v[k] = (double)c * 1e9 / (double)ns;
		}
		direct_view(v, nc, &want);
		CHECK_EQ_U64(res.coarse.n, nc);
		CHECK(res.coarse.p01 == want.p01);
		CHECK_REL(res.coarse.score, want.score, 1e-12);
		/* the dips make 100 ms less consistent than 1 s */
		CHECK(res.fine.score < res.coarse.score);
		free(v);
		free(t);
	}
}

/*
 * A flat drive's run ends in a sliver: the P4800X at 70:30 QD8 does some
 * 500k IOPS, every 100 ms slice holds exactly 50000 I/Os, and the run's
 * last slice is 7 us with one I/O (142857 IOPS).  By hand: every whole
 * sample is 500000, so the score is 100 % and the standard deviation 0.
 * Likewise a QD1 tail run at 42k IOPS whose last slice is 1 us with one
 * I/O (10^6 IOPS) has a standard deviation of 0, not 756k.
 */
TEST(consistency_takes_no_partial_interval_as_a_sample)
{
	enum { N = 3001 };
	struct trace_pt *t = malloc(N * sizeof *t);
	for (size_t i = 0; i + 1 < N; i++)
		t[i] = (struct trace_pt){ 100000000, 50000 * 4096ull, 50000 };
	t[N - 1] = (struct trace_pt){ 7000, 4096, 1 };
	struct consistency_result r;
	struct sb_err e;
	CHECK(consistency_analyze(t, N, TRACE_IOPS, 0, &r, &e) == 0);
	CHECK_EQ_U64(r.fine.n, N - 1);
	CHECK(r.fine.score == 100);
	CHECK(r.fine.stddev == 0);
	CHECK(r.coarse.score == 100);
	for (size_t i = 0; i + 1 < N; i++)
		t[i] = (struct trace_pt){ 100000000, 4200 * 4096ull, 4200 };
	t[N - 1] = (struct trace_pt){ 1000, 4096, 1 };
	CHECK(consistency_analyze(t, N, TRACE_IOPS, 0, &r, &e) == 0);
	CHECK(r.fine.mean == 42000);
	CHECK(r.fine.stddev == 0);
	/* a sliver at the start (a run cut mid-slice) is not a sample
	   either, and whole stalled slices are: with three of the 2999 at 0,
	   the 0.1th percentile (rank 3) is 0 and so is the score */
	t[0] = (struct trace_pt){ 5000, 4096, 1 };
	for (size_t i = 1; i <= 3; i++)
		t[i] = (struct trace_pt){ 100000000, 0, 0 };
	CHECK(consistency_analyze(t, N, TRACE_IOPS, 0, &r, &e) == 0);
	CHECK_EQ_U64(r.fine.n, N - 2);
	CHECK(r.fine.score == 0);
	free(t);
}

TEST(trace_whole_keeps_every_slice_of_an_even_trace)
{
	struct trace_pt t[3] = { { 100000000, 1, 1 }, { 100000000, 1, 1 },
				 { 60000000, 1, 1 } };
	size_t a, b;
	trace_whole(t, 3, &a, &b);
	CHECK(a == 0 && b == 3);	/* 60 ms is over half of 100 ms */
	t[2].ns = 40000000;
	trace_whole(t, 3, &a, &b);
	CHECK(a == 0 && b == 2);
	trace_whole(t, 1, &a, &b);
	CHECK(a == 0 && b == 1);
	struct trace_pt two[2] = { { 100000000, 1, 1 }, { 7000, 1, 1 } };
	trace_whole(two, 2, &a, &b);
	CHECK(a == 0 && b == 1);
}

/*
 * One rule for the cache a reclaim cycle regained (findings and report):
 * a fill with a 14.1 GB/s cache, then a minute that writes 30 GB at that
 * speed before 3.9 GB/s: 30 GB regained.  A fill without a cache (flat
 * 3.9 GB/s) is no reference: nothing regained is claimed, where the
 * findings used to judge the minute against its own first samples.
 */
TEST(reclaim_cycle_cache_against_the_fill)
{
	const double G = 1e9;
	struct synth fill = { 0 }, flat = { 0 }, minute = { 0 };
	synth_add_bytes(&fill, 14.1 * G, 200 * G);
	synth_add_bytes(&fill, 3.9 * G, 800 * G);
	synth_add_bytes(&flat, 3.9 * G, 1000 * G);
	synth_add_bytes(&minute, 14.1 * G, 30 * G);
	synth_add(&minute, 3.9 * G, 57.9);
	size_t nf, nl, nm;
	struct trace_pt *tf = synth_trace(&fill, 0.1, 0.02, 0.03, 0.8, 5, 0, &nf);
	struct trace_pt *tl = synth_trace(&flat, 0.1, 0.02, 0.03, 0.8, 6, 0, &nl);
	struct trace_pt *tm = synth_trace(&minute, 0.1, 0.02, 0.03, 0.8, 7, 0, &nm);
	double cache;
	struct sb_err e;
	CHECK(reclaim_cycle_cache(tf, nf, tm, nm, &cache, &e) == 0);
	CHECK(fabs(cache - 30 * G) <= 0.01 * 30 * G);
	CHECK(reclaim_cycle_cache(tl, nl, tm, nm, &cache, &e) == 0);
	CHECK(isnan(cache));
	free(tf);
	free(tl);
	free(tm);
	free(fill.segs);
	free(flat.segs);
	free(minute.segs);
}

TEST(repetition_rule_transcribed)
{
	struct rep_rule rule;
	rep_rule_default(&rule);
	struct rep_state s;
	struct sb_err e;
	/* steady from the start: five runs, then the median of the last 3 */
	CHECK(rep_init(&s, &rule, &e) == 0);
	double a[] = { 100, 101, 99, 100.5, 99.5 };
	for (int i = 0; i < 4; i++)
		CHECK(rep_add(&s, a[i]) == REP_AGAIN);
	CHECK(rep_add(&s, a[4]) == REP_STABLE);
	CHECK(s.n == 5 && !rep_flagged(&s));
	CHECK(rep_value(&s) == 99.5);	/* median of 99, 100.5, 99.5 */
	CHECK(rep_add(&s, 1e9) == REP_STABLE && s.n == 5);	/* ignored */
	/* RSE of the last 3 by hand: 90, 100, 110 -> s = 10, rse = 10 /
	   sqrt(3) / 100 = 5.77 % (again); then 100, 110, 104 -> s = 5.03,
	   rse 2.8 % (stable at run 7) */
	CHECK(rep_init(&s, &rule, &e) == 0);
	double b[] = { 50, 70, 90, 100, 110, 104 };
	for (int i = 0; i < 5; i++)
		rep_add(&s, b[i]);
	CHECK_NEAR(rep_rse(&s), 10 / sqrt(3) / 100, 1e-12);
	CHECK(s.verdict == REP_AGAIN);
	CHECK(rep_add(&s, b[5]) == REP_STABLE);
	CHECK(rep_value(&s) == 104);
	/* never agreeing: flagged at 10, median of all ten */
	CHECK(rep_init(&s, &rule, &e) == 0);
	enum rep_verdict v = REP_AGAIN;
	for (int i = 0; i < 10; i++)
		v = rep_add(&s, i % 2 ? 100 : 200 + i);
	CHECK(v == REP_FLAGGED && rep_flagged(&s) && s.n == 10);
	/* 100 x5, 200, 202, 204, 206, 208: rank 5 of 10 is 100 */
	CHECK(rep_value(&s) == 100);
	rule.last_k = 1;
	CHECK(rep_init(&s, &rule, &e) == -1 && strstr(e.msg, "last"));
}

TEST(lowqd_weighted_and_ranking)
{
	/* read shares 0, 50, 70, 100 x QD 1, 2, 4 */
	double v[4][3] = { { 300, 500, 700 }, { 200, 300, 400 },
			   { 250, 350, 450 }, { 90, 180, 350 } };
	double w[4];
	struct sb_err e;
	CHECK(lowqd_weighted(&v[0][0], 4, 3, lowqd_default_weights, w, &e) == 0);
	for (int i = 0; i < 4; i++)
		CHECK_NEAR(w[i], 0.8 * v[i][0] + 0.15 * v[i][1] + 0.05 * v[i][2], 1e-9);
	unsigned pct[4] = { 0, 50, 70, 100 };
	CHECK_NEAR(lowqd_ranking(pct, w, 4), (w[1] + w[2]) / 2, 1e-9);
	double old[3] = { 0.7, 0.2, 0.1 };
	CHECK(lowqd_weighted(&v[0][0], 4, 3, old, w, &e) == 0);
	CHECK_NEAR(w[0], 0.7 * 300 + 0.2 * 500 + 0.1 * 700, 1e-9);
	double bad[3] = { 0.8, 0.15, 0.1 };
	CHECK(lowqd_weighted(&v[0][0], 4, 3, bad, w, &e) == -1 && strstr(e.msg, "sum"));
	unsigned ends[2] = { 0, 100 };
	CHECK(isnan(lowqd_ranking(ends, w, 2)));
}

/* The SN8100's regain: static 11 GB, then after the drive has been idle
   for `delay` seconds +1.46 GB/s of idle, up to 344 GB. */
static double sn8100_regain(double idle_s, double delay)
{
	double c = 11e9 + 1.46e9 * (idle_s > delay ? idle_s - delay : 0);
	return c > 344e9 ? 344e9 : c;
}

TEST(reclaim_sn8100_from_minute_traces)
{
	static const double idle[] = { 5, 10, 15, 30, 60, 120, 240, 480, 600 };
	size_t np = sizeof idle / sizeof idle[0];
	struct reclaim_point pts[9];
	struct fill_params fp;
	fill_params_default(&fp);
	fp.ref_speed = 14.1e9;
	for (size_t i = 0; i < np; i++) {
		/* the minute after the idle: regained cache at 14.1, rest at
		   3.94 GB/s */
		struct synth s = { 0 };
		double c = sn8100_regain(idle[i], 0);
		synth_add_bytes(&s, 14.1e9, c);
		synth_add(&s, 3.94e9, 60 - c / 14.1e9);
		size_t n, end;
		struct trace_pt *t = synth_trace(&s, 0.1, 0.02, 0.03, 0.8, 40 + i, 0, &n);
		struct sb_err e;
		CHECK(fill_find_cache(t, n, &fp, &end, &pts[i].cache_bytes, &e) == 0);
		pts[i].idle_s = idle[i];
		CHECK_NEAR(pts[i].cache_bytes, c, 0.6e9);
		free(t);
		free(s.segs);
	}
	struct reclaim_result r;
	struct sb_err e;
	CHECK(reclaim_analyze(pts, np, 0.05, &r, &e) == 0);
	CHECK(r.saturated);
	CHECK_EQ_U64(r.nfit, 6);		/* 5 .. 120 s */
	CHECK_NEAR(r.rate, 1.46e9, 0.05e9);
	CHECK_REL(r.recovered_bytes, 344e9, 0.01);
	CHECK_NEAR(r.first_full_idle_s, 240, 1e-9);
	CHECK_NEAR(r.full_s, (344 - 11) / 1.46, 5);
	/* exact points: an exact line */
	for (size_t i = 0; i < np; i++)
		pts[i].cache_bytes = sn8100_regain(idle[i], 0);
	CHECK(reclaim_analyze(pts, np, 0.05, &r, &e) == 0);
	CHECK_NEAR(r.rate, 1.46e9, 1e-3);
	CHECK_NEAR(r.intercept, 11e9, 1);
	/* a drive that waits 20 s before folding: 5, 10, 15 s are floor and
	   stay out of the fit; the rate is still the regain rate */
	for (size_t i = 0; i < np; i++)
		pts[i].cache_bytes = sn8100_regain(idle[i], 20);
	CHECK(reclaim_analyze(pts, np, 0.05, &r, &e) == 0);
	CHECK_EQ_U64(r.nfloor, 3);
	CHECK_NEAR(r.rate, 1.46e9, 1e-3);
	/* the line meets the recovered size (mean of 332, 344, 344 GB) at
	   245 s, after the 240 s point was already saturated */
	CHECK_NEAR(r.full_s, 240, 1e-9);
	CHECK_EQ_U64(r.nfit, 3);
	CHECK(reclaim_analyze(pts, 0, 0.05, &r, &e) == -1);
	pts[2].idle_s = -1;
	CHECK(reclaim_analyze(pts, np, 0.05, &r, &e) == -1 && strstr(e.msg, "point"));
}

TEST(latency_tables_and_nines)
{
	struct lat_hist *h = hist_new();
	struct rng r;
	rng_seed(&r, 5);
	/* 1e6 reads around 30 us with a 1-in-10^4 tail at ~2 ms */
	for (int i = 0; i < 1000000; i++)
		hist_add(h, rng_below(&r, 10000) == 0 ? 2000000 + rng_below(&r, 100000)
						      : 28000 + rng_below(&r, 4000));
	struct lat_summary s;
	lat_summarize(h, lat_qos_percentiles, LAT_QOS_NPS, &s);
	CHECK_EQ_U64(s.count, 1000000);
	CHECK(s.v_ns[0] > 29000 && s.v_ns[0] < 31000);		/* p50 */
	CHECK(s.v_ns[4] > 2000000);				/* p99.99 */
	CHECK(s.v_ns[3] < 32100);				/* p99.9 */
	for (size_t i = 0; i < LAT_QOS_NPS; i++)
		CHECK_EQ_U64(s.v_ns[i], hist_percentile(h, lat_qos_percentiles[i]));
	struct nines_pt pts[200];
	size_t k = lat_nines_curve(h, 6, 0.1, pts, 200);
	/* 10^6 samples say nothing past 6 nines: 61 grid points + the max */
	CHECK_EQ_U64(k, 62);
	for (size_t i = 1; i < k; i++) {
		CHECK(pts[i].latency_ns >= pts[i - 1].latency_ns);
		CHECK(pts[i].percentile > pts[i - 1].percentile);
	}
	CHECK_EQ_U64(pts[k - 1].latency_ns, h->max);
	CHECK_NEAR(pts[20].percentile, 99, 1e-9);
	CHECK_EQ_U64(pts[20].latency_ns, hist_percentile(h, 99));
	const struct lat_hist *rows[1] = { h };
	struct lat_summary table[1];
	lat_qos_table(rows, 1, table);
	CHECK_EQ_U64(table[0].v_ns[6], s.v_ns[6]);
	hist_free(h);

	struct spec_check c = { "QD1 read p99.99", "us", 100, 80, false, 0, false, 0 };
	spec_judge(&c);
	CHECK(c.pass && fabs(c.margin - 0.2) < 1e-12);
	c = (struct spec_check){ "RND read IOPS", "IOPS", 1.2e6, 1.1e6, true, 0, false, 0 };
	spec_judge(&c);
	CHECK(!c.pass && c.margin < 0);
	/* with the datasheet's 5 %: 1.14 M of 1.2 M IOPS passes (1.14 =
	   1.2 x 0.95), 1.139 M fails; 105 us against 100 us passes, 105.1
	   fails; nothing measured neither passes nor has a margin */
	c = (struct spec_check){ "IOPS", "IOPS", 1.2e6, 1.14e6, true, 0.05, false, 0 };
	spec_judge(&c);
	CHECK(c.pass);
	c.measured = 1.139e6;
	spec_judge(&c);
	CHECK(!c.pass);
	c = (struct spec_check){ "p99", "us", 100, 105, false, 0.05, false, 0 };
	spec_judge(&c);
	CHECK(c.pass && fabs(c.margin + 0.05) < 1e-12);
	c.measured = 105.1;
	spec_judge(&c);
	CHECK(!c.pass);
	c.measured = NAN;
	spec_judge(&c);
	CHECK(!c.pass && isnan(c.margin));
}

CHECK_MAIN("analysis_figures")
