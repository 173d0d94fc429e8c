/*
 * Opening and closing: the refusals (not a database, someone else's
 * database, a schema newer than this binary), the durability settings, and
 * the upgrade of an older file.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "store/migrate.h"
#include "store/store_impl.h"

/* How long a writer waits for another process's lock before it gives up. */
#define BUSY_TIMEOUT_MS 10000

static int query_int(sqlite3 *db, const char *sql, int *out)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : -1;
}

/*
 * Is this file ours, and can this binary read it?  The first read of the
 * file happens here, so "file is not a database" surfaces here too.
 * `*version` is 0 for a new, empty file.  The tag, the version and the
 * tables are read in one statement, so from one snapshot: read one by one,
 * another process creating the file between two reads (ssdbench's first
 * migration sets the tag and makes the tables in one transaction) would
 * show an untagged file with tables, which is another program's.
 */
static int check_identity(sqlite3 *db, const char *path, int *version,
			  struct sb_err *e)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db, "SELECT (SELECT application_id FROM "
			       "pragma_application_id), (SELECT user_version FROM "
			       "pragma_user_version), (SELECT count(*) FROM "
			       "sqlite_master)", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		int code = sqlite3_errcode(db);
		if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT)
			return sb_errf(e, "%s is not an ssdbench database (not an "
				       "SQLite file: %s)", path, sqlite3_errmsg(db));
		return store_sql_err(db, e, path);
	}
	int app_id = sqlite3_column_int(st, 0);
	*version = sqlite3_column_int(st, 1);
	int tables = sqlite3_column_int(st, 2);
	sqlite3_finalize(st);
	if ((app_id != 0 && app_id != STORE_APPLICATION_ID) ||
	    (app_id == 0 && tables > 0))
		return sb_errf(e, "%s is an SQLite database of some other program, "
			       "not an ssdbench database; refusing to touch it",
			       path);
	if (*version > store_current_version())
		return sb_errf(e, "%s has schema version %d, newer than this "
			       "ssdbench understands (%d); use a newer ssdbench",
			       path, *version, store_current_version());
	return 0;
}

char *store_path_uri(const char *path, const char *query)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = strlen(path), q = query ? strlen(query) + 1 : 0;
	char *uri = malloc(5 + 3 * n + q + 1), *o = uri;
	if (!uri)
		return NULL;
	o += sprintf(o, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("/-._~", *p)) {
			*o++ = (char)*p;
		} else {
			*o++ = '%';
			*o++ = hex[*p >> 4];
			*o++ = hex[*p & 15];
		}
	}
	if (query)
		o += sprintf(o, "?%s", query);
	*o = 0;
	return uri;
}

/*
 * A file cut short (a copy that stopped, a full disk during a checkpoint)
 * is named as such rather than left to SQLite's "malformed": the header
 * gives the page size and, when it is current, the page count.
 */
static int check_truncated(const char *path, struct sb_err *e)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;		/* new file, or SQLite says why */
	unsigned char h[100];
	struct stat st;
	/* The size after the header: a writer creating the file meanwhile
	   only makes it grow (a size taken first could be 0 beside its header) */
	ssize_t got = read(fd, h, sizeof h);
	if (got > 0 && fstat(fd, &st))
		got = -1;
	close(fd);
	if (got <= 0)
		return 0;
	if (got < (ssize_t)sizeof h) {
		if (!memcmp(h, "SQLite format 3", (size_t)got < 15 ? (size_t)got : 15))
			return sb_errf(e, "%s is truncated: %zd bytes, less than "
				       "an SQLite header", path, got);
		return 0;
	}
	if (memcmp(h, "SQLite format 3", 16))
		return 0;		/* not SQLite: check_identity says so */
	uint32_t page = (uint32_t)h[16] << 8 | h[17];
	if (page == 1)
		page = 65536;
	uint32_t pages = (uint32_t)h[28] << 24 | (uint32_t)h[29] << 16 |
			 (uint32_t)h[30] << 8 | h[31];
	bool current = !memcmp(h + 24, h + 92, 4);
	uint64_t want = (uint64_t)page * pages;
	if (current && pages && (uint64_t)st.st_size < want)
		return sb_errf(e, "%s is truncated: its header counts %" PRIu64
			       " bytes, the file holds %lld", path, want,
			       (long long)st.st_size);
	return 0;
}

/* Is the file, or the directory a new file would go in, on a read-only
   mount? */
static bool on_readonly_fs(const char *path)
{
	struct statvfs v;
	if (!statvfs(path, &v))
		return v.f_flag & ST_RDONLY;
	char dir[4096];
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir] = '\0';
	return !statvfs(slash ? dir : ".", &v) && (v.f_flag & ST_RDONLY);
}

/* A damaged file is refused for writing: appending runs to it would bury
   them in a file SQLite may not read back. */
static int check_intact(sqlite3 *db, const char *path, struct sb_err *e)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "PRAGMA quick_check(1)", -1, &st, NULL) != SQLITE_OK)
		return store_sql_err(db, e, path);
	int rc = sqlite3_step(st);
	const unsigned char *r = rc == SQLITE_ROW ? sqlite3_column_text(st, 0) : NULL;
	int bad = 0;
	if (rc != SQLITE_ROW)
		bad = store_sql_err(db, e, path);
	else if (!r || strcmp((const char *)r, "ok"))
		bad = sb_errf(e, "%s is damaged (SQLite's quick_check: %s); refusing "
			      "to write to it; show, report and export may still "
			      "read what is intact", path, r ? (const char *)r : "?");
	sqlite3_finalize(st);
	return bad;
}

/*
 * The switch of a new file to WAL waits for the other processes setting
 * up the same file, as every other lock does.  SQLite's busy handler does
 * not cover it: the switch holds a read lock and asks for the exclusive
 * one, and SQLite answers such an upgrade "database is locked" at once
 * (waiting could deadlock two upgraders).  Here the statement holds
 * nothing between attempts, so trying again until the busy timeout is
 * safe; the first process to win converts the file, and the others find
 * it in WAL already.
 */
static int set_wal_mode(sqlite3 *db, struct sb_err *e)
{
	uint64_t deadline = store_monotonic_ns() + BUSY_TIMEOUT_MS * 1000000ull;
	unsigned pause_us = 1000;
	for (;;) {
		if (!store_exec(db, "PRAGMA journal_mode = WAL", e))
			return 0;
		if ((sqlite3_errcode(db) & 0xff) != SQLITE_BUSY ||
		    store_monotonic_ns() >= deadline)
			return -1;
		usleep(pause_us);
		if (pause_us < 16000)
			pause_us *= 2;
	}
}

/* Opened by URI (every byte of the path escaped, so a name means the
   file it names) because a merge ATTACHes its source read-only by URI,
   which SQLite allows only on a connection opened with URIs on.  `query`:
   NULL, or the URI's parameters ("immutable=1" on a read-only mount: no
   -shm or -wal to create, no locks to take). */
static int open_db(const char *path, const char *query, int flags,
		   struct store **out, struct sb_err *e)
{
	struct store *s = calloc(1, sizeof *s);
	if (!s || !(s->path = strdup(path))) {
		free(s);
		return sb_errno(e, ENOMEM, "%s", path);
	}
	char *uri = store_path_uri(path, query);
	if (!uri) {
		store_close(s);
		return sb_errno(e, ENOMEM, "%s", path);
	}
	/* NOMUTEX: a store is used by the thread that opened it (the engine
	   calls every hook on the calling thread: engine.h), so SQLite's
	   lock of the connection, taken and released by every bind, step
	   and column read, guards nothing. */
	int rc = sqlite3_open_v2(uri, &s->db,
				 flags | SQLITE_OPEN_EXRESCODE | SQLITE_OPEN_URI |
				 SQLITE_OPEN_NOMUTEX, NULL);
	free(uri);
	if (rc != SQLITE_OK) {
		if (s->db)
			store_sql_err(s->db, e, path);
		else
			sb_errno(e, ENOMEM, "%s", path);
		sb_err_wrap(e, "cannot open database");
		store_close(s);
		return -1;
	}
	/* A second process (show while a run goes, two runs) waits its turn. */
	sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);
	s->readonly = !(flags & SQLITE_OPEN_READWRITE);
	s->last_commit_ns = store_monotonic_ns();
	s->commit_every_ns = 1000000000u;
	*out = s;
	return 0;
}

int store_open(const char *path, struct store **out, struct sb_err *e)
{
	struct store *s;
	int version;
	*out = NULL;
	if (check_truncated(path, e))
		return -1;
	if (on_readonly_fs(path))
		return sb_errf(e, "%s is on a read-only file system: results "
			       "cannot be stored there (show, report and analyze "
			       "can read it)", path);
	if (open_db(path, NULL, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, &s, e))
		return -1;
	if (check_identity(s->db, path, &version, e)) {
		/* A header that reads but a schema that does not: as damaged
		   as a failed quick_check, and refused the same way. */
		if ((sqlite3_errcode(s->db) & 0xff) == SQLITE_CORRUPT)
			sb_errf(e, "%s is damaged (SQLite: %s); refusing to write "
				"to it; show, report and export may still read what "
				"is intact", path, sqlite3_errmsg(s->db));
		goto fail;
	}
	if (version > 0 && check_intact(s->db, path, e))
		goto fail;
	/*
	 * WAL with synchronous=NORMAL: a commit is an append to the log, no
	 * fsync, so committing every second costs little; a killed process
	 * loses nothing committed, a power cut at most the last commits.
	 */
	if (set_wal_mode(s->db, e) ||
	    store_exec(s->db, "PRAGMA synchronous = NORMAL; "
			      "PRAGMA foreign_keys = ON", e)) {
		sb_err_wrap(e, "%s: setting up", path);
		goto fail;
	}
	int wal = 0;
	if (query_int(s->db, "SELECT journal_mode = 'wal' FROM pragma_journal_mode",
		      &wal) || !wal) {
		sb_errf(e, "%s: the file system does not support SQLite's "
			"write-ahead log (shared memory); put the database on a "
			"local file system", path);
		goto fail;
	}
	if (store_migrate(s->db, path, store_current_version(), e))
		goto fail;
	*out = s;
	return 0;
fail:
	store_close(s);
	return -1;
}

int store_open_readonly(const char *path, struct store **out, struct sb_err *e)
{
	struct store *s;
	struct stat st;
	int version;
	*out = NULL;
	/* Checked first so that a typo never turns into a new, empty file and
	   the message names the real cause. */
	if (stat(path, &st))
		return sb_errno(e, errno, "no database at %s", path);
	if (!S_ISREG(st.st_mode))
		return sb_errf(e, "%s is not a regular file, not a database", path);
	if (check_truncated(path, e))
		return -1;
	if (on_readonly_fs(path)) {
		if (open_db(path, "immutable=1", SQLITE_OPEN_READONLY, &s, e))
			return -1;
	} else if (open_db(path, NULL, SQLITE_OPEN_READONLY, &s, e)) {
		return -1;
	}
	if (check_identity(s->db, path, &version, e))
		goto fail;
	if (version == 0) {
		sb_errf(e, "%s is empty, not an ssdbench database", path);
		goto fail;
	}
	/* An older schema is read as it is: every version still has the
	   tables and columns the reads use (migrations only add). */
	*out = s;
	return 0;
fail:
	store_close(s);
	return -1;
}

int store_schema_version(struct store *s)
{
	int v = -1;
	struct sb_err e;
	if (store_read_version(s->db, s->path, &v, &e))
		return -1;
	return v;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	if (s->db && (s->npend || !sqlite3_get_autocommit(s->db))) {
		struct sb_err e;
		/* Nowhere to report a failure; the rollback keeps the file whole. */
		if (store_commit(s, &e))
			sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	}
	for (int i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(s->stmt[i]);
	sqlite3_close_v2(s->db);
	free(s->hist_buf);
	free(s->path);
	free(s);
}
