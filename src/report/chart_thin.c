/*
 * Thinning a series to what a chart can show.  A preconditioning run
 * sampled every 10 ms has hundreds of thousands of points; drawn as they
 * are they make an SVG of hundreds of megabytes, yet the chart is under a
 * thousand pixels wide.  The x range is cut into equal buckets (in log10 x
 * on a log axis) and each bucket keeps its lowest and its highest point,
 * so the envelope, every spike, stall and burst stays exactly where it
 * was; the series' first and last points are kept too.  Kept points stay
 * in the order given, so lines still join them as before.  Nothing here
 * feeds a figure: the analysis reads the store, not the chart.
 */
#include "report/chart.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

static double along(double x, bool logx)
{
	return logx ? log10(x) : x;
}

int chart_thin(const double *x, const double *y, size_t *idx, size_t *n,
	       bool logx, size_t max, struct sb_err *e)
{
	if (*n <= max)
		return 0;
	if (max < 4)
		return sb_errf(e, "chart thinning: budget %zu is below 4", max);
	size_t nb = (max - 2) / 2;
	double lo = INFINITY, hi = -INFINITY;
	for (size_t k = 0; k < *n; k++) {
		double u = along(x[idx[k]], logx);
		if (u < lo)
			lo = u;
		if (u > hi)
			hi = u;
	}
	/* Positions in idx[] of each bucket's lowest and highest y;
	   SIZE_MAX for an empty bucket. */
	size_t *low = malloc(2 * nb * sizeof(*low));
	bool *keep = calloc(*n, sizeof(*keep));
	if (!low || !keep) {
		free(low);
		free(keep);
		return sb_errno(e, ENOMEM, "chart thinning: %zu points", *n);
	}
	size_t *high = low + nb;
	for (size_t b = 0; b < 2 * nb; b++)
		low[b] = SIZE_MAX;
	double width = hi - lo;
	for (size_t k = 0; k < *n; k++) {
		double u = along(x[idx[k]], logx);
		size_t b = width > 0 ? (size_t)((u - lo) / width * (double)nb) : 0;
		if (b >= nb)
			b = nb - 1;
		double v = y[idx[k]];
		/* Strict comparisons: of equal values the first is kept. */
		if (low[b] == SIZE_MAX || v < y[idx[low[b]]])
			low[b] = k;
		if (high[b] == SIZE_MAX || v > y[idx[high[b]]])
			high[b] = k;
	}
	keep[0] = keep[*n - 1] = true;
	for (size_t b = 0; b < 2 * nb; b++)
		if (low[b] != SIZE_MAX)
			keep[low[b]] = true;
	size_t m = 0;
	for (size_t k = 0; k < *n; k++)
		if (keep[k])
			idx[m++] = idx[k];
	*n = m;
	free(low);
	free(keep);
	return 0;
}
