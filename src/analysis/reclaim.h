/*
 * SLC cache reclaim (METHODOLOGY §3.7): after a 50 % fill the drive idles T
 * seconds, then is written for a minute.  Per T, the cache it had regained
 * is the bytes written at cache speed in that minute: fill_find_cache() on
 * the minute's trace, with the fill's cache speed as `ref_speed`.
 *
 * Over the (T, cache) points: the recovered size is the mean of the
 * saturated points (within `saturation` of the largest; saturation needs
 * two such points, as the largest is always within it), the recovery
 * rate the least-squares slope through the rising points: after the floor
 * (two or more leading points still within `saturation` of the smallest,
 * before the drive began its idle work) and before saturation
 * (bytes of cache per second of idle; SN8100 ~1.46 GB/s).  The idle time
 * to full recovery is where that line meets the recovered size (never
 * later than the first saturated T).
 */
#ifndef SSDBENCH_ANALYSIS_RECLAIM_H
#define SSDBENCH_ANALYSIS_RECLAIM_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/trace.h"
#include "common/error.h"

/* Points within this share of the largest count as saturated. */
#define RECLAIM_SATURATION 0.05

struct reclaim_point {
	double idle_s;
	double cache_bytes;
};

struct reclaim_result {
	size_t npoints;
	size_t nfloor;			/* leading points left out as floor */
	size_t nfit;			/* rising points the rate is fitted on */
	double rate;			/* B of cache per s of idle; NAN if < 1
					   point before saturation */
	double intercept;		/* of the fit, bytes */
	bool saturated;			/* some point reached full recovery */
	double recovered_bytes;		/* mean of saturated points (or the
					   largest point if none is) */
	double first_full_idle_s;	/* smallest saturated T; NAN if none */
	double full_s;			/* idle time to full recovery */
};

/*
 * The cache one cycle regained, the one rule findings and the report use:
 * the fill's cache (fill_analyze) gives the speed, and the minute's bytes
 * at that speed (fill_find_cache with it as ref_speed) are the regained
 * cache.  A fill without a cache gives no reference: *cache_bytes is NAN.
 */
int reclaim_cycle_cache(const struct trace_pt *fill, size_t nfill,
			const struct trace_pt *minute, size_t nminute,
			double *cache_bytes, struct sb_err *e);

/* Points in any order; `saturation` e.g. 0.05 (within 5 % of the max). */
int reclaim_analyze(const struct reclaim_point *pts, size_t n,
		    double saturation, struct reclaim_result *out,
		    struct sb_err *e);

#endif
