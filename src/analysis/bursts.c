#include "analysis/bursts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void burst_params_default(struct burst_params *p)
{
	*p = (struct burst_params){
		.factor = 4,
		.level_window_s = 10,
		.merge_gap_s = 0.25,
	};
}

static void stat_of(const double *v, size_t n, double *scratch,
		    struct burst_stat *s)
{
	if (n == 0) {
		*s = (struct burst_stat){ NAN, NAN, NAN };
		return;
	}
	s->min = stat_min(v, n);
	s->max = stat_max(v, n);
	s->median = stat_percentile(v, n, 50, scratch);
}

/* The running level: the median of each block of `b` samples, given to
   every sample of the block. */
static void running_level(const double *r, size_t n, size_t b, double *level,
			  double *scratch)
{
	for (size_t a = 0; a < n; a += b) {
		size_t len = a + b <= n ? b : n - a;
		/* a short tail block borrows the previous block's level */
		double m = len * 2 >= b || a == 0
				   ? stat_percentile(r + a, len, 50, scratch)
				   : level[a - 1];
		for (size_t i = a; i < a + len; i++)
			level[i] = m;
	}
}

static void measure(const struct trace_pt *t, enum trace_metric m,
		   const double *r, const double *level, size_t a, size_t b,
		   double start_s, double *scratch, struct burst *o)
{
	double peak = 0, base = level[a];
	for (size_t i = a; i < b; i++)
		peak = r[i] > peak ? r[i] : peak;
	size_t k = 0;
	for (size_t i = a; i < b; i++)
		if (r[i] >= 0.5 * peak)
			scratch[k++] = r[i];
	double *tmp = scratch + k;
	double height = stat_percentile(scratch, k, 50, tmp);
	double excess = 0, bytes = 0;
	for (size_t i = a; i < b; i++) {
		excess += (double)trace_count(&t[i], m) - base * (double)t[i].ns / 1e9;
		bytes += (double)t[i].bytes;
	}
	*o = (struct burst){
		.first = a, .end = b, .start_s = start_s,
		.duration_s = height > base ? excess / (height - base) : 0,
		.height = height, .peak = peak, .base = base, .bytes = bytes,
	};
}

int burst_analyze(const struct trace_pt *t, size_t n, enum trace_metric m,
		  const struct burst_params *p, struct burst_result *out,
		  struct burst **list, struct sb_err *e)
{
	memset(out, 0, sizeof *out);
	if (list)
		*list = NULL;
	if (trace_check(t, n, e))
		return -1;
	if (!(p->factor > 1) || !(p->level_window_s > 0) || p->merge_gap_s < 0)
		return sb_errf(e, "bursts: factor must exceed 1 and the level window be positive");
	/* only whole slices are samples: a run's last sliver at QD8 would
	   look like a burst; the time of a left-out first slice still counts */
	size_t first, end;
	trace_whole(t, n, &first, &end);
	double t0 = first ? (double)t[0].ns / 1e9 : 0;
	t += first;
	n = end - first;
	double dt = trace_mean_slice_s(t, n);
	size_t b = (size_t)(p->level_window_s / dt + 0.5);
	size_t gap = (size_t)(p->merge_gap_s / dt + 0.5);
	b = b < 3 ? 3 : b;
	double *mem = malloc(4 * n * sizeof *mem);
	struct burst *bl = malloc((n / 2 + 1) * sizeof *bl);
	if (!mem || !bl) {
		free(mem);
		free(bl);
		return sb_errno(e, ENOMEM, "bursts: %zu samples", n);
	}
	double *r = mem, *level = r + n, *scratch = level + n, *vals = scratch + n;
	trace_rates(t, n, m, r);
	running_level(r, n, b, level, scratch);

	size_t nb = 0;
	double now = t0, start_s = 0;
	for (size_t i = 0; i < n;) {
		if (!(r[i] > p->factor * level[i])) {
			now += (double)t[i].ns / 1e9;
			i++;
			continue;
		}
		size_t a = i, last = i;
		start_s = now;
		for (size_t j = i; j < n && j <= last + gap + 1; j++)
			if (r[j] > p->factor * level[a])
				last = j;
		for (size_t j = a; j <= last; j++)
			now += (double)t[j].ns / 1e9;
		measure(t, m, r, level, a, last + 1, start_s, scratch, &bl[nb++]);
		i = last + 1;
	}

	out->count = nb;
	out->base = stat_percentile(level, n, 50, scratch);
	size_t k = 0;
	for (size_t i = 1; i < nb; i++)
		vals[k++] = bl[i].start_s - bl[i - 1].start_s;
	stat_of(vals, k, scratch, &out->period_s);
	for (k = 0; k < nb; k++)
		vals[k] = bl[k].duration_s;
	stat_of(vals, nb, scratch, &out->duration_s);
	for (k = 0; k < nb; k++)
		vals[k] = bl[k].height;
	stat_of(vals, nb, scratch, &out->height);
	for (k = 0; k < nb; k++)
		vals[k] = bl[k].bytes;
	stat_of(vals, nb, scratch, &out->bytes);
	free(mem);
	for (k = 0; k < nb; k++) {	/* indices of the caller's trace */
		bl[k].first += first;
		bl[k].end += first;
	}
	if (list && nb)
		*list = bl;
	else
		free(bl);
	return 0;
}

int level_at_drive_writes(const struct trace_pt *t, size_t n,
			  enum trace_metric m, uint64_t capacity,
			  const double *dw, size_t ndw, double window_s,
			  double *out, struct sb_err *e)
{
	if (trace_check(t, n, e))
		return -1;
	if (capacity == 0 || !(window_s > 0))
		return sb_errf(e, "level at drive-writes: capacity and window must be positive");
	for (size_t k = 0; k < ndw; k++) {
		double target = dw[k] * (double)capacity, bytes = 0, when = NAN;
		double now = 0;
		for (size_t i = 0; i < n; i++) {
			double s = (double)t[i].ns / 1e9;
			if (bytes + (double)t[i].bytes >= target) {
				double f = t[i].bytes ? (target - bytes) / (double)t[i].bytes : 0;
				when = now + f * s;
				break;
			}
			bytes += (double)t[i].bytes;
			now += s;
		}
		out[k] = NAN;
		if (isnan(when))
			continue;
		double count = 0, secs = 0;
		now = 0;
		for (size_t i = 0; i < n; i++) {
			double s = (double)t[i].ns / 1e9, mid = now + s / 2;
			if (fabs(mid - when) <= window_s / 2) {
				count += (double)trace_count(&t[i], m);
				secs += s;
			}
			now += s;
		}
		if (secs > 0)
			out[k] = count / secs;
	}
	return 0;
}

double level_over_periods(const struct trace_pt *t, size_t n, enum trace_metric m,
			  size_t end, double period_s, double window_s)
{
	if (!(period_s > 0) || end >= n)
		return NAN;
	double k = floor(window_s / period_s);
	double span = (k < 1 ? 1 : k) * period_s, t_end = 0;
	for (size_t i = 0; i <= end; i++)
		t_end += (double)t[i].ns / 1e9;
	if (t_end < span)
		return NAN;
	double start = t_end - span, now = t_end, count = 0, secs = 0;
	for (size_t i = end + 1; i-- > 0;) {
		double s = (double)t[i].ns / 1e9;
		if (now - s / 2 < start)
			break;
		count += (double)trace_count(&t[i], m);
		secs += s;
		now -= s;
	}
	return secs > 0 ? count / secs : NAN;
}
