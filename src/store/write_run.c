/*
 * Writing a run's frame: the run row, the target's facts, suite steps,
 * metrics and device readings.  Beginnings and endings commit at once, so
 * `ssdbench show` in another terminal sees a run start and finish; the
 * rest rides on the pending transaction until the next tick.
 */
#include <math.h>
#include <string.h>

#include "store/store_impl.h"

/* An UPDATE by id must have found its row, or the caller passed a wrong id. */
static int expect_changed(struct store *s, const char *what, int64_t id,
			  struct sb_err *e)
{
	if (sqlite3_changes(s->db) == 0)
		return sb_errf(e, "no %s with id %lld in %s", what,
			       (long long)id, s->path);
	return 0;
}

int store_run_begin(struct store *s, const struct run_begin *b,
		    int64_t *run_id, struct sb_err *e)
{
	char now[32];
	if (!b->kind || !b->target)
		return sb_errf(e, "recording a run: kind and target are required");
	if (store_tx_ensure(s, e))
		return -1;
	sqlite3_stmt *st = store_stmt(s, ST_RUN_INSERT, e);
	if (!st)
		return -1;
	store_utc_now(now);
	store_bind_text(s, st, 1, b->kind);
	store_bind_text(s, st, 2, b->target);
	store_bind_text(s, st, 3, b->command_line);
	store_bind_text(s, st, 4, b->params_json);
	store_bind_text(s, st, 5, b->host_json);
	store_bind_text(s, st, 6, now);
	if (store_step_done(s, st, "recording a run", e))
		return -1;
	*run_id = sqlite3_last_insert_rowid(s->db);
	return store_commit(s, e);
}

int store_run_target_facts(struct store *s, int64_t run_id, const char *when,
			   const char *facts_json, struct sb_err *e)
{
	char now[32];
	if (!when || (strcmp(when, "before") && strcmp(when, "after")))
		return sb_errf(e, "target facts: '%s' is neither \"before\" nor "
			       "\"after\"", when ? when : "(null)");
	if (!facts_json)
		return sb_errf(e, "target facts: no JSON given");
	if (store_tx_ensure(s, e))
		return -1;
	sqlite3_stmt *st = store_stmt(s, ST_FACTS_UPSERT, e);
	if (!st)
		return -1;
	store_utc_now(now);
	store_bind_i64(s, st, 1, run_id);
	store_bind_text(s, st, 2, when);
	store_bind_text(s, st, 3, facts_json);
	store_bind_text(s, st, 4, now);
	return store_step_done(s, st, "recording target facts", e);
}

/* The UPDATE shared by run and step endings: id, status, error, now. */
static int finish_row(struct store *s, enum store_stmt id_stmt,
		      const char *what, int64_t id, const char *status,
		      const char *error, struct sb_err *e)
{
	char now[32];
	if (store_tx_ensure(s, e))
		return -1;
	sqlite3_stmt *st = store_stmt(s, id_stmt, e);
	if (!st)
		return -1;
	store_utc_now(now);
	store_bind_i64(s, st, 1, id);
	store_bind_text(s, st, 2, status);
	store_bind_text(s, st, 3, error);
	store_bind_text(s, st, 4, now);
	if (store_step_done(s, st, what, e) || expect_changed(s, what, id, e))
		return -1;
	return store_commit(s, e);
}

int store_run_finish(struct store *s, int64_t run_id, const char *status,
		     const char *error, struct sb_err *e)
{
	if (!store_status_valid(status, false))
		return sb_errf(e, "finishing run %lld: unknown status '%s'",
			       (long long)run_id, status ? status : "(null)");
	return finish_row(s, ST_RUN_FINISH, "run", run_id, status, error, e);
}

int store_run_engine_mode(struct store *s, int64_t run_id, const char *mode,
			  struct sb_err *e)
{
	if (store_tx_ensure(s, e))
		return -1;
	sqlite3_stmt *st = store_stmt(s, ST_RUN_MODE, e);
	if (!st)
		return -1;
	store_bind_i64(s, st, 1, run_id);
	store_bind_text(s, st, 2, mode);
	if (store_step_done(s, st, "run", e) ||
	    expect_changed(s, "run", run_id, e))
		return -1;
	return 0;
}

int store_step_begin(struct store *s, int64_t run_id, int seq,
		     const char *name, const char *params_json,
		     int64_t *step_id, struct sb_err *e)
{
	char now[32];
	if (!name || !*name)
		return sb_errf(e, "recording a step: no name given");
	if (store_tx_ensure(s, e))
		return -1;
	sqlite3_stmt *st = store_stmt(s, ST_STEP_INSERT, e);
	if (!st)
		return -1;
	store_utc_now(now);
	store_bind_i64(s, st, 1, run_id);
	store_bind_i64(s, st, 2, seq);
	store_bind_text(s, st, 3, name);
	store_bind_text(s, st, 4, params_json);
	store_bind_text(s, st, 5, now);
	if (store_step_done(s, st, "recording a step", e))
		return sb_err_wrap(e, "step '%s' of run %lld", name,
				   (long long)run_id);
	*step_id = sqlite3_last_insert_rowid(s->db);
	return store_commit(s, e);
}

int store_step_finish(struct store *s, int64_t step_id, const char *status,
		      const char *error, struct sb_err *e)
{
	if (!store_status_valid(status, true))
		return sb_errf(e, "finishing step %lld: unknown status '%s'",
			       (long long)step_id, status ? status : "(null)");
	return finish_row(s, ST_STEP_FINISH, "step", step_id, status, error, e);
}

int store_put_metric(struct store *s, int64_t run_id, int64_t step_id,
		     int64_t workload_id, const char *key, double value,
		     const char *unit, struct sb_err *e)
{
	if (!key || !*key)
		return sb_errf(e, "recording a metric: no key given");
	if (store_tx_ensure(s, e))
		return -1;
	/* A metric is a value: putting it again (an analysis re-run)
	   replaces it rather than adding a second row. */
	sqlite3_stmt *st = store_stmt(s, ST_METRIC_DELETE, e);
	if (!st)
		return -1;
	store_bind_i64(s, st, 1, run_id);
	store_bind_id(s, st, 2, step_id);
	store_bind_id(s, st, 3, workload_id);
	store_bind_text(s, st, 4, key);
	if (store_step_done(s, st, "replacing a metric", e))
		return sb_err_wrap(e, "metric %s", key);
	if (!(st = store_stmt(s, ST_METRIC_INSERT, e)))
		return -1;
	store_bind_i64(s, st, 1, run_id);
	store_bind_id(s, st, 2, step_id);
	store_bind_id(s, st, 3, workload_id);
	store_bind_text(s, st, 4, key);
	if (isfinite(value))	/* a missing figure (NaN) is stored as NULL */
		store_bind_f64(s, st, 5, value);
	store_bind_text(s, st, 6, unit ? unit : "");
	if (store_step_done(s, st, "recording a metric", e))
		return sb_err_wrap(e, "metric %s of run %lld", key,
				   (long long)run_id);
	return 0;
}

int store_add_device_query(struct store *s, int64_t workload_id, uint64_t t_start_ns,
			   uint64_t t_end_ns, const char *source, struct sb_err *e)
{
	if (store_tx_ensure(s, e))
		return -1;
	sqlite3_stmt *st = store_stmt(s, ST_QUERY_INSERT, e);
	if (!st)
		return -1;
	store_bind_i64(s, st, 1, workload_id);
	store_bind_i64(s, st, 2, (int64_t)t_start_ns);
	store_bind_i64(s, st, 3, (int64_t)t_end_ns);
	store_bind_text(s, st, 4, source);
	if (store_step_done(s, st, "recording a device query", e))
		return sb_err_wrap(e, "workload %lld", (long long)workload_id);
	return 0;
}

int store_add_device_reading(struct store *s, int64_t run_id, uint64_t t_ns,
			     const char *key, double value, struct sb_err *e)
{
	if (!key || !*key)
		return sb_errf(e, "recording a device reading: no key given");
	if (store_tx_ensure(s, e))
		return -1;
	sqlite3_stmt *st = store_stmt(s, ST_READING_INSERT, e);
	if (!st)
		return -1;
	store_bind_i64(s, st, 1, run_id);
	store_bind_i64(s, st, 2, (int64_t)t_ns);
	store_bind_text(s, st, 3, key);
	if (isfinite(value))
		store_bind_f64(s, st, 4, value);
	if (store_step_done(s, st, "recording a device reading", e))
		return sb_err_wrap(e, "%s of run %lld", key, (long long)run_id);
	return 0;
}
