/*
 * Inside the store: the object behind struct store, its cache of prepared
 * statements and the transaction that writes accumulate in.  Only
 * files of src/store/ include this; everyone else sees store.h.
 */
#ifndef SSDBENCH_STORE_STORE_IMPL_H
#define SSDBENCH_STORE_STORE_IMPL_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "store/store.h"

/*
 * Every statement the store runs more than once.  They are prepared on first
 * use and kept for the life of the connection: a sample is written ten times
 * a second per workload for hours, and parsing its INSERT each time would
 * cost more than executing it.
 */
enum store_stmt {
	ST_RUN_INSERT,
	ST_RUN_FINISH,
	ST_RUN_MODE,
	ST_FACTS_UPSERT,
	ST_STEP_INSERT,
	ST_STEP_FINISH,
	ST_WORKLOAD_INSERT,
	ST_WORKLOAD_TOTALS,
	ST_WORKLOAD_FINISH,
	ST_HIST_UPSERT,
	ST_HIST_DELETE,
	ST_AHIST_UPSERT,
	ST_AHIST_DELETE,
	ST_AHIST_GET,
	ST_SAMPLE_INSERT,
	ST_SAMPLE_INSERT_BATCH,	/* SAMPLE_BATCH rows in one statement */
	ST_METRIC_DELETE,
	ST_METRIC_INSERT,
	ST_READING_INSERT,
	ST_QUERY_INSERT,
	ST_RUN_GET,
	ST_RUN_LIST,
	ST_FACTS_GET,
	ST_STEP_LIST,
	ST_WORKLOAD_LIST,
	ST_WORKLOAD_LIST_V2,
	ST_WORKLOAD_LIST_V5,
	ST_SAMPLE_LIST,
	ST_SAMPLE_COUNTS,
	ST_SAMPLE_COUNTS_WRITE,	/* the writes' counts alone */
	ST_HIST_GET,
	ST_WORKLOAD_EXISTS,
	ST_METRIC_LIST,
	ST_READING_LIST,
	ST_QUERY_LIST,
	ST_COUNT
};

/*
 * Samples that continue a workload's run of them (the next index after
 * the last written) wait in the store, SAMPLE_BATCH at a time, and go in
 * as one INSERT of that many rows: a third less of SQLite's work per row
 * than a statement each.  Any other statement (store_stmt), a commit and
 * the close write them first, so every read and every commit sees the
 * same rows in the same order as without the wait; a sample that does
 * not continue the run (the first, another workload's, a repeat) is
 * written at once, so its error is its own call's.
 */
#define SAMPLE_BATCH 16
#define SAMPLE_PARAMS 23	/* a sample row's parameters */

struct store {
	sqlite3 *db;
	char *path;
	bool readonly;
	uint64_t last_commit_ns;	/* CLOCK_MONOTONIC of the last commit */
	uint64_t commits;		/* how many, for tests of batching */
	uint64_t commit_delay_ns;	/* tests: every commit takes this longer */
	uint64_t commit_every_ns;	/* store_tick's period (1 s) */
	sqlite3_stmt *stmt[ST_COUNT];
	uint8_t *hist_buf;		/* reused encode buffer */
	size_t hist_buf_len;
	int bind_rc;			/* first failed bind since store_stmt */
	int bind_col;			/* ... and its parameter */
	struct interval_sample pend[SAMPLE_BATCH];	/* waiting samples */
	uint32_t npend;
	int64_t pend_wid;		/* their workload */
	/* What the batch INSERT's parameters hold (a statement keeps them
	   across sqlite3_reset), when batch_held: a value the same again is
	   not bound again (a write-only workload's read and trim columns,
	   its id, its ramp flag: 14 of a row's 23). */
	int64_t batch_vals[SAMPLE_BATCH * SAMPLE_PARAMS];
	bool batch_held;
	bool have_last;			/* the last sample written or waiting: */
	int64_t last_wid;
	uint64_t last_idx;
};

/* Write the waiting samples (store_add_sample's); 0 when there are none. */
int store_samples_flush(struct store *s, struct sb_err *e);

/* The prepared statement `id`, reset and unbound, or NULL with e filled. */
sqlite3_stmt *store_stmt(struct store *s, enum store_stmt id, struct sb_err *e);
/* The same, its parameters still bound to their last values: for a caller
   that binds every one of them each time (a sample's 23), which then need
   no clearing first.  Unlike store_stmt it does not write the waiting
   samples first: only the samples' own statements use it. */
sqlite3_stmt *store_stmt_rebind(struct store *s, enum store_stmt id, struct sb_err *e);

/* Run one or more SQL statements without results (BEGIN, pragmas, DDL). */
int store_exec(sqlite3 *db, const char *sql, struct sb_err *e);

/* An sb_err from the connection's last error, with what we were doing. */
int store_sql_err(sqlite3 *db, struct sb_err *e, const char *what);

/* Open the write transaction if none is open; every write calls it. */
int store_tx_ensure(struct store *s, struct sb_err *e);
/* Commit what is pending, if anything. */
int store_commit(struct store *s, struct sb_err *e);

/* Step a write statement to completion; 0 or -1 with `what` in the error. */
int store_step_done(struct store *s, sqlite3_stmt *st, const char *what,
		    struct sb_err *e);

/* Bind helpers on a statement from store_stmt: NULL for absent text, NULL
   for id 0 (no step/workload).  The first failure is kept on the store;
   store_binds_ok (called by store_step_done and store_read_rows, and by
   hand before any other sqlite3_step) returns it as an error naming the
   parameter, with `what` in front. */
void store_bind_i64(struct store *s, sqlite3_stmt *st, int col, int64_t v);
void store_bind_f64(struct store *s, sqlite3_stmt *st, int col, double v);
void store_bind_blob(struct store *s, sqlite3_stmt *st, int col,
		     const void *data, size_t len);
void store_bind_text(struct store *s, sqlite3_stmt *st, int col,
		     const char *text);
void store_bind_id(struct store *s, sqlite3_stmt *st, int col, int64_t id);
int store_binds_ok(struct store *s, sqlite3_stmt *st, const char *what,
		   struct sb_err *e);

/* Copy a text column into a fixed buffer (truncating) or a heap string. */
void store_col_copy(sqlite3_stmt *st, int col, char *dst, size_t len);
char *store_col_strdup(sqlite3_stmt *st, int col);

/* The current UTC time as ISO 8601 with milliseconds: 2026-11-29T23:45:01.123Z */
void store_utc_now(char out[32]);
uint64_t store_monotonic_ns(void);

/* End a read loop: rc is sqlite3_step's last answer; SQLITE_DONE is fine. */
int store_read_done(struct store *s, sqlite3_stmt *st, int rc,
		    const char *what, struct sb_err *e);

/*
 * Every row of a bound statement into a growing array of `elem`-byte rows:
 * each is zeroed, then `fill` maps the columns.  On failure `free_rows`
 * (NULL: plain free) releases what was read and *out stays NULL.
 */
int store_read_rows(struct store *s, sqlite3_stmt *st, size_t elem,
		    void (*fill)(sqlite3_stmt *st, void *row),
		    void (*free_rows)(void *rows, size_t n), const char *what,
		    void **out, size_t *n, struct sb_err *e);

/* A status the store.h contract allows: running, done, failed, interrupted,
   and for a step also partial. */
bool store_status_valid(const char *status, bool step);

/* PATH as an SQLite "file:" URI with every unsafe byte %-escaped, and
   ?QUERY when not NULL; malloc'd, NULL when out of memory. */
char *store_path_uri(const char *path, const char *query);

/* Refuse writes on a read-only store with a clear message. */
int store_check_writable(struct store *s, struct sb_err *e);

#endif
