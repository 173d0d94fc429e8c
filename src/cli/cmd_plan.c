/*
 * ssdbench plan: build a plan as `suite` would and print it, with each
 * step's settings, time and writes, without touching the target.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/suite_cli.h"

/* Every step of the full preset, its parameters, their types, defaults
   and the quick preset's value where it differs. */
static int describe(void)
{
	struct plan *full = malloc(sizeof *full), *quick = malloc(sizeof *quick);
	struct sb_err e;
	if (!full || !quick || plan_init(full, "full", &e) || plan_init(quick, "quick", &e)) {
		fprintf(stderr, "ssdbench plan: cannot build the presets\n");
		free(full);
		free(quick);
		return 1;
	}
	printf("  %-14s %-22s %-22s %-14s %s\n", "key", "type", "default (full)",
	       "quick", "meaning");
	printf("[suite]\n");
	for (int i = 0; suite_params[i].key; i++)
		printf("  %-14s %-22s %-22s %-14s %s\n", suite_params[i].key,
		       param_type_name(suite_params[i].type),
		       full->suite[i].text[0] ? full->suite[i].text : "-", "",
		       suite_params[i].help);
	for (uint32_t s = 0; s < full->nsteps; s++) {
		const struct plan_step *st = &full->steps[s];
		const struct plan_step *qs = plan_find(quick, st->name);
		printf("\n[%s]  kind %s, %s half: %s\n", st->name, st->kind->name,
		       st->half == HALF_CSSD ? "cSSD" : "eSSD", st->summary);
		if (st->needs)
			printf("  (needs %s before it)\n", st->needs);
		for (int i = 0; i < step_nparams(st); i++) {
			const struct param_desc *d = step_desc(st, i);
			bool differs = strcmp(qs->v[i].text, st->v[i].text) != 0;
			printf("  %-14s %-22s %-22s %-14s %s\n", d->key,
			       param_type_name(d->type), st->v[i].text,
			       differs ? qs->v[i].text : "", d->help);
			if (d->choices)
				printf("  %-14s choices: %s\n", "", d->choices);
		}
	}
	free(full);
	free(quick);
	return 0;
}

int cmd_plan(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--describe"))
		return describe();
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
		if (!text) {
			fprintf(stderr, "ssdbench plan: out of memory\n");
			free(p);
			return 1;
		}
		fputs(text, stdout);
		free(text);
	} else {
		suite_cli_print_plan(stdout, p, &t, o.target, o.assumed_rate != 0);
	}
	free(p);
	return 0;
}
