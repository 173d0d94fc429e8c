/*
 * The runner: takes a checked plan through a target, step by step, and
 * records everything in the store as it goes -- the run, each step's
 * start, end, parameters, outcome and error, every workload's samples,
 * histograms and totals.  A run can be resumed from its first unfinished
 * step; a step that was cut short is kept, marked "partial", and run again.
 *
 * The runner prints nothing: it reports progress and notes through the
 * callbacks the CLI gives it.
 */
#ifndef SSDBENCH_SUITE_RUNNER_H
#define SSDBENCH_SUITE_RUNNER_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "store/store.h"

struct plan;
#include "suite/plan.h"

struct suite_progress {
	const char *step;		/* name of the current step */
	uint32_t step_no, nsteps;	/* 1-based, among enabled steps */
	const char *doing;		/* "pass 2", "qd=32 mix=70" ... */
	double step_fraction;		/* 0..1, < 0 unknown */
	double step_eta_s;		/* < 0 unknown */
	double plan_eta_s;		/* < 0 unknown */
};

struct suite_ui {
	void *ctx;
	void (*progress)(void *ctx, const struct suite_progress *p);
	/* A sentence worth telling the user ("purge: file target ..."). */
	void (*note)(void *ctx, const char *msg);
	/* The run exists in the store (before any I/O). */
	void (*started)(void *ctx, int64_t run_id);
};

struct suite_opts {
	const char *target;
	uint64_t file_size;		/* file targets: create/extend */
	bool destroy_data;
	const char *command_line;
	const volatile int *interrupted;	/* set on SIGINT */
	struct suite_ui ui;
	/*
	 * The figures of a step that is done, into the store (the CLI gives
	 * findings_store_step): findings reads the suite's plans and records,
	 * so the suite calls it only through this pointer.  NULL: none.
	 */
	int (*step_figures)(struct store *s, int64_t run_id,
			    const struct plan *p, uint64_t size,
			    const struct step_row *row, struct sb_err *e);
};

enum suite_outcome { SUITE_DONE, SUITE_INTERRUPTED, SUITE_FAILED };

/*
 * Start a new run of `p` (already checked with plan_check) and go through
 * it.  *run_id is set as soon as the run exists, so a caller can say how to
 * resume even after a failure.  Returns -1 only when nothing could be
 * recorded; otherwise 0 with the outcome (and the step's error in e when
 * it failed).
 */
int suite_start(struct store *s, const struct plan *p,
		const struct suite_opts *o, int64_t *run_id,
		enum suite_outcome *out, struct sb_err *e);

/*
 * Continue run `run_id` from its first unfinished step, with the plan and
 * options stored with it (o->target etc. are ignored; o->interrupted and
 * o->ui are used).
 */
int suite_resume(struct store *s, int64_t run_id, const struct suite_opts *o,
		 enum suite_outcome *out, struct sb_err *e);

/* The plan and options a suite run was started with. */
struct suite_record {
	char target[512];
	uint64_t file_size;
	bool destroy_data;
	char *plan_text;	/* canonical; free() it */
};
int suite_record_load(struct store *s, int64_t run_id, struct suite_record *r,
		      struct sb_err *e);

#endif
