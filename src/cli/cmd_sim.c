/*
 * ssdbench sim list            the built-in drive profiles
 * ssdbench sim show NAME|FILE  a profile's parameters (as INI, so the output
 *                              is a starting point for a user's own file)
 *                              and the headline figures it should produce
 */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "sim/headline.h"
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
	struct sim_headline h;
	sim_headline(&sp.profile, &h);
	printf("\n# expected headline figures (from the parameters)\n");
	if (h.cache_empty_gb > 0) {
		printf("#   SLC cache: %.0f GB on an empty drive, %.0f GB on a full one, at %.2f GB/s\n",
		       h.cache_empty_gb, h.cache_full_gb, h.slc_gbs);
		printf("#   idle regain: %.2f GB/s of cache per second of idle\n", h.regain_gbs);
	}
	printf("#   sequential write to native media: %.2f GB/s\n", h.direct_gbs);
	if (sp.profile.rho_eff > 0)
		printf("#   4 KiB random write, full drive: WA %.2f, %.1fk IOPS under GC, %.1fk average\n",
		       h.wa_rand, h.rnd_write_kiops, h.rnd_write_avg_kiops);
	else
		printf("#   4 KiB random write: no GC (in place), %.1fk IOPS\n", h.rnd_write_kiops);
	if (h.burst_period_s > 0)
		printf("#   bursts: %.2f GB in %.2f s every %.1f s\n", h.burst_gb, h.burst_s,
		       h.burst_period_s);
	printf("#   4 KiB random read: QD1 %.1f us, saturates at %.0fk IOPS\n",
	       h.qd1_read_us, h.rnd_read_sat_kiops);
	printf("#   4 KiB write QD1: %.1f us; sequential read: %.2f GB/s\n",
	       h.qd1_write_us, h.seq_read_gbs);
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
