/* ssdbench info TARGET [--json]: what the target is, read-only. */
#include "cli/commands.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "device/facts.h"
#include "device/target_json.h"
#include "sim/describe.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: ssdbench info TARGET [--json]\n\n"
		"Prints what ssdbench knows about TARGET (a block device, a "
		"file or sim:PROFILE):\nidentity, capacity, block sizes, LBA "
		"formats, power states, health; for a\nsimulated drive the "
		"model it stands for and the figures its parameters\nshould "
		"produce.  Nothing is written.  --json prints the form stored "
		"with\nevery run.\n");
}

/* A simulated drive: what it stands for, as `info` says of a real one.
   The JSON is the form its runs store (the backend's facts). */
static int info_sim(const char *target, bool json)
{
	struct sim_spec *sp = malloc(sizeof *sp);
	struct sb_err e;
	if (!sp || sim_spec_parse(target, NULL, sp, &e)) {
		fprintf(stderr, "ssdbench info: %s\n", sp ? e.msg : "out of memory");
		free(sp);
		return 1;
	}
	if (json) {
		struct target_facts tf = {
			.size = (uint64_t)(sp->profile.user_gb * 1e9) / 4096 * 4096,
			.logical_block = 512, .physical_block = 4096,
			.is_sim = true, .discard = true,
		};
		snprintf(tf.path, sizeof tf.path, "%s", target);
		snprintf(tf.kind, sizeof tf.kind, "sim");
		struct json_writer w;
		json_init(&w, stdout, true);
		target_facts_json(&w, &tf);
		json_finish(&w);
	} else {
		printf("%s: simulated drive\n", target);
		sim_describe_print(stdout, sp);
	}
	free(sp);
	return 0;
}

int cmd_info(int argc, char **argv)
{
	const char *target = NULL;
	bool json = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "ssdbench info: unknown option '%s'\n",
				argv[i]);
			usage(stderr);
			return 2;
		} else if (target) {
			fprintf(stderr, "ssdbench info: one target only ('%s' "
				"and '%s' given)\n", target, argv[i]);
			return 2;
		} else {
			target = argv[i];
		}
	}
	if (!target) {
		usage(stderr);
		return 2;
	}
	if (!strncmp(target, "sim:", 4))
		return info_sim(target, json);
	struct device_facts *f = malloc(sizeof *f);
	struct sb_err e;
	if (!f) {
		fprintf(stderr, "ssdbench info: out of memory\n");
		return 1;
	}
	if (device_facts_collect(target, f, &e)) {
		fprintf(stderr, "ssdbench info: %s\n", e.msg);
		free(f);
		return 1;
	}
	if (json) {
		struct json_writer w;
		json_init(&w, stdout, true);
		device_facts_json(&w, NULL, f);
		json_finish(&w);
	} else {
		device_facts_print(stdout, f);
	}
	free(f);
	return 0;
}
