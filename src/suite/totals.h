/*
 * The engine's totals of a workload as the store keeps them: the one
 * conversion both writers of results use (a suite step and `run`).
 */
#ifndef SSDBENCH_SUITE_TOTALS_H
#define SSDBENCH_SUITE_TOTALS_H

#include <string.h>

#include "engine/engine.h"
#include "store/store.h"

static inline void store_totals_of(const struct workload_result *r,
				   struct store_totals *t)
{
	memset(t, 0, sizeof *t);
	memcpy(t->bytes, r->bytes, sizeof t->bytes);
	memcpy(t->ios, r->ios, sizeof t->ios);
	memcpy(t->response, r->response, sizeof t->response);
	memcpy(t->lateness, r->lateness, sizeof t->lateness);
	t->measured_ns = r->measured_ns;
	t->driver_stalls = r->driver_stalls;
	t->driver_stall_ns = r->driver_stall_ns;
	t->way = r->way;
	t->sim_known = r->simulated;
	t->ios_simulated = r->ios_simulated;
}

#endif
