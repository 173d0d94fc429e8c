/*
 * ssdbench show [RUN] [--db FILE] [--json]
 *
 * Without RUN, the runs in the database; with RUN, one run: its facts,
 * steps, workloads with rates and latency percentiles, and metrics.  Only
 * reads: a missing database is an error, never created.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/export.h"
#include "cli/run_output.h"
#include "cli/run_view.h"
#include "cli/show_fields.h"
#include "common/term_text.h"
#include "common/units.h"
#include "store/store.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: ssdbench show [RUN] [--db FILE] [--json]\n"
		"\n"
		"  RUN         a run id from the list, or 'last'; without it, list the runs\n"
		"  --db FILE   the results database (default %s)\n"
		"  --json      print JSON (the keys are listed in docs/database.md)\n",
		STORE_DEFAULT_PATH);
}

/* "2026-11-29T23:45:01.123Z" -> "2026-11-29 23:45:01" */
static const char *short_time(const char *iso, char *buf, size_t len)
{
	snprintf(buf, len, "%.19s", iso);
	if (strlen(buf) > 10 && buf[10] == 'T')
		buf[10] = ' ';
	return buf;
}

static int list_runs(struct store *s, struct sb_err *e)
{
	struct run_row *r;
	size_t n;
	bool running = false;
	char t[32], tg[512];
	if (store_list_runs(s, &r, &n, e))
		return -1;
	if (!n) {
		printf("no runs yet\n");
		store_run_rows_free(r, n);
		return 0;
	}
	printf("%6s  %-19s  %-5s  %-11s  %-9s  %s\n", "ID", "STARTED (UTC)",
	       "KIND", "STATUS", "MODE", "TARGET");
	for (size_t i = 0; i < n; i++) {
		bool live = !strcmp(r[i].status, "running");
		running |= live;
		printf("%6lld  %-19s  %-5s  %-11s  %-9s  %s\n",
		       (long long)r[i].id, short_time(r[i].started_at, t, sizeof t),
		       r[i].kind, live ? "running*" : r[i].status,
		       r[i].engine_mode[0] ? r[i].engine_mode : "-",
		       term_text(r[i].target, tg, sizeof tg));
	}
	if (running)
		printf("\n* running: interrupted or still running (a killed run "
		       "keeps this status)\n");
	store_run_rows_free(r, n);
	return 0;
}

static void field(const char *name, const char *value)
{
	char buf[4096];
	if (value && *value)
		printf("  %-14s %s\n", name, term_text(value, buf, sizeof buf));
}

static int show_steps(struct store *s, int64_t run_id, struct sb_err *e)
{
	struct step_row *st;
	size_t n;
	char t1[32], t2[32], nm[256], err[1024];
	bool running = false;
	if (store_list_steps(s, run_id, &st, &n, e))
		return -1;
	if (n) {
		printf("\nsteps\n  %4s  %-16s  %-11s  %-19s  %s\n", "SEQ", "NAME",
		       "STATUS", "STARTED", "FINISHED");
	}
	for (size_t i = 0; i < n; i++) {
		bool live = !strcmp(st[i].status, "running");
		running |= live;
		printf("  %4d  %-16s  %-11s  %-19s  %s\n", st[i].seq,
		       term_text(st[i].name, nm, sizeof nm),
		       live ? "running*" : st[i].status,
		       short_time(st[i].started_at, t1, sizeof t1),
		       short_time(st[i].finished_at, t2, sizeof t2));
		if (st[i].error)
			printf("        error: %s\n",
			       term_text(st[i].error, err, sizeof err));
	}
	if (running)
		printf("  * interrupted or still running\n");
	store_step_rows_free(st, n);
	return 0;
}

/* mean, percentiles, max; returns whether one was printed as PCT_AT_MAX. */
static bool show_lat(const struct lat_view *l)
{
	char b[RUN_VIEW_NPCT + 3][24];
	bool marked = false;
	printf(" %9s", fmt_ns((uint64_t)llround(l->mean_ns), b[0], sizeof b[0]));
	for (int p = 0; p < RUN_VIEW_NPCT; p++) {
		marked |= !l->pct_supported[p];
		printf(" %9s", l->pct_supported[p] ? fmt_ns(l->pct_ns[p], b[p + 1], sizeof b[p + 1])
						   : PCT_AT_MAX);
	}
	printf(" %9s\n", fmt_ns(l->max_ns, b[RUN_VIEW_NPCT + 1], sizeof b[RUN_VIEW_NPCT + 1]));
	return marked;
}

/* Returns whether a percentile was printed as PCT_AT_MAX. */
static bool show_dir(const char *name, const struct dir_view *v)
{
	if (isfinite(v->iops))
		printf("    %-5s %12.1f %10.2f %14llu", name, v->iops,
		       v->bw_bytes / 1e6, (unsigned long long)v->ios);
	else
		printf("    %-5s %12s %10s %14llu", name, "-", "-",
		       (unsigned long long)v->ios);
	if (!v->lat.count) {
		printf("\n");
		return false;
	}
	bool marked = show_lat(&v->lat);
	if (!v->open_loop)
		return marked;
	/* open loop: the line above is service latency */
	printf("    %-5s %12s %10s %14s", "", "", "", "response");
	marked |= show_lat(&v->resp);
	run_print_lateness(stdout, "          ", &v->late);
	return marked;
}

/* Device queries made while the workload ran (plans with monitor=): the
   drive answered them between the workload's I/Os. */
static int show_device_queries(struct store *s, const struct workload_row *w,
			       struct sb_err *e)
{
	if (!w->stalls_known) {
		printf("    device queries: not recorded (a database from before they were)\n");
		return 0;
	}
	struct device_query_row *q;
	size_t n;
	if (store_list_device_queries(s, w->id, &q, &n, e))
		return -1;
	char total[32];
	printf("    device queries: %zu during this workload (%s in all)\n", n,
	       fmt_ns(device_queries_total_ns(q, n), total, sizeof total));
	free(q);
	return 0;
}

static int show_workload(struct store *s, const struct workload_row *w,
			 struct lat_hist *h, void *first, struct sb_err *e)
{
	char status[64], secs[32], nm[256], mode[128];
	if (*(bool *)first)
		printf("\nworkloads (latency from the stored histograms; MB/s "
		       "is 10^6 bytes/s)\n");
	*(bool *)first = false;
	snprintf(secs, sizeof secs, "%.2f s", w->totals.measured_ns / 1e9);
	printf("\n  #%u %s  [%s%s%s]  measured %s%s\n", w->index,
	       term_text(w->name, nm, sizeof nm),
	       run_view_status(w->status, status, sizeof status),
	       w->mode[0] ? ", " : "", term_text(w->mode, mode, sizeof mode), secs,
	       w->final ? "" : " (last checkpoint, not final)");
	struct dir_view v[DIR_COUNT];
	bool any = false;
	for (int d = 0; d < DIR_COUNT; d++) {
		if (run_view_dir(s, w, (enum io_dir)d, h, &v[d], e))
			return -1;
		any |= !dir_view_empty(&v[d]);
	}
	char stall[32], from[192];
	run_view_provenance(&w->totals, from, sizeof from);
	printf("    I/Os: %s\n", from);
	if (w->stalls_known)
		printf("    driver stalls: %llu (%s waiting for the collector)\n",
		       (unsigned long long)w->totals.driver_stalls,
		       fmt_ns(w->totals.driver_stall_ns, stall, sizeof stall));
	else
		printf("    driver stalls: not recorded (a database from before they were)\n");
	if (show_device_queries(s, w, e))
		return -1;
	if (!any) {
		printf("    no I/O recorded\n");
		return 0;
	}
	printf("    %-5s %12s %10s %14s %9s", "", "IOPS", "MB/s", "I/Os", "mean");
	for (int p = 0; p < RUN_VIEW_NPCT; p++)
		printf(" %9s", run_view_pct_names[p]);
	printf(" %9s\n", "max");
	bool marked = false, open_loop = false;
	for (int d = 0; d < DIR_COUNT; d++)
		if (!dir_view_empty(&v[d])) {
			marked |= show_dir(io_dir_name((enum io_dir)d), &v[d]);
			open_loop |= v[d].open_loop;
		}
	if (open_loop)
		printf("    open loop: the first latency line is service latency "
		       "(submission to completion), response runs from each I/O's "
		       "scheduled arrival\n");
	if (marked)
		printf("    %s: fewer than one I/O beyond that percentile, so it is only "
		       "the max\n", PCT_AT_MAX);
	return 0;
}

static int show_metrics(struct store *s, int64_t run_id, struct sb_err *e)
{
	struct metric_row *m;
	struct device_reading *r;
	size_t n;
	if (store_list_metrics(s, run_id, &m, &n, e))
		return -1;
	if (n)
		printf("\nmetrics\n");
	for (size_t i = 0; i < n; i++) {
		char where[64] = "";
		if (m[i].workload_id)
			snprintf(where, sizeof where, "  (workload %lld)",
				 (long long)m[i].workload_id);
		else if (m[i].step_id)
			snprintf(where, sizeof where, "  (step %lld)",
				 (long long)m[i].step_id);
		printf("  %-40s %14.6g %s%s\n", m[i].key, m[i].value,
		       m[i].unit, where);
	}
	free(m);
	if (store_list_device_readings(s, run_id, &r, &n, e))
		return -1;
	if (n)
		printf("\ndevice readings: %zu (all of them: ssdbench export %lld "
		       "--json)\n", n, (long long)run_id);
	free(r);
	return 0;
}

static int show_run(struct store *s, int64_t run_id, struct sb_err *e)
{
	struct run_row r;
	char status[64];
	if (store_get_run(s, run_id, &r, e))
		return -1;
	char kind[64];
	printf("run %lld (%s)\n", (long long)r.id, term_text(r.kind, kind, sizeof kind));
	field("status", run_view_status(r.status, status, sizeof status));
	field("target", r.target);
	field("started", r.started_at);
	field("finished", r.finished_at);
	field("engine mode", r.engine_mode);
	field("command", r.command_line);
	field("error", r.error);
	show_json_fields(stdout, "parameters", r.params_json, 2);
	show_json_fields(stdout, "host", r.host_json, 2);
	show_json_fields(stdout, "target before", r.facts_before_json, 2);
	show_json_fields(stdout, "target after", r.facts_after_json, 2);
	store_run_row_free(&r);
	bool first = true;
	if (show_steps(s, run_id, e) ||
	    run_view_each_workload(s, run_id, show_workload, &first, e) ||
	    show_metrics(s, run_id, e))
		return -1;
	return 0;
}

int cmd_show(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db = STORE_DEFAULT_PATH, *run_arg = NULL;
	bool json = false;
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': db = optarg; break;
		case 'j': json = true; break;
		case 'h': usage(stdout); return 0;
		case ':':
			fprintf(stderr, "ssdbench show: %s needs a value\n",
				argv[optind - 1]);
			return 2;
		default:
			fprintf(stderr, "ssdbench show: unknown option '%s'\n",
				argv[optind - 1]);
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc)
		run_arg = argv[optind++];
	if (optind < argc) {
		fprintf(stderr, "ssdbench show: one run at a time ('%s' is one "
			"too many)\n", argv[optind]);
		return 2;
	}

	struct sb_err e;
	struct store *s;
	int64_t id = 0;
	if (run_arg && run_view_parse_id(run_arg, &id, &e)) {
		fprintf(stderr, "ssdbench show: %s\n", e.msg);
		return 2;
	}
	if (store_open_readonly(db, &s, &e)) {
		fprintf(stderr, "ssdbench show: %s\n", e.msg);
		return 1;
	}
	int rc;
	if (!run_arg)
		rc = json ? export_json_run_list(stdout, s, &e) : list_runs(s, &e);
	else if ((rc = run_view_resolve_last(s, &id, &e)) == 0)
		rc = json ? export_json_run(stdout, s, id, 0, &e)
			  : show_run(s, id, &e);
	store_close(s);
	if (rc) {
		fflush(stdout);
		fprintf(stderr, "ssdbench show: %s\n", e.msg);
		return 1;
	}
	if (fflush(stdout) || ferror(stdout)) {
		perror("ssdbench show: writing the output");
		return 1;
	}
	return 0;
}
