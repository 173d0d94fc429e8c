/*
 * ssdbench merge: copy the runs of another results database into this one.
 *
 * A run is known by its identity (runs.uid), not its id: runs already
 * present are skipped, so merging twice adds nothing.  The source is
 * ATTACHed read-only.  Every table is copied by its columns as the two
 * schemas declare them, not by a list kept here: the ids of runs, steps and
 * workloads get new values (through a map in a temporary table) and every
 * foreign key to them is translated; any other table's own integer key is
 * left to SQLite.  A table of the future that this scheme cannot place
 * (no reference to a run, step or workload) is refused, not skipped.
 * All of it is one transaction: a failure leaves the target as it was.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "store/migrate.h"
#include "store/store_impl.h"

/* The tables whose ids others refer to, parents before children. */
static const char *const mapped[] = { "runs", "steps", "workloads" };
#define MAPPED_COUNT 3

static int mapped_index(const char *table)
{
	for (int i = 0; i < MAPPED_COUNT; i++)
		if (!strcmp(table, mapped[i]))
			return i;
	return -1;
}

/* Which reference places a row in a run: runs.id, else a workload, else a
   step (a metric has all three, a sample only its workload). */
static int owner_rank(const char *parent)
{
	return !strcmp(parent, "runs") ? 0 : !strcmp(parent, "workloads") ? 1 : 2;
}

/* Run SQL built by sqlite3_mprintf (freed here); NULL means out of memory. */
static int exec_owned(sqlite3 *db, char *sql, struct sb_err *e)
{
	if (!sql)
		return sb_errf(e, "out of memory");
	int rc = store_exec(db, sql, e);
	sqlite3_free(sql);
	return rc;
}

static int query_count(sqlite3 *db, const char *sql, int64_t *out,
		       struct sb_err *e)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return store_sql_err(db, e, "merging");
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : store_sql_err(db, e, "merging");
}

/* Does schema `db` ("main" or "src") have column `col` in `table`? */
static int has_column(sqlite3 *db, const char *schema, const char *table,
		      const char *col, bool *out, struct sb_err *e)
{
	int64_t n = 0;
	char *sql = sqlite3_mprintf("SELECT count(*) FROM pragma_table_info(%Q, %Q) "
				    "WHERE name = %Q", table, schema, col);
	if (!sql)
		return sb_errf(e, "out of memory");
	int rc = query_count(db, sql, &n, e);
	sqlite3_free(sql);
	*out = n > 0;
	return rc;
}

/* The expression naming a source run's identity. */
static const char *source_uid_sql(bool has_uid)
{
	return has_uid ? "coalesce(uid, " STORE_LEGACY_RUN_UID_SQL ")"
		       : STORE_LEGACY_RUN_UID_SQL;
}

/* New ids for the source rows of mapped table i that are to be copied:
   after the target's largest, in the source's order. */
static int map_ids(sqlite3 *db, int i, bool src_has_uid, struct sb_err *e)
{
	char *sql;
	if (i == 0)
		sql = sqlite3_mprintf(
			"INSERT INTO temp.merge_map SELECT 'runs', id, "
			"(SELECT coalesce(max(id), 0) FROM main.runs) + "
			"row_number() OVER (ORDER BY id) FROM src.runs "
			"WHERE %s NOT IN (SELECT uid FROM main.runs WHERE uid IS NOT NULL)",
			source_uid_sql(src_has_uid));
	else
		sql = sqlite3_mprintf(
			"INSERT INTO temp.merge_map SELECT %Q, id, "
			"(SELECT coalesce(max(id), 0) FROM main.\"%w\") + "
			"row_number() OVER (ORDER BY id) FROM src.\"%w\" "
			"WHERE run_id IN (SELECT old FROM temp.merge_map WHERE tbl = 'runs')",
			mapped[i], mapped[i], mapped[i]);
	return exec_owned(db, sql, e);
}

/* Growing SQL text built with sqlite3_mprintf; NULL once out of memory. */
static char *append(char *s, const char *fmt, const char *a, const char *b)
{
	if (!s)
		return NULL;
	char *t = sqlite3_mprintf("%s", s);
	char *part = sqlite3_mprintf(fmt, a, b);
	sqlite3_free(s);
	if (!t || !part) {
		sqlite3_free(t);
		sqlite3_free(part);
		return NULL;
	}
	s = sqlite3_mprintf("%s%s", t, part);
	sqlite3_free(t);
	sqlite3_free(part);
	return s;
}

/* The mapped table that column `col` of main's `table` refers to, or NULL. */
static const char *fk_parent(sqlite3 *db, const char *table, const char *col)
{
	sqlite3_stmt *st;
	const char *parent = NULL;
	char *sql = sqlite3_mprintf("SELECT \"table\" FROM pragma_foreign_key_list(%Q) "
				    "WHERE \"from\" = %Q", table, col);
	if (!sql || sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		sqlite3_free(sql);
		return NULL;
	}
	sqlite3_free(sql);
	if (sqlite3_step(st) == SQLITE_ROW) {
		int i = mapped_index((const char *)sqlite3_column_text(st, 0));
		if (i >= 0)
			parent = mapped[i];
	}
	sqlite3_finalize(st);
	return parent;
}

/*
 * INSERT INTO main.T (cols) SELECT exprs FROM src.T x WHERE x belongs to a
 * copied run.  Columns: those both schemas have, plus runs.uid where the
 * source predates it.
 */
static int copy_table(sqlite3 *db, const char *table, bool src_has_uid,
		      struct sb_err *e)
{
	sqlite3_stmt *st;
	char *cols = sqlite3_mprintf(""), *exprs = sqlite3_mprintf("");
	const char *owner = NULL;
	char *owner_col = NULL;
	int self = mapped_index(table), rc = -1;
	char *sql = sqlite3_mprintf(
		"SELECT m.name, m.pk = 1 AND upper(m.type) = 'INTEGER' AND "
		"(SELECT count(*) FROM pragma_table_info(%Q, 'main') WHERE pk > 0) = 1, "
		"EXISTS (SELECT 1 FROM pragma_table_info(%Q, 'src') s WHERE s.name = m.name) "
		"FROM pragma_table_info(%Q, 'main') m ORDER BY m.cid",
		table, table, table);
	if (!sql || sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		sqlite3_free(sql);
		sqlite3_free(cols);
		sqlite3_free(exprs);
		return store_sql_err(db, e, "merging: reading the schema");
	}
	sqlite3_free(sql);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *c = (const char *)sqlite3_column_text(st, 0);
		bool rowid_key = sqlite3_column_int(st, 1);
		bool in_src = sqlite3_column_int(st, 2);
		const char *parent = fk_parent(db, table, c);
		const char *sep = cols && *cols ? ", " : "";
		if (self >= 0 && !strcmp(c, "id")) {
			cols = append(cols, "%s\"id\"%s", sep, "");
			exprs = append(exprs, "%s(SELECT new FROM temp.merge_map WHERE "
				       "tbl = '%s' AND old = x.id)", sep, table);
		} else if (self == 0 && !strcmp(c, "uid")) {
			cols = append(cols, "%s\"uid\"%s", sep, "");
			exprs = append(exprs, "%s%s", sep, source_uid_sql(src_has_uid));
		} else if (!in_src || (self < 0 && rowid_key)) {
			continue;	/* the target's default, or a new row id */
		} else if (parent) {
			char *q = sqlite3_mprintf("%w", c);
			cols = append(cols, "%s\"%s\"", sep, q);
			char *ex = sqlite3_mprintf("(SELECT new FROM temp.merge_map WHERE "
						   "tbl = '%s' AND old = x.\"%w\")", parent, c);
			exprs = append(exprs, "%s%s", sep, ex);
			sqlite3_free(q);
			sqlite3_free(ex);
			/* the rows of a copied run: by its run, else its
			   workload, else its step */
			if (!owner || owner_rank(parent) < owner_rank(owner)) {
				owner = parent;
				sqlite3_free(owner_col);
				owner_col = sqlite3_mprintf("%w", c);
			}
		} else {
			char *q = sqlite3_mprintf("%w", c);
			cols = append(cols, "%s\"%s\"", sep, q);
			exprs = append(exprs, "%sx.\"%s\"", sep, q);
			sqlite3_free(q);
		}
	}
	sqlite3_finalize(st);
	if (!cols || !exprs || (owner && !owner_col)) {
		sb_errf(e, "out of memory");
		goto out;
	}
	if (self == 0)
		sql = sqlite3_mprintf("INSERT INTO main.runs (%s) SELECT %s FROM src.runs x "
				      "WHERE x.id IN (SELECT old FROM temp.merge_map "
				      "WHERE tbl = 'runs') ORDER BY x.id", cols, exprs);
	else if (owner)
		sql = sqlite3_mprintf("INSERT INTO main.\"%w\" (%s) SELECT %s FROM src.\"%w\" x "
				      "WHERE x.\"%s\" IN (SELECT old FROM temp.merge_map "
				      "WHERE tbl = '%s')", table, cols, exprs, table,
				      owner_col, owner);
	else {
		sb_errf(e, "table %s refers to no run, step or workload; merge "
			"does not know which of its rows to copy", table);
		goto out;
	}
	rc = exec_owned(db, sql, e);
	if (rc)
		sb_err_wrap(e, "copying %s", table);
out:
	sqlite3_free(cols);
	sqlite3_free(exprs);
	sqlite3_free(owner_col);
	return rc;
}

/* Every table of the target, the mapped ones first, then by name.  Not
   run_leases: a lease is a live writer's claim on a run of the database
   it was taken in, never a result to carry into another. */
static int copy_tables(sqlite3 *db, bool src_has_uid, struct sb_err *e)
{
	sqlite3_stmt *st;
	const char *sql =
		"SELECT m.name, EXISTS (SELECT 1 FROM src.sqlite_master s "
		"WHERE s.type = 'table' AND s.name = m.name) "
		"FROM main.sqlite_master m WHERE m.type = 'table' "
		"AND m.name NOT LIKE 'sqlite_%' AND m.name <> 'run_leases' "
		"ORDER BY CASE m.name "
		"WHEN 'runs' THEN 0 WHEN 'steps' THEN 1 WHEN 'workloads' THEN 2 "
		"ELSE 3 END, m.name";
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return store_sql_err(db, e, "merging: listing the tables");
	int rc = 0, step;
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
		char *table = sqlite3_mprintf("%s", sqlite3_column_text(st, 0));
		if (!table)
			rc = sb_errf(e, "out of memory");
		else if (sqlite3_column_int(st, 1))
			rc = copy_table(db, table, src_has_uid, e);
		sqlite3_free(table);
	}
	sqlite3_finalize(st);
	return rc;
}

static int check_not_same(const char *dst, const char *src, struct sb_err *e)
{
	struct stat a, b;
	if (stat(dst, &a) == 0 && stat(src, &b) == 0 && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino)
		return sb_errf(e, "%s and %s are the same database; nothing to merge",
			       src, dst);
	return 0;
}

/* The source's checks (ours, not newer, not empty) are store_open_readonly's. */
static int source_version(const char *path, int *version, struct sb_err *e)
{
	struct store *src;
	if (store_open_readonly(path, &src, e))
		return -1;
	*version = store_schema_version(src);
	store_close(src);
	return 0;
}

static int merge_attached(struct store *s, int version,
			  struct store_merge_result *r, struct sb_err *e)
{
	sqlite3 *db = s->db;
	bool src_has_uid = false;
	int64_t total = 0;
	if (version >= STORE_RUN_UID_VERSION &&
	    has_column(db, "src", "runs", "uid", &src_has_uid, e))
		return -1;
	if (store_exec(db, "BEGIN IMMEDIATE", e))
		return sb_err_wrap(e, "%s: starting the merge", s->path);
	if (store_exec(db, "DROP TABLE IF EXISTS temp.merge_map; "
			   "CREATE TEMP TABLE merge_map (tbl TEXT, old INTEGER, "
			   "new INTEGER, PRIMARY KEY (tbl, old)) WITHOUT ROWID", e))
		goto fail;
	for (int i = 0; i < MAPPED_COUNT; i++)
		if (map_ids(db, i, src_has_uid, e))
			goto fail;
	if (query_count(db, "SELECT count(*) FROM src.runs", &total, e) ||
	    query_count(db, "SELECT count(*) FROM temp.merge_map WHERE tbl = 'runs'",
			&r->runs_merged, e))
		goto fail;
	r->runs_present = total - r->runs_merged;
	if (copy_tables(db, src_has_uid, e))
		goto fail;
	if (store_exec(db, "DROP TABLE temp.merge_map", e) ||
	    store_exec(db, "COMMIT", e))
		goto fail;
	return 0;
fail:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

int store_merge(struct store *s, const char *src_path,
		struct store_merge_result *r, struct sb_err *e)
{
	int version;
	memset(r, 0, sizeof *r);
	if (store_check_writable(s, e) || check_not_same(s->path, src_path, e) ||
	    source_version(src_path, &version, e))
		return -1;
	/* ATTACH is refused inside a transaction: commit what is pending. */
	if (store_commit(s, e))
		return -1;
	char *uri = store_path_uri(src_path, "mode=ro");
	if (!uri)
		return sb_errf(e, "out of memory");
	int rc = exec_owned(s->db, sqlite3_mprintf("ATTACH DATABASE %Q AS src", uri), e);
	free(uri);
	if (rc)
		return sb_err_wrap(e, "%s: opening read-only", src_path);
	rc = merge_attached(s, version, r, e);
	sqlite3_exec(s->db, "DETACH DATABASE src", NULL, NULL, NULL);
	if (rc)
		return sb_err_wrap(e, "merging %s into %s (nothing was changed)",
				   src_path, s->path);
	return 0;
}
