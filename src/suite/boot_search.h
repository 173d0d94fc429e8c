/*
 * The boot workload's search for the number N of QD1 readers a drive
 * serves within the latency limits, apart from running the trials (a
 * trial is a callback), so that the order of trials and the score can be
 * checked against BootBench's run.py by hand.
 *
 * BOOT_SEARCH_BOOTBENCH (the default) is run.py's rrbench_bisect():
 *   low = high = N = n_start; run N (double_time);
 *   while the last run passed and high < n_max: low = high, high = 2 high
 *     (at most n_max), run N = high (double_time);
 *   while high - low > 1: run N = (low + high) / 2 (bisect_time), a pass
 *     moves low up, a failure high down;
 *   while the last run failed: N = N - 1, and if N = 0 stop ("cannot meet
 *     the latency requirement"), else run N (confirm_time).
 *   The score is the read IOPS of that last (passing) run, at its N.
 * So a drive that passes N = n_max still bisects between n_max / 2 and
 * n_max and scores at n_max - 1, and a failing n_start steps down one
 * reader at a time with single runs.
 *
 * BOOT_SEARCH_CONFIRM (ssdbench before it followed run.py): doubling and
 * bisection as above, but bisection starts from low = 0 when n_start
 * fails, and then from the best passing N down, `confirm_runs` runs of
 * confirm_time each until all pass; the score is their minimum IOPS.
 */
#ifndef SSDBENCH_SUITE_BOOT_SEARCH_H
#define SSDBENCH_SUITE_BOOT_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"

enum boot_search { BOOT_SEARCH_BOOTBENCH, BOOT_SEARCH_CONFIRM };

/* "bootbench" | "confirm"; -1 for anything else. */
int boot_search_parse(const char *s);

struct boot_search_params {
	enum boot_search search;
	uint32_t n_start, n_max;
	uint64_t double_ns, bisect_ns, confirm_ns;
	unsigned confirm_runs;	/* BOOT_SEARCH_CONFIRM only */
};

struct boot_trial {
	bool pass;
	double iops;		/* the readers' */
};

/*
 * Run one trial of n readers for ns, phase "double", "bisect" or
 * "confirm", run k (1, 2 ... within a confirming N).  Returns 0, 1 when
 * the user stopped the run (the search ends without a score), -1 on error.
 */
typedef int (*boot_trial_fn)(void *ctx, uint32_t n, const char *phase,
			     unsigned k, uint64_t ns, struct boot_trial *t,
			     struct sb_err *e);

struct boot_score {
	bool met;		/* some N passed; false: "cannot meet" */
	uint32_t readers;
	double iops;		/* 0 when !met */
	unsigned trials;
};

/* Returns 0, 1 when a trial said stopped, -1 on error. */
int boot_search_run(const struct boot_search_params *p, boot_trial_fn fn,
		    void *ctx, struct boot_score *out, struct sb_err *e);

#endif
