#include "analysis/consistency.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void view_of(const double *v, size_t n, double *scratch,
		    struct consistency_view *o)
{
	memset(o, 0, sizeof *o);
	o->n = n;
	if (n == 0) {
		o->mean = o->p01 = o->score = o->cv = NAN;
		return;
	}
	o->mean = stat_mean(v, n);
	o->p01 = stat_percentile(v, n, 0.1, scratch);
	o->stddev = stat_stddev(v, n);
	o->score = o->mean > 0 ? o->p01 / o->mean * 100 : NAN;
	o->cv = o->mean > 0 ? o->stddev / o->mean : NAN;
}

int consistency_analyze(const struct trace_pt *t, size_t n,
			enum trace_metric m, unsigned group,
			struct consistency_result *out, struct sb_err *e)
{
	memset(out, 0, sizeof *out);
	if (trace_check(t, n, e))
		return -1;
	size_t first, end;
	trace_whole(t, n, &first, &end);
	t += first;
	n = end - first;
	if (group == 0) {
		/* slices per second from the median slice: 10 for 100 ms */
		double g = floor(1.0 / trace_median_slice_s(t, n) + 0.5);
		group = g < 1 ? 1 : (unsigned)g;
	}
	double *v = malloc(2 * n * sizeof *v);
	if (!v)
		return sb_errno(e, ENOMEM, "consistency: %zu samples", n);
	double *scratch = v + n;
	trace_rates(t, n, m, v);
	view_of(v, n, scratch, &out->fine);
	size_t nc = n / group;
	for (size_t k = 0; k < nc; k++) {
		uint64_t c = 0, ns = 0;
		for (size_t i = k * group; i < (k + 1) * group; i++) {
			c += trace_count(&t[i], m);
			ns += t[i].ns;
		}
		v[k] = (double)c * 1e9 / (double)ns;
	}
	view_of(v, nc, scratch, &out->coarse);
	out->group = group;
	free(v);
	return 0;
}
