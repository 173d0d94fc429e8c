/*
 * ssdbench: a review-grade SSD benchmark.  This file only dispatches to
 * the subcommand; see commands.c for the list.
 */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: ssdbench COMMAND [OPTIONS]\n\ncommands:\n");
	for (const struct cli_command *c = cli_commands; c->name; c++)
		fprintf(out, "  %-10s %s\n", c->name, c->summary);
	fprintf(out, "\n'ssdbench COMMAND --help' describes a command's options.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	const char *name = argv[1];
	if (!strcmp(name, "help") || !strcmp(name, "--help") || !strcmp(name, "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(name, "--version"))
		name = "version";
	for (const struct cli_command *c = cli_commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c->run(argc - 1, argv + 1);
	fprintf(stderr, "ssdbench: unknown command '%s'\n", name);
	usage(stderr);
	return 2;
}
