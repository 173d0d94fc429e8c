/*
 * Arrival schedules: when each I/O of an open-loop stream is due, whatever
 * the device does.  A closed loop issues the next I/O when one completes,
 * so a stall of the device also stalls the clock of the measurement
 * (coordinated omission); an open loop fixes the times first and measures
 * each I/O from its arrival.
 *
 * A schedule has a rate in units per second: I/Os (weight 1 each) or
 * bytes (weight = the I/O's size, so the gap after an I/O is its size over
 * the rate).  Processes, as fio's rate_process:
 *   uniform  the gap after an arrival of weight w is exactly w / rate;
 *            times are computed from the running sum of weights (one
 *            128-bit division), so they never drift however long it runs;
 *   poisson  the gap is exponential with mean w / rate (memoryless
 *            arrivals), drawn from the seeded 64-bit generator.
 * The schedule is a pure sequence in its own time base: it neither reads
 * a clock nor waits.  Whoever uses it (the engine's jobs, a trace replay)
 * submits the pending arrival once the clock reaches next_ns, and the
 * time between next_ns and the submission is the arrival's lateness.
 */
#ifndef SSDBENCH_ENGINE_ARRIVALS_H
#define SSDBENCH_ENGINE_ARRIVALS_H

#include <stdint.h>

#include "common/error.h"
#include "common/rng.h"

enum arrival_process { ARRIVAL_UNIFORM, ARRIVAL_POISSON };

struct arrivals {
	enum arrival_process process;
	uint64_t rate;		/* units per second, > 0 */
	uint64_t t0;		/* time of the first arrival */
	uint64_t next_ns;	/* time of the pending arrival */
	uint64_t count;		/* arrivals taken so far */
	unsigned __int128 units;	/* uniform: weight taken so far */
	double rel_ns;		/* poisson: next_ns - t0, unrounded */
	struct rng rng;
};

/* The first arrival is at t0. */
void arrivals_init(struct arrivals *a, enum arrival_process p, uint64_t rate,
		   uint64_t t0, uint64_t seed);

/* The pending arrival (weight `weight`) was taken: schedule the next. */
void arrivals_take(struct arrivals *a, uint64_t weight);

/* "uniform", "poisson". */
const char *arrival_process_name(enum arrival_process p);
/* "uniform" (or fio's "linear"), "poisson"; -1 with e set otherwise. */
int arrival_process_parse(const char *s, enum arrival_process *out,
			  struct sb_err *e);

#endif
