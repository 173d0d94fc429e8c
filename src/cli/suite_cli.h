/*
 * What `plan`, `suite` and `resume` share on the command line: the options
 * that build a plan, and printing one.
 */
#ifndef SSDBENCH_CLI_SUITE_CLI_H
#define SSDBENCH_CLI_SUITE_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "suite/plan.h"

#define SUITE_CLI_MAX_SETS 64
#define SUITE_CLI_MAX_TARGETS 6	/* as run: a bit of the exit code each */

struct suite_cli {
	const char *target;	/* targets[0] */
	const char *targets[SUITE_CLI_MAX_TARGETS];	/* suite: all at once */
	int ntargets;
	bool no_pin;		/* several targets: threads not pinned */
	const char *preset;
	const char *plan_file;
	const char *only;
	const char *db;
	const char *sets[SUITE_CLI_MAX_SETS];
	int nsets;
	uint64_t file_size;	/* --size: file targets */
	uint64_t assumed_rate;	/* --assume-rate: estimates */
	bool destroy_data;
	bool settings;		/* plan --settings: print the canonical text */
};

/*
 * Parse the options of `cmd` (argv[0] is the command's name).  Returns 0,
 * or the exit code after printing the error or the help.
 */
int suite_cli_parse(const char *cmd, int argc, char **argv,
		    struct suite_cli *o);

/* Preset, plan file, --set, --only, then check against the target. */
int suite_cli_build(const struct suite_cli *o, struct plan *p,
		    struct plan_target *t, struct sb_err *e);

/* The plan as a table: each step, its settings, time and writes, after
   how the estimates were made (`assumed_by_user`: --assume-rate). */
void suite_cli_print_plan(FILE *out, const struct plan *p,
			  const struct plan_target *t, const char *target,
			  bool assumed_by_user);

/* "2d 03h", "1h 05m", "12m 30s", "45s". */
const char *fmt_duration_s(double s, char *buf, unsigned len);

#endif
