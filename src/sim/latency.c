/*
 * Service-time distributions (SIMULATOR.md §3, §7): what gives a simulated
 * drive's latency a body and a tail instead of one value per path.
 *
 *   body  - page types: native pages of an m-bit cell read at m evenly
 *           spaced times tR x (1-s) .. tR x (1+s) (LSB/CSB/MSB on TLC, as
 *           SimpleSSD's LatencyTLC), fixed by the page's address;
 *         - controller and firmware variation: t_fw times a mean-1
 *           lognormal factor of coefficient of variation t_fw_cv.
 *   tails - read retry, waiting behind a program or erase (timing.c);
 *         - write-buffer release units: a full buffer gets its room back
 *           a program/GC unit at a time, so the writes that find it full
 *           wait for a whole unit while the others pass at the body's
 *           latency (timing.c for single I/Os, wlat_add for bulk writes);
 *         - journal flushes and write-path stalls (wpath.c, fluid.c).
 *
 * The lognormal is kept as FW_BINS bins (the quantile at each bin's middle
 * probability), so a discrete I/O draws a bin and a bulk slice spreads its
 * I/Os over the bins by their probabilities: both paths give the same
 * distribution, and a bulk slice costs O(FW_BINS), not O(I/Os).
 */
#include <math.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "sim/model.h"

/* Standard normal quantile by bisection on erfc: FW_BINS values at open. */
static double normal_quantile(double p)
{
	double lo = -10, hi = 10;
	for (int i = 0; i < 80; i++) {
		double mid = (lo + hi) / 2;
		if (0.5 * erfc(-mid / sqrt(2.0)) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/*
 * The bins' upper probability bounds: FW_BODY equal bins up to 0.99, then
 * one per nine up to 99.9999 %, so the tail of the lognormal is there to
 * the depth a tail measurement reads (not cut at the last equal bin).
 */
static double bin_hi(int i)
{
	if (i < FW_BODY)
		return 0.99 * (i + 1) / FW_BODY;
	if (i == FW_BINS - 1)
		return 1.0;
	return 1.0 - 0.01 * pow(0.1, i - FW_BODY + 1);
}

uint64_t draw_first(uint64_t from, bool (*past)(const void *ctx, uint64_t k), const void *ctx)
{
	uint64_t a = from, b = 1ull << 53;
	while (a < b) {
		uint64_t mid = a + (b - a) / 2;
		if (past(ctx, mid))
			b = mid;
		else
			a = mid + 1;
	}
	return a;
}

struct bin_past {
	const struct sim *s;
	int bin;
};

static bool above_bin(const void *ctx, uint64_t k)
{
	const struct bin_past *x = ctx;
	return latency_fw_bin_of(x->s, k) > x->bin;
}

void latency_init(struct sim *s)
{
	double cv = s->p.t_fw_cv;
	double sigma = sqrt(log(1.0 + cv * cv)), mu = -sigma * sigma / 2;
	double sum = 0, lo = 0;
	for (int i = 0; i < FW_BINS; i++) {
		double hi = bin_hi(i);
		s->fw_prob[i] = hi - lo;
		s->fw_cum[i] = hi;
		s->fw_bin[i] = cv > 0 ? exp(mu + sigma * normal_quantile((lo + hi) / 2)) : 1.0;
		sum += s->fw_bin[i] * s->fw_prob[i];
		lo = hi;
	}
	/* Mean exactly 1: the bins' midpoints miss a little of the tail. */
	for (int i = 0; i < FW_BINS; i++)
		s->fw_bin[i] /= sum;
	/* The bins as bounds on the draw's integer: latency_fw_bin_of is
	   monotone in k (each step of it rounds monotonically), so bin i is
	   the k from the first that lands above bin i-1 to the first that
	   lands above bin i. */
	for (int i = 0; i < FW_BINS - 1; i++) {
		struct bin_past x = { s, i };
		s->fw_lim[i] = draw_first(i ? s->fw_lim[i - 1] : 0, above_bin, &x);
	}
	s->fw_lim[FW_BINS - 1] = 1ull << 53;
	/* FW_BODY x 2^64 / (the body's end + 1): a k below the end gives a
	   guess below FW_BODY, next to its bin (latency_fw_bin_fast's
	   comparisons correct it). */
	s->fw_guess = (uint64_t)(((unsigned __int128)FW_BODY << 64) /
				 (s->fw_lim[FW_BODY - 1] + 1));
}

/* The body's bins are equal: index them directly, then the tail's. */
int latency_fw_bin_of(const struct sim *s, uint64_t k)
{
	double u = (double)k * 0x1.0p-53, body = s->fw_cum[FW_BODY - 1];
	if (u < body) {
		int i = (int)(u / body * FW_BODY);
		return i < FW_BODY ? i : FW_BODY - 1;
	}
	for (int i = FW_BODY; i < FW_BINS - 1; i++)
		if (u < s->fw_cum[i])
			return i;
	return FW_BINS - 1;
}

int latency_page_types(const struct sim *s)
{
	return s->m < 2 || s->p.tr_spread <= 0 ? 1 : s->m;
}

/* The page's type comes from its address, as on real media (timing.c). */
double latency_page_factor(const struct sim *s, int type)
{
	int m = s->m;
	if (latency_page_types(s) == 1)
		return 1.0;
	return 1.0 - s->p.tr_spread + 2.0 * s->p.tr_spread * type / (m - 1);
}

/*
 * `count` I/Os whose latency is base + t_fw x the firmware factor, spread
 * over the bins by their probabilities, each bin's fraction carried to the
 * next call.  Bin by bin, the rule is: the carry takes count x prob, the
 * bin gives its whole I/Os (no more than are left to give) and keeps the
 * fraction; what rounding leaves takes the median bin.
 *
 * A bulk step of a few I/Os fires a few bins, so: the carries are first
 * all raised in one vector loop (the same multiply, then add, per bin as
 * one at a time: SSE2 has no fused multiply-add, and C11 mode contracts
 * none), and only the bins that reached 1 are visited, in bin order (a
 * bin below 1 would give none and keep its carry as it is).  The I/Os a
 * bin gives wait in wl->pend while the steps' latencies repeat (a host or
 * link-bound stream's do, and a buffer-bound one's alternate between two),
 * and go into the histogram as one sum per bin (wlat_flush): a
 * histogram's counts and sum are the same in any order of adding.
 */
_Static_assert(FW_BINS <= 64, "add_body's masks of bins hold FW_BINS bits");
typedef double v2d __attribute__((vector_size(16)));
typedef int64_t v2l __attribute__((vector_size(16)));

/* Bit j set: lane j of c is 1 or more. */
static inline unsigned at_least_one(v2d c)
{
	v2d one = { 1.0, 1.0 };
#ifdef __SSE2__
	return (unsigned)_mm_movemask_pd((__m128d)(c >= one));
#else
	v2l ge = c >= one;
	return (unsigned)(ge[0] & 1) | (unsigned)(ge[1] & 2);
#endif
}

/* The bins of the carries that reached 1 after adding n x prob to each. */
static uint64_t raise_carries(const struct sim *s, struct wlat *wl, double n)
{
	v2d nv = { n, n };
	uint64_t full = 0;
	int i = 0;
#pragma GCC unroll 32
	for (; i + 2 <= FW_BINS; i += 2) {
		v2d c, p;
		memcpy(&c, &wl->bin_carry[i], sizeof c);
		memcpy(&p, &s->fw_prob[i], sizeof p);
		c += nv * p;
		memcpy(&wl->bin_carry[i], &c, sizeof c);
		full |= (uint64_t)at_least_one(c) << i;
	}
	for (; i < FW_BINS; i++) {
		wl->bin_carry[i] += n * s->fw_prob[i];
		full |= (uint64_t)(wl->bin_carry[i] >= 1.0) << i;
	}
	return full;
}

/*
 * The bins of `full` give their whole I/Os to p in bin order while any of
 * `count` are left to give; returns how many they gave and leaves in
 * *left the bins not visited.  A carry below 2 has one whole I/O: a
 * step's few I/Os raise a carry by less than one, so that is the common
 * case, without the conversions to and from an integer (c - 1.0 is
 * c - (double)1, and one is never more than the one or more left).
 */
static uint64_t give_whole(struct wlat *wl, struct wlat_pend *p, uint64_t count,
			   uint64_t full, uint64_t *left)
{
	uint64_t given = 0, m = full;
	for (; m && given < count; m &= m - 1) {
		int i = __builtin_ctzll(m);
		double c = wl->bin_carry[i];
		uint64_t k = 1;
		if (c >= 2.0) {
			k = (uint64_t)c;
			if (k > count - given)
				k = count - given;
			c -= (double)k;
		} else {
			c -= 1.0;
		}
		wl->bin_carry[i] = c;
		p->n[i] += k;
		given += k;
	}
	*left = m;
	return given;
}

static bool same_bits(double a, double b)
{
	uint64_t x, y;
	memcpy(&x, &a, sizeof x);
	memcpy(&y, &b, sizeof y);
	return x == y;
}

/* A slot's bins into its histogram, as one batch (hist.h): the totals
   and bounds once, not once per bin. */
static void pend_flush(const struct sim *s, struct wlat_pend *p)
{
	struct hist_batch b;
	if (!p->bins)
		return;
	hist_batch_start(&b);
	for (uint64_t m = p->bins; m; m &= m - 1) {
		int i = __builtin_ctzll(m);
		hist_batch_add(p->h, &b, s_to_ns(p->base + p->t_fw * s->fw_bin[i]), p->n[i]);
		p->n[i] = 0;
	}
	hist_batch_end(p->h, &b);
	p->bins = 0;
}

void wlat_flush(const struct sim *s, struct wlat *wl)
{
	pend_flush(s, &wl->pend[0]);
	pend_flush(s, &wl->pend[1]);
}

static bool pend_is(const struct wlat_pend *p, const struct lat_hist *h, double base,
		    double t_fw)
{
	return p->h == h && same_bits(p->base, base) && same_bits(p->t_fw, t_fw);
}

/* Where I/Os of latency base + t_fw x factor wait: the slot that holds
   that latency, else the one used least recently, flushed. */
static struct wlat_pend *pend_of(const struct sim *s, struct wlat *wl, struct lat_hist *h,
				 double base, double t_fw)
{
	struct wlat_pend *p = &wl->pend[wl->mru];
	if (pend_is(p, h, base, t_fw))
		return p;
	wl->mru ^= 1;
	p = &wl->pend[wl->mru];
	if (pend_is(p, h, base, t_fw))
		return p;
	pend_flush(s, p);
	p->h = h;
	p->base = base;
	p->t_fw = t_fw;
	return p;
}

void latency_add_body(const struct sim *s, struct wlat *wl, struct lat_hist *h,
		      uint64_t count, double base, double t_fw)
{
	if (!count)
		return;
	if (s->p.t_fw_cv <= 0 || t_fw <= 0) {
		hist_add_n(h, s_to_ns(base + t_fw), count);
		return;
	}
	uint64_t full = raise_carries(s, wl, (double)count);
	struct wlat_pend *p = pend_of(s, wl, h, base, t_fw);
	uint64_t left, given = give_whole(wl, p, count, full, &left);
	p->bins |= full & ~left;	/* each bin visited gave one or more */
	/* Rounding left some: they take the median bin. */
	if (given < count) {
		p->n[FW_BINS / 2] += count - given;
		p->bins |= 1ull << (FW_BINS / 2);
	}
}

void wlat_add(const struct sim *s, struct wlat *wl, struct lat_hist *h, uint64_t n,
	      double lat, double l_w0, double t_fw, double bs, double qd)
{
	double unit = s->p.wbuf_release_kib * 1024.0;
	if (!n)
		return;
	if (unit <= 0 || qd * bs >= unit || lat <= l_w0 * (1 + 1e-9)) {
		/* Room comes back continuously, or so finely against the
		   queue that every write waits for some of it, or the host
		   sets the pace: every I/O waits its share. */
		latency_add_body(s, wl, h, n, lat - t_fw, t_fw);
		return;
	}
	/* The buffer is the limit: each release unit lets the qd writes
	   that waited for it through at once; the rest pass at l_w0.  The
	   waits carry exactly the latency the rate demands (Little). */
	wl->excess += (double)n * (lat - l_w0);
	wl->waits += (double)n * bs / unit * qd;
	uint64_t k = (uint64_t)wl->waits;
	if (k > n)
		k = n;
	latency_add_body(s, wl, h, n - k, l_w0 - t_fw, t_fw);
	if (k) {
		/* Each whole wait takes its share; a partial one keeps the
		   rest for the write that completes it. */
		double each = wl->excess / wl->waits;
		latency_add_body(s, wl, h, k, l_w0 - t_fw + each, t_fw);
		wl->excess -= each * (double)k;
		wl->waits -= (double)k;
	}
}
