#include "common/stream.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/file_read.h"
#include "common/units.h"

struct stream {
	int fd;
	char *path;
	const char *what;
	bool seekable;
	bool eof;		/* read() said so; cleared by a seek */
	char *buf;		/* STREAM_BUF + 1: room for a last NUL */
	size_t pos, end;	/* unread data: buf[pos, end) */
	uint64_t buf_off;	/* file offset of buf[0] */
	size_t lineno;		/* of the line returned last */
	size_t next_lineno;
	uint64_t line_off;
	long nul_at;		/* where a '\n' was replaced by '\0', or -1 */
};

/* The '\n' stream_line turned into the line's end goes back first: the
   buffer's bytes are the file's again (a seek may re-read them). */
static void undo_nul(struct stream *s)
{
	if (s->nul_at >= 0)
		s->buf[s->nul_at] = '\n';
	s->nul_at = -1;
}

static int fill(struct stream *s, struct sb_err *e)
{
	if (s->pos) {
		memmove(s->buf, s->buf + s->pos, s->end - s->pos);
		s->buf_off += s->pos;
		s->end -= s->pos;
		s->pos = 0;
	}
	while (s->end < STREAM_BUF) {
		ssize_t got = read(s->fd, s->buf + s->end, STREAM_BUF - s->end);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return sb_errno(e, errno, "%s %s: read error", s->what, s->path);
		if (got == 0)
			s->eof = true;
		s->end += (size_t)got;
		return 0;
	}
	return 0;
}

/* A pipe copied to an unlinked temporary file, at most `limit` bytes. */
static int spool(struct stream *s, uint64_t limit, struct sb_err *e)
{
	const char *dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = P_tmpdir;
	int t = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (t < 0)
		return sb_errno(e, errno, "%s %s: cannot make a temporary file in %s "
				"to hold what the pipe brings", s->what, s->path, dir);
	uint64_t total = 0;
	int rc = 0;
	while (!rc) {
		ssize_t got = read(s->fd, s->buf, STREAM_BUF);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			rc = sb_errno(e, errno, "%s %s: read error", s->what, s->path);
			break;
		}
		if (got == 0)
			break;
		total += (uint64_t)got;
		if (total > limit) {
			char lim[32];
			rc = sb_errf(e, "%s %s: a pipe bringing more than %s, the limit for a "
				     "%s read from a pipe (a file has none)", s->what, s->path,
				     fmt_bytes(limit, lim, sizeof lim), s->what);
			break;
		}
		for (ssize_t off = 0; off < got && !rc;) {
			ssize_t w = write(t, s->buf + off, (size_t)(got - off));
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				rc = sb_errno(e, w < 0 ? errno : EIO, "%s %s: writing its "
					      "temporary copy in %s", s->what, s->path, dir);
			else
				off += w;
		}
	}
	if (!rc && lseek(t, 0, SEEK_SET) < 0)
		rc = sb_errno(e, errno, "%s %s: temporary copy", s->what, s->path);
	if (rc) {
		close(t);
		return -1;
	}
	close(s->fd);
	s->fd = t;
	s->seekable = true;
	return 0;
}

int stream_open(const char *path, const struct stream_opts *o, struct stream **out,
		struct sb_err *e)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return sb_errno(e, errno, "cannot open %s (%s)", path, o->what);
	struct stat st;
	if (fstat(fd, &st)) {
		int err = errno;
		close(fd);
		return sb_errno(e, err, "%s %s", o->what, path);
	}
	const char *bad = file_read_refusal(st.st_mode);
	if (bad) {
		close(fd);
		return sb_errf(e, "%s %s is %s, not a file", o->what, path, bad);
	}
	if (S_ISFIFO(st.st_mode) && o->refuse_pipe) {
		close(fd);
		return sb_errf(e, "%s %s is a pipe, which cannot be read twice: save it to "
			       "a file first", o->what, path);
	}
	struct stream *s = calloc(1, sizeof *s);
	if (s) {
		s->path = strdup(path);
		s->buf = malloc(STREAM_BUF + 1);
	}
	if (!s || !s->path || !s->buf) {
		close(fd);
		if (s) {
			free(s->path);
			free(s->buf);
		}
		free(s);
		return sb_errno(e, ENOMEM, "%s %s", o->what, path);
	}
	s->fd = fd;
	s->what = o->what;
	s->seekable = S_ISREG(st.st_mode);
	s->next_lineno = 1;
	s->nul_at = -1;
	if (S_ISFIFO(st.st_mode) && o->spool_limit && spool(s, o->spool_limit, e)) {
		stream_close(s);
		return -1;
	}
	*out = s;
	return 0;
}

void stream_close(struct stream *s)
{
	if (!s)
		return;
	close(s->fd);
	free(s->path);
	free(s->buf);
	free(s);
}

const char *stream_path(const struct stream *s)
{
	return s->path;
}

int stream_line(struct stream *s, size_t max, char **line, size_t *len,
		struct sb_err *e)
{
	undo_nul(s);
	size_t scanned = 0;
	for (;;) {
		char *start = s->buf + s->pos;
		size_t have = s->end - s->pos;
		char *nl = memchr(start + scanned, '\n', have - scanned);
		size_t n = nl ? (size_t)(nl - start) : have;
		if (n > max)
			return sb_errf(e, "%s:%zu: a line longer than %zu bytes (not a %s?)",
				       s->path, s->next_lineno, max, s->what);
		if (nl || (s->eof && have)) {
			if (memchr(start, '\0', n))
				return sb_errf(e, "%s:%zu: not text (a NUL byte; not a %s?)",
					       s->path, s->next_lineno, s->what);
			if (nl)
				s->nul_at = (long)(nl - s->buf);
			start[n] = '\0';
			*line = start;
			*len = n;
			s->line_off = s->buf_off + s->pos;
			s->pos += nl ? n + 1 : n;
			s->lineno = s->next_lineno++;
			return 1;
		}
		if (s->eof)
			return 0;
		scanned = have;
		if (fill(s, e))
			return -1;
	}
}

size_t stream_lineno(const struct stream *s)
{
	return s->lineno;
}

uint64_t stream_line_offset(const struct stream *s)
{
	return s->line_off;
}

/* At least n bytes unread in the buffer, unless the file ends first. */
static int have_bytes(struct stream *s, size_t n, struct sb_err *e)
{
	undo_nul(s);
	while (s->end - s->pos < n && !s->eof)
		if (fill(s, e))
			return -1;
	return 0;
}

int stream_bytes(struct stream *s, size_t n, const void **p, struct sb_err *e)
{
	if (have_bytes(s, n, e))
		return -1;
	size_t have = s->end - s->pos;
	if (have >= n) {
		*p = s->buf + s->pos;
		s->pos += n;
		return 1;
	}
	if (!have)
		return 0;
	return sb_errf(e, "%s: ends inside a record (%zu of its %zu bytes are there)",
		       s->path, have, n);
}

long stream_peek(struct stream *s, size_t n, const void **p, struct sb_err *e)
{
	if (have_bytes(s, n, e))
		return -1;
	*p = s->buf + s->pos;
	size_t have = s->end - s->pos;
	return (long)(have < n ? have : n);
}

int stream_seek(struct stream *s, uint64_t offset, size_t lineno, struct sb_err *e)
{
	undo_nul(s);
	s->next_lineno = lineno;
	if (offset >= s->buf_off && offset <= s->buf_off + s->end) {
		s->pos = (size_t)(offset - s->buf_off);
		return 0;
	}
	if (!s->seekable)
		return sb_errf(e, "%s %s cannot be read again (not a file)", s->what, s->path);
	if (lseek(s->fd, (off_t)offset, SEEK_SET) < 0)
		return sb_errno(e, errno, "%s %s", s->what, s->path);
	s->buf_off = offset;
	s->pos = s->end = 0;
	s->eof = false;
	return 0;
}

uint64_t stream_offset(const struct stream *s)
{
	return s->buf_off + s->pos;
}

size_t stream_next_lineno(const struct stream *s)
{
	return s->next_lineno;
}
