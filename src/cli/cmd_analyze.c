/*
 * ssdbench analyze RUN [--db FILE] | --fio-log FILE | --fio-json FILE
 *                  [--kind K] [--json] [analysis options]
 *
 * Runs the analyses of src/analysis on a stored run (every workload, every
 * direction that did I/O) or on what fio left behind: a bandwidth or IOPS
 * log, or its JSON output.  Only reads.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/analyze_out.h"
#include "cli/commands.h"
#include "cli/export.h"
#include "cli/fio_log_read.h"
#include "cli/run_view.h"
#include "common/file_read.h"
#include "common/units.h"
#include "findings/findings.h"
#include "store/store.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: ssdbench analyze RUN [--db FILE] [options]\n"
		"       ssdbench analyze --fio-log FILE [--log-type bw|iops] [--dir read|write|trim] [options]\n"
		"       ssdbench analyze --fio-json FILE [--json]\n"
		"\n"
		"  RUN               a stored run id, or 'last'\n"
		"  --db FILE         the results database (default %s)\n"
		"  --fio-log FILE    a fio write_bw_log / write_iops_log file\n"
		"  --fio-json FILE   fio --output-format=json output\n"
		"  --log-type T      bw or iops (default: from the file name, else bw)\n"
		"  --dir D           direction in the log (default: the one most logged)\n"
		"  --slice DUR       slice length for per-I/O logs (default 100ms)\n"
		"  --kind K          fill, steady, consistency, bursts or all (default)\n"
		"  --metric M        bw or iops (default: bw for I/Os of 64 KiB and up)\n"
		"  --capacity SIZE   user capacity, for drive-writes\n"
		"  --rule R          steady state: fio-slope (default), fio-deviation or snia;\n"
		"                    fio's names bw_slope, iops_slope, bw, iops also pick the metric\n"
		"  --window DUR      steady-state window (default 30s)\n"
		"  --interval DUR    the rule's sample spacing, fio's ss_interval (default 1s),\n"
		"                    made of the trace's samples\n"
		"  --limit PCT       fio: slope or deviation limit (10); snia: fit excursion (10)\n"
		"  --sustain DUR     a cache ends in a drop lasting this long (default 5s)\n"
		"  --json            print JSON (keys in docs/analysis.md)\n",
		STORE_DEFAULT_PATH);
}


static int parse_pct(const char *s, double *out, struct sb_err *e)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || (*end && strcmp(end, "%")) || !(v > 0 && v < 1000))
		return sb_errf(e, "--limit: '%s' is not a percentage", s);
	*out = v;
	return 0;
}

/* What analyze_fio_log's callback needs for each run of the log. */
struct log_ctx {
	const char *base;
	const struct analyze_opts *o;
	struct json_writer *w;
};

static int analyze_log_run(void *ctx, const struct fio_log_trace *t, struct sb_err *e)
{
	const struct log_ctx *c = ctx;
	char name[300];
	if (!t->only)
		snprintf(name, sizeof name, "%s, run %zu (lines %zu-%zu)", c->base,
			 t->index + 1, t->first_line, t->last_line);
	else
		snprintf(name, sizeof name, "%s", c->base);
	static const char *const dn[3] = { "read", "write", "trim" };
	struct analyzed_trace a = { name, dn[t->dir], t->t, t->n, NULL,
				    !t->info.has_bytes, !t->info.has_ios, NULL };
	if (!c->w && t->info.gaps)
		printf("%s: %zu stretches without an entry (%.1f s): time at 0, "
		       "as fio logs nothing for a window without completions\n",
		       name, t->info.gaps, t->info.gap_s);
	return analyze_trace(c->o, &a, c->w, e);
}

static int analyze_fio_log(const char *path, const char *log_type,
			   const char *dir_arg, uint64_t slice_ns,
			   const struct analyze_opts *o, struct json_writer *w,
			   struct sb_err *e)
{
	enum fio_log_kind kind = FIO_LOG_BW;
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	if (log_type ? !strcmp(log_type, "iops") : strstr(base, "_iops.") != NULL)
		kind = FIO_LOG_IOPS;
	else if (log_type && strcmp(log_type, "bw"))
		return sb_errf(e, "--log-type: '%s' is not bw or iops", log_type);
	if (!log_type && (strstr(base, "_lat.") || strstr(base, "_clat.") ||
			  strstr(base, "_slat.")))
		return sb_errf(e, "%s looks like a latency log; analyze bandwidth or "
			       "IOPS logs, or give --log-type", path);
	int dir = -1;
	if (dir_arg) {
		if (!strcmp(dir_arg, "read"))
			dir = 0;
		else if (!strcmp(dir_arg, "write"))
			dir = 1;
		else if (!strcmp(dir_arg, "trim"))
			dir = 2;
		else
			return sb_errf(e, "--dir: '%s' is not read, write or trim", dir_arg);
	}
	if (w) {
		json_object_begin(w, "source");
		json_string(w, "kind", "fio-log");
		json_string(w, "file", path);
		json_string(w, "log_type", kind == FIO_LOG_BW ? "bw" : "iops");
		json_object_end(w);
		json_array_begin(w, "traces");
	}
	/* one trace per run the file holds (fio appends a rerun's log), the
	   file streamed: any length in constant memory */
	struct log_ctx c = { base, o, w };
	int rc = fio_log_read(path, kind, dir, (unsigned)(slice_ns / 1000000),
			      analyze_log_run, &c, e);
	if (w)
		json_array_end(w);
	return rc;
}

static int analyze_fio_json(const char *path, struct json_writer *w,
			    struct sb_err *e)
{
	char *text;
	size_t len;
	if (file_read_text(path, "fio JSON file", FILE_LIMIT_JSON, &text, &len, e))
		return -1;
	struct fio_job_summary *jobs;
	size_t n;
	int rc = fio_json_parse(text, len, &jobs, &n, e);
	free(text);
	if (rc)
		return sb_err_wrap(e, "%s", path);
	if (w) {
		json_object_begin(w, "source");
		json_string(w, "kind", "fio-json");
		json_string(w, "file", path);
		json_object_end(w);
		json_array_begin(w, "fio_jobs");
	}
	for (size_t i = 0; i < n; i++)
		analyze_print_fio_job(&jobs[i], w);
	if (w)
		json_array_end(w);
	fio_jobs_free(jobs, n);
	return 0;
}

/* One direction of a workload's measured (non-ramp) samples as a trace. */
static size_t to_trace(const struct interval_sample *s, size_t n,
		       enum io_dir d, struct trace_pt *t)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i].ramp || s[i].t_end_ns <= s[i].t_start_ns)
			continue;
		t[k++] = (struct trace_pt){ s[i].t_end_ns - s[i].t_start_ns,
					    s[i].dir[d].bytes, s[i].dir[d].ios };
	}
	return k;
}

static int analyze_workload(struct store *s, const struct workload_row *wr,
			    const struct analyze_opts *o, struct lat_hist *h,
			    struct json_writer *w, struct sb_err *e)
{
	struct interval_sample *smp;
	size_t n;
	if (store_load_samples(s, wr->id, &smp, &n, e))
		return -1;
	struct trace_pt *t = malloc((n ? n : 1) * sizeof *t);
	if (!t) {
		free(smp);
		return sb_errno(e, ENOMEM, "workload %s", wr->name);
	}
	int rc = 0;
	for (int d = 0; d < DIR_COUNT && rc == 0; d++) {
		if (!wr->totals.ios[d])
			continue;
		size_t nt = to_trace(smp, n, (enum io_dir)d, t);
		if (nt == 0)
			continue;
		if (store_load_histogram(s, wr->id, (enum io_dir)d, h, e)) {
			rc = -1;
			break;
		}
		char name[96];
		snprintf(name, sizeof name, "%u:%s", wr->index, wr->name);
		struct analyzed_trace a = { name, io_dir_name((enum io_dir)d), t,
					    nt, h, false, false, &wr->totals };
		rc = analyze_trace(o, &a, w, e);
	}
	free(t);
	free(smp);
	return rc;
}

/*
 * Where the I/Os behind the figures come from: per workload of the run,
 * its step and name (the figures' keys name both) and the provenance
 * members (docs/json.md): on a simulated drive, which figures stand on
 * I/Os simulated one by one and which are extrapolated.
 */
static int suite_provenance(struct store *s, int64_t id, struct json_writer *w,
			    struct sb_err *e)
{
	struct step_row *st = NULL;
	struct workload_row *wl = NULL;
	size_t ns = 0, n = 0;
	if (store_list_steps(s, id, &st, &ns, e))
		return -1;
	if (store_list_workloads(s, id, 0, &wl, &n, e)) {
		store_step_rows_free(st, ns);
		return -1;
	}
	json_array_begin(w, "io_provenance");
	for (size_t i = 0; i < n; i++) {
		const char *step = NULL;
		for (size_t k = 0; k < ns && !step; k++)
			if (st[k].id == wl[i].step_id)
				step = st[k].name;
		json_object_begin(w, NULL);
		if (step)
			json_string(w, "step", step);
		else
			json_null(w, "step");
		json_string(w, "workload", wl[i].name);
		export_json_provenance(w, &wl[i].totals);
		json_object_end(w);
	}
	json_array_end(w);
	store_workload_rows_free(wl, n);
	store_step_rows_free(st, ns);
	return 0;
}

/* Every figure of a suite run, as JSON under "figures" or as text lines. */
static int suite_figures(struct store *s, const char *db, int64_t id,
			 struct json_writer *w, struct sb_err *e)
{
	struct figures f = { 0 };
	int rc = findings_run(s, id, &f, e);
	if (!rc && w) {
		json_object_begin(w, "source");
		json_string(w, "kind", "suite");
		json_string(w, "db", db);
		json_i64(w, "run", id);
		json_object_end(w);
		findings_json(w, "figures", &f);
		rc = suite_provenance(s, id, w, e);
	} else if (!rc) {
		for (size_t i = 0; i < f.n; i++)
			printf("%-48s %14.6g %s\n", f.v[i].key, f.v[i].value, f.v[i].unit);
	}
	figures_free(&f);
	return rc;
}

static int analyze_run(const char *db, const char *run_arg,
		       const struct analyze_opts *o, struct json_writer *w,
		       struct sb_err *e, int *usage_error)
{
	int64_t id;
	if (run_view_parse_id(run_arg, &id, e)) {
		*usage_error = 1;
		return -1;
	}
	struct store *s;
	if (store_open_readonly(db, &s, e))
		return -1;
	struct workload_row *wl = NULL;
	size_t n = 0;
	struct lat_hist *h = hist_new();
	int rc = h ? 0 : sb_errno(e, ENOMEM, "histogram");
	if (!rc)
		rc = run_view_resolve_last(s, &id, e);
	bool suite = false;
	if (!rc) {
		/* a run that is not there is an error, not an empty list */
		struct run_row row;
		if ((rc = store_get_run(s, id, &row, e)) == 0) {
			suite = !strcmp(row.kind, "suite");
			store_run_row_free(&row);
		}
	}
	if (!rc && suite) {
		/* A suite run: the figures of every step (findings/). */
		rc = suite_figures(s, db, id, w, e);
		hist_free(h);
		store_close(s);
		return rc;
	}
	if (!rc)
		rc = store_list_workloads(s, id, 0, &wl, &n, e);
	if (!rc && w) {
		json_object_begin(w, "source");
		json_string(w, "kind", "run");
		json_string(w, "db", db);
		json_i64(w, "run", id);
		json_object_end(w);
		json_array_begin(w, "traces");
	}
	if (!rc && !w && n == 0)
		printf("run %lld has no workloads\n", (long long)id);
	for (size_t i = 0; i < n && !rc; i++)
		rc = analyze_workload(s, &wl[i], o, h, w, e);
	if (w && wl)
		json_array_end(w);
	if (wl)
		store_workload_rows_free(wl, n);
	hist_free(h);
	store_close(s);
	return rc;
}

int cmd_analyze(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "fio-log", required_argument, NULL, 'l' },
		{ "fio-json", required_argument, NULL, 'j' },
		{ "log-type", required_argument, NULL, 't' },
		{ "dir", required_argument, NULL, 'D' },
		{ "slice", required_argument, NULL, 'S' },
		{ "kind", required_argument, NULL, 'k' },
		{ "metric", required_argument, NULL, 'm' },
		{ "capacity", required_argument, NULL, 'c' },
		{ "rule", required_argument, NULL, 'r' },
		{ "window", required_argument, NULL, 'w' },
		{ "interval", required_argument, NULL, 'i' },
		{ "limit", required_argument, NULL, 'L' },
		{ "sustain", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db = STORE_DEFAULT_PATH, *fio_log = NULL, *fio_json = NULL;
	const char *log_type = NULL, *dir = NULL;
	uint64_t slice_ns = 100000000, v;
	struct analyze_opts o;
	analyze_opts_default(&o);
	struct sb_err e;
	int c, bad = 0;
	opterr = 0;
	optind = 1;
	while (!bad && (c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': db = optarg; break;
		case 'l': fio_log = optarg; break;
		case 'j': fio_json = optarg; break;
		case 't': log_type = optarg; break;
		case 'D': dir = optarg; break;
		case 'S': bad = parse_duration_ns(optarg, &slice_ns, &e) ||
				(slice_ns < 1000000 &&
				 sb_errf(&e, "--slice: at least 1ms")); break;
		case 'k': bad = analyze_parse_kind(optarg, &o.kinds, &e); break;
		case 'm':
			if (!strcmp(optarg, "bw"))
				o.metric = TRACE_BW;
			else if (!strcmp(optarg, "iops"))
				o.metric = TRACE_IOPS;
			else
				bad = sb_errf(&e, "--metric: '%s' is not bw or iops", optarg);
			break;
		case 'c': bad = parse_size(optarg, &o.capacity, &e); break;
		case 'r': bad = ss_rule_parse(optarg, &o.ss.rule, &o.ss_metric, &e); break;
		case 'w':
			bad = parse_duration_ns(optarg, &v, &e);
			o.ss.window_s = (double)v / 1e9;
			break;
		case 'i':
			bad = parse_duration_ns(optarg, &v, &e);
			o.ss.interval_s = (double)v / 1e9;
			break;
		case 'L': bad = parse_pct(optarg, &o.ss.slope_limit_pct, &e); break;
		case 's':
			bad = parse_duration_ns(optarg, &v, &e);
			o.fill.drop_window_s = (double)v / 1e9;
			break;
		case 'J': o.json = true; break;
		case 'h': usage(stdout); return 0;
		default:
			fprintf(stderr, "ssdbench analyze: unknown or incomplete option '%s'\n",
				argv[optind - 1]);
			usage(stderr);
			return 2;
		}
	}
	if (!bad && o.ss_metric >= 0 && o.metric >= 0 && o.ss_metric != o.metric)
		bad = sb_errf(&e, "--rule %s judges %s: --metric %s contradicts it",
			      o.ss.rule == SS_FIO_SLOPE ?
			      (o.ss_metric == TRACE_BW ? "bw_slope" : "iops_slope") :
			      trace_metric_name((enum trace_metric)o.ss_metric),
			      trace_metric_name((enum trace_metric)o.ss_metric),
			      trace_metric_name((enum trace_metric)o.metric));
	if (bad) {
		fprintf(stderr, "ssdbench analyze: %s\n", e.msg);
		return 2;
	}
	const char *run_arg = optind < argc ? argv[optind++] : NULL;
	int sources = (run_arg != NULL) + (fio_log != NULL) + (fio_json != NULL);
	if (sources != 1 || optind < argc) {
		fprintf(stderr, "ssdbench analyze: give one of RUN, --fio-log FILE "
			"or --fio-json FILE\n");
		usage(stderr);
		return 2;
	}
	/* JSON is built in memory and printed whole: an error part-way
	   leaves stdout one error object, never half a document. */
	struct json_writer jw, *w = NULL;
	char *jbuf = NULL;
	size_t jlen = 0;
	FILE *jout = NULL;
	if (o.json) {
		if (!(jout = open_memstream(&jbuf, &jlen))) {
			perror("ssdbench analyze");
			return 1;
		}
		json_init(&jw, jout, true);
		json_object_begin(&jw, NULL);
		w = &jw;
	}
	int rc, usage_error = 0;
	if (fio_log)
		rc = analyze_fio_log(fio_log, log_type, dir, slice_ns, &o, w, &e);
	else if (fio_json)
		rc = analyze_fio_json(fio_json, w, &e);
	else
		rc = analyze_run(db, run_arg, &o, w, &e, &usage_error);
	if (w && !rc) {
		json_object_end(w);
		json_finish(w);
	}
	if (jout) {
		bool lost = fclose(jout) != 0;
		if (!rc && !lost)
			fwrite(jbuf, 1, jlen, stdout);
		free(jbuf);
		if (rc || lost)
			json_print_error(stdout, rc ? e.msg : "out of memory");
		if (lost && !rc)
			rc = sb_errf(&e, "out of memory for the JSON output");
	}
	if (rc) {
		fflush(stdout);
		fprintf(stderr, "ssdbench analyze: %s\n", e.msg);
		return usage_error ? 2 : 1;
	}
	if (fflush(stdout) || ferror(stdout)) {
		perror("ssdbench analyze: writing the output");
		return 1;
	}
	return 0;
}
