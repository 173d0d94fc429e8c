/*
 * ssdbench sim list            the built-in drive profiles
 * ssdbench sim show NAME|FILE  a profile's parameters (as INI, so the output
 *                              is a starting point for a user's own file)
 *                              and the headline figures it should produce
 */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "sim/describe.h"
#include "sim/profile.h"
#include "sim/spec.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: ssdbench sim list\n"
		   "       ssdbench sim show PROFILE[,key=value...]\n"
		   "PROFILE is a built-in name or a profile file (INI); key=value\n"
		   "overrides a parameter, scale=X shrinks the capacities.\n");
}

static int list(void)
{
	for (unsigned i = 0; i < profile_builtin_count(); i++) {
		struct sim_profile p;
		struct sb_err e;
		const char *name = profile_builtin_name(i);
		if (profile_parse(profile_builtin_text(name), name, &p, &e)) {
			fprintf(stderr, "ssdbench sim: built-in %s: %s\n", name, e.msg);
			return 1;
		}
		printf("%-16s %s\n", name, p.description);
	}
	return 0;
}

static int show(const char *spec)
{
	struct sim_spec sp;
	struct sb_err e;
	if (sim_spec_parse(spec, NULL, &sp, &e)) {
		fprintf(stderr, "ssdbench sim: %s\n", e.msg);
		return 1;
	}
	static char ini[16384];
	profile_write_ini(&sp.profile, ini, sizeof ini);
	printf("# profile %s%s\n%s", sp.profile.name,
	       sp.scale != 1.0 ? " (scaled)" : "", ini);
	printf("\n# expected headline figures (from the parameters)\n");
	sim_headline_print(stdout, &sp.profile);
	return 0;
}

int cmd_sim(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "list") && argc == 2)
		return list();
	if (!strcmp(argv[1], "show") && argc == 3)
		return show(argv[2]);
	fprintf(stderr, "ssdbench sim: unknown or incomplete subcommand '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
