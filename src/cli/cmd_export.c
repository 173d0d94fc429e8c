/*
 * ssdbench export RUN [--db FILE] (--csv|--json)
 *                 [--samples|--summary|--histograms] [-o FILE]
 *
 * Writes one stored run out for other tools.  With -o the output appears
 * only when complete (written to a temporary name, then renamed), so a
 * failed export never leaves a truncated file that looks whole.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/export.h"
#include "cli/run_view.h"
#include "store/store.h"

enum what { WHAT_DEFAULT, WHAT_SAMPLES, WHAT_SUMMARY, WHAT_HISTOGRAMS };

static void usage(FILE *out)
{
	fprintf(out,
		"usage: ssdbench export RUN [--db FILE] (--csv|--json)\n"
		"                       [--samples|--summary|--histograms] [-o FILE]\n"
		"\n"
		"  RUN           a run id (see 'ssdbench show'), or 'last'\n"
		"  --db FILE     the results database (default %s)\n"
		"  --csv         CSV, one header line; --samples (the default): one row\n"
		"                per workload and interval; --summary: one row per\n"
		"                workload and direction; --histograms: one row per\n"
		"                latency bucket\n"
		"  --json        JSON of the run, its steps, workloads, metrics and device\n"
		"                readings; with samples and histograms unless --summary,\n"
		"                only samples with --samples, only histograms with\n"
		"                --histograms\n"
		"  -o FILE       write to FILE instead of standard output\n"
		"\nColumns and keys: docs/database.md.\n",
		STORE_DEFAULT_PATH);
}

static int export_to(FILE *out, struct store *s, int64_t id, bool json,
		     enum what what, struct sb_err *e)
{
	if (json) {
		unsigned parts = what == WHAT_SAMPLES ? EXPORT_SAMPLES
			: what == WHAT_HISTOGRAMS ? EXPORT_HISTOGRAMS
			: what == WHAT_SUMMARY ? 0
			: EXPORT_SAMPLES | EXPORT_HISTOGRAMS;
		return export_json_run(out, s, id, parts, e);
	}
	switch (what) {
	case WHAT_SUMMARY: return export_csv_summary(out, s, id, e);
	case WHAT_HISTOGRAMS: return export_csv_histograms(out, s, id, e);
	default: return export_csv_samples(out, s, id, e);
	}
}

/* Writing the export over the database it comes from would lose the runs. */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/* Export into `path` via a temporary file renamed into place when whole. */
static int export_file(const char *path, struct store *s, int64_t id,
		       bool json, enum what what, struct sb_err *e)
{
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
	FILE *f = fopen(tmp, "w");
	if (!f)
		return sb_errno(e, errno, "cannot write %s", path);
	int rc = export_to(f, s, id, json, what, e);
	if (!rc && (ferror(f) | fflush(f)))
		rc = sb_errno(e, errno, "writing %s", path);
	if (fclose(f) && !rc)
		rc = sb_errno(e, errno, "writing %s", path);
	if (!rc && rename(tmp, path))
		rc = sb_errno(e, errno, "cannot write %s", path);
	if (rc)
		unlink(tmp);
	return rc;
}

int cmd_export(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "csv", no_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "samples", no_argument, NULL, 's' },
		{ "summary", no_argument, NULL, 'S' },
		{ "histograms", no_argument, NULL, 'H' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db = STORE_DEFAULT_PATH, *out_path = NULL;
	int csv = 0, json = 0, c;
	enum what what = WHAT_DEFAULT;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': db = optarg; break;
		case 'c': csv = 1; break;
		case 'j': json = 1; break;
		case 'o': out_path = optarg; break;
		case 's': case 'S': case 'H': {
			enum what w = c == 's' ? WHAT_SAMPLES
				: c == 'S' ? WHAT_SUMMARY : WHAT_HISTOGRAMS;
			if (what != WHAT_DEFAULT && what != w) {
				fprintf(stderr, "ssdbench export: choose one of "
					"--samples, --summary, --histograms\n");
				return 2;
			}
			what = w;
			break;
		}
		case 'h': usage(stdout); return 0;
		case ':':
			fprintf(stderr, "ssdbench export: %s needs a value\n",
				argv[optind - 1]);
			return 2;
		default:
			fprintf(stderr, "ssdbench export: unknown option '%s'\n",
				argv[optind - 1]);
			usage(stderr);
			return 2;
		}
	}
	if (csv + json != 1) {
		fprintf(stderr, "ssdbench export: say which format: --csv or "
			"--json (exactly one)\n");
		return 2;
	}
	if (optind >= argc) {
		fprintf(stderr, "ssdbench export: which run? (ids: ssdbench show)\n");
		usage(stderr);
		return 2;
	}
	if (optind + 1 < argc) {
		fprintf(stderr, "ssdbench export: one run at a time ('%s' is one "
			"too many)\n", argv[optind + 1]);
		return 2;
	}

	struct sb_err e;
	struct store *s;
	int64_t id;
	if (run_view_parse_id(argv[optind], &id, &e)) {
		fprintf(stderr, "ssdbench export: %s\n", e.msg);
		return 2;
	}
	if (out_path && !strcmp(out_path, "-"))
		out_path = NULL;
	if (out_path && same_file(out_path, db)) {
		fprintf(stderr, "ssdbench export: -o %s is the database itself; "
			"refusing to overwrite it\n", out_path);
		return 2;
	}
	if (store_open_readonly(db, &s, &e)) {
		fprintf(stderr, "ssdbench export: %s\n", e.msg);
		return 1;
	}
	int rc = run_view_resolve_last(s, &id, &e);
	if (!rc)
		rc = out_path ? export_file(out_path, s, id, json, what, &e)
			      : export_to(stdout, s, id, json, what, &e);
	store_close(s);
	if (!rc && !out_path && (fflush(stdout) || ferror(stdout)))
		rc = sb_errno(&e, errno, "writing the output");
	if (rc) {
		fprintf(stderr, "ssdbench export: %s\n", e.msg);
		return 1;
	}
	return 0;
}
