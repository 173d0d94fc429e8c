/*
 * Non-uniform random offsets (fio's random_distribution): the empirical
 * shares of 2 million draws against each definition computed here on its
 * own terms (zipf's exact CDF by summation, pareto's closed form, fio's
 * normal by exact convolution, the zones' shares), within 1 %; the scatter
 * is a bijection; the uniform generator is untouched; bad text refused.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "engine/distribution.h"
#include "engine/offsets.h"

#define DRAWS 2000000

static void sampler(struct dist_sampler *s, const char *text, uint64_t n)
{
	struct access_dist d;
	struct sb_err e;
	if (access_dist_parse(text, &d, &e) || dist_sampler_init(s, &d, n, 7, &e))
		CHECK_FAIL("%s: %s", text, e.msg);
}

/* Share of draws with rank < k, for each k of ks. */
static void rank_shares(const struct dist_sampler *s, const uint64_t *ks, int nk,
			double *out)
{
	struct rng r;
	uint64_t *below = calloc((size_t)nk, sizeof *below);
	rng_seed(&r, 12345);
	for (int i = 0; i < DRAWS; i++) {
		uint64_t v = dist_next_rank(s, &r);
		if (v >= s->n)
			CHECK_FAIL("rank %" PRIu64 " beyond %" PRIu64, v, s->n);
		for (int j = 0; j < nk; j++)
			below[j] += v < ks[j];
	}
	for (int j = 0; j < nk; j++)
		out[j] = (double)below[j] / DRAWS;
	free(below);
}

static void check_zipf(double theta, uint64_t n)
{
	static const uint64_t ks[] = { 1, 2, 10, 1000, 100000 };
	double got[5], total = 0, cum = 0;
	struct dist_sampler s;
	char text[32];
	snprintf(text, sizeof text, "zipf:%g", theta);
	sampler(&s, text, n);
	rank_shares(&s, ks, 5, got);
	for (uint64_t i = 1; i <= n; i++)
		total += pow((double)i, -theta);
	int j = 0;
	for (uint64_t i = 1; i <= n && j < 5; i++) {
		cum += pow((double)i, -theta);
		if (i == ks[j]) {
			CHECK_REL(got[j], cum / total, 0.01);
			j++;
		}
	}
}

TEST(zipf_shares_match_the_exact_cdf)
{
	check_zipf(1.2, 1000000);
	check_zipf(0.8, 1000000);
	check_zipf(1.0, 1000000);
	check_zipf(2.0, 300000);
}

TEST(pareto_shares_match_the_power_law)
{
	/* pareto:h puts (k/N)^(log(1-h)/log(h)) of the accesses on the first
	   k/N of the ranks: h = 0.2 is the 80/20 rule */
	const uint64_t n = 1000003;
	const uint64_t ks[] = { n / 100, n / 20, n / 5, n / 2 };
	double hs[] = { 0.2, 0.1, 0.4 };
	for (int t = 0; t < 3; t++) {
		struct dist_sampler s;
		char text[32];
		double got[4];
		snprintf(text, sizeof text, "pareto:%g", hs[t]);
		sampler(&s, text, n);
		rank_shares(&s, ks, 4, got);
		for (int j = 0; j < 4; j++)
			CHECK_REL(got[j], pow((double)ks[j] / n, log(1 - hs[t]) / log(hs[t])), 0.01);
	}
	struct dist_sampler s;
	double got;
	sampler(&s, "pareto:0.2", 1000000);
	uint64_t k = 200000;
	rank_shares(&s, &k, 1, &got);
	CHECK_NEAR(got, 0.8, 0.008);
}

/*
 * fio's normal:DEV over N blocks (lib/gauss.c): the rounded-up mean of 12
 * uniform integers in [0, N], plus a deviation uniform over the integers
 * -W/2 .. W-1-W/2 (W = ceil(N * DEV / 100), at most N/2), halved (toward
 * zero) until the sum stays in [0, N).  Its exact distribution, by
 * convolution.
 */
static void normal_exact(uint64_t n, double dev_pct, double *p)
{
	size_t len = 12 * n + 1;
	double *a = calloc(len, sizeof *a), *b = calloc(len, sizeof *b);
	a[0] = 1;
	for (int d = 0; d < 12; d++) {
		memset(b, 0, len * sizeof *b);
		for (size_t s = 0; s <= (size_t)d * n; s++)
			if (a[s] > 0)
				for (uint64_t v = 0; v <= n; v++)
					b[s + v] += a[s] / (double)(n + 1);
		double *t = a; a = b; b = t;
	}
	int64_t w = (int64_t)ceil((double)n * dev_pct / 100);
	if (w > (int64_t)n / 2)
		w = (int64_t)n / 2;
	memset(p, 0, n * sizeof *p);
	for (size_t s = 0; s < len; s++) {
		int64_t mean = (int64_t)((s + 11) / 12);
		for (int64_t vr = 0; vr < w; vr++) {
			int64_t dev = vr - w / 2;
			while (dev && (mean + dev < 0 || mean + dev >= (int64_t)n))
				dev /= 2;
			p[(uint64_t)(mean + dev) % n] += a[s] / (double)w;
		}
	}
	free(a);
	free(b);
}

TEST(normal_shares_match_fio_gauss)
{
	const uint64_t n = 1000;
	double exact[1000], cum = 0;
	uint64_t ks[9];
	double want[9], got[9];
	normal_exact(n, 10, exact);
	for (int j = 0; j < 9; j++)
		ks[j] = 300 + 50 * (uint64_t)j;	/* 300 .. 700: the bell */
	for (uint64_t i = 0, j = 0; i < n && j < 9; i++) {
		if (i == ks[j])
			want[j++] = cum;
		cum += exact[i];
	}
	struct dist_sampler s;
	sampler(&s, "normal:10", n);
	rank_shares(&s, ks, 9, got);
	for (int j = 0; j < 9; j++)
		CHECK_REL(got[j], want[j], 0.01);
	CHECK_NEAR(want[4], 0.5, 0.01);	/* the bell is centred */
}

TEST(zoned_shares_match_their_zones)
{
	/* 50 % of accesses to the first 5 % of the span, 30 % to the next
	   15 %, 20 % to the last 80 %; halves of a zone get half its share */
	const uint64_t n = 1000003;
	struct dist_sampler s;
	sampler(&s, "zoned:50/5:30/15:20/80", n);
	const uint64_t ks[] = { n * 5 / 200, n * 5 / 100, n * 20 / 100, n * 60 / 100 };
	double got[4];
	rank_shares(&s, ks, 4, got);
	CHECK_REL(got[0], 0.25, 0.01);
	CHECK_REL(got[1], 0.50, 0.01);
	CHECK_REL(got[2], 0.80, 0.01);
	CHECK_REL(got[3], 0.90, 0.01);
	/* zones are regions: the block is the rank */
	struct rng r;
	rng_seed(&r, 1);
	uint64_t low = 0;
	for (int i = 0; i < 100000; i++)
		low += dist_next_block(&s, &r) < n / 20;
	CHECK_REL(low / 100000.0, 0.5, 0.02);
}

TEST(scatter_is_a_bijection)
{
	const uint64_t ns[] = { 1, 2, 3, 7, 1000, 4096, 1000003, 1u << 20, 999999 };
	for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
		struct dist_sampler s;
		sampler(&s, "zipf:1.1", ns[t]);
		unsigned char *seen = calloc(ns[t], 1);
		uint64_t dup = 0;
		for (uint64_t k = 0; k < ns[t]; k++) {
			uint64_t b = dist_scatter(&s, k);
			if (b >= ns[t] || seen[b]++)
				dup++;
		}
		CHECK_EQ_U64(dup, 0);
		free(seen);
	}
}

TEST(large_spans_stay_in_range)
{
	/* 2^36 blocks: 512 B blocks over 32 TiB */
	const uint64_t n = 1ull << 36;
	const char *defs[] = { "zipf:1.2", "zipf:0.5", "pareto:0.3", "normal:20" };
	for (int t = 0; t < 4; t++) {
		struct dist_sampler s;
		struct rng r;
		sampler(&s, defs[t], n);
		rng_seed(&r, 3);
		uint64_t top_half = 0;
		for (int i = 0; i < 100000; i++) {
			uint64_t b = dist_next_block(&s, &r);
			if (b >= n)
				CHECK_FAIL("%s: block %" PRIu64 " beyond the span", defs[t], b);
			top_half += b >= n / 2;
		}
		/* scattered: the hot ranks land in both halves */
		CHECK(top_half > 30000 && top_half < 70000);
	}
	struct dist_sampler s;
	double got;
	uint64_t k = n / 5;
	sampler(&s, "pareto:0.2", n);
	rank_shares(&s, &k, 1, &got);
	CHECK_NEAR(got, 0.8, 0.008);
}

TEST(uniform_offsets_are_the_uniform_generator)
{
	/* the default keeps the generator with the 64-bit coverage: the same
	   draws as rng_below over the span */
	struct workload w;
	workload_defaults(&w);
	w.pattern = PATTERN_RAND;
	w.bs = 4096;
	w.span_offset = 1 << 20;
	w.span_len = 4096ull * 1000003;
	struct offset_gen g;
	struct rng r;
	offset_gen_init(&g, &w, 0, 99);
	rng_seed(&r, 99);
	for (int i = 0; i < 10000; i++)
		CHECK_EQ_U64(offset_next(&g), w.span_offset + rng_below(&r, 1000003) * 4096);
}

TEST(definitions_parse_format_and_refuse)
{
	struct access_dist d;
	struct sb_err e;
	char buf[256];
	const char *ok[] = { "uniform", "zipf:1.2", "pareto:0.2", "normal:5",
			     "zoned:50/5:30/15:20/80" };
	for (int i = 0; i < 5; i++) {
		CHECK(access_dist_parse(ok[i], &d, &e) == 0);
		CHECK_EQ_STR(access_dist_format(&d, buf, sizeof buf), ok[i]);
	}
	CHECK(access_dist_parse("gauss:5", &d, &e) == 0 && d.kind == DIST_NORMAL);
	CHECK(access_dist_parse("random", &d, &e) == 0 && d.kind == DIST_UNIFORM);
	const char *bad[] = { "zipf", "zipf:0", "zipf:x", "pareto:1", "normal:101",
			      "zoned:50/5:30/15", "zoned:", "zoned:50/5:50", "lognormal:1",
			      "zipf:1.2:0.5", "zipf:1.2x" };
	for (int i = 0; i < 11; i++)
		if (access_dist_parse(bad[i], &d, &e) == 0)
			CHECK_FAIL("'%s' was accepted", bad[i]);
	CHECK(access_dist_parse("zoned:50/5:30/15", &d, &e) == -1);
	CHECK(strstr(e.msg, "must be 100") != NULL);
	/* a zone too small for one block of the span */
	struct dist_sampler s;
	CHECK(access_dist_parse("zoned:50/0.001:50/99.999", &d, &e) == 0);
	CHECK(dist_sampler_init(&s, &d, 1000, 0, &e) == -1);
	CHECK(strstr(e.msg, "no whole block") != NULL);
}

CHECK_MAIN("distribution")
