/* The shared leaf types: histogram accuracy against an exact sort, units,
   JSON and the generator. */
#include "check.h"
#include "common/term_text.h"

#include <stdint.h>

#include "common/hist.h"
#include "common/ini.h"
#include "common/rank.h"
#include "common/json.h"
#include "common/rng.h"
#include "common/units.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/*
 * A percentile given exactly as num/den percent (99.9 = 999/10).  The
 * reference rank is found by counting, not by the formula under test: the
 * smallest k with k/n >= num/(100 den), i.e. k * 100 * den >= num * n.
 */
struct pct { uint64_t num, den; };

static uint64_t reference_rank(struct pct p, uint64_t n)
{
	uint64_t k = 1;
	while (k < n && k * 100 * p.den < p.num * n)
		k++;
	return k;
}

static double pct_value(struct pct p)
{
	return (double)p.num / (double)p.den;
}

static const struct pct check_pcts[] = {
	{ 1, 10 }, { 1, 1 }, { 10, 1 }, { 25, 1 }, { 50, 1 }, { 90, 1 }, { 99, 1 },
	{ 999, 10 }, { 9999, 100 }, { 99999, 1000 }, { 999999, 10000 }, { 100, 1 },
};
#define NCHECK_PCTS (sizeof check_pcts / sizeof check_pcts[0])

static void check_against_sort(uint64_t *v, size_t n)
{
	double ps[NCHECK_PCTS];
	for (size_t j = 0; j < NCHECK_PCTS; j++)
		ps[j] = pct_value(check_pcts[j]);
	struct lat_hist *h = hist_new();
	for (size_t i = 0; i < n; i++)
		hist_add(h, v[i]);
	qsort(v, n, sizeof *v, cmp_u64);
	CHECK_EQ_U64(h->count, n);
	CHECK_EQ_U64(h->min, v[0]);
	CHECK_EQ_U64(h->max, v[n - 1]);
	uint64_t got[NCHECK_PCTS];
	hist_percentiles(h, ps, NCHECK_PCTS, got);
	for (size_t j = 0; j < NCHECK_PCTS; j++) {
		uint64_t want = v[reference_rank(check_pcts[j], n) - 1];
		/* the claim of hist.h: within half a bucket, 1/2048 of the value */
		CHECK_REL((double)got[j], (double)want, 1.0 / 2048);
		CHECK_EQ_U64(hist_percentile(h, ps[j]), got[j]);
	}
	hist_free(h);
}

/* The case: p99.9 of 999 x 100 ns and one 50 ms is 100 ns (rank
   999 of 1000); a floating-point rank made it rank 1000, the 50 ms. */
/* Terminal text, against escapes written out by hand: controls, DEL,
   backslash, C1 codes in UTF-8 and broken UTF-8 escaped; other UTF-8 kept;
   cut short with "..." when the buffer is too small. */
TEST(term_text_escapes_what_a_terminal_would_obey)
{
	char b[64];
	CHECK_EQ_STR(term_text("a\x1b[2Jb\nc\td\re\\f\x7f", b, sizeof b),
		     "a\\x1b[2Jb\\nc\\td\\re\\\\f\\x7f");
	CHECK_EQ_STR(term_text("\xc2\x9b" "31m \xc3\xa9 \xff", b, sizeof b),
		     "\\xc2\\x9b31m \xc3\xa9 \\xff");
	CHECK_EQ_STR(term_text(NULL, b, sizeof b), "");
	char s[8];
	CHECK_EQ_STR(term_text("abcdefghij", s, sizeof s), "abcd...");
	CHECK_EQ_STR(term_text("\n\n\n", s, sizeof s), "\\n\\n...");
}

TEST(percentile_rank_is_exact_at_integer_boundaries)
{
	struct lat_hist *h = hist_new();
	hist_add_n(h, 100, 999);
	hist_add(h, 50000000);
	CHECK_EQ_U64(hist_percentile(h, 99.9), 100);
	CHECK_EQ_U64(hist_percentile(h, 100), 50000000);
	hist_free(h);
	/* Every n up to 20000 and every percentile of the output: the rank
	   equals the counted one exactly. */
	for (uint64_t n = 1; n <= 20000; n++)
		for (size_t j = 0; j < NCHECK_PCTS; j++) {
			uint64_t want = reference_rank(check_pcts[j], n);
			uint64_t got = percentile_rank(pct_value(check_pcts[j]), n);
			if (got != want) {
				CHECK_FAIL("p%g of %" PRIu64 ": rank %" PRIu64 ", want %" PRIu64,
					   pct_value(check_pcts[j]), n, got, want);
				return;
			}
		}
	/* Exact values (below 1024 ns the histogram is exact): equality. */
	uint64_t v[1000];
	for (size_t i = 0; i < 1000; i++)
		v[i] = i % 7 == 0 ? 1000 : 1 + i % 500;
	struct lat_hist *g = hist_new();
	for (size_t i = 0; i < 1000; i++)
		hist_add(g, v[i]);
	qsort(v, 1000, sizeof *v, cmp_u64);
	for (size_t j = 0; j < NCHECK_PCTS; j++)
		CHECK_EQ_U64(hist_percentile(g, pct_value(check_pcts[j])),
			     v[reference_rank(check_pcts[j], 1000) - 1]);
	hist_free(g);
}

/* Support: at least one sample beyond the percentile, i.e. its rank is
   below n; otherwise it is the max, and outputs say so. */
TEST(percentile_support_counts_samples_beyond)
{
	CHECK(!percentile_supported(99.9999, 82000));	/* the case */
	CHECK(percentile_supported(99.99, 82000));
	CHECK(percentile_supported(99, 100));		/* one sample beyond */
	CHECK(!percentile_supported(99.1, 100));
	CHECK(!percentile_supported(50, 1));
	CHECK(percentile_supported(100, 1));		/* the max is the max */
	CHECK(!percentile_supported(50, 0));
	for (uint64_t n = 1; n <= 3000; n++)
		for (size_t j = 0; j + 1 < NCHECK_PCTS; j++) {
			struct pct p = check_pcts[j];
			/* n * (100 - p) / 100 >= 1, in integers */
			bool want = n * (100 * p.den - p.num) >= 100 * p.den;
			if (percentile_supported(pct_value(p), n) != want) {
				CHECK_FAIL("support of p%g at n %" PRIu64, pct_value(p), n);
				return;
			}
		}
}

TEST(hist_percentiles_match_sort_lognormal)
{
	struct rng r;
	rng_seed(&r, 42);
	size_t n = 1000000;
	uint64_t *v = malloc(n * sizeof *v);
	for (size_t i = 0; i < n; i++) {
		/* log-uniform between 500 ns and 50 ms: every octave used */
		double x = exp(log(500.0) + rng_unit(&r) * (log(5e7) - log(500.0)));
		v[i] = (uint64_t)x;
	}
	check_against_sort(v, n);
	free(v);
}

TEST(hist_percentiles_match_sort_narrow_and_tiny)
{
	struct rng r;
	rng_seed(&r, 7);
	uint64_t v[5000];
	for (size_t i = 0; i < 5000; i++)
		v[i] = 20000 + rng_below(&r, 300);	/* tightly clustered */
	check_against_sort(v, 5000);
	uint64_t w[3] = { 5, 900, 1023 };		/* exact region */
	check_against_sort(w, 3);
	uint64_t one[1] = { 123456789 };
	check_against_sort(one, 1);
}

/*
 * Which bucket each percentile comes from, exactly: the bucket of the
 * sorted sample at the reference rank (its midpoint inside the exact min
 * and max; rank n is the max, rank 1 the min), for ranks either side of
 * the middle (hist.c finds those above it from the top down), over
 * histograms of 1 to 300 samples with set-but-emptied buckets left by a
 * merge and a reset of part of them.
 */
static uint64_t reference_value(const uint64_t *sorted, size_t n, uint64_t k)
{
	if (k == n)
		return sorted[n - 1];
	if (k == 1)
		return sorted[0];
	uint32_t i = hist_index(sorted[k - 1]);
	uint64_t lo = hist_bucket_low(i), hi = hist_bucket_high(i);
	uint64_t v = hi == UINT64_MAX ? sorted[n - 1] : lo + (hi - lo) / 2;
	if (v < sorted[0])
		v = sorted[0];
	if (v > sorted[n - 1])
		v = sorted[n - 1];
	return v;
}

TEST(hist_percentiles_pick_the_ranked_samples_bucket)
{
	struct rng r;
	rng_seed(&r, 99);
	double ps[NCHECK_PCTS];
	for (size_t j = 0; j < NCHECK_PCTS; j++)
		ps[j] = pct_value(check_pcts[j]);
	struct lat_hist *h = hist_new(), *other = hist_new();
	uint64_t v[300];
	for (size_t n = 1; n <= 300; n += 1 + n / 8) {
		/* stale bits: buckets set by another histogram, then emptied */
		hist_reset(h);
		for (int i = 0; i < 20; i++)
			hist_add(other, 1000 + rng_below(&r, 100000));
		hist_merge(h, other);
		hist_reset(other);
		for (uint32_t i = h->lo; i <= h->hi; i++)
			h->buckets[i] = 0;
		h->count = h->sum = h->max = 0;
		h->min = UINT64_MAX;
		for (size_t i = 0; i < n; i++) {
			v[i] = 500 + rng_below(&r, i % 3 ? 200000 : 3000);
			hist_add(h, v[i]);
		}
		qsort(v, n, sizeof *v, cmp_u64);
		uint64_t got[NCHECK_PCTS];
		hist_percentiles(h, ps, NCHECK_PCTS, got);
		for (size_t j = 0; j < NCHECK_PCTS; j++) {
			uint64_t k = reference_rank(check_pcts[j], n);
			CHECK_EQ_U64(got[j], reference_value(v, n, k));
			CHECK_EQ_U64(hist_percentile(h, ps[j]), got[j]);
		}
	}
	hist_free(h);
	hist_free(other);
}

TEST(hist_bucket_bounds_are_contiguous_and_tight)
{
	for (uint32_t i = 0; i + 1 < HIST_NBUCKETS; i++) {
		CHECK_EQ_U64(hist_bucket_high(i) + 1, hist_bucket_low(i + 1));
		uint64_t lo = hist_bucket_low(i), hi = hist_bucket_high(i);
		if (lo >= HIST_SUB)
			CHECK((double)(hi - lo + 1) / (double)lo <= 1.0 / HIST_SUB + 1e-12);
		CHECK_EQ_U64(hist_index(lo), i);
		CHECK_EQ_U64(hist_index(hi), i);
	}
	CHECK_EQ_U64(hist_index(UINT64_MAX), HIST_NBUCKETS - 1);
}

TEST(hist_merge_is_exact)
{
	struct rng r;
	rng_seed(&r, 3);
	struct lat_hist *a = hist_new(), *b = hist_new(), *all = hist_new();
	for (int i = 0; i < 100000; i++) {
		uint64_t x = 1000 + rng_below(&r, 10000000);
		hist_add(i % 3 ? a : b, x);
		hist_add(all, x);
	}
	hist_merge(a, b);
	CHECK_EQ_U64(a->count, all->count);
	CHECK_EQ_U64(a->sum, all->sum);
	CHECK_EQ_U64(a->min, all->min);
	CHECK_EQ_U64(a->max, all->max);
	CHECK(memcmp(a->buckets, all->buckets, sizeof a->buckets) == 0);
	hist_free(a);
	hist_free(b);
	hist_free(all);
}

/* Two histograms are the same: every field, nz and nzw included, and
   the encoded bytes. */
static bool hist_same(const struct lat_hist *a, const struct lat_hist *b)
{
	static uint8_t ea[1 << 20], eb[1 << 20];
	if (a->count != b->count || a->sum != b->sum || a->min != b->min ||
	    a->max != b->max || a->lo != b->lo || a->hi != b->hi ||
	    memcmp(a->nzw, b->nzw, sizeof a->nzw) || memcmp(a->nz, b->nz, sizeof a->nz) ||
	    memcmp(a->buckets, b->buckets, sizeof a->buckets))
		return false;
	if (hist_encoded_max(a) > sizeof ea || hist_encoded_max(b) > sizeof eb)
		return false;
	size_t na = hist_encode(a, ea), nb = hist_encode(b, eb);
	return na == nb && !memcmp(ea, eb, na);
}

/*
 * hist_batch_add between start and end (a bulk write's flush, latency.c)
 * against hist_add_n called one by one: batches of zero to seventy
 * (value, count) pairs, rising as a flush's or in any order, with zero
 * counts, values below 1024 ns, past the last bucket and sums that wrap,
 * into histograms already holding others.
 */
TEST(hist_batch_is_hist_add_n_one_by_one)
{
	struct rng r;
	rng_seed(&r, 31);
	struct lat_hist *ref = hist_new(), *got = hist_new();
	CHECK(ref && got);
	for (int round = 0; ref && got && round < 3000; round++) {
		if (round % 50 == 0) {
			hist_reset(ref);
			hist_reset(got);
		}
		size_t k = rng_below(&r, 71);
		uint64_t base = rng_below(&r, 8) == 0 ? rng_below(&r, 2000) :
				rng_below(&r, 4) == 0 ? rng_next(&r) >> rng_below(&r, 20) :
				20000 + rng_below(&r, 200000);
		bool rising = rng_below(&r, 2);
		struct hist_batch b;
		hist_batch_start(&b);
		for (size_t j = 0; j < k; j++) {
			uint64_t v = rising ? base + j * rng_below(&r, 300) :
				     base + rng_below(&r, 50000);
			uint64_t n = rng_below(&r, 5) == 0 ? 0 :
				     rng_below(&r, 10) == 0 ? rng_next(&r) >> 20 :
				     1 + rng_below(&r, 40);
			hist_add_n(ref, v, n);
			hist_batch_add(got, &b, v, n);
		}
		hist_batch_end(got, &b);
		if (!hist_same(ref, got)) {
			CHECK_FAIL("round %d (%zu pairs): count %llu vs %llu, min %llu vs %llu",
				   round, k, (unsigned long long)got->count,
				   (unsigned long long)ref->count, (unsigned long long)got->min,
				   (unsigned long long)ref->min);
			break;
		}
	}
	hist_free(ref);
	hist_free(got);
}

/*
 * A histogram used, reset and used again (the engine's interval buffers,
 * the simulator's slices): sparse values far apart, then others, merged
 * and decoded; after each reset it equals a fresh one bucket for bucket,
 * and its percentiles match an exact sort of the values of its last use.
 */
TEST(hist_reset_and_reuse_is_exact)
{
	struct rng r;
	rng_seed(&r, 5);
	struct lat_hist *h = hist_new(), *m = hist_new(), *fresh = hist_new();
	uint64_t v[500];
	for (int round = 0; round < 4; round++) {
		hist_reset(h);
		hist_reset(m);
		CHECK(memcmp(h, fresh, sizeof *h) == 0);
		for (int i = 0; i < 500; i++) {
			/* a few hundred values over 20 powers of two */
			v[i] = 1000 + (rng_below(&r, 1000) << rng_below(&r, 20));
			hist_add(i % 2 ? h : m, v[i]);
		}
		hist_merge(h, m);
		uint8_t buf[20000];
		size_t n = hist_encode(h, buf);
		CHECK(hist_decode(m, buf, n) == 0);
		qsort(v, 500, sizeof v[0], cmp_u64);
		static const double ps[] = { 1, 50, 90, 99, 99.9 };
		uint64_t got[5], dec[5];
		hist_percentiles(h, ps, 5, got);
		hist_percentiles(m, ps, 5, dec);
		for (int k = 0; k < 5; k++) {
			uint64_t want = v[percentile_rank(ps[k], 500) - 1];
			CHECK(fabs((double)got[k] - (double)want) <= (double)want / 2048 + 1);
			CHECK_EQ_U64(dec[k], got[k]);
		}
	}
	hist_free(h);
	hist_free(m);
	hist_free(fresh);
}

/*
 * Merge, reset and percentiles take a dense word of buckets whole and a
 * sparse one bit by bit (hist.c): against plain arrays of every bucket,
 * on histograms that mix dense clusters, sparse values far apart and
 * set-but-emptied buckets.  The percentile reference walks every bucket
 * from zero: the first whose running count reaches the rank (rank n is
 * the max, rank 1 the min), its midpoint inside the exact extremes.
 */
static uint64_t ref_percentile(const uint64_t *b, uint64_t count, uint64_t min, uint64_t max,
			       double p)
{
	uint64_t k = percentile_rank(p, count), cum = 0;
	if (k == count)
		return max;
	if (k == 1)
		return min;
	for (uint32_t i = 0; i < HIST_NBUCKETS; i++) {
		cum += b[i];
		if (cum < k)
			continue;
		uint64_t lo = hist_bucket_low(i), hi = hist_bucket_high(i);
		uint64_t v = hi == UINT64_MAX ? max : lo + (hi - lo) / 2;
		return v < min ? min : v > max ? max : v;
	}
	return max;
}

TEST(hist_dense_and_sparse_words_against_plain_arrays)
{
	struct rng r;
	rng_seed(&r, 11);
	struct lat_hist *a = hist_new(), *b = hist_new(), *fresh = hist_new();
	uint64_t *ref = calloc(HIST_NBUCKETS, sizeof *ref);
	static const double ps[] = { 0.01, 1, 10, 25, 50, 50.5, 75, 90, 99, 99.9, 99.99, 99.999, 100 };
	enum { NP = sizeof ps / sizeof ps[0] };
	for (int round = 0; round < 40; round++) {
		hist_reset(a);
		hist_reset(b);
		CHECK(memcmp(a, fresh, sizeof *a) == 0);
		CHECK(memcmp(b, fresh, sizeof *b) == 0);
		memset(ref, 0, HIST_NBUCKETS * sizeof *ref);
		uint64_t count = 0, min = UINT64_MAX, max = 0;
		/* stale bits in a: set by a merge, then the buckets emptied */
		if (round % 3 == 0) {
			for (int i = 0; i < 200; i++)
				hist_add(b, 2000 + rng_below(&r, 50000));
			hist_merge(a, b);
			hist_reset(b);
			for (uint32_t i = a->lo; i <= a->hi; i++)
				a->buckets[i] = 0;
			a->count = a->sum = a->max = 0;
			a->min = UINT64_MAX;
		}
		int n = 1 + (int)rng_below(&r, 3000);
		for (int i = 0; i < n; i++) {
			uint64_t v;
			switch (rng_below(&r, 4)) {
			case 0:	/* a dense cluster: every bucket of its words */
				v = 100000 + rng_below(&r, 30000);
				break;
			case 1:	/* sparse, over many powers of two */
				v = 1000 + (rng_below(&r, 1000) << rng_below(&r, 24));
				break;
			case 2:	/* the exact region */
				v = rng_below(&r, 1024);
				break;
			default:	/* another dense cluster, far up */
				v = 50000000 + rng_below(&r, 10000000);
			}
			uint64_t c = 1 + rng_below(&r, 3);
			hist_add_n(i % 2 ? a : b, v, c);
			ref[hist_index(v)] += c;
			count += c;
			min = v < min ? v : min;
			max = v > max ? v : max;
		}
		hist_merge(a, b);
		CHECK_EQ_U64(a->count, count);
		CHECK_EQ_U64(a->min, min);
		CHECK_EQ_U64(a->max, max);
		CHECK(memcmp(a->buckets, ref, HIST_NBUCKETS * sizeof *ref) == 0);
		for (uint32_t i = 0; i < HIST_NBUCKETS; i++)
			if (ref[i] && !(a->nz[i >> 6] >> (i & 63) & 1))
				CHECK_FAIL("round %d: bucket %u counted but not marked", round, i);
		for (uint32_t w = 0; w < HIST_NWORDS; w++)
			if (a->nz[w] && !(a->nzw[w >> 6] >> (w & 63) & 1))
				CHECK_FAIL("round %d: word %u marked but not its summary", round, w);
		uint64_t got[NP];
		hist_percentiles(a, ps, NP, got);
		for (int j = 0; j < NP; j++)
			if (got[j] != ref_percentile(ref, count, min, max, ps[j]))
				CHECK_FAIL("round %d, p%g: %llu, reference %llu", round, ps[j],
					   (unsigned long long)got[j],
					   (unsigned long long)ref_percentile(ref, count, min, max, ps[j]));
	}
	hist_reset(a);
	CHECK(memcmp(a, fresh, sizeof *a) == 0);
	free(ref);
	hist_free(a);
	hist_free(b);
	hist_free(fresh);
}

/*
 * A bulk write slice's histogram (fluid.c): tens of values over thousands
 * of buckets, most words of nz between lo and hi empty, which merge,
 * reset, percentiles and encode pass by nzw (hist.h).  Interval after
 * interval, as the engine does: a slice merged into an interval buffer,
 * its percentiles, the buffer merged into the totals, both reset; against
 * plain arrays of every bucket (ref_percentile's walk from zero) and
 * against a histogram rebuilt by hist_add from the arrays, whose encoding
 * must be the same bytes.  Words far apart land in different words of
 * nzw, values past 2^44 in the last bucket.
 */
static void sparse_slice(struct rng *r, struct lat_hist *h, uint64_t *ref, int kind)
{
	int n = 1 + (int)rng_below(r, 80);
	for (int i = 0; i < n; i++) {
		uint64_t v = kind == 0 ? 20000 + rng_below(r, 400000)	/* a slice */
			   : kind == 1 ? rng_below(r, 1ull << (10 + rng_below(r, 35)))
			   : 1000 + rng_below(r, 100) * 64 * 1024;	/* a word each */
		uint64_t c = 1 + rng_below(r, 5000);
		hist_add_n(h, v, c);
		ref[hist_index(v)] += c;
	}
}

static void check_like_plain(const struct lat_hist *h, const uint64_t *ref, uint64_t min,
			     uint64_t max, int round)
{
	static const double ps[] = { 1, 50, 99, 99.9, 100 };
	uint64_t count = 0;
	for (uint32_t i = 0; i < HIST_NBUCKETS; i++)
		count += ref[i];
	CHECK_EQ_U64(h->count, count);
	CHECK(memcmp(h->buckets, ref, HIST_NBUCKETS * sizeof *ref) == 0);
	for (uint32_t w = 0; w < HIST_NWORDS; w++)
		if (h->nz[w] && !(h->nzw[w >> 6] >> (w & 63) & 1))
			CHECK_FAIL("round %d: word %u marked but not its summary", round, w);
	if (!count)
		return;
	uint64_t got[5];
	hist_percentiles(h, ps, 5, got);
	for (int j = 0; j < 5; j++)
		if (got[j] != ref_percentile(ref, count, min, max, ps[j]))
			CHECK_FAIL("round %d, p%g: %llu, reference %llu", round, ps[j],
				   (unsigned long long)got[j],
				   (unsigned long long)ref_percentile(ref, count, min, max, ps[j]));
}

TEST(hist_sparse_slices_through_intervals_against_plain_arrays)
{
	struct rng r;
	rng_seed(&r, 23);
	struct lat_hist *slice = hist_new(), *ivl = hist_new(), *tot = hist_new();
	struct lat_hist *fresh = hist_new(), *rebuilt = hist_new();
	uint64_t *sref = calloc(HIST_NBUCKETS, sizeof *sref);
	uint64_t *iref = calloc(HIST_NBUCKETS, sizeof *iref);
	uint64_t *tref = calloc(HIST_NBUCKETS, sizeof *tref);
	uint8_t *a = malloc(1 << 20), *b = malloc(1 << 20);
	uint64_t tmin = UINT64_MAX, tmax = 0;
	for (int round = 0; round < 300; round++) {
		/* one or two slices into the interval */
		int nslices = 1 + (int)rng_below(&r, 2);
		for (int k = 0; k < nslices; k++) {
			sparse_slice(&r, slice, sref, round % 3);
			for (uint32_t i = 0; i < HIST_NBUCKETS; i++)
				iref[i] += sref[i];
			memset(sref, 0, HIST_NBUCKETS * sizeof *sref);
			hist_merge(ivl, slice);
			hist_reset(slice);
			CHECK(memcmp(slice, fresh, sizeof *slice) == 0);
		}
		check_like_plain(ivl, iref, ivl->min, ivl->max, round);
		hist_merge(tot, ivl);
		tmin = ivl->min < tmin ? ivl->min : tmin;
		tmax = ivl->max > tmax ? ivl->max : tmax;
		for (uint32_t i = 0; i < HIST_NBUCKETS; i++)
			tref[i] += iref[i];
		memset(iref, 0, HIST_NBUCKETS * sizeof *iref);
		hist_reset(ivl);
		CHECK(memcmp(ivl, fresh, sizeof *ivl) == 0);
		if (round % 50 == 49) {
			check_like_plain(tot, tref, tmin, tmax, round);
			/* the same bytes as the totals added bucket by bucket */
			hist_reset(rebuilt);
			for (uint32_t i = 0; i < HIST_NBUCKETS; i++)
				hist_add_n(rebuilt, hist_bucket_low(i), tref[i]);
			rebuilt->min = tot->min;
			rebuilt->max = tot->max;
			rebuilt->sum = tot->sum;
			size_t na = hist_encode(tot, a), nb = hist_encode(rebuilt, b);
			CHECK(na == nb && memcmp(a, b, na) == 0);
		}
	}
	free(a);
	free(b);
	free(sref);
	free(iref);
	free(tref);
	hist_free(slice);
	hist_free(ivl);
	hist_free(tot);
	hist_free(fresh);
	hist_free(rebuilt);
}

TEST(hist_encode_roundtrip_and_reject_garbage)
{
	struct rng r;
	rng_seed(&r, 11);
	struct lat_hist *h = hist_new(), *d = hist_new();
	for (int i = 0; i < 50000; i++)
		hist_add(h, rng_below(&r, 1ull << 40));
	uint8_t *buf = malloc(hist_encoded_max(h));
	size_t n = hist_encode(h, buf);
	CHECK(n <= hist_encoded_max(h));
	CHECK(hist_decode(d, buf, n) == 0);
	CHECK_EQ_U64(d->count, h->count);
	CHECK_EQ_U64(d->min, h->min);
	CHECK_EQ_U64(d->max, h->max);
	CHECK(memcmp(d->buckets, h->buckets, sizeof h->buckets) == 0);
	CHECK(hist_decode(d, buf, n - 1) == -1);
	buf[0] = 99;
	CHECK(hist_decode(d, buf, n) == -1);
	/* empty round trip */
	hist_reset(h);
	n = hist_encode(h, buf);
	CHECK(hist_decode(d, buf, n) == 0);
	CHECK_EQ_U64(d->count, 0);
	CHECK_EQ_U64(hist_percentile(d, 50), 0);
	free(buf);
	hist_free(h);
	hist_free(d);
}

TEST(units_sizes_durations_rates)
{
	struct sb_err e;
	uint64_t v;
	bool pct;
	CHECK(parse_size("4k", &v, &e) == 0 && v == 4096);
	/* decimal only: strtod's hex floats, inf and nan are not sizes */
	CHECK(parse_size("0x1p12", &v, &e) == -1);
	CHECK(parse_size("0x1000", &v, &e) == -1);
	CHECK(parse_size("inf", &v, &e) == -1);
	CHECK(parse_size("nan", &v, &e) == -1);
	CHECK(parse_size("+4k", &v, &e) == -1);
	CHECK(parse_duration_ns("0x1p3s", &v, &e) == -1);
	CHECK(parse_size(".5k", &v, &e) == 0 && v == 512);
	CHECK(parse_size("128KiB", &v, &e) == 0 && v == 131072);
	CHECK(parse_size("1g", &v, &e) == 0 && v == 1ull << 30);
	CHECK(parse_size("1.5m", &v, &e) == 0 && v == 1572864);
	CHECK(parse_size("512", &v, &e) == 0 && v == 512);
	CHECK(parse_size("4kx", &v, &e) == -1 && strstr(e.msg, "not a size"));
	CHECK(parse_size("-4k", &v, &e) == -1);
	CHECK(parse_size("", &v, &e) == -1);
	CHECK(parse_size("0.3", &v, &e) == -1);
	CHECK(parse_size_or_percent("50%", 1000, 1, &v, &pct, &e) == 0 && v == 500 && pct);
	CHECK(parse_size_or_percent("25%", 10000, 4096, &v, &pct, &e) == 0 && v == 0);
	CHECK(parse_size_or_percent("101%", 1000, 1, &v, &pct, &e) == -1);
	CHECK(parse_size_or_percent("8g", 1000, 1, &v, &pct, &e) == 0 && v == 8ull << 30 && !pct);
	CHECK(parse_duration_ns("5s", &v, &e) == 0 && v == 5000000000ull);
	CHECK(parse_duration_ns("2m", &v, &e) == 0 && v == 120000000000ull);
	CHECK(parse_duration_ns("100ms", &v, &e) == 0 && v == 100000000ull);
	CHECK(parse_duration_ns("30", &v, &e) == 0 && v == 30000000000ull);
	CHECK(parse_duration_ns("1h", &v, &e) == 0 && v == 3600000000000ull);
	CHECK(parse_duration_ns("5 s", &v, &e) == -1);
	CHECK(parse_rate("15MiB/s", &v, &e) == 0 && v == 15728640);
	CHECK(parse_rate("5m", &v, &e) == 0 && v == 5242880);
	CHECK(parse_uint_range("--qd", "1025", 1, 1024, &v, &e) == -1 && strstr(e.msg, "--qd"));
	CHECK(parse_uint_range("--qd", "32", 1, 1024, &v, &e) == 0 && v == 32);
	/* counts per second: decimal suffixes, not sizes */
	CHECK(parse_count("rate-iops", "250k", 1, 1000000000, &v, &e) == 0 && v == 250000);
	CHECK(parse_count("rate-iops", "2M", 1, 1000000000, &v, &e) == 0 && v == 2000000);
	CHECK(parse_count("rate-iops", "7", 1, 1000000000, &v, &e) == 0 && v == 7);
	CHECK(parse_count("rate-iops", "2g", 1, 1000000000, &v, &e) == -1 && strstr(e.msg, "out of range"));
	CHECK(parse_count("rate-iops", "0", 1, 1000000000, &v, &e) == -1);
	CHECK(parse_count("rate-iops", "k", 1, 1000000000, &v, &e) == -1);
	CHECK(parse_count("rate-iops", "1.5k", 1, 1000000000, &v, &e) == -1);
	CHECK(parse_count("rate-iops", "", 1, 1000000000, &v, &e) == -1);
	char b[32];
	CHECK_EQ_STR(fmt_bytes(4096, b, sizeof b), "4 KiB");
	CHECK_EQ_STR(fmt_ns(12400, b, sizeof b), "12.4 us");
	/* Capacities as sold: decimal, three significant digits. */
	CHECK_EQ_STR(fmt_bytes_si(2000000000000ull, b, sizeof b), "2.00 TB");
	CHECK_EQ_STR(fmt_bytes_si(677000000000ull, b, sizeof b), "677 GB");
	CHECK_EQ_STR(fmt_bytes_si(19999997952ull, b, sizeof b), "20.0 GB");
	CHECK_EQ_STR(fmt_bytes_si(999999999ull, b, sizeof b), "1.00 GB");
	CHECK_EQ_STR(fmt_bytes_si(375000000000ull, b, sizeof b), "375 GB");
	CHECK_EQ_STR(fmt_bytes_si(512, b, sizeof b), "512 B");
}

TEST(errors_wrap_context)
{
	struct sb_err e;
	CHECK(sb_errno(&e, 2, "open %s", "/x") == -1);
	CHECK_EQ_STR(e.msg, "open /x: No such file or directory");
	CHECK(e.errnum == 2);
	sb_err_wrap(&e, "fill pass %d", 2);
	CHECK_EQ_STR(e.msg, "fill pass 2: open /x: No such file or directory");
}

TEST(json_writer_nests_and_escapes)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json_writer w;
	json_init(&w, f, false);
	json_object_begin(&w, NULL);
	json_string(&w, "a", "x\"y\n");
	json_array_begin(&w, "b");
	json_u64(&w, NULL, 1);
	json_double(&w, NULL, NAN);
	json_object_begin(&w, NULL);
	json_object_end(&w);
	json_array_end(&w);
	json_bool(&w, "c", true);
	json_object_end(&w);
	json_finish(&w);
	fclose(f);
	CHECK_EQ_STR(buf, "{\"a\":\"x\\\"y\\n\",\"b\":[1,null,{}],\"c\":true}\n");
	free(buf);
}

TEST(rng_below_is_uniform_and_covers_64_bit_spans)
{
	struct rng r;
	rng_seed(&r, 1);
	uint64_t counts[10] = { 0 };
	for (int i = 0; i < 1000000; i++)
		counts[rng_below(&r, 10)]++;
	for (int i = 0; i < 10; i++)
		CHECK_REL((double)counts[i], 100000.0, 0.01);
	/* 2^35 blocks (512 B over 16 TiB): the top bits get used */
	uint64_t n = 1ull << 35, maxv = 0;
	for (int i = 0; i < 100000; i++) {
		uint64_t x = rng_below(&r, n);
		CHECK(x < n);
		if (x > maxv)
			maxv = x;
	}
	CHECK(maxv > n - n / 1000);
}

/* Records every entry as "section|key|value|line" lines. */
static int ini_record(void *ctx, const struct ini_entry *en, struct sb_err *e)
{
	(void)e;
	char *out = ctx;
	size_t n = strlen(out);
	snprintf(out + n, 2048 - n, "%s|%s|%s|%d\n", en->section,
		 en->key ? en->key : "(open)", en->value ? en->value : "(bare)", en->line);
	return 0;
}

TEST(ini_syntax_sections_items_comments)
{
	const char *text =
		"# comment\n"
		"top = 1\n"
		"\n"
		"[fill] passes=2 share=90%\n"
		"model = WD_BLACK SN8100 2TB ; trailing comment\n"
		"name = A#2\n"
		"  sync   \n"
		"[ global ]\n"
		"bs=4k\n";
	char out[2048] = "";
	struct sb_err e;
	CHECK(ini_parse(text, "t.ini", ini_record, out, &e) == 0);
	CHECK_EQ_STR(out,
		     "|top|1|2\n"
		     "fill|(open)|(bare)|4\n"
		     "fill|passes|2|4\n"
		     "fill|share|90%|4\n"
		     "fill|model|WD_BLACK SN8100 2TB|5\n"
		     "fill|name|A#2|6\n"
		     "fill|sync|(bare)|7\n"
		     "global|(open)|(bare)|8\n"
		     "global|bs|4k|9\n");
}

TEST(ini_errors_name_origin_and_line)
{
	char out[2048] = "";
	struct sb_err e;
	CHECK(ini_parse("a=1\n[x\n", "f.ini", ini_record, out, &e) == -1);
	CHECK_EQ_STR(e.msg, "f.ini:2: '[' without ']'");
	CHECK(ini_parse("[]\n", "f.ini", ini_record, out, &e) == -1);
	CHECK_EQ_STR(e.msg, "f.ini:1: empty section name");
	CHECK(ini_parse("a=1 b c=2\n", "f.ini", ini_record, out, &e) == -1);
	CHECK(strstr(e.msg, "f.ini:1: 'b' is not key=value") != NULL);
	CHECK(ini_parse("two words = 1\n", "f.ini", ini_record, out, &e) == -1);
	CHECK(strstr(e.msg, "f.ini:1: expected 'key = value'") != NULL);
	char *text;
	CHECK(ini_read_file("/nonexistent/x.ini", "plan file", &text, &e) == -1);
	CHECK(strstr(e.msg, "cannot open /nonexistent/x.ini (plan file)") != NULL);
}

CHECK_MAIN("common")
