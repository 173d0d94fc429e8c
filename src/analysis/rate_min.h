/*
 * fio's rate_min check (backend.c, __check_min_rate), applied to a stream
 * of interval samples: a job fails when, after a settle period (fio: 2 s
 * from the job's start), the bytes completed between two checks at least
 * `cycle_ns` apart (fio's rate_cycle) average below `min_bps`.  The first
 * check after the settle period only sets the base.  fio checks at each
 * completion; here each interval's end is a check, so a window is the
 * first interval end at least `cycle_ns` after the base -- and a window in
 * which nothing completed is judged at 0 B/s, where fio would judge it at
 * the next completion (the same verdict whenever that completion comes).
 * A trailing stretch shorter than a cycle is not judged, as in fio.
 */
#ifndef SSDBENCH_ANALYSIS_RATE_MIN_H
#define SSDBENCH_ANALYSIS_RATE_MIN_H

#include <stdbool.h>
#include <stdint.h>

/* fio's settle period before the first check. */
#define RATE_MIN_SETTLE_NS 2000000000ull

struct rate_min_check {
	double min_bps;		/* 0: no check */
	uint64_t cycle_ns;
	uint64_t settle_ns;
	/* state */
	uint64_t bytes;		/* completed so far */
	uint64_t base_ns, base_bytes;
	bool based;
	/* verdict */
	unsigned windows;	/* judged */
	double lowest_bps;	/* of the judged windows; NAN before one */
	bool failed;		/* some window below min_bps */
};

void rate_min_init(struct rate_min_check *c, double min_bps, uint64_t cycle_ns,
		   uint64_t settle_ns);

/* One interval ending `t_end_ns` after the job's start, with `bytes` done. */
void rate_min_feed(struct rate_min_check *c, uint64_t t_end_ns, uint64_t bytes);

#endif
