/*
 * The schema's history.  Each migration step takes the database from
 * version N-1 to N (PRAGMA user_version) in its own transaction, so a crash
 * mid-upgrade leaves the file at the last whole version.  Steps are only
 * ever appended: a released step never changes, or databases made by an
 * older ssdbench would end up different from new ones.
 */
#ifndef SSDBENCH_STORE_MIGRATE_H
#define SSDBENCH_STORE_MIGRATE_H

#include <sqlite3.h>

#include "common/error.h"

/* The version this binary writes; a newer file is refused. */
int store_current_version(void);

/*
 * Apply every step after the file's version up to `target` (use
 * store_current_version(); tests pass a lower one to build an old file).
 */
int store_migrate(sqlite3 *db, const char *path, int target,
		  struct sb_err *e);

/* PRAGMA user_version, or -1 with e filled. */
int store_read_version(sqlite3 *db, const char *path, int *version,
		       struct sb_err *e);

/*
 * The identity of a run recorded before schema version 4, as an SQL
 * expression over its row (id, host_json, started_at, kind, target):
 * 'legacy:HOST/STARTED_AT/KIND/TARGET/ID'.  Deterministic, so the upgrade
 * and a merge from an old file give the same run the same identity; the id
 * keeps it unique within its file.
 */
#define STORE_LEGACY_RUN_UID_SQL \
	"('legacy:' || coalesce(CASE WHEN json_valid(host_json) THEN " \
	"json_extract(host_json, '$.hostname') END, '') || '/' || started_at " \
	"|| '/' || kind || '/' || target || '/' || id)"

/* The first schema version whose runs carry their identity (runs.uid). */
#define STORE_RUN_UID_VERSION 4

/* Tag written into every ssdbench database (PRAGMA application_id): "SSDB". */
#define STORE_APPLICATION_ID 0x53534442

#endif
