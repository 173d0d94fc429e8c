#include "analysis/reclaim.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/fill.h"
#include "analysis/trace.h"

static int cmp_idle(const void *a, const void *b)
{
	double x = ((const struct reclaim_point *)a)->idle_s;
	double y = ((const struct reclaim_point *)b)->idle_s;
	return x < y ? -1 : x > y;
}

int reclaim_analyze(const struct reclaim_point *pts, size_t n,
		    double saturation, struct reclaim_result *out,
		    struct sb_err *e)
{
	memset(out, 0, sizeof *out);
	if (n == 0)
		return sb_errf(e, "reclaim: no points");
	if (!(saturation >= 0 && saturation < 1))
		return sb_errf(e, "reclaim: saturation tolerance %g is not in [0, 1)",
			       saturation);
	for (size_t i = 0; i < n; i++)
		if (!(pts[i].idle_s >= 0) || !(pts[i].cache_bytes >= 0))
			return sb_errf(e, "reclaim: point %zu (idle %g s, %g bytes) "
				       "is negative or not a number", i,
				       pts[i].idle_s, pts[i].cache_bytes);
	struct reclaim_point *p = malloc(n * sizeof *p);
	double *x = malloc(2 * n * sizeof *x);
	if (!p || !x) {
		free(p);
		free(x);
		return sb_errno(e, ENOMEM, "reclaim");
	}
	double *y = x + n;
	memcpy(p, pts, n * sizeof *p);
	qsort(p, n, sizeof *p, cmp_idle);
	double top = 0;
	for (size_t i = 0; i < n; i++)
		top = p[i].cache_bytes > top ? p[i].cache_bytes : top;
	out->npoints = n;
	/* saturated: within `saturation` of the largest; the fit uses the
	   points before the first saturated one */
	size_t first_sat = n, nsat = 0;
	double sat_sum = 0;
	for (size_t i = 0; i < n; i++) {
		if (top > 0 && p[i].cache_bytes >= (1 - saturation) * top) {
			if (first_sat == n)
				first_sat = i;
			sat_sum += p[i].cache_bytes;
			nsat++;
		}
	}
	/* the last point alone at the top is saturation only if some other
	   point is there too, or the curve has flattened before it */
	out->saturated = nsat >= 2;
	if (!out->saturated)
		first_sat = n;
	out->recovered_bytes = out->saturated ? sat_sum / (double)nsat : top;
	out->first_full_idle_s = out->saturated ? p[first_sat].idle_s : NAN;
	/* The floor: two or more leading points still at the smallest cache
	   (within `saturation` of it), before the drive began its idle work
	   -- a drive waits before it folds, and those points would flatten
	   the line.  They stay out of the fit when two rising points remain.
	   A single lowest point is just where the rise starts. */
	double bottom = p[0].cache_bytes;
	for (size_t i = 1; i < n; i++)
		bottom = p[i].cache_bytes < bottom ? p[i].cache_bytes : bottom;
	size_t first_fit = 0;
	while (first_fit < first_sat &&
	       p[first_fit].cache_bytes <= bottom * (1 + saturation))
		first_fit++;
	if (first_fit < 2 || first_sat - first_fit < 2)
		first_fit = 0;
	out->nfloor = first_fit;
	size_t k = 0;
	for (size_t i = first_fit; i < first_sat; i++) {
		x[k] = p[i].idle_s;
		y[k++] = p[i].cache_bytes;
	}
	out->nfit = k;
	out->rate = out->intercept = NAN;
	if (k >= 2) {
		struct lsq_fit f = stat_lsq(x, y, k);
		out->rate = f.slope;
		out->intercept = f.intercept;
	} else if (k == 1 && x[0] > 0) {
		/* one point: the line through the origin */
		out->rate = y[0] / x[0];
		out->intercept = 0;
	}
	out->full_s = NAN;
	if (out->rate > 0) {
		out->full_s = (out->recovered_bytes - out->intercept) / out->rate;
		if (out->saturated && out->full_s > out->first_full_idle_s)
			out->full_s = out->first_full_idle_s;
	} else if (out->saturated) {
		out->full_s = out->first_full_idle_s;
	}
	free(p);
	free(x);
	return 0;
}

int reclaim_cycle_cache(const struct trace_pt *fill, size_t nfill,
			const struct trace_pt *minute, size_t nminute,
			double *cache_bytes, struct sb_err *e)
{
	*cache_bytes = NAN;
	struct fill_params p;
	fill_params_default(&p);
	struct fill_result *fr = malloc(sizeof *fr);
	if (!fr)
		return sb_errno(e, ENOMEM, "reclaim");
	int rc = fill_analyze(fill, nfill, &p, fr, e);
	if (rc == 0 && fr->has_cache) {
		size_t end;
		p.ref_speed = fr->cache_speed;
		rc = fill_find_cache(minute, nminute, &p, &end, cache_bytes, e);
	}
	free(fr);
	return rc;
}
