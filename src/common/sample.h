/*
 * What the engine measures and everything downstream (store, analysis,
 * report) reads: directions, and one interval sample per workload and time
 * slice.  Kept here, below every room, so the data flow stays one way.
 */
#ifndef SSDBENCH_COMMON_SAMPLE_H
#define SSDBENCH_COMMON_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

enum io_dir { DIR_READ, DIR_WRITE, DIR_TRIM, DIR_COUNT };

static inline const char *io_dir_name(enum io_dir d)
{
	return d == DIR_READ ? "read" : d == DIR_WRITE ? "write" : "trim";
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
