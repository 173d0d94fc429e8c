/*
 * Turning a target spec ("sim:PROFILE[,key=value...]") and an option
 * string into a profile, a seed and a scale.
 */
#ifndef SSDBENCH_SIM_SPEC_H
#define SSDBENCH_SIM_SPEC_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "sim/profile.h"

struct sim_spec {
	struct sim_profile profile;	/* overridden, checked and scaled */
	uint64_t seed;			/* default 1 */
	double scale;			/* default 1 */
	bool fluid;			/* bulk streams allowed (default yes) */
	bool sampled;			/* sampled streams allowed (default yes):
					   sampled=0 simulates every I/O of
					   them, for checking them */
};

int sim_spec_parse(const char *spec, const char *options, struct sim_spec *sp,
		   struct sb_err *e);

#endif
