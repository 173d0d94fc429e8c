/*
 * The backend interface: the only way the engine touches a target.
 *
 * Two implementations sit behind it: `uring` (files and block devices
 * through io_uring) and `sim` (the virtual-time SSD model).  The engine reads
 * time only through backend_now(), so on `sim` a six-hour preconditioning
 * runs in virtual time, unchanged.
 *
 * A target is opened once; I/O goes through queues created on it.  A
 * backend whose caps.single_queue is set (the simulator: one device, one
 * clock) gets exactly one queue, and the engine multiplexes every job of
 * every workload onto it from one thread.  Otherwise each job is a thread
 * with its own queue (its own io_uring).
 */
#ifndef SSDBENCH_BACKEND_BACKEND_H
#define SSDBENCH_BACKEND_BACKEND_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "common/sample.h"

enum io_op { IO_READ, IO_WRITE, IO_TRIM, IO_FSYNC };

struct io_req {
	uint64_t offset;	/* bytes from the start of the target */
	uint32_t len;		/* bytes; 0 for IO_FSYNC */
	uint8_t op;		/* enum io_op */
	uint32_t buf;		/* index of a queue buffer (reads/writes) */
	uint32_t buf_off;	/* bytes into it: the rest of a short I/O */
	uint64_t user_data;	/* returned in the completion */
};

struct io_cpl {
	uint64_t user_data;
	int32_t res;		/* bytes done, or -errno */
	uint64_t t_done_ns;	/* completion time on the backend clock; 0 if
				   the backend leaves stamping to the engine */
};

struct target_facts {
	uint64_t size;		/* bytes addressable */
	uint32_t logical_block;	/* smallest aligned I/O */
	uint32_t physical_block;
	bool is_block_device;
	bool is_file;
	bool is_sim;
	bool rotational;
	bool discard;		/* trims do something */
	/* Block device whose queue says it has no poll queues (queue/io_poll
	   0): kernels before ~6.6 accept polled I/O there and complete it by
	   interrupt, so a probe read cannot tell. */
	bool cannot_poll;
	char path[512];
	char kind[32];		/* "block", "file", "sim" */
};

struct open_opts {
	bool write;		/* open for writing (caller checked safety) */
	uint64_t create_size;	/* files: create/extend to this size, 0 = keep */
	const char *sim_options;	/* sim: "seed=..,scale=.." */
	struct sim_memo *sim_memo;	/* sim: streams kept across reopens (sim.h), or NULL */
};

struct queue_opts {
	uint32_t depth;		/* max in flight */
	uint32_t nbufs;		/* I/O buffers to allocate (and register) */
	uint32_t buf_size;	/* bytes each, aligned for O_DIRECT */
	bool iopoll;		/* ask for polled completions */
	bool sqpoll;		/* ask for kernel submission polling */
	uint32_t batch;		/* completions to wait for per reap, at least 1 */
	bool sync;		/* O_SYNC writes */
	bool buffered;		/* no O_DIRECT: page cache (boot workload) */
	bool paced;		/* I/Os go at scheduled times (an open loop):
				   the queue's thread wants precise timers */
};

struct backend_target;
struct backend_queue;
struct sim_memo;
struct lat_hist;

/*
 * The bulk path (optional op run_fluid): one uniform closed-loop stream,
 * advanced by the backend in slices instead of I/O by I/O.  A simulated
 * drive integrates its rates between regime changes, so a whole-drive fill
 * or hours of random preconditioning cost per slice, not per I/O.
 */
/* A rate-limited stream of single writes (with fsyncs) or trims beside a
   read stream: every I/O of it simulated. */
#define FLUID_MAX_SIDE 4
struct fluid_side {
	uint8_t op;		/* IO_WRITE or IO_TRIM */
	uint32_t bs;
	uint64_t span_off, span_len;
	uint64_t rate;		/* bytes/s */
	uint64_t fsync_every;	/* bytes written between fsyncs, 0 = none */
	uint64_t seed;
};

struct fluid_stream {
	uint8_t op;		/* IO_READ or IO_WRITE */
	bool random;		/* else sequential */
	uint32_t bs;		/* bytes per I/O */
	uint32_t qd;		/* I/Os kept in flight */
	uint64_t span_off, span_len;	/* bytes */
	uint64_t start_off;	/* sequential: the first offset, inside the span */
	uint64_t seed;		/* random offsets */
	uint32_t read_pct;	/* 1..99: a mix (op is then ignored) */
	bool exact;		/* every I/O simulated, none extrapolated
				   (a low-depth tail): the backend's own
				   I/O loop, without the engine's cost */
	bool sampled;		/* reads beside side streams, needing no
				   per-I/O tail (workload.sampled_ok): the
				   backend may simulate them in recurring
				   windows and repeat those between */
	struct fluid_side side[FLUID_MAX_SIDE];	/* beside reads only */
	uint32_t nside;
	uint64_t grid_ns;	/* slices end at grid_ns + k slice_ns: the
				   caller's intervals */
	uint64_t sample_from_ns;	/* sampled: not before this time */
};

struct fluid_slice {
	uint64_t t_start_ns, t_end_ns;	/* (start, end] on the backend clock */
	uint64_t bytes, ios;		/* completed in the slice (a mix: reads) */
	const struct lat_hist *lat;	/* their latencies */
	uint64_t next_off;		/* sequential: where the stream stands */
	uint64_t wbytes, wios;		/* a mix: its writes */
	const struct lat_hist *wlat;
	struct {
		uint64_t bytes, ios;
		const struct lat_hist *lat;
		uint64_t sim_ios;	/* of ios, simulated one by one */
	} side[FLUID_MAX_SIDE];		/* the side streams' */
	/* Provenance, no figure: of ios + wios, those simulated one by one
	   (the rest extrapolated), and the way the stream's I/Os are made
	   (IO_WAY_EXACT, _BULK or _SAMPLED; the same in every slice). */
	uint64_t sim_ios;
	enum io_way way;
};

/* Per slice: 0 go on, 1 stop the stream, -1 abort (e set). */
typedef int (*fluid_slice_fn)(void *ctx, const struct fluid_slice *s,
			      struct sb_err *e);

struct backend_caps {
	bool single_queue;	/* one queue per target; engine multiplexes */
	bool virtual_time;	/* now() is a model clock */
	bool stamps_completions;	/* io_cpl.t_done_ns is set */
};

struct backend_ops {
	const char *name;
	struct backend_caps caps;

	int (*open)(const char *spec, const struct open_opts *o,
		    struct backend_target **out, struct target_facts *facts,
		    struct sb_err *e);
	void (*close)(struct backend_target *t);

	int (*queue_create)(struct backend_target *t, const struct queue_opts *o,
			    struct backend_queue **out, struct sb_err *e);
	void (*queue_destroy)(struct backend_queue *q);
	/* Buffer `i` of the queue: nbufs buffers of buf_size bytes. */
	void *(*queue_buffer)(struct backend_queue *q, uint32_t i);
	/*
	 * The mode that actually runs, e.g. "interrupt", "iopoll",
	 * "sqpoll+iopoll", "virtual".  Valid after the first completed I/O:
	 * a backend that asked for polling and found the device cannot do it
	 * falls back and says so here.
	 */
	const char *(*queue_mode)(struct backend_queue *q);

	/*
	 * Queue up to n requests, in order.  Returns how many were queued
	 * (fewer than n when the backend cannot take more until some complete:
	 * the caller offers the rest again after a reap), or -1 with e set.
	 */
	int (*submit)(struct backend_queue *q, const struct io_req *reqs,
		      uint32_t n, struct sb_err *e);
	/*
	 * Wait until at least `min` completions are ready or the clock reaches
	 * `deadline_ns` (UINT64_MAX: no deadline), then return up to `max`.
	 * Returns the number returned (0 on deadline) or -1 with e set.
	 */
	int (*reap)(struct backend_queue *q, struct io_cpl *out, uint32_t min,
		    uint32_t max, uint64_t deadline_ns, struct sb_err *e);

	uint64_t (*now)(struct backend_target *t);	/* ns, monotonic */
	/* Nothing outstanding for dt: a sleep, or virtual idle time. */
	void (*idle)(struct backend_target *t, uint64_t dt_ns);
	/* Whole-range discard (purge fallback), and a cache flush. */
	int (*discard)(struct backend_target *t, uint64_t off, uint64_t len,
		       struct sb_err *e);
	int (*flush)(struct backend_target *t, struct sb_err *e);

	/*
	 * Optional, NULL when absent.  Run `st` from now() until max_bytes
	 * were done or max_ns passed (0: no limit of that kind; at least one
	 * set), calling fn for every slice_ns of backend time; slices end on
	 * now() + k * slice_ns, the last may be shorter.  Nothing may be in
	 * flight on the queue.  Returns 0, or -1 with e set; e->errnum ENOTSUP
	 * with no slice delivered means "not for this stream": the caller
	 * runs it I/O by I/O instead.
	 */
	int (*run_fluid)(struct backend_queue *q, const struct fluid_stream *st,
			 uint64_t max_bytes, uint64_t max_ns, uint64_t slice_ns,
			 fluid_slice_fn fn, void *ctx, struct sb_err *e);
};

/* Pick the backend for a target spec: "sim:PROFILE" or a path. */
const struct backend_ops *backend_for(const char *spec);

extern const struct backend_ops backend_uring;
extern const struct backend_ops backend_sim;

#endif
