/*
 * One writer per run.  Two `resume` of one run at once would run the same
 * steps on the same target and store them twice, so the writer of a run
 * holds a lease: a row naming its process and host.  A second writer is
 * refused with the holder's name.  A lease whose process is gone (same
 * host, no such pid) is stale and taken over; one held on another host
 * cannot be checked and is refused.
 *
 * The table is created when missing rather than by a schema version: it
 * holds only live state, never results, and a database without it reads
 * exactly as before.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "store/store_impl.h"

static const char lease_table[] =
	"CREATE TABLE IF NOT EXISTS run_leases (\n"
	"  run_id   INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  pid      INTEGER NOT NULL,\n"
	"  host     TEXT NOT NULL,\n"
	"  taken_at TEXT NOT NULL\n"
	")";

static void host_name(char out[256])
{
	if (gethostname(out, 256))
		snprintf(out, 256, "?");
	out[255] = '\0';
}

static bool holder_alive(long long pid, const char *host, const char *me)
{
	if (strcmp(host, me))
		return true;	/* another machine's process: cannot tell */
	if (pid == (long long)getpid())
		return false;	/* our own, left by an earlier writer here */
	return kill((pid_t)pid, 0) == 0 || errno == EPERM;
}

int store_lease_take(struct store *s, int64_t run_id, struct sb_err *e)
{
	char me[256], now[32];
	host_name(me);
	store_utc_now(now);
	if (store_commit(s, e) || store_exec(s->db, lease_table, e) ||
	    store_exec(s->db, "BEGIN IMMEDIATE", e))
		return sb_err_wrap(e, "%s: taking the lease of run %lld", s->path,
				   (long long)run_id);
	sqlite3_stmt *st = NULL;
	int rc = 0;
	if (sqlite3_prepare_v2(s->db, "SELECT pid, host, taken_at FROM run_leases "
			       "WHERE run_id = ?1", -1, &st, NULL) != SQLITE_OK) {
		rc = store_sql_err(s->db, e, s->path);
		goto out;
	}
	if (sqlite3_bind_int64(st, 1, run_id) != SQLITE_OK) {
		rc = store_sql_err(s->db, e, "binding the run of a lease");
		goto out;
	}
	if (sqlite3_step(st) == SQLITE_ROW) {
		long long pid = sqlite3_column_int64(st, 0);
		const char *host = (const char *)sqlite3_column_text(st, 1);
		const char *at = (const char *)sqlite3_column_text(st, 2);
		if (holder_alive(pid, host ? host : "", me)) {
			rc = sb_errf(e, "run %lld is being written by process %lld "
				     "on %s (since %s); one writer per run",
				     (long long)run_id, pid, host ? host : "?",
				     at ? at : "?");
			goto out;
		}
	}
	sqlite3_finalize(st);
	st = NULL;
	if (sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO run_leases (run_id, "
			       "pid, host, taken_at) VALUES (?1, ?2, ?3, ?4)", -1,
			       &st, NULL) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 1, run_id) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 2, (sqlite3_int64)getpid()) != SQLITE_OK ||
	    sqlite3_bind_text(st, 3, me, -1, SQLITE_TRANSIENT) != SQLITE_OK ||
	    sqlite3_bind_text(st, 4, now, -1, SQLITE_TRANSIENT) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_DONE)
		rc = store_sql_err(s->db, e, s->path);
out:
	sqlite3_finalize(st);
	if (rc) {
		struct sb_err re;
		store_exec(s->db, "ROLLBACK", &re);
		return -1;
	}
	return store_commit(s, e);
}

int store_lease_release(struct store *s, int64_t run_id, struct sb_err *e)
{
	sqlite3_stmt *st;
	if (store_commit(s, e))
		return -1;
	if (sqlite3_prepare_v2(s->db, "DELETE FROM run_leases WHERE run_id = ?1 "
			       "AND pid = ?2", -1, &st, NULL) != SQLITE_OK)
		return store_sql_err(s->db, e, s->path);
	int rc = 0;
	if (sqlite3_bind_int64(st, 1, run_id) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 2, (sqlite3_int64)getpid()) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_DONE)
		rc = store_sql_err(s->db, e, s->path);
	sqlite3_finalize(st);
	return rc;
}
