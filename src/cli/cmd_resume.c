/*
 * ssdbench resume RUN: continue a suite run from its first unfinished step
 * with the plan and target stored with it.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/suite_ui.h"
#include "common/units.h"
#include "findings/findings.h"
#include "store/store.h"
#include "suite/runner.h"

int cmd_resume(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db = STORE_DEFAULT_PATH;
	optind = 1;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c == 'd') {
			db = optarg;
		} else if (c == 'h') {
			printf("usage: ssdbench resume RUN [--db FILE]\n");
			return 0;
		} else {
			fprintf(stderr, "ssdbench resume: unknown option '%s'\nusage: ssdbench resume RUN [--db FILE]\n",
				argv[optind - 1]);
			return 2;
		}
	}
	struct sb_err e;
	uint64_t id;
	if (optind != argc - 1 ||
	    parse_uint_range("RUN", argv[optind], 1, INT64_MAX, &id, &e)) {
		fprintf(stderr, "ssdbench resume: give one run id: ssdbench resume RUN [--db FILE]\n");
		return 2;
	}
	struct store *s;
	if (store_open(db, &s, &e)) {
		fprintf(stderr, "ssdbench resume: %s\n", e.msg);
		return 1;
	}
	cli_install_signal_handlers();
	struct suite_term term;
	struct suite_opts so = { .interrupted = &cli_interrupted,
				 .step_figures = findings_store_step };
	suite_term_init(&term, db, &so.ui);
	enum suite_outcome out;
	int rc;
	fprintf(stderr, "ssdbench: resuming suite run %llu\n", (unsigned long long)id);
	if (suite_resume(s, (int64_t)id, &so, &out, &e)) {
		fprintf(stderr, "ssdbench resume: run %llu: %s\n", (unsigned long long)id, e.msg);
		rc = 1;
	} else {
		rc = suite_term_finish(&term, (int64_t)id, out, &e);
	}
	store_close(s);
	return rc;
}
