/*
 * A built-in simulated drive, scaled, for the simulator's unit tests; a
 * failure to open is a test failure (NULL returned).
 */
#ifndef SSDBENCH_TESTS_SIM_FIXTURE_H
#define SSDBENCH_TESTS_SIM_FIXTURE_H

#include "check.h"
#include "sim/sim.h"

static inline struct sim *open_scaled(const char *name, double scale, uint64_t seed)
{
	struct sim_profile p;
	struct sb_err e;
	struct sim *s = NULL;
	if (profile_lookup(name, &p, &e)) {
		CHECK_FAIL("%s", e.msg);
		return NULL;
	}
	profile_scale(&p, scale);
	if (sim_open(&p, seed, &s, &e))
		CHECK_FAIL("%s", e.msg);
	return s;
}

#endif
