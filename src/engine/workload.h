/*
 * A workload: what one stream of I/O does.  The engine runs one or more of
 * them at once on one target; it knows nothing about the methodology.
 */
#ifndef SSDBENCH_ENGINE_WORKLOAD_H
#define SSDBENCH_ENGINE_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "engine/arrivals.h"
#include "engine/bssplit.h"
#include "common/sample.h"
#include "engine/distribution.h"
#include "engine/replay_spec.h"

enum access_pattern { PATTERN_SEQ, PATTERN_RAND };

struct workload {
	char name[64];
	enum access_pattern pattern;
	uint32_t read_pct;	/* 0..100: share of non-trim I/Os that read */
	uint32_t trim_pct;	/* 0..100: share of all I/Os that trim;
				   100 = a trim-only stream */
	uint32_t bs;		/* bytes, 512 B .. 64 MiB, multiple of the
				   target's logical block */
	uint32_t qd;		/* 1..1024 per job */
	uint32_t jobs;		/* 1..: threads, each with its own queue */
	uint64_t span_offset;	/* bytes */
	uint64_t span_len;	/* bytes; 0 = to the end of the target */

	/* Stop at the first of these that is set and reached; with none set
	   the workload runs until a hook says stop. */
	uint64_t stop_bytes;	/* measured bytes over all jobs */
	uint64_t stop_time_ns;	/* measured time, after the ramp */
	uint64_t ramp_ns;	/* run first, not measured */

	bool sync;		/* O_SYNC writes */
	bool buffered;		/* page cache instead of O_DIRECT */
	uint64_t fsync_every;	/* bytes written per job between fsyncs, 0 = never */
	/*
	 * A rate makes the workload open loop (docs/run.md): its I/Os arrive
	 * on a schedule (rate_process) whatever the device does, the queue
	 * depth caps how many are outstanding, an arrival that finds the
	 * queue full waits, and each I/O's response latency runs from its
	 * arrival.  At most one of the two is set; 0 and 0: a closed loop.
	 */
	uint64_t rate;		/* bytes/s over all jobs, 0 = none */
	uint64_t rate_iops;	/* I/Os per second over all jobs, 0 = none */
	enum arrival_process rate_process;
	uint64_t seed;		/* offsets and data; 0 = derive from time */
	struct access_dist dist;	/* random offsets; zeroed = uniform */
	/* Block-size mix per direction (enum io_dir); n = 0: bs.  Random
	   workloads only; offsets are then aligned to the smallest size. */
	struct bs_split bssplit[3];
	/* The measurement needs no per-I/O tail below QD 16 (a sweep's
	   point, an rw_ratio run: not a tail measurement): a backend's bulk
	   path may take it at any depth, with its latency shape from a
	   calibration window. */
	bool bulk_any_depth;
	/* Its figures are its rate, percentiles to 99.9 % and the largest
	   latency, which windows of real I/Os recurring through the run give
	   as well as every I/O (a boot trial's readers; not a tail
	   measurement): reads of it beside side streams may be sampled by
	   the backend (the simulator's sampled streams, docs/simulator.md). */
	bool sampled_ok;
	/* A trace to replay (replay.path set): its I/Os instead of the
	   generated ones; pattern, shares, bs and the mixes do not apply. */
	struct replay_spec replay;
};

static inline bool workload_is_replay(const struct workload *w)
{
	return w->replay.path[0] != '\0';
}

/* Whether the workload's I/Os may go in direction d (its histograms). */
bool workload_dir_used(const struct workload *w, enum io_dir d);

/* The largest size an I/O of w may have (buffers), and the smallest (the
   offsets' alignment): bs without a mix. */
uint32_t workload_bs_max(const struct workload *w);
bool workload_has_bssplit(const struct workload *w);
uint32_t workload_bs_min(const struct workload *w);

/* A rate is set: arrivals on a schedule, response latency measured. */
bool workload_open_loop(const struct workload *w);

/* Defaults: sequential read, 4 KiB, QD1, 1 job, whole target, seed 0. */
void workload_defaults(struct workload *w);

/*
 * Check a workload against a target before any I/O: sizes, alignment to
 * the logical block, span inside the target, ranges of every field.
 * Resolves span_len 0 to the rest of the target.
 */
int workload_validate(struct workload *w, uint64_t target_size,
		      uint32_t logical_block, struct sb_err *e);

/* fio's name for the access: read, write, randread, randwrite, rw, randrw,
   trim, randtrim; "replay" for a trace. */
const char *workload_rw(const struct workload *w);

struct json_writer;
/*
 * The workload's members (name, description, pattern, rw, read_pct, bs,
 * qd, jobs, span, stops, ramp, sync, buffered, fsync_every, rate,
 * rate_iops, rate_process, seed,
 * random_distribution, bssplit)
 * into the current JSON object: the one form run output, the database and
 * the report all read.
 */
void workload_json_members(struct json_writer *j, const struct workload *w);
/* The same as one object in a heap string, for the database; NULL on ENOMEM. */
char *workload_json_string(const struct workload *w);

/* "randwrite 4KiB QD32x1 70% read" style one-line description. */
const char *workload_describe(const struct workload *w, char *buf, unsigned len);

#endif
