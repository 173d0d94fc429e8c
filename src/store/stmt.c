/*
 * The statement cache, the pending transaction and small binding helpers
 * shared by the store's read and write files.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/store_impl.h"

#define DIR_COLS(d) d "_bytes, " d "_ios, " d "_p50_ns, " d "_p99_ns, " \
	d "_max_ns, " d "_lat_sum_ns"
#define SAMPLE_COLS "t_start_ns, t_end_ns, ramp, " DIR_COLS("read") ", " \
	DIR_COLS("write") ", " DIR_COLS("trim")
/* SAMPLE_BATCH (16) rows of 23 parameters, numbered in order */
#define SAMPLE_ROW "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
#define SAMPLE_ROWS2 SAMPLE_ROW ", " SAMPLE_ROW
#define SAMPLE_ROWS4 SAMPLE_ROWS2 ", " SAMPLE_ROWS2
#define SAMPLE_ROWS8 SAMPLE_ROWS4 ", " SAMPLE_ROWS4
#define SAMPLE_ROWS16 SAMPLE_ROWS8 ", " SAMPLE_ROWS8
#define WORKLOAD_COLS_V2 "w.id, IFNULL(w.step_id, 0), w.idx, w.name, w.status, " \
	"IFNULL(w.mode, ''), w.spec_json, w.read_bytes, w.write_bytes, "    \
	"w.trim_bytes, w.read_ios, w.write_ios, w.trim_ios, w.measured_ns, w.final"
#define WORKLOAD_COLS_V5 WORKLOAD_COLS_V2 ", w.driver_stalls, w.driver_stall_ns"
#define WORKLOAD_COLS WORKLOAD_COLS_V5 ", w.io_way, w.ios_simulated"
#define RUN_COLS "id, kind, target, status, IFNULL(engine_mode, ''), "     \
	"started_at, IFNULL(finished_at, ''), command_line, params_json, "  \
	"host_json, error"

static const char *const stmt_sql[ST_COUNT] = {
	[ST_RUN_INSERT] =
		"INSERT INTO runs (kind, target, command_line, params_json, "
		"host_json, started_at, uid) VALUES (?1, ?2, ?3, ?4, ?5, ?6, "
		"lower(hex(randomblob(16))))",
	[ST_RUN_FINISH] =
		"UPDATE runs SET status = ?2, error = ?3, finished_at = ?4 "
		"WHERE id = ?1",
	[ST_RUN_MODE] = "UPDATE runs SET engine_mode = ?2 WHERE id = ?1",
	[ST_FACTS_UPSERT] =
		"INSERT INTO target_facts (run_id, phase, facts_json, recorded_at) "
		"VALUES (?1, ?2, ?3, ?4) ON CONFLICT (run_id, phase) DO UPDATE "
		"SET facts_json = excluded.facts_json, "
		"recorded_at = excluded.recorded_at",
	[ST_STEP_INSERT] =
		"INSERT INTO steps (run_id, seq, name, params_json, started_at) "
		"VALUES (?1, ?2, ?3, ?4, ?5)",
	/* A step marked "partial" on resume keeps when and why it was cut:
	   an interrupted or failed row has both already; a row left
	   "running" by a killed process ends where the last of its
	   workloads ended (or began). */
	[ST_STEP_FINISH] =
		"UPDATE steps SET status = ?2, "
		"error = CASE WHEN ?2 = 'partial' AND error IS NOT NULL "
		"THEN error || '; ' || ?3 ELSE ?3 END, "
		"finished_at = CASE WHEN ?2 != 'partial' THEN ?4 ELSE "
		"COALESCE(finished_at, (SELECT MAX(COALESCE(w.finished_at, "
		"w.started_at)) FROM workloads w WHERE w.step_id = ?1), "
		"started_at) END "
		"WHERE id = ?1",
	[ST_WORKLOAD_INSERT] =
		"INSERT INTO workloads (run_id, step_id, idx, name, spec_json, "
		"started_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	[ST_WORKLOAD_TOTALS] =
		"UPDATE workloads SET read_bytes = ?2, write_bytes = ?3, "
		"trim_bytes = ?4, read_ios = ?5, write_ios = ?6, trim_ios = ?7, "
		"measured_ns = ?8, final = ?9, driver_stalls = ?10, "
		"driver_stall_ns = ?11, io_way = ?12, ios_simulated = ?13 "
		"WHERE id = ?1",
	[ST_WORKLOAD_FINISH] =
		"UPDATE workloads SET status = ?2, mode = IFNULL(?3, mode), "
		"finished_at = ?4 WHERE id = ?1",
	[ST_HIST_UPSERT] =
		"INSERT INTO histograms (workload_id, direction, final, count, "
		"min_ns, max_ns, sum_ns, encoded) VALUES (?1, ?2, ?3, ?4, ?5, ?6, "
		"?7, ?8) ON CONFLICT (workload_id, direction) DO UPDATE SET "
		"final = excluded.final, count = excluded.count, "
		"min_ns = excluded.min_ns, max_ns = excluded.max_ns, "
		"sum_ns = excluded.sum_ns, encoded = excluded.encoded",
	[ST_HIST_DELETE] =
		"DELETE FROM histograms WHERE workload_id = ?1 AND direction = ?2",
	[ST_AHIST_UPSERT] =
		"INSERT INTO arrival_histograms (workload_id, direction, kind, final, "
		"count, min_ns, max_ns, sum_ns, encoded) VALUES (?1, ?2, ?9, ?3, ?4, "
		"?5, ?6, ?7, ?8) ON CONFLICT (workload_id, direction, kind) DO UPDATE "
		"SET final = excluded.final, count = excluded.count, "
		"min_ns = excluded.min_ns, max_ns = excluded.max_ns, "
		"sum_ns = excluded.sum_ns, encoded = excluded.encoded",
	[ST_AHIST_DELETE] =
		"DELETE FROM arrival_histograms WHERE workload_id = ?1 AND "
		"direction = ?2 AND kind = ?9",
	[ST_AHIST_GET] =
		"SELECT encoded FROM arrival_histograms WHERE workload_id = ?1 "
		"AND direction = ?2 AND kind = ?9",
	[ST_SAMPLE_INSERT] =
		"INSERT INTO samples (workload_id, idx, " SAMPLE_COLS ") VALUES "
		"(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, "
		"?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23)",
	[ST_SAMPLE_INSERT_BATCH] =
		"INSERT INTO samples (workload_id, idx, " SAMPLE_COLS ") VALUES "
		SAMPLE_ROWS16,
	[ST_METRIC_DELETE] =
		"DELETE FROM metrics WHERE run_id = ?1 AND step_id IS ?2 AND "
		"workload_id IS ?3 AND key = ?4",
	[ST_METRIC_INSERT] =
		"INSERT INTO metrics (run_id, step_id, workload_id, key, value, "
		"unit) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	[ST_READING_INSERT] =
		"INSERT INTO device_readings (run_id, t_ns, key, value) "
		"VALUES (?1, ?2, ?3, ?4)",
	[ST_QUERY_INSERT] =
		"INSERT INTO device_queries (workload_id, t_start_ns, t_end_ns, "
		"source) VALUES (?1, ?2, ?3, ?4)",
	[ST_RUN_GET] = "SELECT " RUN_COLS " FROM runs WHERE id = ?1",
	[ST_RUN_LIST] = "SELECT " RUN_COLS " FROM runs ORDER BY id DESC",
	[ST_FACTS_GET] =
		"SELECT phase, facts_json FROM target_facts WHERE run_id = ?1",
	[ST_STEP_LIST] =
		"SELECT id, seq, name, status, started_at, IFNULL(finished_at, ''), "
		"params_json, error FROM steps WHERE run_id = ?1 ORDER BY seq, id",
	[ST_WORKLOAD_LIST] =
		"SELECT " WORKLOAD_COLS " FROM workloads w WHERE w.run_id = ?1 "
		"AND (?2 = 0 OR w.step_id = ?2) ORDER BY w.step_id, w.idx, w.id",
	/* A database of version 2 read as it is (show, export): no stall
	   columns yet, so none recorded. */
	[ST_WORKLOAD_LIST_V2] =
		"SELECT " WORKLOAD_COLS_V2 ", NULL, NULL, NULL, NULL FROM workloads w "
		"WHERE w.run_id = ?1 "
		"AND (?2 = 0 OR w.step_id = ?2) ORDER BY w.step_id, w.idx, w.id",
	/* Versions 3 to 5: where the I/Os came from is unknown. */
	[ST_WORKLOAD_LIST_V5] =
		"SELECT " WORKLOAD_COLS_V5 ", NULL, NULL FROM workloads w WHERE w.run_id = ?1 "
		"AND (?2 = 0 OR w.step_id = ?2) ORDER BY w.step_id, w.idx, w.id",
	[ST_SAMPLE_LIST] =
		"SELECT (SELECT idx FROM workloads WHERE id = ?1), idx, "
		SAMPLE_COLS " FROM samples WHERE workload_id = ?1 ORDER BY idx",
	[ST_SAMPLE_COUNTS] =
		"SELECT t_start_ns, t_end_ns, ramp, read_bytes, read_ios, write_bytes, "
		"write_ios, trim_bytes, trim_ios FROM samples WHERE workload_id = ?1 "
		"ORDER BY idx",
	/* a write trace's five columns: each a sqlite3_column call and a
	   decoded field fewer, of a preconditioning's million rows */
	[ST_SAMPLE_COUNTS_WRITE] =
		"SELECT t_start_ns, t_end_ns, ramp, write_bytes, write_ios "
		"FROM samples WHERE workload_id = ?1 ORDER BY idx",
	[ST_HIST_GET] =
		"SELECT encoded FROM histograms WHERE workload_id = ?1 "
		"AND direction = ?2",
	[ST_WORKLOAD_EXISTS] = "SELECT 1 FROM workloads WHERE id = ?1",
	[ST_METRIC_LIST] =
		"SELECT IFNULL(step_id, 0), IFNULL(workload_id, 0), key, value, "
		"unit FROM metrics WHERE run_id = ?1 "
		"ORDER BY step_id, workload_id, key, id",
	[ST_READING_LIST] =
		"SELECT t_ns, key, value FROM device_readings WHERE run_id = ?1 "
		"ORDER BY t_ns, rowid",
	[ST_QUERY_LIST] =
		"SELECT t_start_ns, t_end_ns, source FROM device_queries "
		"WHERE workload_id = ?1 ORDER BY t_start_ns, rowid",
};

int store_sql_err(sqlite3 *db, struct sb_err *e, const char *what)
{
	int sys = sqlite3_system_errno(db);
	sb_errf(e, "%s: %s", what, sqlite3_errmsg(db));
	/* Keep the OS cause (ENOSPC, EACCES ...) for callers that branch on it. */
	e->errnum = sys;
	return -1;
}

int store_exec(sqlite3 *db, const char *sql, struct sb_err *e)
{
	char *msg = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	sb_errf(e, "%s", msg ? msg : sqlite3_errmsg(db));
	e->errnum = sqlite3_system_errno(db);
	sqlite3_free(msg);
	return -1;
}

sqlite3_stmt *store_stmt(struct store *s, enum store_stmt id, struct sb_err *e)
{
	if (store_samples_flush(s, e))
		return NULL;
	sqlite3_stmt *st = store_stmt_rebind(s, id, e);
	if (st)
		sqlite3_clear_bindings(st);
	if (id == ST_SAMPLE_INSERT_BATCH)
		s->batch_held = false;	/* its values cleared */
	return st;
}

sqlite3_stmt *store_stmt_rebind(struct store *s, enum store_stmt id, struct sb_err *e)
{
	sqlite3_stmt *st = s->stmt[id];
	if (!st) {
		if (sqlite3_prepare_v3(s->db, stmt_sql[id], -1,
				       SQLITE_PREPARE_PERSISTENT, &st,
				       NULL) != SQLITE_OK) {
			store_sql_err(s->db, e, "preparing a statement");
			return NULL;
		}
		s->stmt[id] = st;
		if (id == ST_SAMPLE_INSERT_BATCH)
			s->batch_held = false;	/* nothing bound yet */
	} else {
		sqlite3_reset(st);
	}
	s->bind_rc = SQLITE_OK;
	return st;
}

/* The coarse clock (the kernel's last tick, read without the clock
   source): its few milliseconds are nothing beside a commit every second
   or a busy wait's timeout, and store_tick asks it at every sample. */
uint64_t store_monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void store_utc_now(char out[32])
{
	struct timespec ts;
	struct tm tm;
	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	size_t n = strftime(out, 32, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out + n, 32 - n, ".%03ldZ", ts.tv_nsec / 1000000);
}

int store_check_writable(struct store *s, struct sb_err *e)
{
	if (s->readonly)
		return sb_errf(e, "%s: opened for reading only", s->path);
	return 0;
}

int store_tx_ensure(struct store *s, struct sb_err *e)
{
	if (store_check_writable(s, e))
		return -1;
	/* Asked of SQLite, not remembered: an I/O error or a full disk may
	   have rolled the transaction back behind our back. */
	if (!sqlite3_get_autocommit(s->db))
		return 0;
	/* IMMEDIATE: wait for the write lock here (busy timeout), not at COMMIT,
	   where a conflict could only be answered by losing the writes. */
	if (store_exec(s->db, "BEGIN IMMEDIATE", e))
		return sb_err_wrap(e, "%s: starting a transaction", s->path);
	return 0;
}

int store_commit(struct store *s, struct sb_err *e)
{
	/* waiting samples of a transaction rolled back behind our back go
	   into a new one, as they would have one by one */
	if (s->npend && (store_tx_ensure(s, e) || store_samples_flush(s, e)))
		return -1;
	if (sqlite3_get_autocommit(s->db))
		return 0;
	/* A database file removed or renamed under a run still takes writes
	   (to an inode nobody will find again): refuse to call that stored. */
	int moved = 0;
	if (sqlite3_file_control(s->db, "main", SQLITE_FCNTL_HAS_MOVED, &moved) ==
	    SQLITE_OK && moved) {
		store_exec(s->db, "ROLLBACK", e);
		return sb_errf(e, "%s: the database file was removed or replaced "
			       "while results were written to it", s->path);
	}
	if (s->commit_delay_ns) {
		struct timespec ts = { (time_t)(s->commit_delay_ns / 1000000000u),
				       (long)(s->commit_delay_ns % 1000000000u) };
		nanosleep(&ts, NULL);
	}
	if (store_exec(s->db, "COMMIT", e))
		return sb_err_wrap(e, "%s: committing", s->path);
	s->last_commit_ns = store_monotonic_ns();
	s->commits++;
	return 0;
}

void store_set_commit_delay(struct store *s, uint64_t ns)
{
	s->commit_delay_ns = ns;
}

void store_set_commit_every(struct store *s, uint64_t ns)
{
	s->commit_every_ns = ns;
}

int store_tick(struct store *s, bool force, struct sb_err *e)
{
	if (sqlite3_get_autocommit(s->db))
		return 0;
	if (!force && store_monotonic_ns() - s->last_commit_ns < s->commit_every_ns)
		return 0;
	return store_commit(s, e);
}

int store_step_done(struct store *s, sqlite3_stmt *st, const char *what,
		    struct sb_err *e)
{
	if (store_binds_ok(s, st, what, e))
		return -1;
	bool in_tx = !sqlite3_get_autocommit(s->db);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_DONE || rc == SQLITE_ROW) {
		sqlite3_reset(st);
		return 0;
	}
	store_sql_err(s->db, e, what);
	sqlite3_reset(st);
	/* After some errors (I/O, full disk) SQLite rolls the whole
	   transaction back: say so, the caller has lost more than this row. */
	if (in_tx && sqlite3_get_autocommit(s->db)) {
		size_t n = strlen(e->msg);
		snprintf(e->msg + n, sizeof e->msg - n, " (the writes since the "
			 "last commit were rolled back)");
	}
	return -1;
}

/* A bind that fails (a parameter the SQL does not have, out of memory,
   text too long) would otherwise run the statement with NULL in its
   place: the first failure is kept on the store and refused by
   store_binds_ok before the statement runs. */
static void bind_note(struct store *s, int rc, int col)
{
	if (rc != SQLITE_OK && s->bind_rc == SQLITE_OK) {
		s->bind_rc = rc;
		s->bind_col = col;
	}
}

void store_bind_i64(struct store *s, sqlite3_stmt *st, int col, int64_t v)
{
	bind_note(s, sqlite3_bind_int64(st, col, v), col);
}

void store_bind_f64(struct store *s, sqlite3_stmt *st, int col, double v)
{
	bind_note(s, sqlite3_bind_double(st, col, v), col);
}

void store_bind_blob(struct store *s, sqlite3_stmt *st, int col,
		     const void *data, size_t len)
{
	if (len > INT_MAX) {
		bind_note(s, SQLITE_TOOBIG, col);
		return;
	}
	bind_note(s, sqlite3_bind_blob(st, col, data, (int)len, SQLITE_STATIC),
		  col);
}

void store_bind_text(struct store *s, sqlite3_stmt *st, int col,
		     const char *text)
{
	bind_note(s, text ? sqlite3_bind_text(st, col, text, -1, SQLITE_TRANSIENT)
		       : sqlite3_bind_null(st, col), col);
}

void store_bind_id(struct store *s, sqlite3_stmt *st, int col, int64_t id)
{
	bind_note(s, id > 0 ? sqlite3_bind_int64(st, col, id)
		       : sqlite3_bind_null(st, col), col);
}

int store_binds_ok(struct store *s, sqlite3_stmt *st, const char *what,
		   struct sb_err *e)
{
	int rc = s->bind_rc, col = s->bind_col;
	if (rc == SQLITE_OK)
		return 0;
	s->bind_rc = SQLITE_OK;
	const char *name = sqlite3_bind_parameter_name(st, col);
	sb_errf(e, "%s: binding parameter %d (%s) of \"%.48s...\": %s", what,
		col, name ? name : "none such", sqlite3_sql(st),
		sqlite3_errstr(rc));
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return -1;
}

void store_col_copy(sqlite3_stmt *st, int col, char *dst, size_t len)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	snprintf(dst, len, "%s", t ? (const char *)t : "");
}

char *store_col_strdup(sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	return t ? strdup((const char *)t) : NULL;
}

/* Make room for element n of a growing array (capacity doubles). */
static int store_grow(void **arr, size_t *cap, size_t n, size_t elem,
		      struct sb_err *e)
{
	if (n < *cap)
		return 0;
	size_t ncap = *cap ? *cap * 2 : 16;
	void *p = realloc(*arr, ncap * elem);
	if (!p)
		return sb_errf(e, "reading the database: out of memory");
	*arr = p;
	*cap = ncap;
	return 0;
}

int store_read_done(struct store *s, sqlite3_stmt *st, int rc,
		    const char *what, struct sb_err *e)
{
	sqlite3_reset(st);
	if (rc == SQLITE_DONE)
		return 0;
	store_sql_err(s->db, e, what);
	return sb_err_wrap(e, "%s", s->path);
}

int store_read_rows(struct store *s, sqlite3_stmt *st, size_t elem,
		    void (*fill)(sqlite3_stmt *st, void *row),
		    void (*free_rows)(void *rows, size_t n), const char *what,
		    void **out, size_t *n, struct sb_err *e)
{
	void *rows = NULL;
	size_t cap = 0, count = 0;
	int rc;
	*out = NULL;
	*n = 0;
	if (store_binds_ok(s, st, what, e))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (store_grow(&rows, &cap, count, elem, e)) {
			sqlite3_reset(st);
			goto fail;
		}
		void *row = (char *)rows + count++ * elem;
		memset(row, 0, elem);
		fill(st, row);
	}
	if (store_read_done(s, st, rc, what, e))
		goto fail;
	*out = rows;
	*n = count;
	return 0;
fail:
	if (free_rows)
		free_rows(rows, count);
	else
		free(rows);
	return -1;
}

bool store_status_valid(const char *status, bool step)
{
	static const char *const statuses[] = { "running", "done", "failed",
						"interrupted" };
	if (!status)
		return false;
	for (size_t i = 0; i < sizeof statuses / sizeof statuses[0]; i++)
		if (!strcmp(status, statuses[i]))
			return true;
	/* Only a suite step is restarted on resume and left "partial". */
	return step && !strcmp(status, "partial");
}
