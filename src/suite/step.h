/*
 * What a step's code sees while it runs: the open target, the store, its
 * step row, and helpers that run workloads with everything recorded.
 * Each kind of step is one function in its own step_KIND.c.
 */
#ifndef SSDBENCH_SUITE_STEP_H
#define SSDBENCH_SUITE_STEP_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"
#include "store/store.h"
#include "suite/plan.h"
#include "suite/device_io.h"
#include "suite/runner.h"

struct step_ctx {
	struct engine *eng;		/* may be reopened by a file purge */
	const struct engine_opts *eopts;	/* how it was opened */
	struct store *store;
	const struct suite_opts *opts;
	const struct plan *plan;
	const struct plan_step *step;
	int64_t run_id, step_id;
	uint64_t size;			/* target bytes */
	uint32_t lb;			/* logical block */
	bool is_file, is_sim;
	uint64_t interval_ns;
	uint64_t seed;			/* 0: the engine picks */
	uint32_t next_index;		/* next workload index in the step */
	bool stopped;			/* interrupted: stop the step now */
	struct suite_monitor *mon;	/* device readings, or NULL */
	double last_reading;		/* wall clock of the last readings */

	/* Progress: a step says how many engine runs it expects (units). */
	uint32_t step_no, nsteps;
	double units_total, units_done;
	char doing[64];			/* a workload name fits */
	double step_t0;			/* target's clock at the step's start, s */
	double clock_base_s;		/* clock of engines closed by purges, s */
	double rest_of_plan_s;		/* estimate of the steps after */
	double rate_bps, rate_iops;	/* newest interval of the running workloads */
	uint64_t step_written;		/* bytes written by the step so far */
};

/* Extra per-interval logic of a step (steady state); may be NULL. */
typedef int (*step_interval_fn)(void *ctx, const struct interval_sample *s,
				struct sb_err *e);

/*
 * Run n workloads at once, recording each as a workload of the step with
 * its samples, checkpoints and final totals.  `res` holds the totals after
 * (free with engine_result_free, also on failure).  When the user
 * interrupts, returns 0 with c->stopped set.
 */
int step_run(struct step_ctx *c, struct workload *w, uint32_t n,
	     step_interval_fn fn, void *fn_ctx, struct engine_result *res,
	     struct sb_err *e);

/* Same, for one workload whose totals are not needed. */
int step_run1(struct step_ctx *c, struct workload *w, struct sb_err *e);

/* A workload with the plan's seed and a formatted name. */
void step_workload(struct step_ctx *c, struct workload *w, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* CLOCK_MONOTONIC in seconds: when readings are due. */
double step_wall_s(void);
/* The target's clock in seconds (virtual on the simulator): progress and
   ETAs, so they are in the same time as the plan's estimates. */
double step_clock_s(const struct step_ctx *c);

/* Temperature and health readings into the store, now. */
void step_readings(struct step_ctx *c);

/* Idle the target (virtual time on the simulator); stops early on Ctrl-C. */
void step_idle(struct step_ctx *c, uint64_t ns);

/* Purge by `method` (or the file/sim equivalent), into LBA format `lbaf`
   (-1: keep); records how. */
int step_purge(struct step_ctx *c, const char *method, int lbaf,
	       struct sb_err *e);

/* A figure of the step, straight from the runner (boot verdicts ...). */
int step_metric(struct step_ctx *c, const char *key, double v,
		const char *unit, struct sb_err *e);

void step_note(struct step_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Bytes per second, or IOPS, of a finished workload. */
double result_bps(const struct workload_result *r);
double result_iops(const struct workload_result *r, int dir);

struct ss_params;
/* The steady-state detector's parameters from an ss_precond step. */
void ss_params_of_step(const struct plan_step *st, uint64_t size,
		       uint64_t interval_ns, struct ss_params *p);

/* The run functions, one per kind (step_KIND.c). */
int step_run_purge(struct step_ctx *c, struct sb_err *e);
int step_run_peak(struct step_ctx *c, struct sb_err *e);
int step_run_fill(struct step_ctx *c, struct sb_err *e);
int step_run_active_range(struct step_ctx *c, struct sb_err *e);
int step_run_cssd_precond(struct step_ctx *c, struct sb_err *e);
int step_run_sync_write(struct step_ctx *c, struct sb_err *e);
int step_run_rw_ratio(struct step_ctx *c, struct sb_err *e);
int step_run_reclaim(struct step_ctx *c, struct sb_err *e);
int step_run_ss_precond(struct step_ctx *c, struct sb_err *e);
int step_run_sweep(struct step_ctx *c, struct sb_err *e);
int step_run_boot(struct step_ctx *c, struct sb_err *e);
int step_run_load_sweep(struct step_ctx *c, struct sb_err *e);
int step_run_profiles(struct step_ctx *c, struct sb_err *e);

#endif
