/*
 * The engine's moving parts, private to src/engine/.
 *
 *   driver  (driver.c)    a thread that owns one backend queue and a set of
 *                         jobs: fills submissions, reaps, records latencies
 *                         into the job's current interval;
 *   job     (job.c)       one stream of a workload: offsets, operation
 *                         mix, data stamping, stop conditions, arrivals
 *                         (open loop, arrivals.h), interval publishing;
 *   collector (collector.c) the calling thread: merges the jobs' published
 *                         intervals into samples and totals, calls hooks.
 *
 * An interval travels from job to collector through a small ring per job
 * (IVL_RING buffers).  The job fills buf[head % IVL_RING] without a lock;
 * publishing advances head under the run's mutex, and the collector owns
 * [tail, head) until it advances tail.  Publishing happens once per
 * interval, so the mutex is off the per-I/O path; the job only waits when
 * the ring is full (the collector is behind).  On the simulator (one
 * queue, a virtual clock) the driver runs on the calling thread and calls
 * the collector at every hand-over instead (run.inline_collector).
 */
#ifndef SSDBENCH_ENGINE_INTERNAL_H
#define SSDBENCH_ENGINE_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "backend/backend.h"
#include "common/hist.h"
#include "common/rng.h"
#include "common/sample.h"
#include "engine/arrivals.h"
#include "engine/engine.h"
#include "engine/iolog.h"
#include "engine/offsets.h"
#include "engine/replay.h"

/*
 * Intervals a job can run ahead of the collector: 1.6 s at 100 ms, so a
 * slow database commit on the collector never stalls real I/O.  Histogram
 * pages are only touched where latencies land, so unused depth costs
 * address space, not memory.
 */
#define IVL_RING 16

struct ivl_buf {
	uint64_t index;		/* interval number from the workload's start */
	bool last;		/* the job's final interval */
	uint64_t t_last;	/* last: backend time of its last completion */
	uint64_t bytes[DIR_COUNT];
	uint64_t ios[DIR_COUNT];
	struct lat_hist *hist[DIR_COUNT];	/* NULL for directions unused */
	/* Open loop only (else NULL): latency from each I/O's arrival to
	   its completion, and from its arrival to its submission. */
	struct lat_hist *resp[DIR_COUNT], *late[DIR_COUNT];
	/* The bulk path: of the interval's I/Os, those the backend
	   simulated one by one (workload_result.ios_simulated). */
	uint64_t sim_ios;
};

struct run;

/* Shared state of one workload during a run. */
struct wl_state {
	struct workload w;		/* validated copy */
	uint32_t index;
	struct run *run;
	uint64_t start;			/* backend time all its jobs start */
	uint64_t ramp_end;		/* start + ramp rounded up to an interval */
	uint64_t stop_at;		/* ramp_end + stop_time, or UINT64_MAX */
	_Atomic uint64_t claimed;	/* measured bytes submitted (stop_bytes) */
	atomic_bool stop;		/* hook, interrupt or error */
	/* Real time: waits of its drivers for room in a full interval ring
	   (the collector behind), and their total length. */
	_Atomic uint64_t stalls, stall_ns;
	struct job *jobs;
	uint32_t njobs;
	/* How its I/Os are produced: IO_WAY_ENGINE unless the bulk path
	   takes it (set by the driver before its first hand-over). */
	enum io_way way;

	/* Collector side only. */
	uint64_t next_index;
	bool finished;
	uint64_t t_last;		/* latest completion of any job */
	struct lat_hist *ivl_hist[DIR_COUNT];	/* scratch for one interval */
	struct workload_result *res;	/* totals, in the run's result */
	uint64_t last_ckpt_index;
	uint64_t last_ckpt_wall;	/* run_wall_coarse_ns() of the last checkpoint */
};

struct job {
	struct wl_state *wl;
	uint32_t index;			/* within the workload */
	uint32_t gindex;		/* within the run: user_data tag */
	struct offset_gen og;
	struct rng rng;			/* operation mix and buffer data */
	uint32_t qd;
	uint32_t buf_base;		/* first queue buffer of this job */
	struct backend_queue *q;	/* set by the driver */

	/* Per slot: what is in flight. */
	uint64_t *t_sub;
	uint64_t *t_arr;		/* open loop: its scheduled arrival */
	uint64_t *off;
	uint32_t *len;			/* bytes of the I/O in each slot */
	uint8_t *op;
	uint32_t *done_len;		/* bytes done of a short read/write */
	uint16_t *retries;		/* -EAGAIN completions in a row */
	/* The next I/O, drawn but not yet due (open loop) or not yet
	   issued: next_len 0 when none. */
	uint8_t next_op;
	uint32_t next_len;
	uint32_t *free_slot;
	uint32_t nfree;
	uint32_t inflight;		/* slots taken: queued, in flight or to redo */
	uint32_t *redo;			/* slots to issue again: -EAGAIN or the
					   rest of a short I/O */
	uint32_t nredo;

	uint64_t quota, claimed;		/* sequential: own share of stop_bytes */
	uint64_t stamp_base, stamp_count;	/* unique data per block */
	uint64_t written_since_fsync;
	bool fsync_inflight;
	/* Open loop: this job's share of the workload's rate, in I/Os or
	   bytes per second (rate_bytes), and its schedule. */
	bool open_loop, rate_bytes;
	uint64_t rate;
	struct arrivals arr;
	uint64_t blocked_until;		/* open loop: the next arrival, when
					   it is still ahead */

	/* Intervals. */
	struct ivl_buf ring[IVL_RING];
	uint64_t head, tail;		/* head, tail: under run->mu */
	uint64_t cur_index;
	uint64_t next_boundary;		/* backend time the interval ends */
	uint64_t t_last;
	bool stopping, done;
	bool collected_last;		/* collector: saw the final interval */

	struct iolog *log;
	struct replay_src *replay;	/* a replay: its trace, else NULL */
};

/* One run: everything the drivers and the collector share. */
struct run {
	const struct backend_ops *ops;
	struct backend_target *target;
	const struct engine_opts *opts;
	uint64_t interval;
	uint32_t batch;			/* completions per wait, resolved */
	uint64_t stamp_salt;		/* per run: written data differs */
	struct wl_state *wls;
	uint32_t nwl;
	struct job **jobs;		/* all jobs, by gindex */
	uint32_t njobs;
	uint64_t t0;			/* backend time every workload starts */

	const struct engine_hooks *hooks;
	const struct target_facts *facts;
	/* The collector runs on the driver's thread at each hand-over
	   (engine.c collect_inline): one driver, a virtual clock. */
	bool inline_collector;

	pthread_mutex_t mu;
	pthread_cond_t cv;		/* publish, consume, ready, go */
	uint32_t ready, failed_setup;
	bool go;
	atomic_bool abort;		/* an error: stop everything */
	struct sb_err err;		/* first error, under mu */
	bool have_err;
	char mode[64];
};

/* job.c */
int job_init(struct job *j, struct wl_state *wl, uint32_t index, uint32_t gindex,
	     uint32_t buf_base, struct sb_err *e);
void job_free(struct job *j);
void job_start(struct job *j, uint64_t t0);
/* Fill up to j->nfree requests at backend time `now`; returns how many. */
uint32_t job_prepare(struct job *j, uint64_t now, struct io_req *out);
void job_complete(struct job *j, const struct io_cpl *c);
/* Publish the job's final interval (non-blocking) and mark it done. */
void job_finish(struct job *j);
void job_fill_buffers(struct job *j);

/* driver.c */
void *driver_main(void *arg);
struct driver {
	struct run *run;
	struct job **jobs;
	uint32_t njobs;
	uint64_t boundary;	/* at most the jobs' earliest next_boundary */
	pthread_t thread;
	bool started;
};

/* engine_fluid.c: hand a uniform stream to the backend's run_fluid.
   fluid_drive returns false when the backend declined (run I/O by I/O). */
enum fluid_way {
	FLUID_NO,	/* I/O by I/O through the engine */
	FLUID_BULK,	/* the backend's bulk stream */
	FLUID_EXACT,	/* the backend's own loop, every I/O simulated */
};
enum fluid_way fluid_eligible(const struct driver *d);
bool fluid_drive(struct driver *d, struct backend_queue *q, enum fluid_way way);

/* collector.c */
int collector_loop(struct run *r, const struct engine_hooks *h);
/*
 * Under r->mu: emit every interval whose jobs have all handed it over
 * (the lock is dropped around each emit).  Returns whether any was;
 * *all_done (may be NULL) whether every workload has finished.
 */
bool collect_ready(struct run *r, const struct engine_hooks *h, bool *all_done);

/* engine.c: CLOCK_MONOTONIC in ns (real time, whatever the backend's). */
uint64_t run_wall_ns(void);
/* The same to the kernel's tick (a few ms), without reading the clock
   source: for the checkpoints' second, asked at every interval. */
uint64_t run_wall_coarse_ns(void);
/* engine.c: record the run's first error and stop everything. */
void run_fail(struct run *r, const struct sb_err *e);
/*
 * Every queue exists (ok: and was made): the start hook, the workloads'
 * clock, then go for the drivers, or an abort.  Returns whether they go.
 */
bool run_go(struct run *r, bool ok);
/* Hand the job's current interval to the collector (may wait). */
void run_publish(struct run *r, struct job *j);
/*
 * The same for every live job of jobs[0, n) whose interval ends at
 * `boundary`, with one lock and one wake-up of the collector for all of
 * them rather than one per job.
 */
void run_publish_at(struct run *r, struct job **jobs, uint32_t n, uint64_t boundary);

#endif
