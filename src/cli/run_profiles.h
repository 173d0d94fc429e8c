/*
 * Named workloads for `ssdbench run --profile NAME`: each is a list of the
 * run options it sets, applied where --profile appears (options after it
 * change them), with where its numbers come from.  docs/run.md lists them.
 */
#ifndef SSDBENCH_CLI_RUN_PROFILES_H
#define SSDBENCH_CLI_RUN_PROFILES_H

#include <stddef.h>

#define RUN_PROFILE_KEYS 6

struct run_profile {
	const char *name;
	const char *source;	/* where the numbers come from */
	struct { const char *key, *value; } set[RUN_PROFILE_KEYS];
};

/* NULL when there is no profile of that name. */
const struct run_profile *run_profile_find(const char *name);
/* The names, comma-separated, for messages. */
const char *run_profile_names(char *buf, size_t len);

#endif
