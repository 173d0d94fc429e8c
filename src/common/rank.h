/*
 * The one definition of a percentile every figure in ssdbench uses: the
 * value of rank ceil(p/100 * n) among n sorted samples (1-based, clamped to
 * [1, n]), i.e. the smallest sample with at least p % of samples at or
 * below it.  Histograms and sample traces share it, so a percentile of a
 * trace and of a histogram of the same values agree.
 */
#ifndef SSDBENCH_COMMON_RANK_H
#define SSDBENCH_COMMON_RANK_H

#include <stdint.h>

static inline uint64_t percentile_rank(double p, uint64_t n)
{
	double r = p / 100.0 * (double)n;
	uint64_t k = (uint64_t)r;
	if ((double)k < r)
		k++;
	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	return k;
}

#endif
