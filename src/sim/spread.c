/* Spreading a bulk stream's I/Os over a latency shape (spread.h). */
#include "sim/spread.h"

#include <stdlib.h>

/* The value spread puts in the shape's bucket i: its low bound, not
   below the shape's least latency. */
static uint64_t spread_value(const struct lat_hist *shape, uint32_t i)
{
	uint64_t v = hist_bucket_low(i);
	return v < shape->min ? shape->min : v;
}

/* Spread n I/Os over a measured distribution, bucket by bucket. */
void spread(struct lat_hist *dst, const struct lat_hist *shape, uint64_t n)
{
	double acc = 0;
	uint64_t given = 0;
	if (!shape->count)
		return;
	HIST_FOR_EACH_SET(shape, i) {
		if (!shape->buckets[i])
			continue;
		acc += (double)n * (double)shape->buckets[i] / (double)shape->count;
		uint64_t k = (uint64_t)(acc + 0.5) - given;
		hist_add_n(dst, spread_value(shape, (uint32_t)i), k);
		given += k;
	}
}

/*
 * A shape spread slice after slice (a bulk stream's calibrated latencies)
 * taken apart once: its non-empty buckets in order, each with the value
 * spread puts there, that value's bucket and its count.  spread_shaped
 * then adds what spread would, bucket for bucket and bit for bit,
 * without finding the buckets, their bounds and their indexes anew.
 */

void spread_shape_free(struct spread_shape *p)
{
	free(p->idx);
	free(p->v);
	free(p->c);
	*p = (struct spread_shape){ 0 };
}

void spread_shape_init(struct spread_shape *p, const struct lat_hist *shape)
{
	*p = (struct spread_shape){ 0 };
	size_t n = 0;
	HIST_FOR_EACH_SET(shape, i)
		n += shape->buckets[i] != 0;
	p->idx = malloc((n ? n : 1) * sizeof *p->idx);
	p->v = malloc((n ? n : 1) * sizeof *p->v);
	p->c = malloc((n ? n : 1) * sizeof *p->c);
	if (!p->idx || !p->v || !p->c) {
		spread_shape_free(p);	/* spread_shaped spreads as spread */
		return;
	}
	HIST_FOR_EACH_SET(shape, i) {
		if (!shape->buckets[i])
			continue;
		uint64_t v = spread_value(shape, (uint32_t)i);
		p->idx[p->n] = hist_index(v);
		p->v[p->n] = v;
		p->c[p->n] = (double)shape->buckets[i];
		p->n++;
	}
	p->shape = shape;
}

/* spread(dst, shape, n), from the shape taken apart. */
void spread_shaped(struct lat_hist *dst, const struct spread_shape *p,
		   const struct lat_hist *shape, uint64_t n)
{
	if (p->shape != shape) {
		spread(dst, shape, n);
		return;
	}
	if (!shape->count)
		return;
	double acc = 0, count = (double)shape->count;
	uint64_t given = 0;
	for (size_t j = 0; j < p->n; j++) {
		acc += (double)n * p->c[j] / count;
		uint64_t k = (uint64_t)(acc + 0.5) - given;
		hist_add_at(dst, p->idx[j], p->v[j], k);
		given += k;
	}
}

/*
 * A bulk read stream spreads slice after slice over one shape, and at a
 * steady rate the count is one of two (the carry's floor or ceiling):
 * the last two spreads are kept and merged again when their count comes
 * back, which adds the same buckets as spreading anew (merging and
 * hist_add_n both only add counts, sums and bounds) without a division
 * per bucket.  The shape must not change while the memo is in use.
 */
void spread_memo_free(struct spread_memo *m)
{
	hist_free(m->h[0]);
	hist_free(m->h[1]);
	spread_shape_free(&m->prep);
}

void spread_again(struct spread_memo *m, struct lat_hist *dst,
		  const struct lat_hist *shape, uint64_t n)
{
	for (int i = 0; i < 2; i++)
		if (m->h[i] && m->shape == shape && m->n[i] == n) {
			hist_merge(dst, m->h[i]);
			return;
		}
	struct lat_hist *h = m->h[m->next];
	if (!h && !(h = m->h[m->next] = hist_new())) {
		spread(dst, shape, n);	/* no memory for a memo: spread */
		return;
	}
	if (m->shape != shape) {
		m->shape = shape;
		m->n[m->next ^ 1] = UINT64_MAX;
		spread_shape_free(&m->prep);
		spread_shape_init(&m->prep, shape);
	}
	hist_reset(h);
	spread_shaped(h, &m->prep, shape, n);
	m->n[m->next] = n;
	m->next ^= 1;
	hist_merge(dst, h);
}

