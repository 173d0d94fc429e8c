/*
 * ssdbench plan: build a plan as `suite` would and print it, with each
 * step's settings, time and writes, without touching the target.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli/commands.h"
#include "cli/suite_cli.h"

int cmd_plan(int argc, char **argv)
{
	struct suite_cli o;
	int rc = suite_cli_parse("plan", argc, argv, &o);
	if (rc)
		return rc < 0 ? 0 : rc;
	struct plan *p = malloc(sizeof *p);
	if (!p) {
		fprintf(stderr, "ssdbench plan: out of memory\n");
		return 1;
	}
	struct plan_target t;
	struct sb_err e;
	if (suite_cli_build(&o, p, &t, &e)) {
		fprintf(stderr, "ssdbench plan: %s\n", e.msg);
		free(p);
		return 2;
	}
	if (o.settings) {
		char *text = plan_canonical(p);
		fputs(text, stdout);
		free(text);
	} else {
		suite_cli_print_plan(stdout, p, &t, o.target);
	}
	free(p);
	return 0;
}
