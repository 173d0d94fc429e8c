/*
 * The terminal side of a suite run: a live progress line on stderr (step,
 * its progress and ETA, the plan's ETA) when stderr is a terminal, notes,
 * and the closing words (run id, how to resume).
 */
#ifndef SSDBENCH_CLI_SUITE_UI_H
#define SSDBENCH_CLI_SUITE_UI_H

#include <stdbool.h>
#include <stdint.h>

#include "suite/runner.h"

struct suite_term {
	bool tty;
	bool shown;		/* a progress line is on screen */
	double last;		/* wall clock of the last line */
	const char *db;
};

/* The progress line: step, workload (cut at a word), done share, newest
   interval's rate, drive-writes of the step, step and plan ETA on one
   clock (the drive's time on a simulated drive, and it says so). */
void suite_progress_line(const struct suite_progress *p, char *buf, size_t len);

void suite_term_init(struct suite_term *t, const char *db, struct suite_ui *ui);

/* The exit code for an outcome, after saying what happened. */
int suite_term_finish(struct suite_term *t, int64_t run_id,
		      enum suite_outcome out, const struct sb_err *e);

/* "ssdbench suite ..." as one string, for the run's record; free() it. */
char *suite_term_command_line(int argc, char **argv, const char *prog);

#endif
