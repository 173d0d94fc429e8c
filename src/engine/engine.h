/*
 * The engine: runs workloads on a target through a backend, measures every
 * completion into per-direction histograms, and hands out an interval sample
 * every `interval_ns` per workload.  It reads time only through the backend.
 *
 * Threads: one per job on backends with queues per thread (io_uring), one
 * for everything on single-queue backends.  The calling thread collects:
 * it merges job histograms, emits interval samples, calls the hooks and
 * shows progress, so hooks never run on an I/O thread.  On a single-queue
 * virtual clock (the simulator) there is no I/O thread: the calling thread
 * drives the one queue and collects each interval as it is handed over.
 */
#ifndef SSDBENCH_ENGINE_ENGINE_H
#define SSDBENCH_ENGINE_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "backend/backend.h"
#include "common/error.h"
#include "common/hist.h"
#include "common/sample.h"
#include "engine/workload.h"

struct engine_opts {
	const char *target;	/* path or "sim:PROFILE" */
	const struct backend_ops *backend;	/* NULL: backend_for(target) */
	uint64_t file_size;	/* file targets: create/extend to this size */
	const volatile int *interrupted;	/* set by the CLI on SIGINT */
	bool iopoll;		/* ask for polled completions */
	bool sqpoll;		/* ask for SQ polling */
	uint32_t batch;		/* completions per wait, 0 = 1 (as fio) */
	uint64_t interval_ns;	/* sample interval, default 100 ms */
	const char *iolog_path;	/* per-I/O log (CSV), NULL = none */
	const char *sim_options;
	struct sim_memo *sim_memo;	/* a simulated drive's memo of streams, kept by
					   the caller across reopens (sim.h); NULL: none */
	bool allow_write;	/* the caller checked safety for writes */
};

/* Totals of one workload: exact, merged over its jobs. */
struct workload_result {
	uint64_t bytes[DIR_COUNT];
	uint64_t ios[DIR_COUNT];
	struct lat_hist *hist[DIR_COUNT];	/* owned by the result */
	/*
	 * Open loop only (NULL in a closed loop, where both would equal
	 * hist): response latency, from each I/O's scheduled arrival to its
	 * completion, and lateness, from its arrival to its submission (the
	 * time it waited for a free slot, or for the driver to wake).  hist
	 * is then the service latency, submission to completion.
	 */
	struct lat_hist *response[DIR_COUNT];
	struct lat_hist *lateness[DIR_COUNT];
	uint64_t measured_ns;	/* after the ramp */
	uint64_t started_ns, finished_ns;	/* backend clock */
	bool stopped_by_hook;
	/*
	 * Times an I/O thread of this workload waited for the collector (its
	 * ring of intervals full: the store or a hook was behind) and their
	 * total wall time.  Nothing is submitted during such a wait, so a
	 * healthy run has zero; real time only (see docs/run.md).
	 */
	uint64_t driver_stalls, driver_stall_ns;
	/*
	 * Where the I/Os counted in ios[] come from (common/sample.h): the
	 * way they were produced and, on a simulated drive (`simulated`,
	 * the backend's virtual clock), how many of them were simulated one
	 * by one, their latencies their own; the rest were extrapolated.
	 * Nothing measured depends on these.
	 */
	enum io_way way;
	bool simulated;
	uint64_t ios_simulated;
};

struct engine_result {
	uint32_t nworkloads;
	struct workload_result *wl;
	char mode[64];		/* the I/O mode that actually ran */
	uint32_t batch;		/* completions waited for per reap */
	char backend[16];	/* "uring", "sim" */
	struct target_facts facts;
};

struct engine_hooks {
	void *ctx;
	/* Called once the target is open, before any I/O. */
	int (*on_start)(void *ctx, const struct target_facts *facts,
			const char *mode, struct sb_err *e);
	/*
	 * One interval of one workload.  Return 1 to stop that workload (an
	 * online steady-state detector), 0 to go on, -1 with e set to abort
	 * the whole run.
	 */
	int (*on_interval)(void *ctx, const struct interval_sample *s,
			   struct sb_err *e);
	/*
	 * Totals so far, about once a second (of the device's time; on a
	 * virtual clock of wall time), so a store can keep them current and a
	 * crash loses at most the last second.
	 */
	int (*on_checkpoint)(void *ctx, uint32_t workload,
			     const struct workload_result *so_far,
			     struct sb_err *e);
	/* Progress for a live line: fraction done 0..1 (or <0: unknown). */
	void (*on_progress)(void *ctx, double fraction, double eta_s,
			    const struct workload_result *so_far);
};

/*
 * A session on one open target.  The target stays open between runs so a
 * procedure (fill, rest, fill again) sees one device, and on the simulator
 * one continuous drive state and clock.
 */
struct engine;

int engine_open(const struct engine_opts *o, struct engine **out,
		struct sb_err *e);
void engine_close(struct engine *eng);
const struct target_facts *engine_facts(const struct engine *eng);
uint64_t engine_now(struct engine *eng);		/* backend clock, ns */
void engine_idle(struct engine *eng, uint64_t dt_ns);	/* rest / idle */
int engine_discard(struct engine *eng, uint64_t off, uint64_t len,
		   struct sb_err *e);

/*
 * Run `n` workloads at the same time until each stops.  On an I/O error
 * the run stops, every sample and checkpoint up to then has been handed to
 * the hooks, and -1 is returned with the cause in e; res still holds the
 * totals measured so far.
 */
int engine_run(struct engine *eng, const struct workload *w, uint32_t n,
	       const struct engine_hooks *hooks, struct engine_result *res,
	       struct sb_err *e);

void engine_result_free(struct engine_result *res);

#endif
