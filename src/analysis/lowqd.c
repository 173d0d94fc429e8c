#include "analysis/lowqd.h"

#include <math.h>
#include <string.h>

#include "analysis/trace.h"

const double lowqd_default_weights[LOWQD_DEFAULT_NQD] = { 0.80, 0.15, 0.05 };

void rep_rule_default(struct rep_rule *r)
{
	*r = (struct rep_rule){ 5, 10, 3, 0.05 };
}

int rep_init(struct rep_state *s, const struct rep_rule *r, struct sb_err *e)
{
	if (r->last_k < 2 || r->min_runs < r->last_k || r->min_runs > r->max_runs ||
	    r->max_runs > REP_MAX_RUNS || !(r->rse_limit > 0))
		return sb_errf(e, "repetition rule: need 2 <= last %u <= min %u <= "
			       "max %u <= %d runs and a positive limit",
			       r->last_k, r->min_runs, r->max_runs, REP_MAX_RUNS);
	memset(s, 0, sizeof *s);
	s->rule = *r;
	s->verdict = REP_AGAIN;
	return 0;
}

double rep_rse(const struct rep_state *s)
{
	unsigned k = s->rule.last_k;
	if (s->n < k)
		return NAN;
	const double *v = s->runs + s->n - k;
	double mean = stat_mean(v, k);
	return stat_stddev(v, k) / sqrt((double)k) / mean;
}

enum rep_verdict rep_add(struct rep_state *s, double value)
{
	if (s->verdict != REP_AGAIN)
		return s->verdict;
	s->runs[s->n++] = value;
	if (s->n < s->rule.min_runs)
		return REP_AGAIN;
	double rse = rep_rse(s);
	/* a NAN (mean 0) never counts as stable */
	if (rse < s->rule.rse_limit)
		s->verdict = REP_STABLE;
	else if (s->n >= s->rule.max_runs)
		s->verdict = REP_FLAGGED;
	return s->verdict;
}

double rep_value(const struct rep_state *s)
{
	if (s->n == 0)
		return NAN;
	double scratch[REP_MAX_RUNS];
	if (s->verdict == REP_STABLE)
		return stat_percentile(s->runs + s->n - s->rule.last_k,
				       s->rule.last_k, 50, scratch);
	return stat_percentile(s->runs, s->n, 50, scratch);
}

int lowqd_weighted(const double *values, size_t nratio, size_t nqd,
		   const double *weights, double *out, struct sb_err *e)
{
	if (!weights || nqd == 0)
		return sb_errf(e, "low-QD weights: none given");
	double sum = 0;
	for (size_t j = 0; j < nqd; j++) {
		if (!(weights[j] >= 0))
			return sb_errf(e, "low-QD weights: weight %zu is %g", j, weights[j]);
		sum += weights[j];
	}
	if (fabs(sum - 1) > 1e-9)
		return sb_errf(e, "low-QD weights sum to %g, not 1", sum);
	for (size_t i = 0; i < nratio; i++) {
		out[i] = 0;
		for (size_t j = 0; j < nqd; j++)
			out[i] += weights[j] * values[i * nqd + j];
	}
	return 0;
}

double lowqd_ranking(const unsigned *read_pct, const double *weighted,
		     size_t nratio)
{
	double sum = 0;
	size_t k = 0;
	for (size_t i = 0; i < nratio; i++) {
		if (read_pct[i] == 0 || read_pct[i] >= 100)
			continue;
		sum += weighted[i];
		k++;
	}
	return k ? sum / (double)k : NAN;
}
