#include "common/hist.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/rank.h"

/*
 * A histogram is its own mapping: fresh anonymous pages read as zero and
 * cost nothing until touched, so a histogram costs the pages its values
 * land on (hist.h).  calloc would not keep that promise: once a freed
 * block has raised malloc's mmap threshold, blocks of this size come from
 * the heap and calloc clears all 280 KiB of each, which for the engine's
 * interval rings (16 histograms per job and direction) was most of a
 * short run's CPU.
 */
static size_t hist_map_len(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	size_t p = pg > 0 ? (size_t)pg : 4096;
	return (sizeof(struct lat_hist) + p - 1) / p * p;
}

struct lat_hist *hist_new(void)
{
	void *m = mmap(NULL, hist_map_len(), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct lat_hist *h = m;
	if (m == MAP_FAILED) {
		/* out of mappings (vm.max_map_count: many open-loop jobs at
		   once), not of memory: the heap, cleared in full */
		if (!(h = calloc(1, sizeof *h)))
			return NULL;
		h->heap = 1;
	}
	/* Zero already: only the fields that are not zero when empty. */
	h->min = UINT64_MAX;
	h->lo = HIST_NBUCKETS;
	return h;
}

void hist_free(struct lat_hist *h)
{
	if (h && h->heap)
		free(h);
	else if (h)
		munmap(h, hist_map_len());
}

/*
 * A word of nz with this many bits set is cheaper to handle as all its 64
 * buckets, in a loop the compiler vectorises, than bit by bit: a clear
 * bit's bucket is zero (hist.h), so clearing or adding it changes
 * nothing.  A latency shape spread over a slice (fluid.c) sets most bits
 * of the words it covers.
 */
static bool dense(uint64_t m)
{
	/* under two bits, the common word of a sparse histogram (a slice's
	   sixty values over two hundred words), told without the count */
	if (!(m & (m - 1)))
		return false;
	/* the bits counted in place: without a popcount instruction in the
	   baseline, __builtin_popcountll is a call into libgcc */
	m -= (m >> 1) & 0x5555555555555555ull;
	m = (m & 0x3333333333333333ull) + ((m >> 2) & 0x3333333333333333ull);
	m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (m * 0x0101010101010101ull) >> 56 >= 16;
}

void hist_reset(struct lat_hist *h)
{
	HIST_FOR_EACH_WORD(h, w) {
		uint64_t m = h->nz[w];
		if (dense(m))
			memset(h->buckets + w * 64u, 0, 64 * sizeof h->buckets[0]);
		else
			for (; m; m &= m - 1)
				h->buckets[w * 64u + (uint32_t)__builtin_ctzll(m)] = 0;
		h->nz[w] = 0;
	}
	if (h->lo <= h->hi)
		for (uint32_t s = h->lo >> 12; s <= h->hi >> 12; s++)
			h->nzw[s] = 0;
	h->count = 0;
	h->sum = 0;
	h->min = UINT64_MAX;
	h->max = 0;
	h->lo = HIST_NBUCKETS;
	h->hi = 0;
}

/* A word's 64 buckets added; restrict lets the compiler vectorise it
   (two histograms never share their buckets). */
static void add64(uint64_t *restrict d, const uint64_t *restrict a)
{
	for (unsigned j = 0; j < 64; j++)
		d[j] += a[j];
}

void hist_merge(struct lat_hist *dst, const struct lat_hist *src)
{
	if (src->count == 0)
		return;
	HIST_FOR_EACH_WORD(src, w) {
		uint64_t m = src->nz[w];
		dst->nz[w] |= m;
		if (dense(m)) {
			add64(dst->buckets + w * 64u, src->buckets + w * 64u);
			continue;
		}
		for (; m; m &= m - 1) {
			uint32_t i = w * 64u + (uint32_t)__builtin_ctzll(m);
			dst->buckets[i] += src->buckets[i];
		}
	}
	for (uint32_t s = src->lo >> 12; s <= src->hi >> 12; s++)
		dst->nzw[s] |= src->nzw[s];
	/* src's totals fold in as a batch's do: one rule for both */
	hist_batch_end(dst, &(struct hist_batch){ src->count, src->sum, src->min, src->max,
						  src->lo, src->hi });
}

uint64_t hist_bucket_low(uint32_t i)
{
	if (i < HIST_SUB)
		return i;
	uint32_t e = i / HIST_SUB + HIST_SUB_BITS - 1;
	uint64_t sub = i % HIST_SUB;
	return (HIST_SUB + sub) << (e - HIST_SUB_BITS);
}

uint64_t hist_bucket_high(uint32_t i)
{
	if (i < HIST_SUB)
		return i;
	if (i == HIST_NBUCKETS - 1)
		return UINT64_MAX;
	uint32_t e = i / HIST_SUB + HIST_SUB_BITS - 1;
	return hist_bucket_low(i) + (1ull << (e - HIST_SUB_BITS)) - 1;
}

/* The reported value of bucket i: its midpoint, inside the exact extremes. */
static uint64_t bucket_value(const struct lat_hist *h, uint32_t i)
{
	uint64_t lo = hist_bucket_low(i), hi = hist_bucket_high(i);
	if (hi == UINT64_MAX)
		return h->max;
	uint64_t v = lo + (hi - lo) / 2;
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}

/* The samples in word w's 64 buckets (a clear bit's bucket is zero). */
static uint64_t word_sum(const struct lat_hist *h, uint32_t w)
{
	uint64_t c = 0;
	for (unsigned j = 0; j < 64; j++)
		c += h->buckets[w * 64u + j];
	return c;
}

/*
 * The percentiles ps[from, n) (ascending, each of rank above the middle)
 * from the top down: the bucket where the samples above it stop covering
 * count - rank is the one where the cumulative count from below reaches
 * the rank, so each is the value the walk from below gives, found after
 * the buckets above it rather than all below (a p99 is a few buckets from
 * the top of a slice's thousands).  Both walks pass a dense word whole
 * when no rank they want is in it.
 */
static void percentiles_from_top(const struct lat_hist *h, const double *ps, size_t from,
				 size_t n, uint64_t *out)
{
	size_t j = n;
	uint64_t above = 0, want = percentile_rank(ps[j - 1], h->count);
	/* the words of nz with a bit set, from the top (hist.h: nzw) */
	for (uint32_t s = (h->hi >> 12) + 1; s-- > (h->lo >> 12) && j > from;)
	for (uint64_t q = h->nzw[s]; q && j > from;) {
		uint32_t w = s * 64u + 63u - (uint32_t)__builtin_clzll(q);
		q &= ~(1ull << (w & 63));
		if (dense(h->nz[w])) {
			uint64_t c = word_sum(h, w);
			if (want + above + c <= h->count) {
				above += c;	/* no rank wanted is here */
				continue;
			}
		}
		for (uint64_t m = h->nz[w]; m && j > from;) {
			uint32_t b = 63u - (uint32_t)__builtin_clzll(m);
			m &= ~(1ull << b);
			uint32_t i = w * 64u + b;
			uint64_t c = h->buckets[i];
			/* Ranks (count - above - c, count - above] are here. */
			while (j > from && want + above + c > h->count) {
				if (want == h->count)
					out[j - 1] = h->max;
				else if (want == 1)
					out[j - 1] = h->min;
				else
					out[j - 1] = bucket_value(h, i);
				if (--j > from)
					want = percentile_rank(ps[j - 1], h->count);
			}
			above += c;
		}
	}
	for (; j > from; j--)
		out[j - 1] = h->min;
}

void hist_percentiles(const struct lat_hist *h, const double *ps, size_t n,
		      uint64_t *out)
{
	size_t j = 0;
	if (h->count == 0) {
		for (; j < n; j++)
			out[j] = 0;
		return;
	}
	/* Ranks above the middle from the top, the rest from below. */
	size_t top = n;
	while (top > 0 && percentile_rank(ps[top - 1], h->count) > h->count / 2)
		top--;
	if (top < n)
		percentiles_from_top(h, ps, top, n, out);
	n = top;
	if (!n)
		return;
	/* Only non-zero buckets move the sum, so only they are visited. */
	uint64_t cum = 0, want = percentile_rank(ps[0], h->count);
	for (uint32_t s = h->lo >> 12; s <= h->hi >> 12 && j < n; s++)
	for (uint64_t q = h->nzw[s]; q && j < n; q &= q - 1) {
		uint32_t w = s * 64u + (uint32_t)__builtin_ctzll(q);
		if (dense(h->nz[w]) && want != h->count && want != 1) {
			uint64_t c = word_sum(h, w);
			if (cum + c < want) {
				cum += c;	/* no rank wanted is here */
				continue;
			}
		}
		for (uint64_t m = h->nz[w]; m && j < n; m &= m - 1) {
			uint32_t i = w * 64u + (uint32_t)__builtin_ctzll(m);
			cum += h->buckets[i];
			while (j < n) {
				if (want == h->count)
					out[j] = h->max;
				else if (want == 1)
					out[j] = h->min;
				else if (cum < want)
					break;
				else
					out[j] = bucket_value(h, i);
				if (++j < n)
					want = percentile_rank(ps[j], h->count);
			}
		}
	}
	for (; j < n; j++)
		out[j] = h->max;
}

uint64_t hist_percentile(const struct lat_hist *h, double p)
{
	uint64_t v;
	hist_percentiles(h, &p, 1, &v);
	return v;
}

double hist_mean(const struct lat_hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}

/* --- serialisation ------------------------------------------------------ */

#define HIST_FORMAT_VERSION 1

static size_t put_varint(uint8_t *out, uint64_t v)
{
	size_t n = 0;
	while (v >= 0x80) {
		out[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	out[n++] = (uint8_t)v;
	return n;
}

static int get_varint(const uint8_t *in, size_t len, size_t *pos, uint64_t *v)
{
	uint64_t r = 0;
	for (int shift = 0; shift < 64; shift += 7) {
		if (*pos >= len)
			return -1;
		uint8_t b = in[(*pos)++];
		r |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = r;
			return 0;
		}
	}
	return -1;
}

size_t hist_encoded_max(const struct lat_hist *h)
{
	size_t buckets = h->count ? (size_t)(h->hi - h->lo + 1) : 0;
	return 2 + 5 * 10 + buckets * 2 * 10;
}

size_t hist_encode(const struct lat_hist *h, uint8_t *out)
{
	size_t n = 0;
	out[n++] = HIST_FORMAT_VERSION;
	out[n++] = HIST_SUB_BITS;
	n += put_varint(out + n, h->count);
	n += put_varint(out + n, h->sum);
	n += put_varint(out + n, h->count ? h->min : 0);
	n += put_varint(out + n, h->max);
	uint64_t nonzero = 0;
	if (h->count)
		HIST_FOR_EACH_SET(h, i)
			nonzero += h->buckets[i] != 0;
	n += put_varint(out + n, nonzero);
	uint64_t prev = 0;
	if (h->count)
		HIST_FOR_EACH_SET(h, i) {
			if (!h->buckets[i])
				continue;
			n += put_varint(out + n, i - prev);
			n += put_varint(out + n, h->buckets[i]);
			prev = i;
		}
	return n;
}

int hist_decode(struct lat_hist *h, const uint8_t *in, size_t len)
{
	size_t pos = 2;
	uint64_t count, sum, min, max, nonzero;
	hist_reset(h);
	if (len < 2 || in[0] != HIST_FORMAT_VERSION || in[1] != HIST_SUB_BITS)
		return -1;
	if (get_varint(in, len, &pos, &count) || get_varint(in, len, &pos, &sum) ||
	    get_varint(in, len, &pos, &min) || get_varint(in, len, &pos, &max) ||
	    get_varint(in, len, &pos, &nonzero))
		return -1;
	uint64_t idx = 0, total = 0;
	for (uint64_t k = 0; k < nonzero; k++) {
		uint64_t gap, c;
		if (get_varint(in, len, &pos, &gap) || get_varint(in, len, &pos, &c))
			goto bad;
		idx += gap;
		if (idx >= HIST_NBUCKETS)
			goto bad;
		h->buckets[idx] += c;
		h->nz[idx >> 6] |= 1ull << (idx & 63);
		h->nzw[idx >> 12] |= 1ull << ((idx >> 6) & 63);
		total += c;
		if (idx < h->lo)
			h->lo = (uint32_t)idx;
		if (idx > h->hi)
			h->hi = (uint32_t)idx;
	}
	if (total != count)
		goto bad;
	h->count = count;
	h->sum = sum;
	h->min = count ? min : UINT64_MAX;
	h->max = max;
	return 0;
bad:
	hist_reset(h);
	return -1;
}
