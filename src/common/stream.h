/*
 * Reading an input file as a stream, never whole: a trace to replay, a fio
 * log of any length.  One buffer of STREAM_BUF bytes is all the memory a
 * stream holds, whatever the file's size.  Lines are bounded (a caller
 * says how long one may be) and must be text; records of a binary format
 * come as fixed-size pieces of the same buffer.  Devices, directories and
 * sockets are refused by name before anything is read, as file_read.h
 * does for the files read whole.
 *
 * A stream can go back to an offset it has passed (a second pass over a
 * run of lines), on a regular file; a pipe can be copied first to an
 * unlinked temporary file (spool), up to a limit, to allow the same.
 */
#ifndef SSDBENCH_COMMON_STREAM_H
#define SSDBENCH_COMMON_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

#define STREAM_BUF (256u << 10)

struct stream;

struct stream_opts {
	const char *what;	/* names the file in messages: "fio log" */
	bool refuse_pipe;	/* it must be read more than once */
	uint64_t spool_limit;	/* > 0: a pipe is first copied to a
				   temporary file, at most this many bytes */
};

int stream_open(const char *path, const struct stream_opts *o,
		struct stream **out, struct sb_err *e);
void stream_close(struct stream *s);
const char *stream_path(const struct stream *s);

/*
 * The next line, without its '\n', NUL-terminated in the stream's buffer
 * (valid until the next call): 1, or 0 at the end of the file, or -1 with
 * e set ("PATH:LINE: ..." for a line longer than `max` bytes or holding a
 * NUL byte, or a read error).  max < STREAM_BUF.
 */
int stream_line(struct stream *s, size_t max, char **line, size_t *len,
		struct sb_err *e);
/* The number (from 1) and the byte offset of the line stream_line gave last. */
size_t stream_lineno(const struct stream *s);
uint64_t stream_line_offset(const struct stream *s);

/*
 * The next n bytes (n <= STREAM_BUF) at *p, valid until the next call: 1,
 * or 0 at the end of the file with nothing left, or -1 with e set (the
 * file ends inside the n bytes, or a read error).
 */
int stream_bytes(struct stream *s, size_t n, const void **p, struct sb_err *e);

/* Up to n bytes from the current place without taking them (n <=
   STREAM_BUF); returns how many there are, or -1 with e set. */
long stream_peek(struct stream *s, size_t n, const void **p, struct sb_err *e);

/*
 * Go back (or on) to byte `offset`, whose line number is `lineno` - 1
 * lines before it: the next line read is number `lineno`.  Within the
 * buffer nothing is read again.
 */
int stream_seek(struct stream *s, uint64_t offset, size_t lineno, struct sb_err *e);
/* Where the next line or bytes start, and the number the next line gets. */
uint64_t stream_offset(const struct stream *s);
size_t stream_next_lineno(const struct stream *s);

#endif
