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
			  "lat_p99_999_ns,lat_p99_9999_ns,lat_max_ns\n") != NULL);
	CHECK(strstr(csv, "\n1,1,0,0,main,done,1,read,800000000,8000,32768000,"
			  "10000.000000,40960000.000000,8000,4000500.000000,1000,") != NULL);
	CHECK(strstr(csv, ",write,800000000,2000,8192000,2500.000000,"
			  "10240000.000000,2000,20000.000000,20000,20000,20000,"
			  "20000,20000,20000,20000,20000\n") != NULL);
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
