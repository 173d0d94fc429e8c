/*
 * Dominant levels: the modes of a throughput distribution.
 *
 * A binned Gaussian kernel density over log(rate): samples are spread onto
 * a fine grid (linear binning), the grid is convolved with the kernel, and
 * each local maximum owns the basin between its neighbouring minima.  A
 * peak that barely rises above the saddle to a neighbour (less than 10 % of
 * its height) is the same level seen through noise and joins that
 * neighbour.  Stalled slices (rate 0) have no log: they are a level of
 * their own at 0 when they hold enough time.  The surviving peaks are
 * kept when their basins hold at least
 * `min_share` of the weight, and the weight of ten samples: a short noisy
 * trace has bumps everywhere, none of them a level.  O(n + grid x kernel).
 */
#include "analysis/fill.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GRID_MIN 1024
#define GRID_MAX 65536
#define PROMINENCE 0.10

struct peak {
	size_t at, lo, hi;	/* grid index, basin [lo, hi] */
};

static int cmp_level_desc(const void *a, const void *b)
{
	double x = ((const struct fill_level *)a)->rate;
	double y = ((const struct fill_level *)b)->rate;
	return x > y ? -1 : x < y;
}

size_t fill_levels(const double *v, const double *w, size_t n,
		   double bandwidth, double min_share,
		   struct fill_level *levels, size_t max)
{
	double lo = INFINITY, hi = -INFINITY, total = 0, stalled = 0;
	for (size_t i = 0; i < n; i++) {
		double wt = w ? w[i] : 1;
		total += wt;
		if (!(v[i] > 0)) {
			stalled += wt;	/* no log: a level of its own, at 0 */
			continue;
		}
		double x = log(v[i]);
		lo = x < lo ? x : lo;
		hi = x > hi ? x : hi;
	}
	if (!(total > 0) || max == 0)
		return 0;
	if (min_share < 10.0 / (double)n)
		min_share = 10.0 / (double)n;
	size_t nl = 0;
	if (stalled / total >= min_share)
		levels[nl++] = (struct fill_level){ 0, stalled / total };
	if (!(total > stalled))
		return nl;
	double h = bandwidth;
	lo -= 4 * h;
	hi += 4 * h;
	size_t g = (size_t)((hi - lo) / (h / 8)) + 2;
	g = g < GRID_MIN ? GRID_MIN : g > GRID_MAX ? GRID_MAX : g;
	double step = (hi - lo) / (double)(g - 1);
	double *bins = calloc(2 * g, sizeof *bins);
	if (!bins)
		return nl;
	double *dens = bins + g;
	for (size_t i = 0; i < n; i++) {
		if (!(v[i] > 0))
			continue;
		double pos = (log(v[i]) - lo) / step;
		size_t k = (size_t)pos;
		double frac = pos - (double)k, wt = w ? w[i] : 1;
		if (k + 1 >= g) {
			bins[g - 1] += wt;
			continue;
		}
		bins[k] += wt * (1 - frac);
		bins[k + 1] += wt * frac;
	}
	size_t reach = (size_t)(4 * h / step) + 1;
	double *kern = malloc((reach + 1) * sizeof *kern);
	if (!kern) {
		free(bins);
		return nl;
	}
	for (size_t j = 0; j <= reach; j++) {
		double z = (double)j * step / h;
		kern[j] = exp(-0.5 * z * z);
	}
	for (size_t i = 0; i < g; i++) {
		if (bins[i] == 0)
			continue;
		size_t a = i > reach ? i - reach : 0;
		size_t b = i + reach < g ? i + reach : g - 1;
		for (size_t j = a; j <= b; j++)
			dens[j] += bins[i] * kern[i > j ? i - j : j - i];
	}
	free(kern);

	/* peaks and their basins */
	size_t cap = 64, np = 0;
	struct peak *pk = malloc(cap * sizeof *pk);
	if (!pk) {
		free(bins);
		return nl;
	}
	for (size_t i = 1; i + 1 < g; i++) {
		if (!(dens[i] > dens[i - 1] && dens[i] >= dens[i + 1]))
			continue;
		if (np == cap) {
			struct peak *more = realloc(pk, 2 * cap * sizeof *pk);
			if (!more)
				break;
			pk = more;
			cap *= 2;
		}
		pk[np++] = (struct peak){ i, 0, g - 1 };
	}
	for (size_t k = 0; k + 1 < np; k++) {
		size_t m = pk[k].at;
		for (size_t i = pk[k].at; i <= pk[k + 1].at; i++)
			if (dens[i] < dens[m])
				m = i;
		pk[k].hi = m;
		pk[k + 1].lo = m;
	}
	/* merge peaks of low prominence into the neighbour across the
	   higher saddle, weakest first */
	for (;;) {
		size_t weakest = np;
		double wr = PROMINENCE;
		for (size_t k = 0; k < np; k++) {
			double left = k ? dens[pk[k].lo] : 0;
			double right = k + 1 < np ? dens[pk[k].hi] : 0;
			double saddle = left > right ? left : right;
			double prom = (dens[pk[k].at] - saddle) / dens[pk[k].at];
			if (prom < wr) {
				wr = prom;
				weakest = k;
			}
		}
		if (weakest == np || np < 2)
			break;
		size_t k = weakest;
		bool left = k > 0 && (k + 1 == np ||
				      dens[pk[k].lo] >= dens[pk[k].hi]);
		size_t other = left ? k - 1 : k + 1;
		struct peak merged = {
			dens[pk[k].at] > dens[pk[other].at] ? pk[k].at : pk[other].at,
			left ? pk[other].lo : pk[k].lo,
			left ? pk[k].hi : pk[other].hi,
		};
		size_t keep = left ? k - 1 : k;
		pk[keep] = merged;
		memmove(&pk[keep + 1], &pk[keep + 2],
			(np - keep - 2) * sizeof *pk);
		np--;
	}
	/* the density holds the moving share of the time */
	double mass = 0;
	for (size_t i = 0; i < g; i++)
		mass += dens[i];
	mass *= total / (total - stalled);
	for (size_t k = 0; k < np && nl < max; k++) {
		/* the basin's share of the density; shared saddle points are
		   split between the two basins */
		double s = 0;
		for (size_t i = pk[k].lo; i <= pk[k].hi; i++)
			s += dens[i] * ((i == pk[k].lo && k > 0) ||
					(i == pk[k].hi && k + 1 < np) ? 0.5 : 1);
		s /= mass;
		if (s < min_share)
			continue;
		/* parabolic interpolation of the peak on the grid */
		size_t i = pk[k].at;
		double off = 0, a = dens[i - 1], b = dens[i], c = dens[i + 1];
		double den = a - 2 * b + c;
		if (den < 0)
			off = 0.5 * (a - c) / den;
		levels[nl++] = (struct fill_level){
			exp(lo + ((double)i + off) * step), s
		};
	}
	free(pk);
	free(bins);
	qsort(levels, nl, sizeof *levels, cmp_level_desc);
	return nl;
}
