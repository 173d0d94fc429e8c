/*
 * The input every trace analysis shares: a series of equally intended time
 * slices (100 ms in ssdbench, whatever log_avg_msec was in fio), each with
 * the bytes and I/Os completed in it and its real duration.  Counts stay
 * integers so that sums are exact: a true average is bytes / elapsed to the
 * last byte, and the steady-state rules keep their running sums exact.
 *
 * Also the small statistics the analyses share (percentiles by rank, mean,
 * standard deviation, least squares).  Pure functions, no I/O.
 */
#ifndef SSDBENCH_ANALYSIS_TRACE_H
#define SSDBENCH_ANALYSIS_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

struct trace_pt {
	uint64_t ns;		/* duration of the slice; > 0 */
	uint64_t bytes;		/* completed in the slice */
	uint64_t ios;
};

/* Which quantity a rate-based analysis looks at. */
enum trace_metric { TRACE_BW, TRACE_IOPS };

static inline const char *trace_metric_name(enum trace_metric m)
{
	return m == TRACE_BW ? "bw" : "iops";
}

/* The count of a slice for `m`: bytes or I/Os. */
static inline uint64_t trace_count(const struct trace_pt *p, enum trace_metric m)
{
	return m == TRACE_BW ? p->bytes : p->ios;
}

/* Bytes/s or IOPS of one slice (0 for a zero-length slice). */
static inline double trace_rate(const struct trace_pt *p, enum trace_metric m)
{
	return p->ns ? (double)trace_count(p, m) * 1e9 / (double)p->ns : 0.0;
}

/* Rates of every slice into out[n] (caller's buffer). */
void trace_rates(const struct trace_pt *t, size_t n, enum trace_metric m,
		 double *out);

/* Mean and median slice length in seconds (n > 0). */
double trace_mean_slice_s(const struct trace_pt *t, size_t n);
double trace_median_slice_s(const struct trace_pt *t, size_t n);

/*
 * The whole slices [*first, *end): a run's first and last slices are cut
 * by its start and end (the last of a 100 ms trace may be 7 us and hold one
 * I/O), and a rate from such a sliver is not a sample of the drive.  A
 * leading or trailing slice shorter than half the nominal length (the
 * median of the inner slices; the longest when n < 3) is left out.  Every
 * statistic of per-slice rates (consistency, standard deviations,
 * percentiles and extremes of samples, bursts, stage levels) takes its
 * samples from here; sums (bytes, true averages) still take every slice.
 */
void trace_whole(const struct trace_pt *t, size_t n, size_t *first, size_t *end);

/* trace_whole's test of a leading or trailing slice: shorter than half
   the nominal slice, so cut by the run's start or end.  (An online reader
   of interval slices, where only the first or last can be short, uses it
   with the configured interval.) */
bool trace_slice_partial(uint64_t ns, uint64_t nominal_ns);

/* Check that a trace is usable: n > 0 and no zero-length slice. */
int trace_check(const struct trace_pt *t, size_t n, struct sb_err *e);

/* --- shared statistics --------------------------------------------------- */

/*
 * The value at percentile p (0 < p <= 100) of v[n]: the sample of rank
 * ceil(p/100 * n) in ascending order (at least 1), i.e. the smallest sample
 * with at least p % of the samples at or below it -- the same rule as
 * common/hist.h.  `scratch` (n doubles) is reordered; v is left alone.
 * O(n) expected (quickselect).  Returns NAN when n == 0.
 */
double stat_percentile(const double *v, size_t n, double p, double *scratch);

/* Several percentiles in ascending order, one sort of scratch.  O(n log n). */
void stat_percentiles(const double *v, size_t n, const double *ps, size_t np,
		      double *out, double *scratch);

double stat_mean(const double *v, size_t n);
/* Sample standard deviation (n - 1 in the denominator); 0 when n < 2. */
double stat_stddev(const double *v, size_t n);
double stat_min(const double *v, size_t n);
double stat_max(const double *v, size_t n);

/* Least-squares line y = a + b x through n points; b = 0 when n < 2 or all
   x are equal. */
struct lsq_fit {
	double intercept, slope;
};
struct lsq_fit stat_lsq(const double *x, const double *y, size_t n);

#endif
