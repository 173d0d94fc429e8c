/*
 * ssdbench merge OTHER.db [--db FILE]
 *
 * Copies the runs of another results database (from another host, say)
 * into this one, so that one report can compare drives measured apart.
 * Runs keep their identity; merging the same file again adds nothing.
 */
#include <getopt.h>
#include <stdio.h>

#include "cli/commands.h"
#include "store/store.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: ssdbench merge OTHER.db [--db FILE]\n"
		"\n"
		"Copies every run of OTHER.db that FILE does not hold yet, with its\n"
		"steps, workloads, samples, histograms, metrics, findings and device\n"
		"facts.  OTHER.db is only read.  All or nothing: a failed merge\n"
		"leaves FILE as it was.\n"
		"\n"
		"  --db FILE   the database to merge into (default %s; created if\n"
		"              missing)\n",
		STORE_DEFAULT_PATH);
}

int cmd_merge(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db = STORE_DEFAULT_PATH;
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': db = optarg; break;
		case 'h': usage(stdout); return 0;
		case ':':
			fprintf(stderr, "ssdbench merge: %s needs a value\n",
				argv[optind - 1]);
			return 2;
		default:
			fprintf(stderr, "ssdbench merge: unknown option '%s'\n",
				argv[optind - 1]);
			usage(stderr);
			return 2;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "ssdbench merge: name one database to merge from\n");
		usage(stderr);
		return 2;
	}
	const char *src_path = argv[optind];
	struct sb_err e;
	struct store *s;
	struct store_merge_result r;
	/* The source's refusals come before the target is created. */
	if (store_open_readonly(src_path, &s, &e)) {
		fprintf(stderr, "ssdbench merge: %s\n", e.msg);
		return 1;
	}
	store_close(s);
	if (store_open(db, &s, &e)) {
		fprintf(stderr, "ssdbench merge: %s\n", e.msg);
		return 1;
	}
	int rc = store_merge(s, src_path, &r, &e);
	store_close(s);
	if (rc) {
		fprintf(stderr, "ssdbench merge: %s\n", e.msg);
		return 1;
	}
	printf("%lld runs merged, %lld already present (from %s into %s)\n",
	       (long long)r.runs_merged, (long long)r.runs_present, src_path, db);
	return 0;
}
