/*
 * Reading runs, steps, metrics and device readings back.  Lists come back
 * as arrays the caller frees with the matching *_free; fixed-size text
 * fields are truncated, free-form ones (JSON, errors) are heap strings.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_impl.h"

/* Columns as in RUN_COLS (stmt.c). */
static void run_from_row(sqlite3_stmt *st, struct run_row *r)
{
	memset(r, 0, sizeof *r);
	r->id = sqlite3_column_int64(st, 0);
	store_col_copy(st, 1, r->kind, sizeof r->kind);
	store_col_copy(st, 2, r->target, sizeof r->target);
	store_col_copy(st, 3, r->status, sizeof r->status);
	store_col_copy(st, 4, r->engine_mode, sizeof r->engine_mode);
	store_col_copy(st, 5, r->started_at, sizeof r->started_at);
	store_col_copy(st, 6, r->finished_at, sizeof r->finished_at);
	r->command_line = store_col_strdup(st, 7);
	r->params_json = store_col_strdup(st, 8);
	r->host_json = store_col_strdup(st, 9);
	r->error = store_col_strdup(st, 10);
}

static int load_facts(struct store *s, struct run_row *r, struct sb_err *e)
{
	sqlite3_stmt *st = store_stmt(s, ST_FACTS_GET, e);
	int rc;
	if (!st)
		return -1;
	store_bind_i64(s, st, 1, r->id);
	if (store_binds_ok(s, st, "reading target facts", e))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *phase = (const char *)sqlite3_column_text(st, 0);
		char **dst = phase && !strcmp(phase, "after")
			? &r->facts_after_json : &r->facts_before_json;
		free(*dst);
		*dst = store_col_strdup(st, 1);
	}
	return store_read_done(s, st, rc, "reading target facts", e);
}

int store_get_run(struct store *s, int64_t run_id, struct run_row *out,
		  struct sb_err *e)
{
	memset(out, 0, sizeof *out);
	sqlite3_stmt *st = store_stmt(s, ST_RUN_GET, e);
	if (!st)
		return -1;
	store_bind_i64(s, st, 1, run_id);
	if (store_binds_ok(s, st, "reading a run", e))
		return -1;
	int rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		if (store_read_done(s, st, rc, "reading a run", e))
			return -1;
		return sb_errf(e, "no run %lld in %s", (long long)run_id,
			       s->path);
	}
	run_from_row(st, out);
	sqlite3_reset(st);
	if (load_facts(s, out, e)) {
		store_run_row_free(out);
		return -1;
	}
	return 0;
}

void store_run_row_free(struct run_row *r)
{
	free(r->command_line);
	free(r->params_json);
	free(r->host_json);
	free(r->facts_before_json);
	free(r->facts_after_json);
	free(r->error);
	r->command_line = r->params_json = r->host_json = NULL;
	r->facts_before_json = r->facts_after_json = r->error = NULL;
}

static void run_list_row(sqlite3_stmt *st, void *row)
{
	run_from_row(st, row);
}

static void run_rows_free(void *rows, size_t n)
{
	store_run_rows_free(rows, n);
}

/* Facts are left out of the list: they can be large and a list of runs
   does not show them; store_get_run has them. */
int store_list_runs(struct store *s, struct run_row **out, size_t *n,
		    struct sb_err *e)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *st = store_stmt(s, ST_RUN_LIST, e);
	if (!st)
		return -1;
	return store_read_rows(s, st, sizeof **out, run_list_row, run_rows_free,
			       "listing runs", (void **)out, n, e);
}

void store_run_rows_free(struct run_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++)
		store_run_row_free(&rows[i]);
	free(rows);
}

static void step_from_row(sqlite3_stmt *st, void *row)
{
	struct step_row *r = row;
	r->id = sqlite3_column_int64(st, 0);
	r->seq = sqlite3_column_int(st, 1);
	store_col_copy(st, 2, r->name, sizeof r->name);
	store_col_copy(st, 3, r->status, sizeof r->status);
	store_col_copy(st, 4, r->started_at, sizeof r->started_at);
	store_col_copy(st, 5, r->finished_at, sizeof r->finished_at);
	r->params_json = store_col_strdup(st, 6);
	r->error = store_col_strdup(st, 7);
}

static void step_rows_free(void *rows, size_t n)
{
	store_step_rows_free(rows, n);
}

int store_list_steps(struct store *s, int64_t run_id, struct step_row **out,
		     size_t *n, struct sb_err *e)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *st = store_stmt(s, ST_STEP_LIST, e);
	if (!st)
		return -1;
	store_bind_i64(s, st, 1, run_id);
	return store_read_rows(s, st, sizeof **out, step_from_row, step_rows_free,
			       "listing steps", (void **)out, n, e);
}

void store_step_rows_free(struct step_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(rows[i].params_json);
		free(rows[i].error);
	}
	free(rows);
}

/* A NULL value is a figure that could not be measured (stored NaN). */
static double column_double_or_nan(sqlite3_stmt *st, int col)
{
	return sqlite3_column_type(st, col) == SQLITE_NULL
		? NAN : sqlite3_column_double(st, col);
}

static void metric_from_row(sqlite3_stmt *st, void *row)
{
	struct metric_row *r = row;
	r->step_id = sqlite3_column_int64(st, 0);
	r->workload_id = sqlite3_column_int64(st, 1);
	store_col_copy(st, 2, r->key, sizeof r->key);
	r->value = column_double_or_nan(st, 3);
	store_col_copy(st, 4, r->unit, sizeof r->unit);
}

int store_list_metrics(struct store *s, int64_t run_id,
		       struct metric_row **out, size_t *n, struct sb_err *e)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *st = store_stmt(s, ST_METRIC_LIST, e);
	if (!st)
		return -1;
	store_bind_i64(s, st, 1, run_id);
	return store_read_rows(s, st, sizeof **out, metric_from_row, NULL,
			       "listing metrics", (void **)out, n, e);
}

static void reading_from_row(sqlite3_stmt *st, void *row)
{
	struct device_reading *r = row;
	r->t_ns = (uint64_t)sqlite3_column_int64(st, 0);
	store_col_copy(st, 1, r->key, sizeof r->key);
	r->value = column_double_or_nan(st, 2);
}

int store_list_device_readings(struct store *s, int64_t run_id,
			       struct device_reading **out, size_t *n,
			       struct sb_err *e)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *st = store_stmt(s, ST_READING_LIST, e);
	if (!st)
		return -1;
	store_bind_i64(s, st, 1, run_id);
	return store_read_rows(s, st, sizeof **out, reading_from_row, NULL,
			       "listing device readings", (void **)out, n, e);
}
