/*
 * The table of step kinds (kinds.c) and the few helpers of their
 * parameters that both the planner and the runner need.
 */
#ifndef SSDBENCH_SUITE_KINDS_H
#define SSDBENCH_SUITE_KINDS_H

#include "suite/plan.h"

extern const struct step_kind step_kinds[];	/* ended by name NULL */
const struct step_kind *step_kind_find(const char *name);
/* May the step ask for device readings while it measures (monitor=)? */
bool step_kind_may_monitor(const struct step_kind *k);

/* The spans active_range reads, ascending, the last the whole target. */
uint32_t active_range_spans(const struct plan_step *st, uint64_t size,
			    uint64_t align, uint64_t *spans, uint32_t max);

struct workload_profile;
/* The named workloads a profiles step runs, in order; how many. */
uint32_t step_profiles_list(const struct plan_step *st,
			    const struct workload_profile **out, uint32_t max);

#endif
