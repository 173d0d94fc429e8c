/*
 * A fio bandwidth or IOPS log of any length, read as a stream: memory
 * holds one buffer and what the traces themselves need, never the file.
 *
 * Three passes over the file: every line is checked first (a bad line is
 * said before any figure, as when the file was read whole); then, run by
 * run (analysis/fio_input.h: fio appends a rerun's log), a first reading
 * learns what the run is and a second builds its trace.  A regular file is
 * read where it is; a pipe is copied once to an unlinked temporary file,
 * up to FILE_LIMIT_LOG.  Devices, directories and sockets are refused.
 */
#ifndef SSDBENCH_CLI_FIO_LOG_READ_H
#define SSDBENCH_CLI_FIO_LOG_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/fio_input.h"
#include "common/error.h"

/* One run of the log as a trace. */
struct fio_log_trace {
	size_t index;			/* which run, from 0 */
	bool only;			/* the log holds this run only */
	size_t first_line, last_line;	/* its entries' lines */
	unsigned dir;			/* 0 read, 1 write, 2 trim */
	const struct trace_pt *t;
	size_t n;
	struct fio_trace_info info;
};

typedef int (*fio_log_trace_fn)(void *ctx, const struct fio_log_trace *t,
				struct sb_err *e);

/*
 * Each run of the log at `path`, its direction `dir` (< 0: the one it
 * logs most), handed to `fn` in order; per-I/O logs binned into slices of
 * slice_ms.  Errors name the file (and the line).
 */
int fio_log_read(const char *path, enum fio_log_kind kind, int dir, unsigned slice_ms,
		 fio_log_trace_fn fn, void *ctx, struct sb_err *e);

#endif
