/*
 * Performance by R/W ratio at low queue depth (METHODOLOGY §3.6).
 *
 * The repetition rule is a small state machine the runner feeds one run at
 * a time: at least `min_runs`; once there, when the relative standard
 * error of the last `last_k` runs, (s / sqrt(k)) / mean, is under
 * `rse_limit` the point is stable and reports the median of those k runs;
 * otherwise it runs again, up to `max_runs`, after which it reports the
 * median of all runs and is flagged.
 *
 * The weighted value per read share is sum_j weights[j] x value[qd j]
 * (default 0.80 QD1 + 0.15 QD2 + 0.05 QD4); the ranking figure is the mean
 * of the weighted values over the mixed ratios only (0 % and 100 % read
 * excluded).
 */
#ifndef SSDBENCH_ANALYSIS_LOWQD_H
#define SSDBENCH_ANALYSIS_LOWQD_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"

#define REP_MAX_RUNS 64

struct rep_rule {
	unsigned min_runs;	/* 5 */
	unsigned max_runs;	/* 10 */
	unsigned last_k;	/* 3 */
	double rse_limit;	/* 0.05 */
};

void rep_rule_default(struct rep_rule *r);

enum rep_verdict {
	REP_AGAIN,	/* run the point once more */
	REP_STABLE,	/* done: the last k agree */
	REP_FLAGGED,	/* done after max_runs without agreeing */
};

struct rep_state {
	struct rep_rule rule;
	unsigned n;
	enum rep_verdict verdict;
	double runs[REP_MAX_RUNS];
};

/* Fails when the rule is inconsistent (k < 2, min > max, max too large). */
int rep_init(struct rep_state *s, const struct rep_rule *r, struct sb_err *e);
/* Record one run; returns what to do next.  After a final verdict further
   runs are ignored and the verdict repeats. */
enum rep_verdict rep_add(struct rep_state *s, double value);
/* Relative standard error of the last k runs (NAN with fewer than k). */
double rep_rse(const struct rep_state *s);
/* The reported value: see the rule above (NAN before any run). */
double rep_value(const struct rep_state *s);
static inline bool rep_flagged(const struct rep_state *s)
{
	return s->verdict == REP_FLAGGED;
}

/* 0.80, 0.15, 0.05 for QD 1, 2, 4. */
#define LOWQD_DEFAULT_NQD 3
extern const double lowqd_default_weights[LOWQD_DEFAULT_NQD];

/*
 * values: nratio rows of nqd columns (row-major), one row per read share;
 * out[nratio] receives the weighted values.  Fails on a NULL or negative
 * weight, or weights that do not sum to 1 within 1e-9.
 */
int lowqd_weighted(const double *values, size_t nratio, size_t nqd,
		   const double *weights, double *out, struct sb_err *e);

/* Mean of weighted[i] over the rows whose read_pct is strictly between 0
   and 100; NAN when there is none. */
double lowqd_ranking(const unsigned *read_pct, const double *weighted,
		     size_t nratio);

#endif
