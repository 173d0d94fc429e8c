/*
 * Latency histogram: log-linear buckets with 1024 sub-buckets per power of
 * two, so every bucket is at most 1/1024 of its value wide.  A percentile is
 * reported as its bucket's midpoint, clamped to the exact min and max, which
 * bounds the relative error by 1/2048 (0.05 %); fio's is 0.78 %.
 *
 * Values below 1024 ns are exact.  Values up to 2^44 ns (4.9 hours) have
 * their own buckets; anything larger lands in the last one (max stays exact).
 * Counts are plain integers, so merging histograms is exact addition, and
 * `lo`/`hi` remember the touched bucket range, `nz` which buckets are not
 * zero and `nzw` which words of `nz` are not, so that reset, merge and
 * scans cost the buckets used rather than the full 280 KiB, nor the words
 * of `nz` between them (a bulk write slice's sixty values spread over
 * thirteen thousand buckets, two hundred words, cost sixty steps).
 */
#ifndef SSDBENCH_COMMON_HIST_H
#define SSDBENCH_COMMON_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HIST_SUB_BITS 10
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_MAX_EXP 43 /* highest power of two with its own buckets */
#define HIST_NBUCKETS ((HIST_MAX_EXP - HIST_SUB_BITS + 2) * HIST_SUB)
#define HIST_NWORDS ((HIST_NBUCKETS + 63) / 64)
#define HIST_NSUM ((HIST_NWORDS + 63) / 64)

struct lat_hist {
	uint64_t count;
	uint64_t sum;		/* for the mean; 2^64 ns is 584 years of latency */
	uint64_t min, max;	/* exact; min is UINT64_MAX while empty */
	uint32_t lo, hi;	/* touched bucket range [lo, hi]; lo > hi when empty */
	uint32_t heap;		/* allocated by calloc, not its own mapping */
	uint64_t nzw[HIST_NSUM];	/* bit w set: word w of nz may be non-zero
					   (every non-zero word's is set) */
	uint64_t nz[HIST_NWORDS];	/* bit i set: bucket i may be non-zero
					   (every non-zero bucket's is set) */
	uint64_t buckets[HIST_NBUCKETS];
};

static inline uint32_t hist_index(uint64_t v)
{
	if (v < HIST_SUB)
		return (uint32_t)v;
	int e = 63 - __builtin_clzll(v);
	if (e > HIST_MAX_EXP)
		return HIST_NBUCKETS - 1;
	return (uint32_t)(e - HIST_SUB_BITS + 1) * HIST_SUB +
	       (uint32_t)((v >> (e - HIST_SUB_BITS)) & (HIST_SUB - 1));
}

/* hist_add_n with v's bucket i = hist_index(v) known already (a shape
   spread again and again: fluid.c). */
static inline void hist_add_at(struct lat_hist *h, uint32_t i, uint64_t v, uint64_t n)
{
	if (!n)
		return;
	h->buckets[i] += n;
	h->nz[i >> 6] |= 1ull << (i & 63);
	h->nzw[i >> 12] |= 1ull << ((i >> 6) & 63);
	h->count += n;
	h->sum += v * n;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	if (i < h->lo)
		h->lo = i;
	if (i > h->hi)
		h->hi = i;
}

/* Record `n` samples of value v (the simulator reports a slice's latency
   distribution in bulk). */
static inline void hist_add_n(struct lat_hist *h, uint64_t v, uint64_t n)
{
	if (n)	/* before the index: a bulk caller's zero counts cost nothing */
		hist_add_at(h, hist_index(v), v, n);
}

static inline void hist_add(struct lat_hist *h, uint64_t v)
{
	hist_add_n(h, v, 1);
}

/*
 * Many hist_add_n into one histogram, its totals and bounds kept aside
 * (in registers: nothing else can write them) and added once at the end:
 * the same histogram, bit for bit, as the calls one by one in any order
 * (counts and sums add modulo 2^64 in any order, the bounds are a
 * minimum and a maximum).  A bulk write stream flushes sixty values at
 * a time (latency.c).  Between start and end only hist_batch_add may
 * touch h.
 */
struct hist_batch {
	uint64_t count, sum, min, max;
	uint32_t lo, hi;
};

static inline void hist_batch_start(struct hist_batch *b)
{
	*b = (struct hist_batch){ 0, 0, UINT64_MAX, 0, HIST_NBUCKETS, 0 };
}

static inline void hist_batch_add(struct lat_hist *h, struct hist_batch *b, uint64_t v,
				  uint64_t n)
{
	if (!n)
		return;
	uint32_t i = hist_index(v);
	h->buckets[i] += n;
	h->nz[i >> 6] |= 1ull << (i & 63);
	h->nzw[i >> 12] |= 1ull << ((i >> 6) & 63);
	b->count += n;
	b->sum += v * n;
	b->min = v < b->min ? v : b->min;
	b->max = v > b->max ? v : b->max;
	b->lo = i < b->lo ? i : b->lo;
	b->hi = i > b->hi ? i : b->hi;
}

static inline void hist_batch_end(struct lat_hist *h, const struct hist_batch *b)
{
	h->count += b->count;
	h->sum += b->sum;
	if (b->min < h->min)
		h->min = b->min;
	if (b->max > h->max)
		h->max = b->max;
	if (b->lo < h->lo)
		h->lo = b->lo;
	if (b->hi > h->hi)
		h->hi = b->hi;
}

/*
 * Visit, in order, the words of h's nz whose nzw bit is set (w: the word's
 * index, a uint64_t the loop declares): the words with a touched bucket,
 * not every word between lo and hi.  A set bit may name a word that is
 * zero again.
 */
#define HIST_FOR_EACH_WORD(h, w)                                               \
	for (uint32_t s_ = (h)->lo >> 12; (h)->lo <= (h)->hi && s_ <= (h)->hi >> 12; s_++) \
		for (uint64_t q_ = (h)->nzw[s_], w = 0;                        \
		     q_ && ((w = s_ * 64u + (uint32_t)__builtin_ctzll(q_)), 1); \
		     q_ &= q_ - 1)

/*
 * Visit, in order, the buckets of h whose nz bit is set (i: the index, a
 * uint64_t the loop declares): the touched buckets, not the range between
 * lo and hi.  A set bit may name a bucket that is zero again: callers that
 * care skip it.  (Three nested loops: `break` leaves only the innermost.)
 */
#define HIST_FOR_EACH_SET(h, i)                                                \
	HIST_FOR_EACH_WORD(h, w_)                                              \
		for (uint64_t m_ = (h)->nz[w_], i = 0;                         \
		     m_ && ((i = w_ * 64u + (uint32_t)__builtin_ctzll(m_)), 1); \
		     m_ &= m_ - 1)

struct lat_hist *hist_new(void);	/* zeroed and reset; NULL on ENOMEM */
void hist_free(struct lat_hist *h);
void hist_reset(struct lat_hist *h);
void hist_merge(struct lat_hist *dst, const struct lat_hist *src);

/* Smallest and largest value that map to bucket i. */
uint64_t hist_bucket_low(uint32_t i);
uint64_t hist_bucket_high(uint32_t i);

/*
 * The value at percentile p (0 < p <= 100): the smallest recorded value v
 * such that at least p % of samples are <= v, to within 0.05 %.  Returns 0
 * for an empty histogram.  p >= 100 gives the exact max.
 */
uint64_t hist_percentile(const struct lat_hist *h, double p);

/* Several percentiles in one pass; `ps` ascending. */
void hist_percentiles(const struct lat_hist *h, const double *ps, size_t n,
		      uint64_t *out);

double hist_mean(const struct lat_hist *h);

/*
 * Compact serialisation for the store: a version byte, then varints of
 * count, sum, min, max, and (bucket gap, count) pairs for non-empty buckets.
 * hist_encode returns the length written (at most hist_encoded_max(h)).
 */
size_t hist_encoded_max(const struct lat_hist *h);
size_t hist_encode(const struct lat_hist *h, uint8_t *out);
/* Returns 0, or -1 if the bytes are not a histogram this version reads. */
int hist_decode(struct lat_hist *h, const uint8_t *in, size_t len);

#endif
