/*
 * ssdbench suite: build and check the plan (nothing is opened for writing
 * until every setting and the order of steps passed), say what will be
 * erased, then run it, printing the run id as soon as it exists.  With
 * --target given several times, every target's plan and refusals pass
 * first, then each runs in its own process (multi.c) as its own run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/multi.h"
#include "cli/suite_cli.h"
#include "cli/suite_ui.h"
#include "common/units.h"
#include "device/safety.h"
#include "findings/findings.h"
#include "store/store.h"
#include "suite/runner.h"

/* The plan of one target, and the refusals: before any I/O anywhere. */
static int prepare(const struct suite_cli *o, const char *target, struct plan *p)
{
	struct suite_cli one = *o;
	struct plan_target t;
	struct sb_err e;
	one.target = target;
	if (suite_cli_build(&one, p, &t, &e)) {
		fprintf(stderr, "ssdbench suite: %s\n", e.msg);
		return 2;
	}
	if (!t.is_sim) {
		struct safety_request sr = { target, true, o->destroy_data };
		if (safety_check(&sr, &e)) {
			/* A refusal, not bad usage: 1, as run and purge. */
			fprintf(stderr, "ssdbench suite: %s\n", e.msg);
			return 1;
		}
	}
	char sz[32];
	if (t.is_block_device)
		fprintf(stderr, "ssdbench: the suite purges and writes all of %s: every byte of its %s is erased\n",
			target, fmt_bytes(t.size, sz, sizeof sz));
	else if (t.is_file)
		fprintf(stderr, "ssdbench: %s is a file: each purge deletes and recreates it (%s)\n",
			target, fmt_bytes(t.size, sz, sizeof sz));
	return 0;
}

struct suite_job {
	const struct suite_cli *o;
	const char *db;
	int argc;
	char **argv;
	bool shared_db;		/* other processes write the database too */
	struct plan **plans;
};

/* Run the plan of target i; its exit code. */
static int run_one(const struct suite_job *j, uint32_t i, int64_t *run_id)
{
	struct store *s;
	struct sb_err e;
	if (store_open(j->db, &s, &e)) {
		fprintf(stderr, "ssdbench suite: %s\n", e.msg);
		return 1;
	}
	if (j->shared_db)
		store_set_commit_every(s, 0);
	cli_install_signal_handlers();
	struct suite_term term;
	struct suite_opts so = {
		.target = j->o->targets[i], .file_size = j->o->file_size,
		.destroy_data = j->o->destroy_data, .interrupted = &cli_interrupted,
		.step_figures = findings_store_step,
	};
	suite_term_init(&term, j->db, &so.ui);
	char *cmdline = suite_term_command_line(j->argc - 1, j->argv + 1, "ssdbench suite");
	so.command_line = cmdline;
	enum suite_outcome out;
	int rc;
	*run_id = 0;
	if (suite_start(s, j->plans[i], &so, run_id, &out, &e)) {
		fprintf(stderr, "ssdbench suite: %s\n", e.msg);
		rc = 1;
	} else {
		rc = suite_term_finish(&term, *run_id, out, &e);
	}
	free(cmdline);
	store_close(s);
	return rc;
}

static int child(void *ctx, uint32_t i, struct multi_gate *gate, int64_t *run_id)
{
	(void)gate;	/* a suite starts with its purge: no common start */
	return run_one(ctx, i, run_id);
}

int cmd_suite(int argc, char **argv)
{
	struct suite_cli o;
	int rc = suite_cli_parse("suite", argc, argv, &o);
	if (rc)
		return rc < 0 ? 0 : rc;
	uint32_t n = (uint32_t)o.ntargets;
	struct plan *plans[SUITE_CLI_MAX_TARGETS] = { NULL };
	struct suite_job job = { .o = &o, .db = o.db ? o.db : STORE_DEFAULT_PATH,
				 .argc = argc, .argv = argv, .shared_db = n > 1,
				 .plans = plans };
	for (uint32_t i = 0; i < n && !rc; i++) {
		if (!(plans[i] = malloc(sizeof *plans[i]))) {
			fprintf(stderr, "ssdbench suite: out of memory\n");
			rc = 1;
		} else if ((rc = prepare(&o, o.targets[i], plans[i])) && n > 1) {
			fprintf(stderr, "ssdbench suite: target %u (%s) refused: nothing was "
				"started on any of the %u targets\n", i + 1, o.targets[i], n);
		}
	}
	if (!rc && n == 1) {
		int64_t run_id;
		rc = run_one(&job, 0, &run_id);
	} else if (!rc) {
		cli_install_signal_handlers();
		struct multi_child c[SUITE_CLI_MAX_TARGETS];
		memset(c, 0, sizeof c);
		for (uint32_t i = 0; i < n; i++)
			c[i].target = o.targets[i];
		struct multi_opts mo = { .cmd = "suite", .db = job.db, .pin = !o.no_pin,
					 .child = child, .ctx = &job };
		if (multi_start(&mo, c, n)) {
			rc = 1;
			goto out;
		}
		/* stdout: each run id on its own line, in --target order */
		for (uint32_t i = 0; i < n; i++)
			if (c[i].run_id)
				printf("%lld\n", (long long)c[i].run_id);
		fflush(stdout);
		multi_print_runs("suite", c, n);
		rc = multi_exit_code(c, n, cli_interrupted);
		multi_free(c, n);
	}
out:
	for (uint32_t i = 0; i < n; i++)
		free(plans[i]);
	return rc;
}
