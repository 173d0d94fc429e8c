/*
 * Steady state (METHODOLOGY §4.1), by one of three rules, over a sliding
 * window of w = window_s / interval_s detector samples (rounded):
 *
 *  SS_FIO_SLOPE      fio's ss=bw_slope / iops_slope: the least-squares
 *                    slope of the window (per sample, x = 0 .. w-1) as a
 *                    percentage of the window mean; steady when
 *                    |slope %| < limit (strict, as fio).  fio divides by
 *                    the mean truncated to an integer (sum_y / dur in
 *                    integer arithmetic); here the mean is exact, and
 *                    ss_window carries fio's figure too.
 *  SS_FIO_DEVIATION  fio's ss=bw / iops: max |y - mean| over the window as
 *                    a percentage of the window mean < limit (strict).
 *  SS_SNIA           SNIA PTS: data excursion (max - min of the window)
 *                    <= 20 % of the window mean, and fit excursion
 *                    (|slope| x (w - 1), the rise of the fit line across
 *                    the window) <= 10 %.
 *
 * Sample spacing.  fio judges one sample per ss_interval (1 s by default):
 * the bytes or I/Os of that second.  The trace fed in has its own spacing
 * (sample_s: 100 ms in the suite, log_avg_msec for a fio log); the detector
 * adds k = interval_s / sample_s consecutive trace samples into one of its
 * samples, so "10 % slope" means what it means in fio.  The trace itself
 * stays at its own resolution for charts and bursts.
 *
 * The counts (bytes or I/Os per sample) are integers and the running sums
 * are kept in exact 128-bit integers over a ring buffer, so the O(1) online
 * detector and a from-scratch computation on a stored trace see identical
 * sums and give identical verdicts.  The window max/min use monotonic
 * queues: amortised O(1) per sample.
 *
 * The runner feeds ss_push() one trace sample at a time and stops at the
 * first steady window; ss_analyze() is the same detector run over a stored
 * trace.
 */
#ifndef SSDBENCH_ANALYSIS_STEADY_H
#define SSDBENCH_ANALYSIS_STEADY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/trace.h"
#include "common/error.h"

enum ss_rule { SS_FIO_SLOPE, SS_SNIA, SS_FIO_DEVIATION };

/* "fio-slope", "snia" or "fio-deviation": the name a result carries. */
const char *ss_rule_name(enum ss_rule r);

/*
 * Parse a rule name.  fio's own names pick the metric too: "bw_slope" and
 * "iops_slope" (slope rule), "bw" and "iops" (mean-deviation rule); then
 * *metric is TRACE_BW or TRACE_IOPS, else -1 (ssdbench's names:
 * "fio-slope" or "slope", "fio-deviation" or "deviation", "snia").
 */
int ss_rule_parse(const char *s, enum ss_rule *out, int *metric,
		  struct sb_err *e);

struct ss_params {
	enum ss_rule rule;		/* SS_FIO_SLOPE */
	enum trace_metric metric;	/* TRACE_BW (SEQ) or TRACE_IOPS (RND) */
	double sample_s;		/* spacing of the trace fed in: 0.1 */
	double interval_s;		/* the detector's (fio's ss_interval): 1 */
	double window_s;		/* 30 */
	double slope_limit_pct;		/* fio slope / deviation limit: 10;
					   SNIA fit excursion: 10 */
	double excursion_limit_pct;	/* SNIA data excursion: 20 */
	uint64_t capacity_bytes;	/* for drive-writes; 0 = unknown */
	uint64_t min_bytes;		/* no verdict before this much is
					   written (2 x capacity); 0 = none */
};

void ss_params_default(struct ss_params *p);

/* Trace samples per detector sample: interval_s / sample_s, rounded, at
   least 1. */
size_t ss_samples_per_interval(const struct ss_params *p);

/* The limit the rule is judged by, in % of the mean. */
double ss_limit_pct(const struct ss_params *p);

/* What the window ending at the latest sample looks like. */
struct ss_window {
	bool full;			/* w samples seen */
	double mean;			/* mean count per sample */
	double slope_pct;		/* fit slope per sample, % of mean */
	double slope_pct_fio;		/* the same over fio's mean, truncated
					   to an integer (fio's criterion) */
	double fit_excursion_pct;	/* |slope| (w - 1), % of mean */
	double data_excursion_pct;	/* (max - min), % of mean */
	double max_deviation_pct;	/* max |y - mean|, % of mean */
	double criterion_pct;		/* what the rule compares to its limit */
	bool ok;			/* the rule holds (and min_bytes met) */
};

struct ss_result {
	const char *rule;		/* ss_rule_name() */
	const char *metric;		/* "bw" or "iops" */
	size_t window;			/* detector samples per window */
	size_t per_interval;		/* trace samples per detector sample */
	double interval_s;		/* the detector's sample spacing */
	double window_s;
	double limit_pct;		/* ss_limit_pct() */
	bool reached;
	size_t index;			/* last trace sample of the first
					   steady window */
	double seconds;			/* elapsed to the end of that sample */
	double bytes;			/* written by then */
	double drive_writes;		/* bytes / capacity; NAN if unknown */
	double value;			/* steady value: the window's rate,
					   B/s or IOPS (count / its time) */
	struct ss_window at;		/* the steady window, or the last one */
};

struct ss_detector;

int ss_new(const struct ss_params *p, struct ss_detector **out,
	   struct sb_err *e);
void ss_free(struct ss_detector *d);

/*
 * Feed the next trace sample.  Returns true when it completes a detector
 * sample and the window ending there holds the rule (the first such window
 * is remembered in the result); feeding may go on after it.  O(1)
 * amortised.
 */
bool ss_push(struct ss_detector *d, const struct trace_pt *pt);

/*
 * Account a slice that is not a whole interval (a run's cut-short first or
 * last slice, trace_slice_partial): its time and bytes count towards the
 * elapsed seconds, bytes and min_bytes, and it is a trace sample for the
 * result's index, but it never enters a detector sample -- a 7 us sliver
 * with one I/O is no ss_interval's count.
 */
void ss_pass(struct ss_detector *d, const struct trace_pt *pt);

/* The window ending at the latest detector sample. */
void ss_window(const struct ss_detector *d, struct ss_window *out);

/* The verdict so far. */
void ss_result(const struct ss_detector *d, struct ss_result *out);

/* The detector over a whole stored trace (stops at nothing); a leading or
   trailing partial slice (trace_whole) goes to ss_pass(). */
int ss_analyze(const struct trace_pt *t, size_t n, const struct ss_params *p,
	       struct ss_result *out, struct sb_err *e);

#endif
