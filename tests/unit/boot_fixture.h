/*
 * A boot trial's three workloads (the suite's boot step, METHODOLOGY
 * 4.4): `readers` random 32 KiB readers, a 15 MiB/s random 128 KiB writer
 * with an fsync every 32 MiB and a 5 MiB/s random 128 KiB trimmer, all
 * for `secs` seconds; the readers may be sampled (sampled_ok).
 */
#ifndef SSDBENCH_TESTS_BOOT_FIXTURE_H
#define SSDBENCH_TESTS_BOOT_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/workload.h"

static inline void boot_trial_workloads(struct workload w[3], uint32_t readers,
					bool sampled, uint64_t secs)
{
	for (int i = 0; i < 3; i++) {
		workload_defaults(&w[i]);
		w[i].pattern = PATTERN_RAND;
		w[i].stop_time_ns = secs * 1000000000ull;
		w[i].seed = 20 + (uint64_t)i;
	}
	w[0].sampled_ok = sampled;
	w[0].read_pct = 100;
	w[0].bs = 32768;
	w[0].jobs = readers;
	w[1].read_pct = 0;
	w[1].bs = 131072;
	w[1].rate = 15u << 20;
	w[1].fsync_every = 32u << 20;
	w[2].trim_pct = 100;
	w[2].bs = 131072;
	w[2].rate = 5u << 20;
}

#endif
