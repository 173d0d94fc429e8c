/*
 * ssdbench report RUN [--compare RUN ...] [--compare-db FILE:RUN ...]
 *                 [--db FILE] --out DIR [--mib] [--datasheet FILE]
 *                 [--opacity X] [--clip-time DUR] [--clip-latency DUR]
 *
 * Reads the runs from the results database(s), writes DIR/index.html and
 * every chart beside it.  The first run is the device under test.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/commands.h"
#include "common/units.h"
#include "report/report.h"
#include "store/store.h"

#define MAX_RUNS 16

struct run_ref {
	const char *db;
	int64_t id;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ssdbench report RUN --out DIR [options]\n"
		"\n"
		"Turns stored runs into one HTML page with every chart as SVG and\n"
		"PNG (and the gnuplot data and script behind each).\n"
		"\n"
		"  RUN                  run id of the device under test, or 'last'\n"
		"  --db FILE            results database (default %s)\n"
		"  --out DIR            output directory (created if missing)\n"
		"  --compare RUN        a comparison run from the same database;\n"
		"                       repeat for more\n"
		"  --compare-db FILE:RUN  a comparison run from another database\n"
		"  --mib                rates in MiB/s and sizes in GiB (default\n"
		"                       MB/s and GB)\n"
		"  --datasheet FILE     spec values (INI) to check against\n"
		"  --opacity X          marker opacity of scatter charts, 0..1\n"
		"                       (default 0.35)\n"
		"  --clip-time DUR      cut preconditioning charts at this time\n"
		"  --clip-latency DUR   cut latency scatter charts at this latency\n",
		STORE_DEFAULT_PATH);
}

/* "last" is the newest run of the database. */
static int resolve_id(const char *db, const char *text, int64_t *id,
		      struct sb_err *e)
{
	if (strcmp(text, "last")) {
		char *end;
		long long v = strtoll(text, &end, 10);
		if (end == text || *end || v <= 0)
			return sb_errf(e, "run '%s': expected a run id (a "
				       "positive number) or 'last'", text);
		*id = v;
		return 0;
	}
	struct store *s;
	if (store_open_readonly(db, &s, e))
		return -1;
	struct run_row *rows = NULL;
	size_t n = 0;
	int rc = store_list_runs(s, &rows, &n, e);
	if (!rc && n == 0)
		rc = sb_errf(e, "%s holds no runs", db);
	if (!rc)
		*id = rows[0].id;
	store_run_rows_free(rows, n);
	store_close(s);
	return rc;
}

static int parse_compare_db(char *arg, struct run_ref *r, struct sb_err *e)
{
	char *colon = strrchr(arg, ':');
	if (!colon || colon == arg || !colon[1])
		return sb_errf(e, "--compare-db '%s': expected FILE:RUN", arg);
	*colon = '\0';
	r->db = arg;
	return resolve_id(arg, colon + 1, &r->id, e);
}

static double seconds_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "out", required_argument, NULL, 'o' },
		{ "compare", required_argument, NULL, 'c' },
		{ "compare-db", required_argument, NULL, 'C' },
		{ "mib", no_argument, NULL, 'm' },
		{ "datasheet", required_argument, NULL, 's' },
		{ "opacity", required_argument, NULL, 'a' },
		{ "clip-time", required_argument, NULL, 't' },
		{ "clip-latency", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct report_opts o;
	report_opts_defaults(&o);
	o.tool_version = SSDBENCH_VERSION;
	const char *db = STORE_DEFAULT_PATH;
	const char *compare[MAX_RUNS];
	char *compare_db[MAX_RUNS];
	size_t ncompare = 0, ncompare_db = 0;
	struct sb_err e;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		uint64_t ns;
		char *end;
		switch (c) {
		case 'd': db = optarg; break;
		case 'o': o.out_dir = optarg; break;
		case 'm': o.mib = true; break;
		case 's': o.datasheet = optarg; break;
		case 'c':
		case 'C':
			if (ncompare + ncompare_db + 1 >= MAX_RUNS) {
				fprintf(stderr, "ssdbench report: at most %d "
					"comparison runs\n", MAX_RUNS - 1);
				return 2;
			}
			if (c == 'c')
				compare[ncompare++] = optarg;
			else
				compare_db[ncompare_db++] = optarg;
			break;
		case 'a':
			o.opacity = strtod(optarg, &end);
			if (end == optarg || *end || !(o.opacity > 0) ||
			    o.opacity > 1) {
				fprintf(stderr, "ssdbench report: --opacity "
					"'%s': expected a number in (0, 1]\n",
					optarg);
				return 2;
			}
			break;
		case 't':
		case 'l':
			if (parse_duration_ns(optarg, &ns, &e) || !ns) {
				fprintf(stderr, "ssdbench report: --%s '%s': %s\n",
					c == 't' ? "clip-time" : "clip-latency",
					optarg, ns ? e.msg : "must be above 0");
				return 2;
			}
			if (c == 't')
				o.clip_time_s = (double)ns / 1e9;
			else
				o.clip_latency_ms = (double)ns / 1e6;
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc - 1 || !o.out_dir) {
		fprintf(stderr, "ssdbench report: %s\n", optind >= argc
			? "which run? give its id (see 'ssdbench show')"
			: optind < argc - 1 ? "one run only; comparisons go "
					      "with --compare"
					    : "--out DIR is required");
		usage(stderr);
		return 2;
	}

	struct run_ref refs[MAX_RUNS];
	size_t nrefs = 0;
	refs[nrefs].db = db;
	if (resolve_id(db, argv[optind], &refs[nrefs].id, &e))
		goto bad;
	nrefs++;
	for (size_t i = 0; i < ncompare; i++, nrefs++) {
		refs[nrefs].db = db;
		if (resolve_id(db, compare[i], &refs[nrefs].id, &e))
			goto bad;
	}
	for (size_t i = 0; i < ncompare_db; i++, nrefs++)
		if (parse_compare_db(compare_db[i], &refs[nrefs], &e))
			goto bad;

	double t0 = seconds_now();
	struct rpt_run *runs = calloc(nrefs, sizeof(*runs));
	if (!runs) {
		fprintf(stderr, "ssdbench report: out of memory\n");
		return 1;
	}
	size_t loaded = 0;
	int rc = 0;
	for (; loaded < nrefs; loaded++)
		if (rpt_run_load(&runs[loaded], refs[loaded].db,
				 refs[loaded].id, &e)) {
			rc = -1;
			break;
		}
	struct report_stats st = { 0, 0 };
	if (!rc) {
		rpt_labels_unique(runs, nrefs);
		rc = report_build(runs, nrefs, &o, &st, &e);
	}
	for (size_t i = 0; i < loaded; i++)
		rpt_run_free(&runs[i]);
	free(runs);
	if (rc) {
		fprintf(stderr, "ssdbench report: %s\n", e.msg);
		return 1;
	}
	printf("report: %s/index.html, %zu charts, %zu tables, %.1f s\n",
	       o.out_dir, st.charts, st.tables, seconds_now() - t0);
	return 0;
bad:
	fprintf(stderr, "ssdbench report: %s\n", e.msg);
	return 2;
}
