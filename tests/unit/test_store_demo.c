/*
 * A small database with known contents, for the show/export tests.
 *
 * Run with STORE_DEMO_DB=PATH, it only writes that database (the
 * integration test calls it so).  Run as a unit test, it builds the same
 * database in a temp directory and checks the exporters' output against
 * the numbers it was built from.
 *
 * Run 1 ("done"): workload #0 "main", ten 100 ms samples, the first two
 * ramp; 1000 reads of 4 KiB and 250 writes of 4 KiB per sample, so the
 * measured part (8 samples, 0.8 s) has 8000 reads = 10000 IOPS, 40.96 MB/s,
 * and 2000 writes = 2500 IOPS.  Read latencies 1, 2 ... 8000 us (p50 4 ms,
 * mean 4000.5 us, max 8 ms), every write 20 us.  Workload #1 "seq, 128k"
 * (a comma, for CSV quoting) has 3 samples and no I/O.  A metric "score".
 * Run 2 ("suite", killed: still "running"): steps purge (done) and fill
 * (running), a workload in fill with 5 samples and checkpoint totals.
 * Run 3 ("failed", error "device vanished"): nothing else.
 */
#include "store_fixture.h"

#include <stdio.h>

#include "cli/export.h"
#include "cli/run_view.h"
#include "common/json.h"

static void sample(struct interval_sample *x, uint64_t i, uint64_t reads,
		   uint64_t writes)
{
	memset(x, 0, sizeof *x);
	x->index = i;
	x->t_start_ns = i * 100000000u;
	x->t_end_ns = (i + 1) * 100000000u;
	x->ramp = i < 2;
	x->dir[DIR_READ].bytes = reads * 4096;
	x->dir[DIR_READ].ios = reads;
	x->dir[DIR_WRITE].bytes = writes * 4096;
	x->dir[DIR_WRITE].ios = writes;
	if (writes) {
		x->dir[DIR_WRITE].lat_p50_ns = x->dir[DIR_WRITE].lat_p99_ns =
			x->dir[DIR_WRITE].lat_max_ns = 20000;
		x->dir[DIR_WRITE].lat_sum_ns = writes * 20000;
	}
}

#define TRY(call) do { if ((call) != 0) { fprintf(stderr, "demo: %s\n", e.msg); return -1; } } while (0)

static int build_demo(const char *path)
{
	struct store *s;
	struct sb_err e;
	struct interval_sample x;
	int64_t r1, r2, r3, w0, w1, st1, st2, w2;
	TRY(store_open(path, &s, &e));

	struct run_begin b = { .kind = "run", .target = "/tmp/demo.img",
			       .command_line = "ssdbench run --target /tmp/demo.img --rw randrw",
			       .params_json = "{\"rw\":\"randrw\",\"bs\":4096}",
			       .host_json = "{\"kernel\":\"6.1.0\"}" };
	TRY(store_run_begin(s, &b, &r1, &e));
	TRY(store_run_target_facts(s, r1, "before", "{\"size_bytes\":1073741824}", &e));
	TRY(store_run_target_facts(s, r1, "after", "{\"size_bytes\":1073741824}", &e));
	TRY(store_workload_begin(s, r1, 0, 0, "main", "{\"qd\":32}", &w0, &e));
	TRY(store_workload_begin(s, r1, 0, 1, "seq, 128k", NULL, &w1, &e));
	for (uint64_t i = 0; i < 10; i++) {
		sample(&x, i, 1000, 250);
		x.dir[DIR_READ].lat_p50_ns = 4000000;	/* stand-ins: not checked */
		x.dir[DIR_READ].lat_p99_ns = 7920000;
		x.dir[DIR_READ].lat_max_ns = 8000000;
		x.dir[DIR_READ].lat_sum_ns = 4000500000;
		TRY(store_add_sample(s, w0, &x, &e));
		if (i < 3) {
			sample(&x, i, 0, 0);
			TRY(store_add_sample(s, w1, &x, &e));
		}
		TRY(store_tick(s, false, &e));
	}
	struct lat_hist *h[DIR_COUNT] = { hist_new(), hist_new(), NULL };
	for (uint64_t v = 1; v <= 8000; v++)
		hist_add(h[DIR_READ], v * 1000);
	for (int i = 0; i < 2000; i++)
		hist_add(h[DIR_WRITE], 20000);
	struct store_totals t = { .bytes = { 8000 * 4096, 2000 * 4096, 0 },
				  .ios = { 8000, 2000, 0 },
				  .measured_ns = 800000000 };
	int rc = store_workload_totals(s, w0, &t, h, true, &e);
	hist_free(h[DIR_READ]);
	hist_free(h[DIR_WRITE]);
	TRY(rc);
	struct store_totals none = { .measured_ns = 300000000 };
	struct lat_hist *nohist[DIR_COUNT] = { NULL, NULL, NULL };
	TRY(store_workload_totals(s, w1, &none, nohist, true, &e));
	TRY(store_workload_finish(s, w0, "done", "interrupt", &e));
	TRY(store_workload_finish(s, w1, "done", "interrupt", &e));
	TRY(store_put_metric(s, r1, 0, 0, "score", 42.5, "points", &e));
	TRY(store_add_device_reading(s, r1, 500000000, "temperature_c", 41, &e));
	TRY(store_run_engine_mode(s, r1, "interrupt", &e));
	TRY(store_run_finish(s, r1, "done", NULL, &e));

	struct run_begin b2 = { .kind = "suite", .target = "sim:demo" };
	TRY(store_run_begin(s, &b2, &r2, &e));
	TRY(store_step_begin(s, r2, 1, "purge", NULL, &st1, &e));
	TRY(store_step_finish(s, st1, "done", NULL, &e));
	TRY(store_step_begin(s, r2, 2, "fill", "{\"passes\":2}", &st2, &e));
	TRY(store_workload_begin(s, r2, st2, 0, "fill.pass1", NULL, &w2, &e));
	for (uint64_t i = 0; i < 5; i++) {
		sample(&x, i, 0, 100);
		x.ramp = false;
		TRY(store_add_sample(s, w2, &x, &e));
	}
	struct store_totals t2 = { .bytes = { 0, 500 * 4096, 0 },
				   .ios = { 0, 500, 0 }, .measured_ns = 500000000 };
	TRY(store_workload_totals(s, w2, &t2, nohist, false, &e));

	TRY(store_run_begin(s, &b2, &r3, &e));
	TRY(store_run_finish(s, r3, "failed", "device vanished", &e));
	TRY(store_tick(s, true, &e));
	store_close(s);
	return 0;
}

/* Export into a string (freed by the caller). */
static char *export_str(struct store *s, int64_t run,
			int (*fn)(FILE *, struct store *, int64_t, struct sb_err *),
			int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	struct sb_err e;
	FILE *f = open_memstream(&buf, &len);
	*rc = fn(f, s, run, &e);
	fclose(f);
	return buf;
}

static size_t count_lines(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

TEST(csv_samples_are_the_stored_samples)
{
	struct store *s;
	struct sb_err e;
	if (build_demo(db_path("demo.db")) || store_open_readonly(db_path("demo.db"), &s, &e)) {
		CHECK_FAIL("demo database");
		return;
	}
	int rc;
	char *csv = export_str(s, 1, export_csv_samples, &rc);
	CHECK(rc == 0);
	CHECK(count_lines(csv) == 1 + 10 + 3);
	CHECK(!strncmp(csv, "run_id,workload_id,step_id,workload_index,"
			    "workload_name,idx,t_start_ns,t_end_ns,ramp,"
			    "read_bytes,read_ios,read_p50_ns,", 90));
	CHECK(strstr(csv, "\n1,1,0,0,main,2,200000000,300000000,0,4096000,1000,"
			  "4000000,7920000,8000000,4000500000,1024000,250,20000,"
			  "20000,20000,5000000,0,0,0,0,0,0\n") != NULL);
	CHECK(strstr(csv, "\n1,2,0,1,\"seq, 128k\",0,0,100000000,1,") != NULL);
	free(csv);

	csv = export_str(s, 2, export_csv_samples, &rc);
	CHECK(rc == 0 && count_lines(csv) == 1 + 5);
	free(csv);
	csv = export_str(s, 3, export_csv_samples, &rc);
	CHECK(rc == 0 && count_lines(csv) == 1);
	free(csv);
	csv = export_str(s, 4, export_csv_samples, &rc);
	CHECK(rc == -1);
	free(csv);
	store_close(s);
}

TEST(csv_summary_and_histograms_follow_the_histograms)
{
	struct store *s;
	struct sb_err e;
	if (build_demo(db_path("demo2.db")) || store_open_readonly(db_path("demo2.db"), &s, &e)) {
		CHECK_FAIL("demo database");
		return;
	}
	int rc;
	char *csv = export_str(s, 1, export_csv_summary, &rc);
	CHECK(rc == 0);
	/* main: read and write rows; "seq, 128k" did no I/O: no row. */
	CHECK(count_lines(csv) == 3);
	CHECK(strstr(csv, "lat_p50_ns,lat_p99_ns,lat_p99_9_ns,lat_p99_99_ns,"
			  "lat_p99_999_ns,lat_p99_9999_ns,lat_max_ns,"
			  "response_lat_count,") != NULL);
	CHECK(strstr(csv, "\n1,1,0,0,main,done,1,read,800000000,8000,32768000,"
			  "10000.000000,40960000.000000,8000,4000500.000000,1000,") != NULL);
	CHECK(strstr(csv, ",write,800000000,2000,8192000,2500.000000,"
			  "10240000.000000,2000,20000.000000,20000,20000,20000,"
			  "20000,20000,20000,20000,20000"
			  ",,,,,,,,,,,,,,,"	/* a closed loop */
			  /* no provenance recorded: the way and counts empty, the
			     I/Os reported every direction's */
			  ",,10000,,\n") != NULL);
	free(csv);

	csv = export_str(s, 1, export_csv_histograms, &rc);
	CHECK(rc == 0);
	/* Every read latency 1..8000 us lands in a bucket; counts add up. */
	uint64_t reads = 0, writes = 0, lines = 0;
	char *save, *line = strtok_r(csv, "\n", &save);	/* the header */
	while ((line = strtok_r(NULL, "\n", &save))) {
		uint64_t c = strtoull(strrchr(line, ',') + 1, NULL, 10);
		lines++;
		if (strstr(line, ",main,read,"))
			reads += c;
		else if (strstr(line, ",main,write,"))
			writes += c;
		else
			CHECK_FAIL("unexpected row %s", line);
	}
	CHECK_EQ_U64(reads, 8000);
	CHECK_EQ_U64(writes, 2000);
	/* 8000 distinct values up to 8 ms: many buckets; 20 us: exactly one. */
	CHECK(lines > 1000 && lines <= 8001);
	free(csv);
	store_close(s);
}

/*
 * An open loop by hand (the stall of test_openloop.c): 100 reads arriving
 * every 1 ms at QD1; each is served in 100 us except the 11th, 5.5 ms, so
 * the next five wait behind it, late by 4.5, 3.6, 2.7, 1.8 and 0.9 ms, and
 * answer 4.6, 3.7, 2.8, 1.9 and 1.0 ms after their arrivals.  Sorted
 * responses: 94 x 0.1, then 1.0, 1.9, 2.8, 3.7, 4.6, 5.5 ms (p99, rank 99:
 * 4.6 ms; mean 28.9 ms / 100); lateness: 95 x 0, then the five (p99: 3.6
 * ms; the late ones' mean 2.7 ms).  Beside it a closed loop, which has no
 * response latency.
 */
static int build_open_loop(const char *path)
{
	struct store *s;
	struct sb_err e;
	int64_t run, wo, wc;
	TRY(store_open(path, &s, &e));
	struct run_begin b = { .kind = "run", .target = "sim:x" };
	TRY(store_run_begin(s, &b, &run, &e));
	TRY(store_workload_begin(s, run, 0, 0, "open", NULL, &wo, &e));
	TRY(store_workload_begin(s, run, 0, 1, "closed", NULL, &wc, &e));
	struct lat_hist *svc = hist_new(), *resp = hist_new(), *late = hist_new();
	static const uint64_t late_us[] = { 4500, 3600, 2700, 1800, 900 };
	for (int k = 0; k < 100; k++) {
		uint64_t l = k >= 11 && k <= 15 ? late_us[k - 11] * 1000 : 0;
		uint64_t sv = k == 10 ? 5500000 : 100000;
		hist_add(svc, sv);
		hist_add(late, l);
		hist_add(resp, l + sv);
	}
	struct lat_hist *h[DIR_COUNT] = { svc, NULL, NULL };
	struct store_totals t = { .bytes = { 100 * 4096 }, .ios = { 100 },
				  .measured_ns = 100000000 };
	t.response[DIR_READ] = resp;
	t.lateness[DIR_READ] = late;
	int rc = store_workload_totals(s, wo, &t, h, true, &e);
	struct store_totals tc = { .bytes = { 100 * 4096 }, .ios = { 100 },
				   .measured_ns = 100000000 };
	if (!rc)
		rc = store_workload_totals(s, wc, &tc, h, true, &e);
	hist_free(svc);
	hist_free(resp);
	hist_free(late);
	TRY(rc);
	TRY(store_run_finish(s, run, "done", NULL, &e));
	TRY(store_tick(s, true, &e));
	store_close(s);
	return 0;
}

/* Splits a CSV line without quoted fields into its fields, empty ones
   included; returns their number. */
static int csv_fields(char *line, char **f, int max)
{
	int n = 0;
	for (char *p = line; n < max; p++) {
		f[n++] = p;
		p = strchr(p, ',');
		if (!p)
			break;
		*p = '\0';
	}
	return n;
}

static const char *csv_field(char **names, char **vals, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return vals[i];
	CHECK_FAIL("no column %s", name);
	return "";
}

TEST(csv_summary_has_an_open_loops_response_latency)
{
	struct store *s;
	struct sb_err e;
	if (build_open_loop(db_path("open.db")) ||
	    store_open_readonly(db_path("open.db"), &s, &e)) {
		CHECK_FAIL("open-loop database");
		return;
	}
	int rc;
	char *csv = export_str(s, 1, export_csv_summary, &rc);
	store_close(s);
	CHECK(rc == 0);
	CHECK(count_lines(csv) == 3);	/* the header, open, closed */
	char *names[128], *open[128], *closed[128];
	char *l1 = strchr(csv, '\n');
	char *l2 = l1 ? strchr(l1 + 1, '\n') : NULL;
	if (!l2) {
		free(csv);
		return;
	}
	*l1 = *l2 = '\0';
	if (strchr(l2 + 1, '\n'))
		*strchr(l2 + 1, '\n') = '\0';
	int n = csv_fields(csv, names, 128);
	if (csv_fields(l1 + 1, open, 128) != n || csv_fields(l2 + 1, closed, 128) != n) {
		CHECK_FAIL("a row has not the header's %d fields", n);
		free(csv);
		return;
	}
	CHECK_EQ_STR(csv_field(names, open, n, "workload_name"), "open");
	CHECK_EQ_STR(csv_field(names, closed, n, "workload_name"), "closed");
#define COL(row, name) strtod(csv_field(names, row, n, name), NULL)
	/* service latency: the stall is only its max */
	CHECK_REL(COL(open, "lat_p99_ns"), 100000, 0.0005);
	CHECK_EQ_U64((uint64_t)COL(open, "lat_max_ns"), 5500000);
	/* response latency, against the sorted table */
	CHECK_EQ_U64((uint64_t)COL(open, "response_lat_count"), 100);
	CHECK_REL(COL(open, "response_lat_mean_ns"), 289000, 1e-9);
	CHECK_EQ_U64((uint64_t)COL(open, "response_lat_min_ns"), 100000);
	CHECK_REL(COL(open, "response_lat_p50_ns"), 100000, 0.0005);
	CHECK_REL(COL(open, "response_lat_p99_ns"), 4600000, 0.0005);
	CHECK_REL(COL(open, "response_lat_p99_9_ns"), 5500000, 0.0005);
	CHECK_EQ_U64((uint64_t)COL(open, "response_lat_max_ns"), 5500000);
	/* lateness */
	CHECK_EQ_U64((uint64_t)COL(open, "lateness_ios"), 100);
	CHECK_EQ_U64((uint64_t)COL(open, "lateness_late_ios"), 5);
	CHECK_REL(COL(open, "lateness_late_mean_ns"), 2700000, 1e-9);
	CHECK_REL(COL(open, "lateness_p99_ns"), 3600000, 0.0005);
	CHECK_EQ_U64((uint64_t)COL(open, "lateness_max_ns"), 4500000);
#undef COL
	/* a closed loop: every one of them empty, as JSON's null */
	int empty = 0, named = 0;
	for (int i = 0; i < n; i++)
		if (!strncmp(names[i], "response_lat_", 13) ||
		    !strncmp(names[i], "lateness_", 9)) {
			named++;
			empty += closed[i][0] == '\0';
		}
	/* count, mean, min, the percentiles, max; and lateness' five */
	CHECK(named == 4 + RUN_VIEW_NPCT + 5 && empty == named);
	free(csv);
}

TEST(json_export_is_valid_in_every_form)
{
	struct store *s;
	struct sb_err e;
	if (build_demo(db_path("demo3.db")) || store_open_readonly(db_path("demo3.db"), &s, &e)) {
		CHECK_FAIL("demo database");
		return;
	}
	static const unsigned parts[] = { 0, EXPORT_SAMPLES, EXPORT_HISTOGRAMS,
					  EXPORT_SAMPLES | EXPORT_HISTOGRAMS };
	for (int64_t run = 1; run <= 3; run++)
		for (size_t p = 0; p < 4; p++) {
			char *buf = NULL;
			size_t len = 0;
			FILE *f = open_memstream(&buf, &len);
			CHECK(export_json_run(f, s, run, parts[p], &e) == 0);
			fclose(f);
			if (!json_valid(buf))
				CHECK_FAIL("run %lld parts %u: invalid JSON", (long long)run, parts[p]);
			if (run == 1)
				CHECK(strstr(buf, "\"iops\": 10000") != NULL ||
				      strstr(buf, "\"iops\":10000") != NULL);
			if (run < 3)	/* run 3 has no workloads */
				CHECK((strstr(buf, "\"samples\"") != NULL) ==
				      ((parts[p] & EXPORT_SAMPLES) != 0));
			free(buf);
		}
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK(export_json_run_list(f, s, &e) == 0);
	fclose(f);
	CHECK(json_valid(buf));
	free(buf);
	store_close(s);
}

static int run_tests(int argc, char **argv)
{
	const char *only = getenv("STORE_DEMO_DB");
	if (only) {
		unlink(only);
		return build_demo(only) ? 1 : 0;
	}
	atexit(remove_tmpdir);
	return check_main("test_store_demo", argc, argv);
}

int main(int argc, char **argv) { return run_tests(argc, argv); }
