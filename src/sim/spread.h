/*
 * A bulk stream's latencies (fluid.c): n I/Os spread over a measured
 * distribution, the shape, bucket by bucket in proportion, the counts
 * rounded so that they add up to n.  Bulk streams spread slice after
 * slice over one shape: taken apart once (spread_shape), or with the
 * last two spreads kept (spread_memo), each adds what spread adds.
 */
#ifndef SSDBENCH_SIM_SPREAD_H
#define SSDBENCH_SIM_SPREAD_H

#include <stddef.h>
#include <stdint.h>

#include "common/hist.h"

/* n I/Os over shape into dst. */
void spread(struct lat_hist *dst, const struct lat_hist *shape, uint64_t n);

/* A shape's non-empty buckets, in order: the value spread gives each,
   that value's bucket and the bucket's count. */
struct spread_shape {
	const struct lat_hist *shape;	/* NULL: not made (no memory) */
	size_t n;
	uint32_t *idx;
	uint64_t *v;
	double *c;
};

/* Take shape apart (without the memory for it, p says so, and
   spread_shaped spreads as spread does). */
void spread_shape_init(struct spread_shape *p, const struct lat_hist *shape);
void spread_shape_free(struct spread_shape *p);
/* spread(dst, shape, n), bit for bit, from p if p is shape's. */
void spread_shaped(struct lat_hist *dst, const struct spread_shape *p,
		   const struct lat_hist *shape, uint64_t n);

/* The last two spreads of one shape; zeroed to start.  The shape must
   not change while the memo is in use. */
struct spread_memo {
	const struct lat_hist *shape;
	uint64_t n[2];
	struct lat_hist *h[2];	/* NULL: not made yet (or no memory) */
	int next;
	struct spread_shape prep;	/* the shape taken apart */
};

/* spread(dst, shape, n), bit for bit. */
void spread_again(struct spread_memo *m, struct lat_hist *dst,
		  const struct lat_hist *shape, uint64_t n);
void spread_memo_free(struct spread_memo *m);

#endif
