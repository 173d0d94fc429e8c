/* The results database: every write read back exactly, migrations from an
   older schema, the refusals, batching of commits, and crash safety. */
#include "check.h"


#include "store_fixture.h"

#include <time.h>

TEST(fresh_database_has_current_schema)
{
	struct store *s = open_new("fresh.db");
	if (!s)
		return;
	CHECK(store_schema_version(s) == store_current_version());
	CHECK(store_current_version() >= 2);
	int v = 0;
	struct sb_err e;
	CHECK(store_read_version(s->db, "x", &v, &e) == 0 && v == store_current_version());
	sqlite3_stmt *st;
	CHECK(sqlite3_prepare_v2(s->db, "PRAGMA journal_mode", -1, &st, NULL) == SQLITE_OK);
	CHECK(sqlite3_step(st) == SQLITE_ROW);
	CHECK_EQ_STR((const char *)sqlite3_column_text(st, 0), "wal");
	sqlite3_finalize(st);
	CHECK(sqlite3_prepare_v2(s->db, "PRAGMA foreign_keys", -1, &st, NULL) == SQLITE_OK);
	CHECK(sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 1);
	sqlite3_finalize(st);
	CHECK(sqlite3_prepare_v2(s->db, "PRAGMA synchronous", -1, &st, NULL) == SQLITE_OK);
	CHECK(sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 1); /* NORMAL */
	sqlite3_finalize(st);
	store_close(s);
	/* Opening again keeps the version and applies nothing. */
	CHECK(store_open(db_path("fresh.db"), &s, &e) == 0);
	if (s) {
		CHECK(store_schema_version(s) == store_current_version());
		store_close(s);
	}
}

TEST(run_round_trip)
{
	struct store *s = open_new("run.db");
	struct sb_err e;
	if (!s)
		return;
	int64_t a = begin_run(s, "/dev/loop7");
	int64_t b = begin_run(s, "sim:tlc-1tb");
	CHECK(a > 0 && b > a);
	CHECK(store_run_target_facts(s, a, "before", "{\"size\":1024}", &e) == 0);
	CHECK(store_run_target_facts(s, a, "after", "{\"size\":1}", &e) == 0);
	/* Facts replace, they do not pile up. */
	CHECK(store_run_target_facts(s, a, "after", "{\"size\":2048}", &e) == 0);
	CHECK(store_run_engine_mode(s, a, "iopoll", &e) == 0);
	CHECK(store_run_finish(s, a, "failed", "device vanished", &e) == 0);

	struct run_row r;
	CHECK(store_get_run(s, a, &r, &e) == 0);
	CHECK(r.id == a);
	CHECK_EQ_STR(r.kind, "run");
	CHECK_EQ_STR(r.target, "/dev/loop7");
	CHECK_EQ_STR(r.status, "failed");
	CHECK_EQ_STR(r.engine_mode, "iopoll");
	CHECK_EQ_STR(r.command_line, "ssdbench run --target x");
	CHECK_EQ_STR(r.params_json, "{\"bs\":4096}");
	CHECK_EQ_STR(r.host_json, "{\"kernel\":\"6.1\"}");
	CHECK_EQ_STR(r.facts_before_json, "{\"size\":1024}");
	CHECK_EQ_STR(r.facts_after_json, "{\"size\":2048}");
	CHECK_EQ_STR(r.error, "device vanished");
	/* 2026-11-29T23:45:01.123Z */
	CHECK(strlen(r.started_at) == 24 && r.started_at[10] == 'T' &&
	      r.started_at[23] == 'Z');
	CHECK(strlen(r.finished_at) == 24 && strcmp(r.finished_at, r.started_at) >= 0);
	store_run_row_free(&r);

	CHECK(store_get_run(s, b, &r, &e) == 0);
	CHECK_EQ_STR(r.status, "running");
	CHECK_EQ_STR(r.finished_at, "");
	CHECK(r.facts_before_json == NULL && r.error == NULL);
	store_run_row_free(&r);

	struct run_row *rows;
	size_t n;
	CHECK(store_list_runs(s, &rows, &n, &e) == 0);
	CHECK(n == 2);
	if (n == 2) {
		CHECK(rows[0].id == b && rows[1].id == a); /* newest first */
		CHECK_EQ_STR(rows[1].target, "/dev/loop7");
	}
	store_run_rows_free(rows, n);

	CHECK(store_get_run(s, 999, &r, &e) == -1);
	CHECK(strstr(e.msg, "no run 999") != NULL);
	CHECK(store_run_finish(s, 999, "done", NULL, &e) == -1);
	CHECK(strstr(e.msg, "no run with id 999") != NULL);
	CHECK(store_run_finish(s, a, "finished", NULL, &e) == -1);
	CHECK(strstr(e.msg, "unknown status 'finished'") != NULL);
	CHECK(store_run_target_facts(s, a, "during", "{}", &e) == -1);
	CHECK(store_run_target_facts(s, 999, "before", "{}", &e) == -1);
	CHECK(strstr(e.msg, "FOREIGN KEY") != NULL);
	store_close(s);
}

TEST(steps_round_trip)
{
	struct store *s = open_new("steps.db");
	struct sb_err e;
	if (!s)
		return;
	int64_t run = begin_run(s, "t");
	int64_t st1, st2, st3;
	CHECK(store_step_begin(s, run, 2, "fill", "{\"passes\":2}", &st2, &e) == 0);
	CHECK(store_step_begin(s, run, 1, "purge", NULL, &st1, &e) == 0);
	CHECK(store_step_finish(s, st1, "done", NULL, &e) == 0);
	CHECK(store_step_finish(s, st2, "partial", "resumed", &e) == 0);
	/* A resumed step runs again under the same seq. */
	CHECK(store_step_begin(s, run, 2, "fill", NULL, &st3, &e) == 0);
	CHECK(store_step_finish(s, st3, "bogus", NULL, &e) == -1);
	CHECK(store_step_finish(s, 12345, "done", NULL, &e) == -1);
	CHECK(store_step_begin(s, run, 3, "", NULL, &st3, &e) == -1);

	struct step_row *rows;
	size_t n;
	CHECK(store_list_steps(s, run, &rows, &n, &e) == 0);
	CHECK(n == 3);
	if (n == 3) {
		CHECK(rows[0].id == st1 && rows[0].seq == 1);
		CHECK_EQ_STR(rows[0].name, "purge");
		CHECK_EQ_STR(rows[0].status, "done");
		CHECK(rows[0].params_json == NULL && rows[0].error == NULL);
		CHECK(rows[1].id == st2 && rows[1].seq == 2);
		CHECK_EQ_STR(rows[1].status, "partial");
		CHECK_EQ_STR(rows[1].error, "resumed");
		CHECK_EQ_STR(rows[1].params_json, "{\"passes\":2}");
		CHECK(rows[1].finished_at[0] != '\0');
		CHECK(rows[2].seq == 2);
		CHECK_EQ_STR(rows[2].status, "running");
		CHECK_EQ_STR(rows[2].finished_at, "");
	}
	store_step_rows_free(rows, n);
	CHECK(store_list_steps(s, run + 1, &rows, &n, &e) == 0 && n == 0);
	store_step_rows_free(rows, n);
	store_close(s);
}

/* A step cut short and marked "partial" on resume keeps the time it was
   cut (and why), not the time of the resume that marked it. */
TEST(partial_step_keeps_its_cut_time)
{
	struct store *s = open_new("partial.db");
	struct sb_err e;
	if (!s)
		return;
	int64_t run = begin_run(s, "t");
	int64_t a, b, wl;
	CHECK(store_step_begin(s, run, 1, "fill", NULL, &a, &e) == 0);
	CHECK(store_step_finish(s, a, "interrupted", "stopped by the user", &e) == 0);
	CHECK(store_step_begin(s, run, 2, "peak", NULL, &b, &e) == 0);
	CHECK(store_workload_begin(s, run, b, 0, "w", NULL, &wl, &e) == 0);
	CHECK(store_workload_finish(s, wl, "done", "virtual", &e) == 0);
	struct step_row *rows;
	size_t n;
	char cut_a[32] = "", before[32];
	CHECK(store_list_steps(s, run, &rows, &n, &e) == 0 && n == 2);
	if (n == 2)
		snprintf(cut_a, sizeof cut_a, "%s", rows[0].finished_at);
	store_step_rows_free(rows, n);
	struct timespec ts;
	struct tm tm;
	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	size_t k = strftime(before, sizeof before, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(before + k, sizeof before - k, ".%03ldZ", ts.tv_nsec / 1000000);
	struct timespec pause = { 0, 30 * 1000000 };
	nanosleep(&pause, NULL);	/* the resume comes later */
	CHECK(store_step_finish(s, a, "partial", "ran again on resume", &e) == 0);
	CHECK(store_step_finish(s, b, "partial", "ran again on resume", &e) == 0);
	CHECK(store_list_steps(s, run, &rows, &n, &e) == 0 && n == 2);
	if (n == 2) {
		CHECK_EQ_STR(rows[0].finished_at, cut_a);
		CHECK(rows[0].error && strstr(rows[0].error, "stopped by the user"));
		/* killed while running: cut when the last thing it stored
		   ended, before the resume */
		CHECK(rows[1].finished_at[0] && strcmp(rows[1].finished_at, before) <= 0);
		CHECK(strcmp(rows[1].finished_at, rows[1].started_at) >= 0);
	}
	store_step_rows_free(rows, n);
	store_close(s);
}

static void fill_hist(struct lat_hist *h, uint64_t seed, size_t n)
{
	struct rng r;
	rng_seed(&r, seed);
	hist_reset(h);
	for (size_t i = 0; i < n; i++)	/* a spread from 1 ns to ~1 s */
		hist_add(h, 1 + (rng_next(&r) >> (34 + rng_next(&r) % 30)));
}

TEST(workloads_totals_histograms_round_trip)
{
	struct store *s = open_new("wl.db");
	struct sb_err e;
	if (!s)
		return;
	int64_t run = begin_run(s, "t"), step, w0, w1, w2;
	CHECK(store_step_begin(s, run, 1, "sweep", NULL, &step, &e) == 0);
	CHECK(store_workload_begin(s, run, 0, 0, "main", "{\"rw\":\"randrw\"}", &w0, &e) == 0);
	CHECK(store_workload_begin(s, run, step, 0, "qd1", NULL, &w1, &e) == 0);
	CHECK(store_workload_begin(s, run, step, 1, "qd32", NULL, &w2, &e) == 0);

	struct lat_hist *h[DIR_COUNT] = { hist_new(), hist_new(), hist_new() };
	struct lat_hist *got = hist_new();
	fill_hist(h[DIR_READ], 1, 100000);
	fill_hist(h[DIR_WRITE], 2, 5000);
	/* trim: empty */
	struct store_totals t = { .bytes = { 1ull << 40, 3, 0 },
				  .ios = { UINT64_MAX / 3, 1, 0 },
				  .measured_ns = 7ull * 3600 * 1000000000 };
	/* A checkpoint first, with a different read histogram, then final. */
	struct lat_hist *early[DIR_COUNT] = { h[DIR_WRITE], h[DIR_WRITE], h[DIR_WRITE] };
	CHECK(store_workload_totals(s, w0, &t, early, false, &e) == 0);
	CHECK(store_load_histogram(s, w0, DIR_TRIM, got, &e) == 0 && got->count == 5000);
	CHECK(store_workload_totals(s, w0, &t, h, true, &e) == 0);
	CHECK(store_workload_finish(s, w0, "done", "interrupt", &e) == 0);
	CHECK(store_workload_finish(s, w1, "interrupted", NULL, &e) == 0);
	CHECK(store_workload_finish(s, 4242, "done", NULL, &e) == -1);
	CHECK(store_workload_finish(s, w2, "partial", NULL, &e) == -1);
	CHECK(strstr(e.msg, "unknown status 'partial'") != NULL);
	CHECK(store_workload_totals(s, 4242, &t, h, true, &e) == -1);

	for (int d = 0; d < DIR_COUNT; d++) {
		CHECK(store_load_histogram(s, w0, (enum io_dir)d, got, &e) == 0);
		CHECK(same_hist(got, h[d]));
		CHECK(hist_percentile(got, 99.99) == hist_percentile(h[d], 99.99));
	}
	CHECK(got->count == 0 && got->min == UINT64_MAX); /* trim: empty */
	CHECK(store_load_histogram(s, w1, DIR_READ, got, &e) == 0 && got->count == 0);
	CHECK(store_load_histogram(s, 4242, DIR_READ, got, &e) == -1);
	CHECK(strstr(e.msg, "no workload with id 4242") != NULL);

	struct workload_row *rows;
	size_t n;
	CHECK(store_list_workloads(s, run, 0, &rows, &n, &e) == 0);
	CHECK(n == 3);
	if (n == 3) {
		CHECK(rows[0].id == w0 && rows[0].step_id == 0 && rows[0].index == 0);
		CHECK_EQ_STR(rows[0].name, "main");
		CHECK_EQ_STR(rows[0].status, "done");
		CHECK_EQ_STR(rows[0].mode, "interrupt");
		CHECK_EQ_STR(rows[0].spec_json, "{\"rw\":\"randrw\"}");
		CHECK(!memcmp(&rows[0].totals, &t, sizeof t));
		CHECK(rows[0].final);
		CHECK(rows[1].id == w1 && rows[1].step_id == step);
		CHECK_EQ_STR(rows[1].status, "interrupted");
		CHECK_EQ_STR(rows[1].mode, "");
		CHECK(!rows[1].final && rows[1].totals.ios[DIR_READ] == 0);
		CHECK(rows[2].id == w2 && rows[2].index == 1);
		CHECK_EQ_STR(rows[2].status, "running");
	}
	store_workload_rows_free(rows, n);
	CHECK(store_list_workloads(s, run, step, &rows, &n, &e) == 0);
	CHECK(n == 2 && rows[0].id == w1 && rows[1].id == w2);
	store_workload_rows_free(rows, n);

	for (int d = 0; d < DIR_COUNT; d++)
		hist_free(h[d]);
	hist_free(got);
	store_close(s);
}

/* store_each_sample_counts' rows against the whole samples read back. */
struct counts_check {
	const struct interval_sample *want;
	unsigned dirs;	/* the directions asked for, the ones compared */
	size_t n, seen, bad;
	size_t stop_at;	/* the row whose call fails */
};

static int check_counts(void *ctx, const struct sample_counts *c, struct sb_err *e)
{
	struct counts_check *cc = ctx;
	size_t i = cc->seen++;
	if (i >= cc->n) {
		cc->bad++;
		return 0;
	}
	const struct interval_sample *w = &cc->want[i];
	cc->bad += c->t_start_ns != w->t_start_ns || c->t_end_ns != w->t_end_ns ||
		   c->ramp != w->ramp;
	for (int d = 0; d < DIR_COUNT; d++)
		if (cc->dirs & (1u << d))
			cc->bad += c->bytes[d] != w->dir[d].bytes || c->ios[d] != w->dir[d].ios;
	return i == cc->stop_at ? sb_errf(e, "stopped at %zu", i) : 0;
}

TEST(samples_round_trip)
{
	struct store *s = open_new("samples.db");
	struct sb_err e;
	if (!s)
		return;
	int64_t run = begin_run(s, "t"), w0, w1;
	CHECK(store_workload_begin(s, run, 0, 0, "a", NULL, &w0, &e) == 0);
	CHECK(store_workload_begin(s, run, 0, 1, "b", NULL, &w1, &e) == 0);
	struct interval_sample x;
	for (uint64_t i = 0; i < 500; i++) {
		make_sample(&x, 0, i, 7);
		CHECK(store_add_sample(s, w0, &x, &e) == 0);
		make_sample(&x, 1, i, 8);
		if (i % 2 == 0)
			CHECK(store_add_sample(s, w1, &x, &e) == 0);
	}
	/* The same interval twice is a caller's bug, said clearly. */
	make_sample(&x, 0, 10, 7);
	CHECK(store_add_sample(s, w0, &x, &e) == -1);
	CHECK(strstr(e.msg, "sample 10 of workload") != NULL);
	CHECK(store_tick(s, true, &e) == 0);

	struct interval_sample *got;
	size_t n;
	if (store_load_samples(s, w0, &got, &n, &e))
		CHECK_FAIL("%s", e.msg);
	CHECK(n == 500);
	size_t bad = 0;
	for (size_t i = 0; i < n; i++) {
		make_sample(&x, 0, i, 7);
		bad += !same_sample(&got[i], &x);
	}
	CHECK(bad == 0);
	free(got);
	CHECK(store_load_samples(s, w1, &got, &n, &e) == 0);
	CHECK(n == 250);
	bad = 0;
	for (size_t i = 0; i < n; i++) {
		make_sample(&x, 1, 2 * i, 8);
		bad += !same_sample(&got[i], &x);
	}
	CHECK(bad == 0);
	/* the counts alone: each sample's time, ramp, bytes and I/Os, the
	   same as the whole samples read back, one call a row in order */
	static const unsigned masks[] = { 7, 1u << DIR_WRITE, 1u << DIR_READ | 1u << DIR_WRITE };
	struct counts_check cc;
	for (size_t k = 0; k < sizeof masks / sizeof masks[0]; k++) {
		cc = (struct counts_check){ .want = got, .dirs = masks[k], .n = n,
					    .stop_at = SIZE_MAX };
		CHECK(store_each_sample_counts(s, w1, cc.dirs, check_counts, &cc, &e) == 0);
		CHECK(cc.seen == n);
		CHECK(cc.bad == 0);
	}
	/* a callback's error stops the reading, and is the call's */
	cc = (struct counts_check){ .want = got, .dirs = 7, .n = n, .stop_at = 7 };
	CHECK(store_each_sample_counts(s, w1, 7, check_counts, &cc, &e) == -1);
	CHECK(cc.seen == 8);
	CHECK(strstr(e.msg, "stopped at 7") != NULL);
	/* and the statement is free again for the next reading */
	cc = (struct counts_check){ .want = got, .dirs = 7, .n = n, .stop_at = SIZE_MAX };
	CHECK(store_each_sample_counts(s, w1, 7, check_counts, &cc, &e) == 0);
	CHECK(cc.seen == n);
	free(got);
	CHECK(store_load_samples(s, 777, &got, &n, &e) == -1);
	cc = (struct counts_check){ .stop_at = SIZE_MAX };
	CHECK(store_each_sample_counts(s, 777, 7, check_counts, &cc, &e) == -1);
	CHECK(cc.seen == 0);
	store_close(s);
}

/* Samples i0..i1 of workload w (seed `seed`) are what it holds, in order. */
static void check_samples(struct store *s, int64_t w, uint32_t wl, uint64_t i0, uint64_t i1,
			  uint64_t seed)
{
	struct interval_sample *got, x;
	size_t n;
	struct sb_err e;
	if (store_load_samples(s, w, &got, &n, &e)) {
		CHECK_FAIL("%s", e.msg);
		return;
	}
	CHECK_EQ_U64(n, i1 - i0 + 1);
	size_t bad = 0;
	for (size_t k = 0; k < n; k++) {
		make_sample(&x, wl, i0 + k, seed);
		bad += !same_sample(&got[k], &x);
	}
	CHECK(bad == 0);
	free(got);
}

/*
 * A workload's run of samples waits in the store, SAMPLE_BATCH at a time
 * (store_impl.h): against the samples as written one by one, every read
 * sees all written so far (whatever the batch's fill), a commit makes
 * them visible to another connection, closing writes the rest, and a
 * repeated sample inside a batch is refused by name with the rows around
 * it kept, as one by one.
 */
TEST(batched_samples_are_there_for_every_read_commit_and_close)
{
	struct store *s = open_new("batched.db");
	struct sb_err e;
	if (!s)
		return;
	int64_t run = begin_run(s, "t"), w[4];
	for (int k = 0; k < 4; k++)
		CHECK(store_workload_begin(s, run, 0, (uint32_t)k, "w", NULL, &w[k], &e) == 0);
	struct interval_sample x;
	static const uint64_t reads[] = { 0, 1, 15, 16, 17, 37, 500, 999 };
	size_t r = 0;
	for (uint64_t i = 0; i < 1000; i++) {
		make_sample(&x, 0, i, 5);
		CHECK(store_add_sample(s, w[0], &x, &e) == 0);
		if (r < sizeof reads / sizeof reads[0] && i == reads[r]) {
			check_samples(s, w[0], 0, 0, i, 5);
			r++;
		}
	}
	/* in batches: a batch that failed as a whole would have gone row by
	   row, the same rows, at the cost the batch is there to save */
	CHECK(sqlite3_stmt_status(s->stmt[ST_SAMPLE_INSERT], SQLITE_STMTSTATUS_RUN, 0) <
	      1000 / SAMPLE_BATCH);
	/* written, not yet committed: another connection sees them after */
	for (uint64_t i = 1000; i < 1010; i++) {
		make_sample(&x, 0, i, 5);
		CHECK(store_add_sample(s, w[0], &x, &e) == 0);
	}
	CHECK(store_tick(s, true, &e) == 0);
	struct store *o;
	CHECK(store_open_readonly(db_path("batched.db"), &o, &e) == 0);
	if (o) {
		check_samples(o, w[0], 0, 0, 1009, 5);
		store_close(o);
	}
	/* a repeat in a batch short of full: refused at the commit, by name */
	uint64_t order[] = { 5, 3, 4, 5 };
	for (int k = 0; k < 4; k++) {
		make_sample(&x, 1, order[k], 6);
		CHECK(store_add_sample(s, w[1], &x, &e) == 0);
	}
	CHECK(store_tick(s, true, &e) == -1);
	CHECK(strstr(e.msg, "sample 5 of workload") != NULL);
	check_samples(s, w[1], 1, 3, 5, 6);
	/* a repeat in a full batch: the batch told row by row */
	make_sample(&x, 2, 20, 7);
	CHECK(store_add_sample(s, w[2], &x, &e) == 0);
	int refused = 0;
	for (uint64_t i = 3; i <= 35; i++) {
		make_sample(&x, 2, i, 7);
		if (store_add_sample(s, w[2], &x, &e)) {
			refused++;
			CHECK(strstr(e.msg, "sample 20 of workload") != NULL);
		}
	}
	CHECK(refused == 1);
	check_samples(s, w[2], 2, 3, 35, 7);
	/* closing writes what waits */
	for (uint64_t i = 0; i < 10; i++) {
		make_sample(&x, 3, i, 8);
		CHECK(store_add_sample(s, w[3], &x, &e) == 0);
	}
	CHECK(s->npend > 0);	/* the test tests the wait */
	store_close(s);
	CHECK(store_open(db_path("batched.db"), &s, &e) == 0);
	if (s) {
		check_samples(s, w[3], 3, 0, 9, 8);
		check_samples(s, w[0], 0, 0, 1009, 5);
		store_close(s);
	}
}

/*
 * A batch's parameters bound only where the value differs from the last
 * batch's (store_impl.h: batch_vals): samples whose fields repeat from
 * batch to batch or change (values drawn from three, the trims all 0),
 * the workload switching between runs of batches, a batch refused and
 * told row by row between them: each reads back as written.
 */
static void make_repeating_sample(struct interval_sample *x, uint32_t wl, uint64_t i,
				  uint64_t seed)
{
	make_sample(x, wl, i, seed);
	struct rng r;
	rng_seed(&r, seed * 7919u + i);
	for (int d = 0; d < DIR_COUNT; d++) {
		struct interval_dir *v = &x->dir[d];
		uint64_t *f[] = { &v->bytes, &v->ios, &v->lat_p50_ns, &v->lat_p99_ns,
				  &v->lat_max_ns, &v->lat_sum_ns };
		for (int k = 0; k < 6; k++)
			*f[k] = d == DIR_TRIM ? 0 : rng_next(&r) % 3;
	}
	x->ramp = (i / 40) % 2;
}

TEST(batched_samples_with_repeating_values_round_trip)
{
	struct store *s = open_new("repeating.db");
	struct sb_err e;
	if (!s)
		return;
	int64_t run = begin_run(s, "t"), w[2];
	for (int k = 0; k < 2; k++)
		CHECK(store_workload_begin(s, run, 0, (uint32_t)k, "w", NULL, &w[k], &e) == 0);
	struct interval_sample x;
	uint64_t next[2] = { 0, 0 };
	/* runs of 3, 1, 2 ... batches, alternating workloads */
	for (int part = 0; part < 8; part++) {
		uint32_t k = (uint32_t)part % 2;
		uint64_t n = SAMPLE_BATCH * (uint64_t)(1 + (part * 2) % 3) + 1;
		for (uint64_t j = 0; j < n; j++, next[k]++) {
			make_repeating_sample(&x, k, next[k], 11 + k);
			CHECK(store_add_sample(s, w[k], &x, &e) == 0);
		}
		if (part == 4) {
			/* a full batch refused (a repeat), told row by row */
			make_repeating_sample(&x, k, next[k] + 5, 11 + k);
			CHECK(store_add_sample(s, w[k], &x, &e) == 0);
			int refused = 0;
			for (uint64_t j = 0; j < 2 * SAMPLE_BATCH; j++, next[k]++) {
				make_repeating_sample(&x, k, next[k], 11 + k);
				refused += store_add_sample(s, w[k], &x, &e) != 0;
			}
			CHECK(refused == 1);
		}
	}
	CHECK(s->batch_held);	/* the test tests the values kept */
	CHECK(store_tick(s, true, &e) == 0);
	for (uint32_t k = 0; k < 2; k++) {
		struct interval_sample *got;
		size_t n;
		if (store_load_samples(s, w[k], &got, &n, &e)) {
			CHECK_FAIL("%s", e.msg);
			continue;
		}
		CHECK_EQ_U64(n, next[k]);
		size_t bad = 0;
		for (size_t i = 0; i < n; i++) {
			make_repeating_sample(&x, k, i, 11 + k);
			bad += !same_sample(&got[i], &x);
		}
		CHECK(bad == 0);
		free(got);
	}
	store_close(s);
}

TEST(metrics_and_readings_round_trip)
{
	struct store *s = open_new("metrics.db");
	struct sb_err e;
	if (!s)
		return;
	int64_t run = begin_run(s, "t"), other = begin_run(s, "u"), step, wl;
	CHECK(store_step_begin(s, run, 1, "fill", NULL, &step, &e) == 0);
	CHECK(store_workload_begin(s, run, step, 0, "w", NULL, &wl, &e) == 0);
	CHECK(store_put_metric(s, run, step, 0, "fill.pass1.slc_cache_gb", 41.5, "GB", &e) == 0);
	CHECK(store_put_metric(s, run, 0, 0, "score", 1.0, NULL, &e) == 0);
	CHECK(store_put_metric(s, run, 0, 0, "score", 2.25, "", &e) == 0); /* replaces */
	CHECK(store_put_metric(s, run, step, wl, "score", NAN, "x", &e) == 0); /* distinct */
	CHECK(store_put_metric(s, other, 0, 0, "score", 9, "", &e) == 0);
	CHECK(store_put_metric(s, run, 0, 0, "", 1, "", &e) == -1);
	CHECK(store_add_device_reading(s, run, 2000, "temp_c", 45, &e) == 0);
	CHECK(store_add_device_reading(s, run, 1000, "temp_c", 44.5, &e) == 0);
	CHECK(store_add_device_reading(s, run, 1000, "media_errors", 0, &e) == 0);
	CHECK(store_tick(s, true, &e) == 0);

	struct metric_row *m;
	size_t n;
	CHECK(store_list_metrics(s, run, &m, &n, &e) == 0);
	CHECK(n == 3);
	if (n == 3) {
		/* ordered by step (none first), workload, key */
		CHECK(m[0].step_id == 0 && m[0].workload_id == 0);
		CHECK_EQ_STR(m[0].key, "score");
		CHECK(m[0].value == 2.25);
		CHECK_EQ_STR(m[0].unit, "");
		CHECK(m[1].step_id == step && m[1].workload_id == 0);
		CHECK_EQ_STR(m[1].key, "fill.pass1.slc_cache_gb");
		CHECK(m[1].value == 41.5);
		CHECK_EQ_STR(m[1].unit, "GB");
		CHECK(m[2].step_id == step && m[2].workload_id == wl);
		CHECK(isnan(m[2].value));
	}
	free(m);

	struct device_reading *r;
	CHECK(store_list_device_readings(s, run, &r, &n, &e) == 0);
	CHECK(n == 3);
	if (n == 3) {
		CHECK(r[0].t_ns == 1000 && r[0].value == 44.5);
		CHECK_EQ_STR(r[0].key, "temp_c");
		CHECK(r[1].t_ns == 1000);
		CHECK_EQ_STR(r[1].key, "media_errors");
		CHECK(r[2].t_ns == 2000 && r[2].value == 45);
	}
	free(r);
	store_close(s);
}

/* A bind that SQLite refuses (here a parameter the statement does not
   have) is an error naming the parameter when the statement is run, not a
   row written or read with NULL in its place. */
TEST(failed_bind_is_an_error_naming_the_parameter)
{
	struct store *s = open_new("bind.db");
	if (!s)
		return;
	struct sb_err e = { 0 };
	sqlite3_stmt *st = store_stmt(s, ST_RUN_MODE, &e); /* ?1, ?2 only */
	CHECK(st != NULL);
	if (!st) {
		store_close(s);
		return;
	}
	store_bind_i64(s, st, 1, 1);
	store_bind_text(s, st, 3, "uring");
	store_bind_i64(s, st, 2, 7);	/* a later success keeps the failure */
	CHECK(store_step_done(s, st, "setting the engine mode", &e) == -1);
	CHECK(strstr(e.msg, "setting the engine mode") != NULL);
	CHECK(strstr(e.msg, "parameter 3") != NULL);
	CHECK(strstr(e.msg, "column index out of range") != NULL);

	/* The next use of a statement starts clean. */
	st = store_stmt(s, ST_STEP_LIST, &e);
	CHECK(st != NULL);
	if (st) {
		struct step_row *rows = NULL;
		size_t n = 0;
		store_bind_id(s, st, 2, 5);	/* ST_STEP_LIST has ?1 only */
		memset(&e, 0, sizeof e);
		CHECK(store_read_rows(s, st, sizeof *rows, NULL, NULL,
				      "listing steps", (void **)&rows, &n, &e) == -1);
		CHECK(strstr(e.msg, "parameter 2") != NULL);
		CHECK(rows == NULL && n == 0);
	}
	int64_t run = 0;
	struct run_begin b = { .kind = "run", .target = "t", .command_line = "c",
			       .params_json = "{}", .host_json = "{}" };
	CHECK(store_run_begin(s, &b, &run, &e) == 0 && run > 0);
	store_close(s);
}

static int run_tests(int argc, char **argv)
{
	atexit(remove_tmpdir);
	return check_main("test_store", argc, argv);
}

int main(int argc, char **argv) { return run_tests(argc, argv); }
