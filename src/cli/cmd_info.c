/* ssdbench info TARGET [--json]: what the target is, read-only. */
#include "cli/commands.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "device/facts.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: ssdbench info TARGET [--json]\n\n"
		"Prints what ssdbench knows about TARGET (a block device or a "
		"file):\nidentity, capacity, block sizes, LBA formats, power "
		"states, health.\nNothing is written.  --json prints the form "
		"stored with every run.\n");
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
