/*
 * The one definition of a percentile every figure in ssdbench uses, fio's
 * nearest rank: the value of rank ceil(p/100 * n) among n sorted samples
 * (1-based, clamped to [1, n]), i.e. the smallest sample with at least p %
 * of samples at or below it.  Histograms and sample traces share it, so a
 * percentile of a trace and of a histogram of the same values agree.
 *
 * The rank is computed in integers: p is first taken in millionths of a
 * percent (PCT_UNITS per 100 %; every percentile ssdbench names has at most
 * six decimals), so p99.9 of 1000 samples is rank 999 exactly, where the
 * floating-point product 99.9/100*1000 = 999.0000000000001 rounded up to
 * 1000, the max.
 */
#ifndef SSDBENCH_COMMON_RANK_H
#define SSDBENCH_COMMON_RANK_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#define PCT_SCALE 1000000ull			/* units per 1 % */
#define PCT_UNITS (100ull * PCT_SCALE)		/* units per 100 % */

/* p in millionths of a percent, clamped to [0, 100 %]. */
static inline uint64_t percentile_units(double p)
{
	if (!(p > 0))
		return 0;
	if (p >= 100)
		return PCT_UNITS;
	return (uint64_t)llround(p * (double)PCT_SCALE);
}

static inline uint64_t percentile_rank(double p, uint64_t n)
{
	uint64_t u = percentile_units(p);
	/* ceil(u * n / PCT_UNITS) without overflow: n = q * PCT_UNITS + r,
	   and r * u < 10^16. */
	uint64_t q = n / PCT_UNITS, r = n % PCT_UNITS;
	uint64_t k = q * u + (r * u + PCT_UNITS - 1) / PCT_UNITS;
	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	return k;
}

/*
 * Whether percentile p of n samples is a measurement: at least one sample
 * lies beyond it (n * (100 - p) / 100 >= 1).  Otherwise its rank is n and
 * the value is only the max (p99.9999 of 82 000 I/Os is the max): outputs
 * mark it instead of printing it as the percentile.  p = 100 is the max
 * by definition and counts as supported when there is a sample.
 */
static inline bool percentile_supported(double p, uint64_t n)
{
	if (!n)
		return false;
	uint64_t u = percentile_units(p);
	if (u == PCT_UNITS)
		return true;
	uint64_t beyond = PCT_UNITS - u;	/* units of the tail */
	uint64_t q = n / PCT_UNITS, r = n % PCT_UNITS;
	/* n * beyond >= PCT_UNITS, split like the rank. */
	return q > 0 || r * beyond >= PCT_UNITS;
}

#endif
