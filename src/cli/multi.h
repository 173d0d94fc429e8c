/*
 * Several targets at once (`run` and `suite` with --target given more
 * than once): one child process per target, each with its own engine and
 * its own connection to the one database, its threads pinned to CPUs of
 * its own (device/cpus.h), its output collected by the parent and shown
 * per target.  A process per target keeps one target's failure -- an I/O
 * error, a full disk, a crash -- from touching another's results.
 */
#ifndef SSDBENCH_CLI_MULTI_H
#define SSDBENCH_CLI_MULTI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "device/cpus.h"

struct run_options;

/* cmd_run.c: `run` on o->target alone; *run_id the run stored, or 0. */
int run_target(const struct run_options *o, int argc, char **argv, int64_t *run_id);
/* run_multi.c: `run` on every o->targets[] at once. */
int run_multi(const struct run_options *o, int argc, char **argv);

struct multi_child {
	const char *target;
	struct pin_choice pin;
	/* afterwards */
	int exit_code;		/* the child's, 128 + signal when killed */
	int64_t run_id;		/* 0: none stored */
	char *out;		/* what it wrote on stdout; free() it */
	size_t outlen;
};

/* Where a child waits for the others (multi_gate). */
struct multi_gate {
	int ready_fd, go_fd;
};

struct multi_opts {
	const char *cmd;	/* "run", "suite": for messages */
	/* The database the children write, or NULL: created or upgraded here,
	   once, before they start (two processes setting up a new file at
	   once would find it locked), and refused here if it must be. */
	const char *db;
	bool pin;		/* false: --no-pin */
	/* In the child: measure target i; returns its exit code. */
	int (*child)(void *ctx, uint32_t i, struct multi_gate *gate, int64_t *run_id);
	void *ctx;
};

/*
 * Set the database up, decide the pinning, say it on stderr, start one
 * child per target, pass
 * their stderr on line by line (each line after "[TARGET] "), collect
 * their stdout, wait for all.  A target whose child could not be started
 * has failed (said on stderr); -1 when none started (the database could
 * not be used, or no process could be made).
 */
int multi_start(const struct multi_opts *mo, struct multi_child *c, uint32_t n);

/*
 * In a child, before its measured I/O: wait until every other child is
 * there too (or has ended), so the runs start together.
 */
void multi_gate(void *gate);

/* One line per target on stderr: its run and how it ended. */
void multi_print_runs(const char *cmd, const struct multi_child *c, uint32_t n);

/*
 * 0 when every target's run succeeded; 130 when interrupted; else 64 + a
 * bit per failed target (bit 0: the first --target), 65..127.
 */
int multi_exit_code(const struct multi_child *c, uint32_t n, bool interrupted);

void multi_free(struct multi_child *c, uint32_t n);

#endif
