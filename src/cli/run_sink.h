/*
 * Where a run's measurements go while it runs: samples and checkpoints
 * into the results database (committed about once a second, so a crash
 * loses at most the last second) and a live progress line on stderr when
 * stderr is a terminal.  These are the engine hooks of `ssdbench run`.
 */
#ifndef SSDBENCH_CLI_RUN_SINK_H
#define SSDBENCH_CLI_RUN_SINK_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"
#include "store/store.h"

#define RUN_SINK_MAX_WL 16

/* The newest interval of one workload: what the progress line shows. */
struct run_sink_interval {
	uint64_t ios, bytes, ns;
	bool ramp;
};

struct run_sink {
	struct store *st;		/* NULL: nothing stored */
	int64_t run_id;
	int64_t wl_id[RUN_SINK_MAX_WL];
	bool progress;			/* stderr is a terminal */
	bool progress_shown;
	bool virtual_clock;		/* a simulated drive: ETAs in its time */
	const char *label;		/* shown before the progress */
	uint64_t last_progress_ns;	/* wall clock of the last line */
	uint32_t batch;			/* --batch when given: stored with the mode */
	struct run_sink_interval last[RUN_SINK_MAX_WL];
};

/*
 * The progress line: done share, ETA, and the rate of the newest interval
 * of every workload (summed; "ramp" while any is in its ramp), not the
 * average since the start, which lags every change of the drive's speed.
 */
void run_sink_progress_line(const struct run_sink *s, double fraction,
			    double eta_s, char *buf, size_t len);

void run_sink_hooks(struct run_sink *s, struct engine_hooks *h);
/* Erase the progress line if one was shown. */
void run_sink_clear(struct run_sink *s);

#endif
