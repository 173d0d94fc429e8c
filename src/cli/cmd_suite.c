/*
 * ssdbench suite: build and check the plan (nothing is opened for writing
 * until every setting and the order of steps passed), say what will be
 * erased, then run it, printing the run id as soon as it exists.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli/commands.h"
#include "cli/suite_cli.h"
#include "cli/suite_ui.h"
#include "common/units.h"
#include "device/safety.h"
#include "findings/findings.h"
#include "store/store.h"
#include "suite/runner.h"

int cmd_suite(int argc, char **argv)
{
	struct suite_cli o;
	int rc = suite_cli_parse("suite", argc, argv, &o);
	if (rc)
		return rc < 0 ? 0 : rc;
	const char *db = o.db ? o.db : STORE_DEFAULT_PATH;
	struct plan *p = malloc(sizeof *p);
	if (!p) {
		fprintf(stderr, "ssdbench suite: out of memory\n");
		return 1;
	}
	struct plan_target t;
	struct sb_err e;
	if (suite_cli_build(&o, p, &t, &e)) {
		fprintf(stderr, "ssdbench suite: %s\n", e.msg);
		free(p);
		return 2;
	}
	if (!t.is_sim) {
		struct safety_request sr = { o.target, true, o.destroy_data };
		if (safety_check(&sr, &e)) {
			fprintf(stderr, "ssdbench suite: %s\n", e.msg);
			free(p);
			return 2;
		}
	}
	char sz[32];
	if (t.is_block_device)
		fprintf(stderr, "ssdbench: the suite purges and writes all of %s: every byte of its %s is erased\n",
			o.target, fmt_bytes(t.size, sz, sizeof sz));
	else if (t.is_file)
		fprintf(stderr, "ssdbench: %s is a file: each purge deletes and recreates it (%s)\n",
			o.target, fmt_bytes(t.size, sz, sizeof sz));
	struct store *s;
	if (store_open(db, &s, &e)) {
		fprintf(stderr, "ssdbench suite: %s\n", e.msg);
		free(p);
		return 1;
	}
	cli_install_signal_handlers();
	struct suite_term term;
	struct suite_opts so = {
		.target = o.target, .file_size = o.file_size,
		.destroy_data = o.destroy_data, .interrupted = &cli_interrupted,
		.step_figures = findings_store_step,
	};
	suite_term_init(&term, db, &so.ui);
	char *cmdline = suite_term_command_line(argc - 1, argv + 1, "ssdbench suite");
	so.command_line = cmdline;
	int64_t run_id = 0;
	enum suite_outcome out;
	if (suite_start(s, p, &so, &run_id, &out, &e)) {
		fprintf(stderr, "ssdbench suite: %s\n", e.msg);
		rc = 1;
	} else {
		rc = suite_term_finish(&term, run_id, out, &e);
	}
	free(cmdline);
	store_close(s);
	free(p);
	return rc;
}
