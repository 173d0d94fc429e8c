/*
 * What the engine measures and everything downstream (store, analysis,
 * report) reads: directions, and one interval sample per workload and time
 * slice.  Kept here, below every room, so the data flow stays one way.
 */
#ifndef SSDBENCH_COMMON_SAMPLE_H
#define SSDBENCH_COMMON_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum io_dir { DIR_READ, DIR_WRITE, DIR_TRIM, DIR_COUNT };

static inline const char *io_dir_name(enum io_dir d)
{
	return d == DIR_READ ? "read" : d == DIR_WRITE ? "write" : "trim";
}

/*
 * How a workload's I/Os were produced, and so what its figures are
 * (docs/database.md, "Where the I/Os come from"):
 *   ENGINE   every I/O through the engine: on a device each one measured,
 *            on a simulated drive each one simulated;
 *   EXACT    a simulated drive's own loop: every I/O simulated;
 *   BULK     a simulated drive's bulk stream: a calibration window of
 *            simulated I/Os (none for a write stream), the rest
 *            extrapolated from it or integrated as rates;
 *   SAMPLED  a simulated drive's reads simulated in recurring windows and
 *            repeated between them, its side streams' I/Os all simulated.
 * UNKNOWN: recorded before the store kept it (schema 6).
 */
enum io_way { IO_WAY_UNKNOWN, IO_WAY_ENGINE, IO_WAY_EXACT, IO_WAY_BULK, IO_WAY_SAMPLED };

static inline const char *io_way_name(enum io_way w)
{
	return w == IO_WAY_ENGINE ? "engine" : w == IO_WAY_EXACT ? "exact" :
	       w == IO_WAY_BULK ? "bulk" : w == IO_WAY_SAMPLED ? "sampled" : "unknown";
}

/* The way a name gives ("unknown", NULL and anything else: UNKNOWN). */
static inline enum io_way io_way_parse(const char *name)
{
	for (int w = IO_WAY_ENGINE; name && w <= IO_WAY_SAMPLED; w++)
		if (!strcmp(name, io_way_name((enum io_way)w)))
			return (enum io_way)w;
	return IO_WAY_UNKNOWN;
}

struct interval_dir {
	uint64_t bytes;
	uint64_t ios;
	uint64_t lat_p50_ns;	/* 0 when ios == 0 */
	uint64_t lat_p99_ns;
	uint64_t lat_max_ns;
	uint64_t lat_sum_ns;	/* mean = lat_sum_ns / ios */
};

struct interval_sample {
	uint32_t workload;	/* index of the workload within its run */
	uint64_t index;		/* 0, 1, 2 ... from the workload's start */
	uint64_t t_start_ns;	/* since the workload started (ramp included) */
	uint64_t t_end_ns;
	bool ramp;		/* inside the ramp: shown, not counted */
	struct interval_dir dir[DIR_COUNT];
};

#endif
