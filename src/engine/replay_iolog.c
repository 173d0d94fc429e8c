/*
 * fio's iolog, as fio's read_iolog reads it (fio's manual, "Trace file
 * format v2" and "v3"):
 *
 *   fio version 2 iolog           fio version 3 iolog
 *   FILE add|open|close           USEC FILE add|open|close
 *   FILE ACTION OFFSET LENGTH     USEC FILE ACTION OFFSET LENGTH
 *
 * ACTION is read, write, trim, sync, datasync, or (version 2 only) wait,
 * whose OFFSET is microseconds to wait.  Version 3's USEC is the time
 * since the job started; fio writes it with microsecond resolution
 * (utime_since_now in fio's iolog.c).  Version 2 I/Os have no time but
 * the waits before them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "engine/replay.h"

#define MAX_TOKENS 6

int fio_iolog_header(const char *line, int *version)
{
	static const char *const heads[] = { "fio version 2 iolog", "fio version 3 iolog" };
	for (int v = 0; v < 2; v++) {
		size_t n = strlen(heads[v]);
		if (strncmp(line, heads[v], n))
			continue;
		const char *rest = line + n;
		while (*rest == ' ' || *rest == '\t' || *rest == '\r')
			rest++;
		if (*rest)
			continue;
		*version = v + 2;
		return 0;
	}
	return -1;
}

static int split(char *line, char **tok)
{
	int n = 0;
	for (char *save = NULL, *t = strtok_r(line, " \t\r", &save); t;
	     t = strtok_r(NULL, " \t\r", &save)) {
		if (n == MAX_TOKENS)
			return MAX_TOKENS + 1;
		tok[n++] = t;
	}
	return n;
}


static int data_io(struct fio_iolog_state *st, const char *file, const char *act,
		   const char *off_s, const char *len_s, uint64_t t_ns,
		   struct trace_io *io, struct sb_err *e)
{
	uint64_t off, len;
	if (!replay_number(off_s, &off) || !replay_number(len_s, &len))
		return sb_errf(e, "'%s %s': the offset and length must be numbers of bytes",
			       off_s, len_s);
	if (!strcmp(act, "wait")) {
		if (st->version == 3)
			return sb_errf(e, "'wait' is not allowed in a version 3 iolog "
				       "(its timestamps say when)");
		if (off > UINT64_MAX / 1000 - st->wait_ns / 1000)
			return sb_errf(e, "wait of %llu us is too long", (unsigned long long)off);
		st->wait_ns += off * 1000;
		return 0;
	}
	if (!strcmp(act, "sync") || !strcmp(act, "datasync")) {
		st->skipped++;
		return 0;
	}
	uint8_t op;
	if (!strcmp(act, "read"))
		op = IO_READ;
	else if (!strcmp(act, "write"))
		op = IO_WRITE;
	else if (!strcmp(act, "trim"))
		op = IO_TRIM;
	else
		return sb_errf(e, "unknown action '%s' (read, write, trim, sync, datasync%s)",
			       act, st->version == 2 ? ", wait" : "");
	if (len == 0 || len > REPLAY_LEN_MAX)
		return sb_errf(e, "length %llu is not 1 byte to 64 MiB", (unsigned long long)len);
	if (off > UINT64_MAX - len)
		return sb_errf(e, "offset %llu + length %llu is past 2^64",
			       (unsigned long long)off, (unsigned long long)len);
	if (strlen(file) >= sizeof st->file)
		return sb_errf(e, "a file name longer than %zu bytes", sizeof st->file - 1);
	if (!st->file[0])
		snprintf(st->file, sizeof st->file, "%s", file);
	else if (strcmp(st->file, file))
		return sb_errf(e, "I/O on a second file, %s (the first was %s): a replay "
			       "replays the I/O of one file or device", file, st->file);
	*io = (struct trace_io){ .t_ns = t_ns, .offset = off, .len = (uint32_t)len, .op = op };
	return 1;
}

int fio_iolog_line(struct fio_iolog_state *st, char *line, struct trace_io *io,
		   struct sb_err *e)
{
	char *tok[MAX_TOKENS];
	int n = split(line, tok);
	if (n == 0)
		return 0;
	uint64_t t_ns = st->wait_ns;
	int first = 0;
	if (st->version == 3) {
		uint64_t us;
		if (!replay_number(tok[0], &us))
			return sb_errf(e, "'%s' is not a timestamp (microseconds; a version 3 "
				       "line starts with one)", tok[0]);
		if (us > UINT64_MAX / 1000)
			return sb_errf(e, "timestamp %llu us is too large", (unsigned long long)us);
		t_ns = us * 1000;
		first = 1;
	}
	int fields = n - first;
	if (fields == 2) {
		const char *act = tok[first + 1];
		if (!strcmp(act, "add") || !strcmp(act, "open") || !strcmp(act, "close"))
			return 0;
		return sb_errf(e, "unknown file action '%s' (add, open, close)", act);
	}
	if (fields == 4)
		return data_io(st, tok[first], tok[first + 1], tok[first + 2], tok[first + 3],
			       t_ns, io, e);
	return sb_errf(e, "not a version %d iolog line: expected '%sFILE ACTION' or "
		       "'%sFILE ACTION OFFSET LENGTH'", st->version,
		       st->version == 3 ? "USEC " : "", st->version == 3 ? "USEC " : "");
}
