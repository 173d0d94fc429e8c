/*
 * Where random I/O lands when it is not uniform: fio's random_distribution
 * (zipf:THETA, pareto:H, normal:DEV, zoned:A/S:A/S...).  A distribution
 * gives a rank (zipf, pareto: 0 = the hottest block; normal: fio's bell
 * over [0, N)), and the rank is scattered over the span by a bijection, so
 * hot blocks are spread like fio's hash spreads them but no two ranks share
 * a block.  Zoned picks a zone by its share of accesses, then a block of
 * that zone uniformly; zones are contiguous, in order, from the span's start.
 * Uniform offsets do not come here (offsets.h keeps the 64-bit uniform
 * generator with its coverage).  docs/run.md gives the definitions.
 */
#ifndef SSDBENCH_ENGINE_DISTRIBUTION_H
#define SSDBENCH_ENGINE_DISTRIBUTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/rng.h"

enum dist_kind { DIST_UNIFORM, DIST_ZIPF, DIST_PARETO, DIST_NORMAL, DIST_ZONED };

#define DIST_ZONES_MAX 16

/* The definition, as the user gave it; part of struct workload. */
struct access_dist {
	enum dist_kind kind;
	double param;		/* zipf theta > 0, pareto h in (0,1), normal dev % */
	uint32_t nzones;
	struct { double access_pct, span_pct; } zones[DIST_ZONES_MAX];
};

/* "uniform", "random" (fio's default name), "zipf:1.2", "pareto:0.2",
   "normal:5" ("gauss" too), "zoned:50/5:30/15:20/80"; clear errors. */
int access_dist_parse(const char *text, struct access_dist *d, struct sb_err *e);
/* The same text back (for the record: JSON, database, run output). */
const char *access_dist_format(const struct access_dist *d, char *buf, size_t len);

/* Ready to draw over `nblocks` blocks: constants computed once. */
struct dist_sampler {
	struct access_dist def;
	uint64_t n;
	/* zipf (rejection-inversion, Hörmann & Derflinger 1996) */
	double h_x1, h_n, s;
	/* pareto: rank = n * u^pow */
	double pow;
	/* normal: fio's deviation width in blocks */
	uint64_t stddev;
	/* zoned: cumulative access shares and zone starts in blocks */
	double cum[DIST_ZONES_MAX];
	uint64_t start[DIST_ZONES_MAX + 1];
	/* the scatter: rank -> (rank * mul + add) mod n, gcd(mul, n) = 1 */
	uint64_t mul, add;
};

/* Refuses what cannot be drawn over nblocks (a zone smaller than a block). */
int dist_sampler_init(struct dist_sampler *s, const struct access_dist *d,
		      uint64_t nblocks, uint64_t seed, struct sb_err *e);
/* The rank of the next access, before the scatter (tests read this). */
uint64_t dist_next_rank(const struct dist_sampler *s, struct rng *r);
/* The block of a rank: a bijection of [0, n). */
uint64_t dist_scatter(const struct dist_sampler *s, uint64_t rank);
/* The next block index in [0, n). */
uint64_t dist_next_block(const struct dist_sampler *s, struct rng *r);

#endif
