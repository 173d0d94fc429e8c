#include "analysis/trace.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/rank.h"

void trace_rates(const struct trace_pt *t, size_t n, enum trace_metric m,
		 double *out)
{
	for (size_t i = 0; i < n; i++)
		out[i] = trace_rate(&t[i], m);
}

double trace_mean_slice_s(const struct trace_pt *t, size_t n)
{
	uint64_t ns = 0;
	for (size_t i = 0; i < n; i++)
		ns += t[i].ns;
	return (double)ns / 1e9 / (double)n;
}

double trace_median_slice_s(const struct trace_pt *t, size_t n)
{
	double *v = malloc(2 * n * sizeof *v);
	if (!v)
		return trace_mean_slice_s(t, n);
	for (size_t i = 0; i < n; i++)
		v[i] = (double)t[i].ns / 1e9;
	double m = stat_percentile(v, n, 50, v + n);
	free(v);
	return m;
}

void trace_whole(const struct trace_pt *t, size_t n, size_t *first, size_t *end)
{
	*first = 0;
	*end = n;
	if (n < 2)
		return;
	uint64_t nominal = t[0].ns > t[n - 1].ns ? t[0].ns : t[n - 1].ns;
	if (n >= 3) {
		double *v = malloc(2 * (n - 2) * sizeof *v);
		if (!v)		/* keep every slice rather than guess */
			return;
		for (size_t i = 1; i + 1 < n; i++)
			v[i - 1] = (double)t[i].ns;
		nominal = (uint64_t)stat_percentile(v, n - 2, 50, v + n - 2);
		free(v);
	}
	if (trace_slice_partial(t[0].ns, nominal))
		*first = 1;
	if (*end - *first > 1 && trace_slice_partial(t[n - 1].ns, nominal))
		*end = n - 1;
}

bool trace_slice_partial(uint64_t ns, uint64_t nominal_ns)
{
	return 2 * ns < nominal_ns;
}

int trace_check(const struct trace_pt *t, size_t n, struct sb_err *e)
{
	if (!t || n == 0)
		return sb_errf(e, "the trace is empty");
	for (size_t i = 0; i < n; i++)
		if (t[i].ns == 0)
			return sb_errf(e, "sample %zu has zero duration", i);
	return 0;
}

static size_t rank_index(size_t n, double p)
{
	return (size_t)percentile_rank(p, n) - 1;
}

/* Hoare-style quickselect with a median-of-three pivot: a[k] ends up where
   a sort would put it, everything before it <= and after it >=. */
static double select_kth(double *a, size_t n, size_t k)
{
	ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;
	while (lo < hi) {
		ptrdiff_t mid = lo + (hi - lo) / 2;
		double x = a[lo], y = a[mid], z = a[hi];
		double pivot = x < y ? (y < z ? y : (x < z ? z : x))
				     : (x < z ? x : (y < z ? z : y));
		ptrdiff_t i = lo, j = hi;
		while (i <= j) {
			while (a[i] < pivot)
				i++;
			while (a[j] > pivot)
				j--;
			if (i <= j) {
				double tmp = a[i];
				a[i] = a[j];
				a[j] = tmp;
				i++;
				j--;
			}
		}
		if (kk <= j)
			hi = j;
		else if (kk >= i)
			lo = i;
		else
			break;
	}
	return a[kk];
}

double stat_percentile(const double *v, size_t n, double p, double *scratch)
{
	if (n == 0)
		return NAN;
	memcpy(scratch, v, n * sizeof *v);
	return select_kth(scratch, n, rank_index(n, p));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

void stat_percentiles(const double *v, size_t n, const double *ps, size_t np,
		      double *out, double *scratch)
{
	if (n == 0) {
		for (size_t i = 0; i < np; i++)
			out[i] = NAN;
		return;
	}
	memcpy(scratch, v, n * sizeof *v);
	qsort(scratch, n, sizeof *scratch, cmp_double);
	for (size_t i = 0; i < np; i++)
		out[i] = scratch[rank_index(n, ps[i])];
}

double stat_mean(const double *v, size_t n)
{
	if (n == 0)
		return NAN;
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += v[i];
	return s / (double)n;
}

double stat_stddev(const double *v, size_t n)
{
	if (n < 2)
		return 0;
	double m = stat_mean(v, n), s = 0;
	for (size_t i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	return sqrt(s / (double)(n - 1));
}

double stat_min(const double *v, size_t n)
{
	double m = n ? v[0] : NAN;
	for (size_t i = 1; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

double stat_max(const double *v, size_t n)
{
	double m = n ? v[0] : NAN;
	for (size_t i = 1; i < n; i++)
		if (v[i] > m)
			m = v[i];
	return m;
}

/* Centred sums: stable when x is large (idle seconds, bytes). */
struct lsq_fit stat_lsq(const double *x, const double *y, size_t n)
{
	struct lsq_fit f = { n ? stat_mean(y, n) : NAN, 0 };
	if (n < 2)
		return f;
	double mx = stat_mean(x, n), my = f.intercept, sxx = 0, sxy = 0;
	for (size_t i = 0; i < n; i++) {
		sxx += (x[i] - mx) * (x[i] - mx);
		sxy += (x[i] - mx) * (y[i] - my);
	}
	if (sxx > 0)
		f.slope = sxy / sxx;
	f.intercept = my - f.slope * mx;
	return f;
}
