/*
 * Device queries that ran during a measurement (plans with monitor=) are
 * made visible: `show` and `show --json` count them per workload with their
 * total time, and the report says when they ran under the workload's charts
 * and marks those moments on its charts against time.
 *
 * The database: one run with a fill step (pass 1 with two queries, pass 2
 * with none) and an ss_precond step (one query); the query rows are put in
 * by hand with SQL, as the table's documented columns say, so what is read
 * back is checked against numbers this file chose:
 *   pass=1:  t = 10.000-10.002 s (nvme), 30.000-30.003 s (nvme): 2, 5 ms
 *   precond: t = 5.000-5.001 s (ata): 1, 1 ms
 */
#include "check.h"

#include <dirent.h>
#include <fcntl.h>
#include <jansson.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/export.h"
#include "report/model.h"
#include "report/report.h"
#include "report_fixture.h"

static char root[256], db[300];
static int64_t run_id, pass1_id, pass2_id, pre_id;
static bool ready;

static int64_t workload_id(struct store *s, int64_t run, const char *name)
{
	struct workload_row *w;
	size_t n;
	struct sb_err e;
	int64_t id = 0;
	if (store_list_workloads(s, run, 0, &w, &n, &e))
		CHECK_FAIL("list: %s", e.msg);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(w[i].name, name))
			id = w[i].id;
	store_workload_rows_free(w, n);
	return id;
}

static void insert_queries(void)
{
	sqlite3 *h;
	CHECK(sqlite3_open(db, &h) == SQLITE_OK);
	char sql[512];
	snprintf(sql, sizeof sql,
		 "INSERT INTO device_queries VALUES "
		 "(%lld, 10000000000, 10002000000, 'nvme'),"
		 "(%lld, 30000000000, 30003000000, 'nvme'),"
		 "(%lld, 5000000000, 5001000000, 'ata');",
		 (long long)pass1_id, (long long)pass1_id, (long long)pre_id);
	char *msg = NULL;
	if (sqlite3_exec(h, sql, NULL, NULL, &msg) != SQLITE_OK)
		CHECK_FAIL("insert: %s", msg ? msg : "?");
	sqlite3_free(msg);
	sqlite3_close(h);
}

static bool setup(void)
{
	if (ready)
		return true;
	snprintf(root, sizeof root, "/tmp/ssdbench-dq.XXXXXX");
	if (!mkdtemp(root))
		return false;
	snprintf(db, sizeof db, "%s/dq.db", root);
	struct sb_err e;
	struct store *s;
	if (store_open(db, &s, &e)) {
		CHECK_FAIL("%s", e.msg);
		return false;
	}
	struct run_begin b = { .kind = "suite", .target = "sim:dut",
			       .command_line = "ssdbench suite",
			       .params_json = "{}", .host_json = "{}" };
	if (store_run_begin(s, &b, &run_id, &e))
		CHECK_FAIL("run_begin: %s", e.msg);
	static double v[600];
	int64_t st = fx_step(s, run_id, 1, "fill",
			     "{\"kind\":\"fill\",\"monitor\":\"10\"}");
	struct fx_wl fill = { "pass=1", "seq", 0, 131072, 256, 0 };
	size_t n = fx_two_level(v, 200, 5000, 400, 1500);
	fx_put(s, run_id, st, 0, &fill, v, n, 6000, 2000);
	fill.name = "pass=2";
	fx_put(s, run_id, st, 1, &fill, v, n, 6000, 2000);
	fx_step_done(s, st);
	st = fx_step(s, run_id, 2, "seq_precond",
		     "{\"kind\":\"ss_precond\",\"monitor\":\"5\"}");
	struct fx_wl pre = { "precond", "seq", 0, 131072, 256, 0 };
	for (int k = 0; k < 300; k++)
		v[k] = 2000;
	fx_put(s, run_id, st, 0, &pre, v, 300, 8000, 2000);
	fx_step_done(s, st);
	if (store_run_finish(s, run_id, "done", NULL, &e) ||
	    store_tick(s, true, &e))
		CHECK_FAIL("finish: %s", e.msg);
	pass1_id = workload_id(s, run_id, "pass=1");
	pass2_id = workload_id(s, run_id, "pass=2");
	pre_id = workload_id(s, run_id, "precond");
	store_close(s);
	insert_queries();
	ready = pass1_id && pass2_id && pre_id;
	return ready;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = malloc((size_t)n + 1);
	size_t got = fread(buf, 1, (size_t)n, f);
	buf[got] = '\0';
	fclose(f);
	return buf;
}

/* What `ssdbench show RUN` (json: with --json) prints, as text. */
static char *show(bool json)
{
	char out[320], runarg[32];
	snprintf(out, sizeof out, "%s/show%s.txt", root, json ? "-json" : "");
	snprintf(runarg, sizeof runarg, "%lld", (long long)run_id);
	char *argv[] = { "show", runarg, "--db", db, json ? "--json" : NULL, NULL };
	fflush(stdout);
	int saved = dup(STDOUT_FILENO);
	int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, STDOUT_FILENO);
	close(fd);
	int rc = cmd_show(json ? 5 : 4, argv);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	CHECK(rc == 0);
	return slurp(out);
}

/* The lines of workload `name` in show's text: from its header to the next. */
static const char *section_of(const char *text, const char *name)
{
	char head[64];
	snprintf(head, sizeof head, " %s  [", name);
	return strstr(text, head);
}

TEST(show_counts_queries_and_their_time)
{
	if (!setup())
		return;
	char *t = show(false);
	CHECK(t != NULL);
	if (!t)
		return;
	const char *p1 = section_of(t, "pass=1"), *p2 = section_of(t, "pass=2"),
		   *pre = section_of(t, "precond");
	CHECK(p1 && p2 && pre);
	if (p1 && p2 && pre) {
		const char *q1 = strstr(p1, "device queries: ");
		const char *q2 = strstr(p2, "device queries: ");
		const char *q3 = strstr(pre, "device queries: ");
		CHECK(q1 && q1 < p2 && !strncmp(q1, "device queries: 2 during "
			"this workload (5.00 ms in all)", 50));
		CHECK(q2 && q2 < pre && !strncmp(q2, "device queries: 0 during "
			"this workload (0 ns in all)", 50));
		CHECK(q3 && !strncmp(q3, "device queries: 1 during this "
			"workload (1.00 ms in all)", 50));
	}
	free(t);
}

TEST(show_json_counts_queries_and_their_time)
{
	if (!setup())
		return;
	char *t = show(true);
	CHECK(t != NULL);
	json_error_t je;
	json_t *j = t ? json_loads(t, 0, &je) : NULL;
	CHECK(j != NULL);
	json_t *wl = json_object_get(j, "workloads");
	CHECK(json_is_array(wl) && json_array_size(wl) == 3);
	int seen = 0;
	for (size_t i = 0; i < json_array_size(wl); i++) {
		json_t *w = json_array_get(wl, i);
		const char *name = json_string_value(json_object_get(w, "name"));
		json_int_t n = json_integer_value(json_object_get(w, "device_queries"));
		json_int_t ns = json_integer_value(json_object_get(w, "device_query_ns"));
		CHECK(json_is_integer(json_object_get(w, "device_queries")));
		if (name && !strcmp(name, "pass=1")) {
			CHECK(n == 2 && ns == 5000000);
			seen++;
		} else if (name && !strcmp(name, "pass=2")) {
			CHECK(n == 0 && ns == 0);
			seen++;
		} else if (name && !strcmp(name, "precond")) {
			CHECK(n == 1 && ns == 1000000);
			seen++;
		}
	}
	CHECK(seen == 3);
	json_decref(j);
	free(t);
}

/* The .gp script in DIR whose name contains `part`, as text. */
static char *script(const char *dir, const char *part)
{
	DIR *d = opendir(dir);
	if (!d)
		return NULL;
	struct dirent *de;
	char *text = NULL;
	while (!text && (de = readdir(d))) {
		size_t len = strlen(de->d_name);
		if (strstr(de->d_name, part) && len > 3 &&
		    !strcmp(de->d_name + len - 3, ".gp")) {
			char p[600];
			snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
			text = slurp(p);
		}
	}
	closedir(d);
	return text;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

TEST(report_says_and_marks_when_queries_ran)
{
	if (!setup())
		return;
	struct rpt_run r;
	struct sb_err e;
	if (rpt_run_load(&r, db, run_id, &e)) {
		CHECK_FAIL("load: %s", e.msg);
		return;
	}
	struct report_opts o;
	struct report_stats st;
	char out[320];
	snprintf(out, sizeof out, "%s/out", root);
	report_opts_defaults(&o);
	o.out_dir = out;
	if (report_build(&r, 1, &o, &st, &e))
		CHECK_FAIL("report: %s", e.msg);
	/* The preconditioning charts' time axis cut at 4 s: the query at
	   5 s is beyond it and gets no mark (it would sit outside the frame). */
	char clipped[320];
	snprintf(clipped, sizeof clipped, "%s/clipped", root);
	o.out_dir = clipped;
	o.clip_time_s = 4;
	if (report_build(&r, 1, &o, &st, &e))
		CHECK_FAIL("report (clipped): %s", e.msg);
	rpt_run_free(&r);
	char *cgp = script(clipped, "precond-time");
	CHECK(cgp && !strstr(cgp, "graph 0 to first"));
	free(cgp);

	char path[400];
	snprintf(path, sizeof path, "%s/index.html", out);
	char *html = slurp(path);
	CHECK(html != NULL);
	if (html) {
		CHECK(strstr(html, "2 device queries (health, temperature) ran "
			      "during this measurement, at t = 10.0 s, 30.0 s "
			      "(0.005 s in all"));
		CHECK(strstr(html, "1 device query (health, temperature) ran "
			      "during this measurement, at t = 5.0 s (0.001 s"));
		/* Pass 2 had none: two notes, no more. */
		CHECK(count(html, "ran during this measurement") == 2);
	}
	free(html);

	static const char mark10[] = "set arrow from first 10, graph 0 to first 10, graph 1";
	static const char mark30[] = "set arrow from first 30, graph 0 to first 30, graph 1";
	static const char mark5[] = "set arrow from first 5, graph 0 to first 5, graph 1";
	char *gp = script(out, "pass1-bw-time");
	CHECK(gp && strstr(gp, mark10) && strstr(gp, mark30) &&
	      count(gp, "nohead lw 1 dt 3") == 2);
	free(gp);
	gp = script(out, "pass1-lat-time");
	CHECK(gp && strstr(gp, mark10) && strstr(gp, mark30));
	free(gp);
	/* Not on an axis of bytes written, and not on pass 2. */
	gp = script(out, "pass1-bw-written");
	CHECK(gp && !strstr(gp, "graph 0 to first"));
	free(gp);
	gp = script(out, "pass2-bw-time");
	CHECK(gp && !strstr(gp, "graph 0 to first"));
	free(gp);
	gp = script(out, "precond-time");
	CHECK(gp && strstr(gp, mark5) && count(gp, "nohead lw 1 dt 3") == 1);
	free(gp);
	gp = script(out, "precond-lat-time");
	CHECK(gp && strstr(gp, mark5));
	free(gp);
}

TEST(zz_cleanup)
{
	if (!root[0] || getenv("KEEP_DQ"))
		return;
	char cmd[320];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	CHECK(system(cmd) == 0);
}

CHECK_MAIN("device_queries")
