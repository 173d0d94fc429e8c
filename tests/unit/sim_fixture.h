/*
 * A built-in simulated drive, scaled, for the simulator's unit tests; a
 * failure to open is a test failure (NULL returned).
 */
#ifndef SSDBENCH_TESTS_SIM_FIXTURE_H
#define SSDBENCH_TESTS_SIM_FIXTURE_H

#include "check.h"
#include "sim/sim.h"

/* A built-in drive's profile, scaled, for a test to change before it
   opens it (open_profile); false (a test failure) when there is none. */
static inline bool scaled_profile(const char *name, double scale, struct sim_profile *p)
{
	struct sb_err e;
	if (profile_lookup(name, p, &e)) {
		CHECK_FAIL("%s", e.msg);
		return false;
	}
	profile_scale(p, scale);
	return true;
}

static inline struct sim *open_profile(const struct sim_profile *p, uint64_t seed)
{
	struct sb_err e;
	struct sim *s = NULL;
	if (sim_open(p, seed, &s, &e))
		CHECK_FAIL("%s", e.msg);
	return s;
}

/* qd_cap: the interface's queue instead of the profile's (0: its own). */
static inline struct sim *open_scaled_cap(const char *name, double scale, uint64_t seed,
					  int qd_cap)
{
	struct sim_profile p;
	if (!scaled_profile(name, scale, &p))
		return NULL;
	if (qd_cap)
		p.qd_cap = qd_cap;
	return open_profile(&p, seed);
}

static inline struct sim *open_scaled(const char *name, double scale, uint64_t seed)
{
	return open_scaled_cap(name, scale, seed, 0);
}

/* Two drives alike (profile, scale and seed), for a stream and the same
   stream another way; false (neither left open) when one does not open. */
static inline bool open_pair(const char *name, double scale, uint64_t seed, struct sim **a,
			     struct sim **b)
{
	*a = open_scaled(name, scale, seed);
	*b = open_scaled(name, scale, seed);
	if (*a && *b)
		return true;
	sim_close(*a);
	sim_close(*b);
	return false;
}

/* A stream's slices, not kept. */
static inline int ignore_slice(void *ctx, const struct sim_slice *sl, struct sb_err *e)
{
	(void)ctx;
	(void)sl;
	(void)e;
	return 0;
}

#endif
