/* The results database over time: batching of commits, a process killed
   mid-run, migrations from an older schema, refusals, and volume. */
#include "store_fixture.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

static int64_t count_rows(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t n = -1;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

static size_t samples_seen(const char *path, int64_t wl)
{
	struct store *r;
	struct sb_err e;
	struct interval_sample *x;
	size_t n = 0;
	if (store_open_readonly(path, &r, &e)) {
		CHECK_FAIL("read-only open: %s", e.msg);
		return 0;
	}
	if (store_load_samples(r, wl, &x, &n, &e))
		CHECK_FAIL("load: %s", e.msg);
	else
		free(x);
	store_close(r);
	return n;
}

TEST(writes_wait_for_a_commit)
{
	struct store *s = open_new("batch.db");
	struct sb_err e;
	if (!s)
		return;
	const char *p = db_path("batch.db");
	int64_t run = begin_run(s, "t"), wl;
	CHECK(store_workload_begin(s, run, 0, 0, "w", NULL, &wl, &e) == 0);
	uint64_t commits = s->commits;
	struct interval_sample x;
	for (uint64_t i = 0; i < 1000; i++) {
		make_sample(&x, 0, i, 1);
		CHECK(store_add_sample(s, wl, &x, &e) == 0);
		CHECK(store_tick(s, false, &e) == 0);
	}
	/* A thousand samples in well under a second: not one commit, and
	   another process sees none of them yet. */
	if (store_monotonic_ns() - s->last_commit_ns < 900000000u) {
		CHECK(s->commits == commits);
		CHECK(samples_seen(p, wl) == 0);
	}
	/* A second after the last commit, a tick commits. */
	s->last_commit_ns -= 1000000000u;
	CHECK(store_tick(s, false, &e) == 0);
	CHECK(s->commits == commits + 1);
	CHECK(samples_seen(p, wl) == 1000);
	/* Nothing pending: a forced tick does nothing. */
	CHECK(store_tick(s, true, &e) == 0);
	CHECK(s->commits == commits + 1);
	/* Close commits what is pending. */
	make_sample(&x, 0, 1000, 1);
	CHECK(store_add_sample(s, wl, &x, &e) == 0);
	store_close(s);
	CHECK(samples_seen(p, wl) == 1001);
}

/*
 * A child writes samples and forces a commit every ten, telling the parent
 * after each commit how many samples it holds; the parent kills it with
 * SIGKILL mid-stream.  Every sample reported committed must be there,
 * exact, and nothing but whole batches.
 */
TEST(killed_writer_loses_nothing_committed)
{
	const char *p = db_path("crash.db");
	struct store *s = open_new("crash.db");
	struct sb_err e;
	if (!s)
		return;
	int64_t run = begin_run(s, "t"), wl;
	CHECK(store_workload_begin(s, run, 0, 0, "w", NULL, &wl, &e) == 0);
	store_close(s);

	int fds[2];
	if (pipe(fds))
		abort();
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		struct store *c;
		struct interval_sample x;
		if (store_open(p, &c, &e))
			_exit(3);
		for (uint64_t i = 0;; i++) {
			make_sample(&x, 0, i, 99);
			if (store_add_sample(c, wl, &x, &e))
				_exit(4);
			if ((i + 1) % 10 == 0) {
				uint64_t done = i + 1;
				if (store_tick(c, true, &e) ||
				    write(fds[1], &done, sizeof done) != sizeof done)
					_exit(5);
			}
		}
	}
	close(fds[1]);
	uint64_t last = 0, v;
	int reports = 0;
	while (reports < 50 && read(fds[0], &v, sizeof v) == sizeof v) {
		last = v;
		reports++;
	}
	kill(pid, SIGKILL);
	int status;
	waitpid(pid, &status, 0);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	while (read(fds[0], &v, sizeof v) == sizeof v)	/* reports in flight */
		last = v;
	close(fds[0]);
	CHECK(last >= 500);

	/* Read-only first, as `ssdbench show` would after the crash. */
	struct store *r;
	struct interval_sample *got, x;
	size_t n = 0;
	CHECK(store_open_readonly(p, &r, &e) == 0);
	if (!r) {
		CHECK_FAIL("%s", e.msg);
		return;
	}
	CHECK(store_load_samples(r, wl, &got, &n, &e) == 0);
	CHECK(n >= last && n <= last + 10 && n % 10 == 0);
	size_t bad = 0;
	for (size_t i = 0; i < n; i++) {
		make_sample(&x, 0, i, 99);
		bad += !same_sample(&got[i], &x);
	}
	CHECK(bad == 0);
	free(got);
	struct run_row row;
	CHECK(store_get_run(r, run, &row, &e) == 0);
	CHECK_EQ_STR(row.status, "running");	/* nobody finished it */
	store_run_row_free(&row);
	store_close(r);

	/* And a writer can carry on with the same file. */
	CHECK(store_open(p, &s, &e) == 0);
	if (s) {
		CHECK(store_run_finish(s, run, "interrupted", "killed", &e) == 0);
		store_close(s);
	}
}

/*
 * Several processes writing one file at once (targets measured together):
 * with store_set_commit_every(0) every tick commits, so no write
 * transaction stays open between intervals to keep another writer waiting:
 * after each tick the sample is already visible to another connection.
 */
TEST(shared_writer_commits_at_every_tick)
{
	struct store *s = open_new("every.db");
	struct sb_err e;
	if (!s)
		return;
	const char *p = db_path("every.db");
	int64_t run = begin_run(s, "t"), wl;
	CHECK(store_workload_begin(s, run, 0, 0, "w", NULL, &wl, &e) == 0);
	CHECK(store_tick(s, true, &e) == 0);
	store_set_commit_every(s, 0);
	uint64_t commits = s->commits;
	struct interval_sample x;
	for (uint64_t i = 0; i < 5; i++) {
		make_sample(&x, 0, i, 1);
		CHECK(store_add_sample(s, wl, &x, &e) == 0);
		CHECK(store_tick(s, false, &e) == 0);
		CHECK(s->commits == commits + i + 1);
		CHECK(sqlite3_get_autocommit(s->db));	/* no transaction left open */
		CHECK(samples_seen(p, wl) == i + 1);
	}
	store_close(s);
}

/*
 * Two writers on one file, as two runs sharing a database: each holds the
 * write lock for up to a second between commits, and the other must get
 * its turn within the busy timeout rather than fail or lose samples.
 */
TEST(two_writers_share_a_file)
{
	const char *p = db_path("shared.db");
	struct store *s = open_new("shared.db");
	struct sb_err e;
	if (!s)
		return;
	int64_t run = begin_run(s, "t"), wl[2];
	CHECK(store_workload_begin(s, run, 0, 0, "a", NULL, &wl[0], &e) == 0);
	CHECK(store_workload_begin(s, run, 0, 1, "b", NULL, &wl[1], &e) == 0);
	store_close(s);
	pid_t pid[2];
	for (int k = 0; k < 2; k++) {
		if ((pid[k] = fork()) != 0)
			continue;
		struct store *c;
		struct interval_sample x;
		if (store_open(p, &c, &e))
			_exit(3);
		for (uint64_t i = 0; i < 60; i++) {	/* 1.2 s at 20 ms */
			make_sample(&x, (uint32_t)k, i, 40 + (uint64_t)k);
			if (store_add_sample(c, wl[k], &x, &e) ||
			    store_tick(c, false, &e))
				_exit(4);
			usleep(20000);
		}
		if (store_tick(c, true, &e))
			_exit(5);
		store_close(c);
		_exit(0);
	}
	for (int k = 0; k < 2; k++) {
		int status;
		waitpid(pid[k], &status, 0);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	for (int k = 0; k < 2; k++)
		CHECK(samples_seen(p, wl[k]) == 60);
}

/*
 * Several processes creating one new database at the same moment (runs
 * started together by a script, each with --db on the same new file).
 * Every one must open it and store its run: none may give up with
 * "database is locked" (the switch to WAL does not wait for SQLite's busy
 * handler) or take the half-made file for another program's database.
 * Released together from a pipe so that they collide; 40 new files, so a
 * race that loses only now and then still shows.
 */
TEST(many_processes_create_one_new_database)
{
	enum { FILES = 40, WRITERS = 8 };
	int failures = 0;
	for (int f = 0; f < FILES; f++) {
		char name[32];
		snprintf(name, sizeof name, "together%d.db", f);
		const char *p = db_path(name);
		int go[2];
		if (pipe(go)) {
			CHECK_FAIL("pipe: %s", strerror(errno));
			return;
		}
		pid_t pid[WRITERS];
		for (int k = 0; k < WRITERS; k++) {
			if ((pid[k] = fork()) != 0)
				continue;
			struct store *c;
			struct sb_err e;
			char byte;
			close(go[1]);
			if (read(go[0], &byte, 1) != 0)	/* EOF: everybody go */
				_exit(2);
			if (store_open(p, &c, &e)) {
				fprintf(stderr, "  writer %d of %s: %s\n", k, name, e.msg);
				_exit(3);
			}
			int64_t id = 0;
			struct run_begin b = { .kind = "run", .target = "t" };
			if (store_run_begin(c, &b, &id, &e) || store_tick(c, true, &e)) {
				fprintf(stderr, "  writer %d of %s: %s\n", k, name, e.msg);
				_exit(4);
			}
			store_close(c);
			_exit(0);
		}
		close(go[0]);
		close(go[1]);
		for (int k = 0; k < WRITERS; k++) {
			int status;
			if (pid[k] < 0 || waitpid(pid[k], &status, 0) != pid[k] ||
			    !WIFEXITED(status) || WEXITSTATUS(status) != 0)
				failures++;
		}
		struct store *s;
		struct sb_err e;
		if (store_open_readonly(p, &s, &e)) {
			CHECK_FAIL("%s: %s", name, e.msg);
			continue;
		}
		CHECK(count_rows(s->db, "SELECT count(*) FROM runs") ==
		      WRITERS - failures);
		store_close(s);
		if (failures) {
			CHECK_FAIL("%d of %d writers failed on %s", failures,
				   WRITERS, name);
			return;
		}
	}
}

TEST(old_schema_is_migrated_and_keeps_rows)
{
	const char *p = db_path("v1.db");
	sqlite3 *db;
	struct sb_err e;
	unlink(p);
	CHECK(sqlite3_open(p, &db) == SQLITE_OK);
	/* Build the version-1 file exactly as a version-1 ssdbench would. */
	CHECK(store_migrate(db, p, 1, &e) == 0);
	CHECK(count_rows(db, "PRAGMA user_version") == 1);
	CHECK(count_rows(db, "SELECT count(*) FROM sqlite_master WHERE name = "
			     "'workloads_by_run'") == 0);
	CHECK(store_exec(db,
		"INSERT INTO runs (id, kind, target, status, started_at) "
		"VALUES (7, 'run', '/dev/sdz', 'done', '2026-01-02T03:04:05.000Z');"
		"INSERT INTO workloads (id, run_id, idx, name, started_at, "
		"read_ios, measured_ns, final) VALUES (3, 7, 0, 'w', "
		"'2026-01-02T03:04:05.000Z', 1234, 1000000000, 1);"
		"INSERT INTO samples VALUES (3, 0, 0, 100000000, 0, 4096, 1, 80, "
		"90, 100, 80, 0,0,0,0,0,0, 0,0,0,0,0,0);"
		"INSERT INTO metrics (run_id, key, value, unit) VALUES "
		"(7, 'iops', 1234, 'IOPS');", &e) == 0);
	sqlite3_close(db);

	/* A read-only open reads an older file as it is, untouched. */
	struct store *s;
	struct run_row r;
	CHECK(store_open_readonly(p, &s, &e) == 0);
	if (s) {
		CHECK(store_schema_version(s) == 1);
		CHECK(store_get_run(s, 7, &r, &e) == 0);
		store_run_row_free(&r);
		/* Its workloads read back, their stalls not recorded (not 0). */
		struct workload_row *w;
		size_t nw;
		CHECK(store_list_workloads(s, 7, 0, &w, &nw, &e) == 0);
		CHECK(nw == 1 && w[0].totals.ios[DIR_READ] == 1234 && !w[0].stalls_known);
		if (nw)
			store_workload_rows_free(w, nw);
		store_close(s);
	}

	CHECK(store_open(p, &s, &e) == 0);
	if (!s) {
		CHECK_FAIL("%s", e.msg);
		return;
	}
	CHECK(store_schema_version(s) == store_current_version());
	CHECK(count_rows(s->db, "SELECT count(*) FROM sqlite_master WHERE name = "
				"'workloads_by_run'") == 1);
	/* Migrated: the old workload's stalls are still not recorded. */
	struct workload_row *w;
	size_t nw;
	CHECK(store_list_workloads(s, 7, 0, &w, &nw, &e) == 0);
	CHECK(nw == 1 && !w[0].stalls_known);
	if (nw)
		store_workload_rows_free(w, nw);
	CHECK(count_rows(s->db, "SELECT read_iops FROM workload_rates WHERE "
				"workload_id = 3") == 1234);
	CHECK(store_get_run(s, 7, &r, &e) == 0);
	CHECK_EQ_STR(r.target, "/dev/sdz");
	CHECK_EQ_STR(r.status, "done");
	CHECK_EQ_STR(r.started_at, "2026-01-02T03:04:05.000Z");
	store_run_row_free(&r);
	struct interval_sample *x;
	size_t n;
	CHECK(store_load_samples(s, 3, &x, &n, &e) == 0);
	CHECK(n == 1 && x[0].dir[DIR_READ].bytes == 4096 &&
	      x[0].dir[DIR_READ].lat_max_ns == 100 && x[0].t_end_ns == 100000000);
	free(x);
	struct metric_row *m;
	CHECK(store_list_metrics(s, 7, &m, &n, &e) == 0);
	CHECK(n == 1 && m[0].value == 1234);
	free(m);
	/* New rows go on after the old ones. */
	int64_t id = begin_run(s, "next");
	CHECK(id == 8);
	store_close(s);
}

/*
 * A version-5 file (before the store kept where the I/Os come from): its
 * workloads read back with the way unknown and no simulated count, not
 * "engine" or 0, both read-only as it is and once upgraded; after the
 * upgrade new totals keep both, and a device's (no simulation) keeps the
 * way with the count unknown.
 */
TEST(v5_workloads_read_their_provenance_as_unknown)
{
	const char *p = db_path("v5.db");
	sqlite3 *db;
	struct sb_err e;
	unlink(p);
	CHECK(sqlite3_open(p, &db) == SQLITE_OK);
	CHECK(store_migrate(db, p, 5, &e) == 0);
	CHECK(store_exec(db,
		"INSERT INTO runs (id, kind, target, status, started_at, uid) VALUES "
		"(4, 'run', 'sim:p1-1tb', 'done', '2026-01-02T03:04:05.000Z', 'u4');"
		"INSERT INTO workloads (id, run_id, idx, name, started_at, read_ios, "
		"measured_ns, final, driver_stalls, driver_stall_ns) VALUES (9, 4, 0, 'w', "
		"'2026-01-02T03:04:05.000Z', 777, 1000000000, 1, 0, 0);", &e) == 0);
	sqlite3_close(db);

	struct store *s;
	struct workload_row *w;
	size_t nw;
	for (int pass = 0; pass < 2; pass++) {
		/* first read-only (version 5 as it is), then upgraded */
		if ((pass ? store_open(p, &s, &e) : store_open_readonly(p, &s, &e)) || !s) {
			CHECK_FAIL("%s", e.msg);
			return;
		}
		CHECK(store_schema_version(s) == (pass ? store_current_version() : 5));
		CHECK(store_list_workloads(s, 4, 0, &w, &nw, &e) == 0);
		CHECK(nw == 1);
		if (nw) {
			CHECK(w[0].totals.ios[DIR_READ] == 777);
			CHECK(w[0].totals.way == IO_WAY_UNKNOWN);
			CHECK(!w[0].totals.sim_known);
			CHECK(w[0].stalls_known);
			store_workload_rows_free(w, nw);
		}
		if (pass)
			break;
		store_close(s);
	}
	CHECK(count_rows(s->db, "SELECT count(*) FROM workloads WHERE io_way IS NULL "
				"AND ios_simulated IS NULL") == 1);
	/* New totals keep it: a simulated bulk stream, then a device's. */
	int64_t wid;
	CHECK(store_workload_begin(s, 4, 0, 1, "bulk", NULL, &wid, &e) == 0);
	struct store_totals t = { .ios = { 1000, 200, 0 }, .way = IO_WAY_BULK,
				  .sim_known = true, .ios_simulated = 300 };
	CHECK(store_workload_totals(s, wid, &t, NULL, true, &e) == 0);
	t.way = IO_WAY_ENGINE;
	t.sim_known = false;
	t.ios_simulated = 0;
	CHECK(store_workload_begin(s, 4, 0, 2, "device", NULL, &wid, &e) == 0);
	CHECK(store_workload_totals(s, wid, &t, NULL, true, &e) == 0);
	CHECK(count_rows(s->db, "SELECT ios_simulated FROM workloads WHERE name = 'bulk' "
				"AND io_way = 'bulk'") == 300);
	CHECK(count_rows(s->db, "SELECT count(*) FROM workloads WHERE name = 'device' "
				"AND io_way = 'engine' AND ios_simulated IS NULL") == 1);
	CHECK(store_list_workloads(s, 4, 0, &w, &nw, &e) == 0);
	CHECK(nw == 3);
	if (nw == 3) {
		CHECK(w[1].totals.way == IO_WAY_BULK && w[1].totals.sim_known);
		CHECK_EQ_U64(w[1].totals.ios_simulated, 300);
		CHECK_EQ_U64(store_ios_reported(&w[1].totals), 1200);
		CHECK_EQ_U64(store_ios_extrapolated(&w[1].totals), 900);
		CHECK(w[2].totals.way == IO_WAY_ENGINE && !w[2].totals.sim_known);
	}
	if (nw)
		store_workload_rows_free(w, nw);
	store_close(s);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f)
		abort();
	for (int i = 0; i < 40; i++)
		fputs(text, f);
	fclose(f);
}

static bool file_is(const char *path, const char *text)
{
	char buf[8192];
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	return n == 40 * strlen(text) && !strncmp(buf, text, strlen(text));
}

TEST(refuses_what_is_not_an_ssdbench_database)
{
	struct store *s;
	struct sb_err e;
	const char *text = "this is a results table from another tool\n";
	const char *p = db_path("notes.txt");
	write_file(p, text);
	CHECK(store_open(p, &s, &e) == -1 && s == NULL);
	CHECK(strstr(e.msg, "is not an ssdbench database") != NULL);
	CHECK(store_open_readonly(p, &s, &e) == -1);
	CHECK(strstr(e.msg, "is not an ssdbench database") != NULL);
	CHECK(file_is(p, text));

	/* Some other program's SQLite file is left alone. */
	sqlite3 *db;
	p = db_path("other.db");
	unlink(p);
	CHECK(sqlite3_open(p, &db) == SQLITE_OK);
	CHECK(store_exec(db, "CREATE TABLE contacts (name TEXT)", &e) == 0);
	sqlite3_close(db);
	CHECK(store_open(p, &s, &e) == -1);
	CHECK(strstr(e.msg, "some other program") != NULL);
	CHECK(store_open(p, &s, &e) == -1);
	CHECK(sqlite3_open(p, &db) == SQLITE_OK);
	CHECK(count_rows(db, "PRAGMA user_version") == 0);
	CHECK(count_rows(db, "SELECT count(*) FROM sqlite_master") == 1);
	sqlite3_close(db);

	/* An empty file is no database to read. */
	p = db_path("empty.db");
	write_file(p, "");
	CHECK(store_open_readonly(p, &s, &e) == -1);
	CHECK(strstr(e.msg, "is empty") != NULL);

	/* A directory is neither. */
	CHECK(store_open(tmpdir, &s, &e) == -1);
	CHECK(strstr(e.msg, "cannot open database") != NULL);
	CHECK(store_open_readonly(tmpdir, &s, &e) == -1);
}

TEST(refuses_a_newer_schema)
{
	struct store *s = open_new("newer.db");
	struct sb_err e;
	char sql[64];
	if (!s)
		return;
	snprintf(sql, sizeof sql, "PRAGMA user_version = %d",
		 store_current_version() + 1);
	CHECK(store_exec(s->db, sql, &e) == 0);
	store_close(s);
	CHECK(store_open(db_path("newer.db"), &s, &e) == -1);
	CHECK(strstr(e.msg, "newer than this ssdbench") != NULL);
	CHECK(store_open_readonly(db_path("newer.db"), &s, &e) == -1);
	CHECK(strstr(e.msg, "use a newer ssdbench") != NULL);
}

TEST(read_only_never_creates_or_writes)
{
	struct store *s;
	struct sb_err e;
	struct stat st;
	const char *p = db_path("missing.db");
	CHECK(store_open_readonly(p, &s, &e) == -1 && s == NULL);
	CHECK(strstr(e.msg, "no database at") != NULL);
	CHECK(e.errnum == ENOENT);
	CHECK(stat(p, &st) == -1);

	s = open_new("ro.db");
	if (!s)
		return;
	int64_t run = begin_run(s, "t");
	store_close(s);
	CHECK(store_open_readonly(db_path("ro.db"), &s, &e) == 0);
	if (!s)
		return;
	CHECK(store_run_finish(s, run, "done", NULL, &e) == -1);
	CHECK(strstr(e.msg, "opened for reading only") != NULL);
	int64_t id;
	struct run_begin b = { .kind = "run", .target = "x" };
	CHECK(store_run_begin(s, &b, &id, &e) == -1);
	store_close(s);
}

/*
 * A 7-hour run at 100 ms is 252k samples per workload: writing 300k must
 * keep SQLite's memory flat (everything goes to the file at each commit)
 * and read back complete.  The rate is printed for information; bench/
 * is where speed is compared.
 */
TEST(many_samples_keep_memory_flat)
{
	struct store *s = open_new("volume.db");
	struct sb_err e;
	if (!s)
		return;
	int64_t run = begin_run(s, "t"), wl;
	CHECK(store_workload_begin(s, run, 0, 0, "w", NULL, &wl, &e) == 0);
	struct interval_sample x;
	int64_t mem_early = 0;
	uint64_t t0 = store_monotonic_ns(), failures = 0;
	for (uint64_t i = 0; i < 300000; i++) {
		make_sample(&x, 0, i, 5);
		failures += store_add_sample(s, wl, &x, &e) != 0;
		failures += store_tick(s, false, &e) != 0;
		if (i == 30000)
			mem_early = sqlite3_memory_used();
	}
	CHECK(store_tick(s, true, &e) == 0);
	double secs = (double)(store_monotonic_ns() - t0) / 1e9;
	int64_t mem_late = sqlite3_memory_used();
	CHECK(failures == 0);
	printf("  300000 samples in %.2f s (%.0f/s), %llu commits, sqlite memory "
	       "%lld -> %lld bytes\n", secs, 300000 / secs,
	       (unsigned long long)s->commits, (long long)mem_early,
	       (long long)mem_late);
	CHECK(mem_late <= mem_early + 1024 * 1024);
	CHECK(count_rows(s->db, "SELECT count(*) FROM samples") == 300000);
	CHECK(count_rows(s->db, "SELECT max(idx) FROM samples") == 299999);
	store_close(s);
}

static int run_tests(int argc, char **argv)
{
	atexit(remove_tmpdir);
	return check_main("test_store_durability", argc, argv);
}

int main(int argc, char **argv) { return run_tests(argc, argv); }
