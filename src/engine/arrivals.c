/*
 * Arrival schedules (arrivals.h).
 */
#include "engine/arrivals.h"

#include <math.h>
#include <string.h>

void arrivals_init(struct arrivals *a, enum arrival_process p, uint64_t rate,
		   uint64_t t0, uint64_t seed)
{
	memset(a, 0, sizeof *a);
	a->process = p;
	a->rate = rate ? rate : 1;
	a->t0 = t0;
	a->next_ns = t0;
	rng_seed(&a->rng, seed);
}

void arrivals_take(struct arrivals *a, uint64_t weight)
{
	a->count++;
	if (a->process == ARRIVAL_UNIFORM) {
		a->units += weight;
		/* ceil: an arrival is never earlier than its exact time */
		unsigned __int128 ns = (a->units * 1000000000u + a->rate - 1) / a->rate;
		a->next_ns = a->t0 + (uint64_t)ns;
		return;
	}
	/* Inverse transform: 1 - U is in (0, 1], so the log is finite. */
	double mean = (double)weight * 1e9 / (double)a->rate;
	a->rel_ns += -log1p(-rng_unit(&a->rng)) * mean;
	a->next_ns = a->t0 + (uint64_t)ceil(a->rel_ns);
}

const char *arrival_process_name(enum arrival_process p)
{
	return p == ARRIVAL_POISSON ? "poisson" : "uniform";
}

int arrival_process_parse(const char *s, enum arrival_process *out, struct sb_err *e)
{
	if (s && (!strcmp(s, "uniform") || !strcmp(s, "linear"))) {
		*out = ARRIVAL_UNIFORM;
		return 0;
	}
	if (s && !strcmp(s, "poisson")) {
		*out = ARRIVAL_POISSON;
		return 0;
	}
	return sb_errf(e, "rate-process: '%s' is not uniform or poisson", s ? s : "");
}
