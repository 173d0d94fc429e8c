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

struct run_sink {
	struct store *st;		/* NULL: nothing stored */
	int64_t run_id;
	int64_t wl_id[16];
	bool progress;			/* stderr is a terminal */
	bool progress_shown;
	const char *label;		/* shown before the progress */
	uint64_t last_progress_ns;	/* wall clock of the last line */
	uint32_t batch;			/* --batch when given: stored with the mode */
};

void run_sink_hooks(struct run_sink *s, struct engine_hooks *h);
/* The store's view of a workload's totals. */
void run_sink_totals(const struct workload_result *r, struct store_totals *t);
/* Erase the progress line if one was shown. */
void run_sink_clear(struct run_sink *s);

#endif
