/*
 * Named workload mixes: what `ssdbench run --profile NAME` and the suite's
 * `profiles` step both run.  One table (profiles.c), each entry with where
 * its numbers come from; docs/run.md lists them with their sources.
 */
#ifndef SSDBENCH_ENGINE_PROFILES_H
#define SSDBENCH_ENGINE_PROFILES_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "engine/workload.h"

/* The names, as a plan parameter's choices; the table and this list are
   checked against each other by the unit tests. */
#define WORKLOAD_PROFILE_CHOICES "jesd219|oltp|vdi|cdn"

struct workload_profile {
	const char *name;
	const char *summary;		/* one line, for help texts */
	enum access_pattern pattern;
	uint32_t read_pct;
	uint32_t bs;			/* without a mix */
	const char *bssplit;		/* fio's bssplit text, or NULL */
	const char *dist;		/* fio's random_distribution, or NULL */
	uint32_t qd;
};

/* NULL when there is no profile of that name. */
const struct workload_profile *workload_profile_find(const char *name);
/* The names, comma-separated, for messages. */
const char *workload_profile_names(char *buf, size_t len);
/* The profile's i-th entry, NULL past the end. */
const struct workload_profile *workload_profile_at(size_t i);

/*
 * Set w's pattern, read share, block size(s), offsets' distribution and
 * queue depth from p; the rest of w (span, stops, seed) is left alone.
 */
int workload_profile_apply(const struct workload_profile *p,
			   struct workload *w, struct sb_err *e);

#endif
