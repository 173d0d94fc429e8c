/*
 * Options of `ssdbench run`, from the command line and from job files.
 * Both go through one table of keys with fio's names where fio has one, so
 * "--iodepth=32" and "iodepth=32" in a job file mean the same.
 */
#ifndef SSDBENCH_CLI_RUN_OPTIONS_H
#define SSDBENCH_CLI_RUN_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "engine/workload.h"

#define RUN_MAX_WORKLOADS 16
/* Targets at once: the exit code has a bit for each (docs/run.md). */
#define RUN_MAX_TARGETS 6

/* A workload as typed: some fields need the target's size to resolve. */
struct run_wl_spec {
	struct workload w;
	char rw[16];		/* read, randwrite, ... */
	int rwmixread;		/* -1: not given */
	char bytes[32];		/* "1g" or "50%"; "" = not given */
	char span[64];		/* "offset:length" or "length"; "" = whole */
};

struct run_options {
	char target[512];	/* the one this run measures: targets[0] */
	char targets[RUN_MAX_TARGETS][512];	/* --target, each given */
	uint32_t ntargets;
	bool no_pin;		/* several targets: leave threads unpinned */
	/* Set by the several-targets runner (run_multi.c), not options: */
	bool check_only;	/* stop after the refusals, before any I/O */
	bool shared_db;		/* others write the database at once */
	void (*start_gate)(void *ctx);	/* before the workloads start */
	void *start_gate_ctx;
	uint64_t size;		/* files: create/extend to this */
	bool destroy_data, json, mib, iopoll, sqpoll, no_db, help;
	uint32_t batch;
	uint64_t interval_ns;
	char iolog[512];
	char db[512];
	char jobfile[512];
	struct run_wl_spec wl[RUN_MAX_WORKLOADS];
	uint32_t nwl;
};

/* Parse argv (after "run"); fills o->wl from the command line or --job. */
int run_options_parse(int argc, char **argv, struct run_options *o,
		      struct sb_err *e);

/* Turn each spec into a workload now the target's size is known. */
int run_options_resolve(struct run_options *o, uint64_t target_size,
			struct sb_err *e);

/* Whether any workload writes, trims or syncs. */
bool run_options_write(const struct run_options *o);
/* Whether any workload reads; like run_options_write, from the options as
   given (before run_options_resolve). */
bool run_options_read(const struct run_options *o);

void run_options_usage(void);

#endif
