/*
 * A workload that replays a recorded trace instead of generating I/O: the
 * trace's file, how to read it, how to time it, and what a scan of the
 * whole trace found before any I/O (engine/replay.h reads and times it).
 */
#ifndef SSDBENCH_ENGINE_REPLAY_SPEC_H
#define SSDBENCH_ENGINE_REPLAY_SPEC_H

#include <stdint.h>

/* The trace formats: a fio iolog (version 2 or 3), blkparse's default
   text, or the binary events blkparse -d dumps; AUTO: told by the file. */
enum replay_format {
	REPLAY_FMT_AUTO, REPLAY_FMT_IOLOG, REPLAY_FMT_BLKPARSE, REPLAY_FMT_BLKTRACE,
};

/* RECORDED (the zero value, the default): each I/O at its recorded time
   from the first; SCALED: the times divided by `speed`; AFAP: as fast as
   the queue depth allows, in the trace's order. */
enum replay_timing { REPLAY_RECORDED, REPLAY_SCALED, REPLAY_AFAP };

struct replay_spec {
	char path[512];		/* "": the workload is not a replay */
	uint8_t format;		/* enum replay_format; the scan resolves AUTO */
	uint8_t timing;		/* enum replay_timing */
	double speed;		/* SCALED: 2 = twice as fast as recorded */

	/* What replay_scan found, reading the whole trace once. */
	uint64_t ios[3];	/* data I/Os by enum io_dir */
	uint64_t bytes;		/* their lengths, as recorded */
	uint32_t len_max;	/* the longest, as recorded */
	uint64_t duration_ns;	/* from the first I/O to the last, recorded */
	uint64_t skipped;	/* records that move no data: syncs, flushes */

	/* Set by workload_validate: the target's logical block, which
	   offsets and lengths are aligned to (docs/run.md). */
	uint32_t block;
};

#endif
