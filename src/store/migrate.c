#include "store/migrate.h"

#include <stddef.h>
#include <stdio.h>

#include "store/store_impl.h"

/*
 * Version 1: the tables.  Unsigned 64-bit counters are stored in SQLite's
 * signed INTEGER and cast back on reading, which is exact for every value;
 * in the sqlite3 shell a counter above 2^63 would show negative, which no
 * measurement comes near (2^63 ns is 292 years, 2^63 bytes 8 EiB).
 *
 * Step and workload references are NULL, not 0, when a row has none, so the
 * foreign keys hold.  Times are ISO 8601 UTC text, which sorts and reads
 * well in the shell; sample times are nanoseconds since the workload began.
 */
static const char schema_v1[] =
	"PRAGMA application_id = 1397965890;\n" /* STORE_APPLICATION_ID, "SSDB" */
	"CREATE TABLE runs (\n"
	"  id           INTEGER PRIMARY KEY,\n"
	"  kind         TEXT NOT NULL,\n"
	"  target       TEXT NOT NULL,\n"
	"  command_line TEXT,\n"
	"  params_json  TEXT,\n"
	"  host_json    TEXT,\n"
	"  status       TEXT NOT NULL DEFAULT 'running',\n"
	"  engine_mode  TEXT,\n"
	"  started_at   TEXT NOT NULL,\n"
	"  finished_at  TEXT,\n"
	"  error        TEXT\n"
	");\n"
	"CREATE TABLE target_facts (\n"
	"  run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  phase       TEXT NOT NULL CHECK (phase IN ('before', 'after')),\n"
	"  facts_json  TEXT NOT NULL,\n"
	"  recorded_at TEXT NOT NULL,\n"
	"  PRIMARY KEY (run_id, phase)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE steps (\n"
	"  id          INTEGER PRIMARY KEY,\n"
	"  run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  seq         INTEGER NOT NULL,\n"
	"  name        TEXT NOT NULL,\n"
	"  params_json TEXT,\n"
	"  status      TEXT NOT NULL DEFAULT 'running',\n"
	"  started_at  TEXT NOT NULL,\n"
	"  finished_at TEXT,\n"
	"  error       TEXT\n"
	");\n"
	"CREATE TABLE workloads (\n"
	"  id          INTEGER PRIMARY KEY,\n"
	"  run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  step_id     INTEGER REFERENCES steps(id) ON DELETE CASCADE,\n"
	"  idx         INTEGER NOT NULL,\n"
	"  name        TEXT NOT NULL,\n"
	"  spec_json   TEXT,\n"
	"  status      TEXT NOT NULL DEFAULT 'running',\n"
	"  mode        TEXT,\n"
	"  started_at  TEXT NOT NULL,\n"
	"  finished_at TEXT,\n"
	"  read_bytes  INTEGER NOT NULL DEFAULT 0,\n"
	"  read_ios    INTEGER NOT NULL DEFAULT 0,\n"
	"  write_bytes INTEGER NOT NULL DEFAULT 0,\n"
	"  write_ios   INTEGER NOT NULL DEFAULT 0,\n"
	"  trim_bytes  INTEGER NOT NULL DEFAULT 0,\n"
	"  trim_ios    INTEGER NOT NULL DEFAULT 0,\n"
	"  measured_ns INTEGER NOT NULL DEFAULT 0,\n"
	"  final       INTEGER NOT NULL DEFAULT 0\n"
	");\n"
	"CREATE TABLE samples (\n"
	"  workload_id INTEGER NOT NULL REFERENCES workloads(id) ON DELETE CASCADE,\n"
	"  idx         INTEGER NOT NULL,\n"
	"  t_start_ns  INTEGER NOT NULL,\n"
	"  t_end_ns    INTEGER NOT NULL,\n"
	"  ramp        INTEGER NOT NULL,\n"
	"  read_bytes INTEGER NOT NULL, read_ios INTEGER NOT NULL,\n"
	"  read_p50_ns INTEGER NOT NULL, read_p99_ns INTEGER NOT NULL,\n"
	"  read_max_ns INTEGER NOT NULL, read_lat_sum_ns INTEGER NOT NULL,\n"
	"  write_bytes INTEGER NOT NULL, write_ios INTEGER NOT NULL,\n"
	"  write_p50_ns INTEGER NOT NULL, write_p99_ns INTEGER NOT NULL,\n"
	"  write_max_ns INTEGER NOT NULL, write_lat_sum_ns INTEGER NOT NULL,\n"
	"  trim_bytes INTEGER NOT NULL, trim_ios INTEGER NOT NULL,\n"
	"  trim_p50_ns INTEGER NOT NULL, trim_p99_ns INTEGER NOT NULL,\n"
	"  trim_max_ns INTEGER NOT NULL, trim_lat_sum_ns INTEGER NOT NULL,\n"
	"  PRIMARY KEY (workload_id, idx)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE histograms (\n"
	"  workload_id INTEGER NOT NULL REFERENCES workloads(id) ON DELETE CASCADE,\n"
	"  direction   TEXT NOT NULL CHECK (direction IN ('read', 'write', 'trim')),\n"
	"  final       INTEGER NOT NULL,\n"
	"  count       INTEGER NOT NULL,\n"
	"  min_ns      INTEGER NOT NULL,\n"
	"  max_ns      INTEGER NOT NULL,\n"
	"  sum_ns      INTEGER NOT NULL,\n"
	"  encoded     BLOB NOT NULL,\n"
	"  PRIMARY KEY (workload_id, direction)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE metrics (\n"
	"  id          INTEGER PRIMARY KEY,\n"
	"  run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  step_id     INTEGER REFERENCES steps(id) ON DELETE CASCADE,\n"
	"  workload_id INTEGER REFERENCES workloads(id) ON DELETE CASCADE,\n"
	"  key         TEXT NOT NULL,\n"
	"  value       REAL,\n"
	"  unit        TEXT NOT NULL DEFAULT ''\n"
	");\n"
	"CREATE TABLE device_readings (\n"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  t_ns   INTEGER NOT NULL,\n"
	"  key    TEXT NOT NULL,\n"
	"  value  REAL\n"
	");\n";

/*
 * Version 2: indexes for the read paths (and for the cascades of the
 * foreign keys), and views that make the shell pleasant: rates in IOPS and
 * MB/s instead of raw counters.
 */
static const char schema_v2[] =
	"CREATE INDEX steps_by_run ON steps(run_id, seq);\n"
	"CREATE INDEX workloads_by_run ON workloads(run_id, step_id, idx);\n"
	"CREATE INDEX workloads_by_step ON workloads(step_id);\n"
	"CREATE INDEX metrics_by_run ON metrics(run_id, key);\n"
	"CREATE INDEX metrics_by_step ON metrics(step_id);\n"
	"CREATE INDEX metrics_by_workload ON metrics(workload_id);\n"
	"CREATE INDEX readings_by_run ON device_readings(run_id, t_ns);\n"
	"CREATE VIEW workload_rates AS\n"
	"  SELECT id AS workload_id, run_id, step_id, idx, name, status, mode,\n"
	"    measured_ns / 1e9 AS measured_s,\n"
	"    CASE WHEN measured_ns > 0 THEN read_ios * 1e9 / measured_ns END AS read_iops,\n"
	"    CASE WHEN measured_ns > 0 THEN read_bytes * 1e3 / measured_ns END AS read_mbps,\n"
	"    CASE WHEN measured_ns > 0 THEN write_ios * 1e9 / measured_ns END AS write_iops,\n"
	"    CASE WHEN measured_ns > 0 THEN write_bytes * 1e3 / measured_ns END AS write_mbps,\n"
	"    CASE WHEN measured_ns > 0 THEN trim_ios * 1e9 / measured_ns END AS trim_iops,\n"
	"    final\n"
	"  FROM workloads;\n"
	"CREATE VIEW sample_rates AS\n"
	"  SELECT workload_id, idx, t_start_ns / 1e9 AS t_s, ramp,\n"
	"    (t_end_ns - t_start_ns) AS len_ns,\n"
	"    read_ios * 1e9 / NULLIF(t_end_ns - t_start_ns, 0) AS read_iops,\n"
	"    read_bytes * 1e3 / NULLIF(t_end_ns - t_start_ns, 0) AS read_mbps,\n"
	"    read_lat_sum_ns * 1.0 / NULLIF(read_ios, 0) AS read_mean_ns,\n"
	"    read_p99_ns,\n"
	"    write_ios * 1e9 / NULLIF(t_end_ns - t_start_ns, 0) AS write_iops,\n"
	"    write_bytes * 1e3 / NULLIF(t_end_ns - t_start_ns, 0) AS write_mbps,\n"
	"    write_lat_sum_ns * 1.0 / NULLIF(write_ios, 0) AS write_mean_ns,\n"
	"    write_p99_ns\n"
	"  FROM samples;\n";

/*
 * Version 3: what the tool itself did to a measurement.  Per workload, the
 * times its I/O threads waited for the collector (a full hand-off ring)
 * and for how long; and every device query (health, temperature) made
 * while a workload ran, as an interval of the workload's clock (the
 * samples' t_start_ns/t_end_ns), so analysis and report can mark it.
 */
static const char schema_v3[] =
	/* NULL until the totals are written: a workload recorded before
	   version 3 has no count, which is not a count of 0. */
	"ALTER TABLE workloads ADD COLUMN driver_stalls INTEGER;\n"
	"ALTER TABLE workloads ADD COLUMN driver_stall_ns INTEGER;\n"
	"CREATE TABLE device_queries (\n"
	"  workload_id INTEGER NOT NULL REFERENCES workloads(id) ON DELETE CASCADE,\n"
	"  t_start_ns  INTEGER NOT NULL,\n"
	"  t_end_ns    INTEGER NOT NULL,\n"
	"  source      TEXT NOT NULL\n"
	");\n"
	"CREATE INDEX device_queries_by_workload ON device_queries(workload_id, t_start_ns);\n";

/*
 * Version 4: a run's identity, which stays the same when `ssdbench merge`
 * copies the run into another database (where its id changes).  A new run
 * gets 128 random bits (ST_RUN_INSERT); a run recorded before version 4
 * gets STORE_LEGACY_RUN_UID_SQL, made only of what the row holds, so two
 * copies of one file upgraded apart name their runs alike.
 */
static const char schema_v4[] =
	"ALTER TABLE runs ADD COLUMN uid TEXT;\n"
	"UPDATE runs SET uid = " STORE_LEGACY_RUN_UID_SQL ";\n"
	"CREATE UNIQUE INDEX runs_by_uid ON runs(uid);\n";

/*
 * Version 5: open-loop workloads (a rate: docs/run.md) keep two more
 * histograms per direction beside the service latency in `histograms`:
 * response latency (scheduled arrival to completion) and lateness
 * (arrival to submission).  Closed-loop workloads, and every workload
 * recorded before version 5, have none: there response latency is the
 * service latency.
 */
static const char schema_v5[] =
	"CREATE TABLE arrival_histograms (\n"
	"  workload_id INTEGER NOT NULL REFERENCES workloads(id) ON DELETE CASCADE,\n"
	"  direction   TEXT NOT NULL CHECK (direction IN ('read', 'write', 'trim')),\n"
	"  kind        TEXT NOT NULL CHECK (kind IN ('response', 'lateness')),\n"
	"  final       INTEGER NOT NULL,\n"
	"  count       INTEGER NOT NULL,\n"
	"  min_ns      INTEGER NOT NULL,\n"
	"  max_ns      INTEGER NOT NULL,\n"
	"  sum_ns      INTEGER NOT NULL,\n"
	"  encoded     BLOB NOT NULL,\n"
	"  PRIMARY KEY (workload_id, direction, kind)\n"
	") WITHOUT ROWID;\n";

/*
 * Version 6: where a workload's I/Os come from (common/sample.h enum
 * io_way): io_way says how they were produced ('engine', 'exact', 'bulk',
 * 'sampled'), ios_simulated how many of the I/Os counted (read_ios +
 * write_ios + trim_ios) a simulated drive simulated one by one; the rest
 * were extrapolated.  NULL io_way: recorded before version 6, unknown;
 * NULL ios_simulated: unknown, or not a simulation (a device measures
 * every I/O).
 */
static const char schema_v6[] =
	"ALTER TABLE workloads ADD COLUMN io_way TEXT;\n"
	"ALTER TABLE workloads ADD COLUMN ios_simulated INTEGER;\n";

static const char *const migrations[] = { schema_v1, schema_v2, schema_v3, schema_v4,
					   schema_v5, schema_v6 };
#define MIGRATION_COUNT ((int)(sizeof migrations / sizeof migrations[0]))

int store_current_version(void)
{
	return MIGRATION_COUNT;
}

int store_read_version(sqlite3 *db, const char *path, int *version,
		       struct sb_err *e)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
		return store_sql_err(db, e, path);
	int rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		sqlite3_finalize(st);
		return store_sql_err(db, e, path);
	}
	*version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return 0;
}

/* One step in its own transaction.  IMMEDIATE takes the write lock before
   the version is re-read, so two processes opening an old file at once
   cannot both apply the same step. */
static int apply_step(sqlite3 *db, const char *path, int to, struct sb_err *e)
{
	int version;
	char sql[64];
	if (store_exec(db, "BEGIN IMMEDIATE", e))
		return sb_err_wrap(e, "%s: upgrading the schema", path);
	if (store_read_version(db, path, &version, e))
		goto fail;
	if (version >= to) {	/* someone else got there first */
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		return 0;
	}
	snprintf(sql, sizeof sql, "PRAGMA user_version = %d", to);
	if (store_exec(db, migrations[to - 1], e) || store_exec(db, sql, e) ||
	    store_exec(db, "COMMIT", e))
		goto fail;
	return 0;
fail:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return sb_err_wrap(e, "%s: upgrading the schema to version %d", path, to);
}

int store_migrate(sqlite3 *db, const char *path, int target, struct sb_err *e)
{
	int version;
	if (target < 1 || target > MIGRATION_COUNT)
		return sb_errf(e, "no schema version %d (this ssdbench knows 1 to %d)",
			       target, MIGRATION_COUNT);
	if (store_read_version(db, path, &version, e))
		return -1;
	for (int to = version + 1; to <= target; to++)
		if (apply_step(db, path, to, e))
			return -1;
	return 0;
}
