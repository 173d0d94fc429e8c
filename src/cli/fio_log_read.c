#include "cli/fio_log_read.h"

#include <stdint.h>
#include <stdlib.h>

#include "common/file_read.h"
#include "common/stream.h"

/* A histogram log's lines run to thousands of bytes: room for them, so
   such a log is refused for what it is rather than for a long line. */
#define FIO_LOG_LINE_MAX (128u << 10)

/* The next entry before byte `end`: 1, 0 at `end` or the end of the file,
   -1 with e set. */
static int next_entry(struct stream *s, uint64_t end, struct fio_log_entry *x,
		      struct sb_err *e)
{
	while (stream_offset(s) < end) {
		char *line;
		size_t len;
		int got = stream_line(s, FIO_LOG_LINE_MAX, &line, &len, e);
		if (got <= 0)
			return got;
		got = fio_log_line(line, len, stream_lineno(s), x, e);
		if (got < 0)
			return sb_err_wrap(e, "%s", stream_path(s));
		if (got)
			return 1;
	}
	return 0;
}

/* Every line checked, before any figure. */
static int check_all(struct stream *s, struct sb_err *e)
{
	struct fio_log_entry x;
	size_t entries = 0;
	int got;
	while ((got = next_entry(s, UINT64_MAX, &x, e)) == 1)
		entries++;
	if (got < 0)
		return -1;
	if (!entries)
		return sb_errf(e, "%s: no samples in the log", stream_path(s));
	return stream_seek(s, 0, 1, e);
}

/*
 * The run that starts where the stream is: its description, and where the
 * next one starts (*more false: it ends with the file).
 */
static int scan_run(struct stream *s, struct fio_log_run *run, bool *more,
		    uint64_t *next_off, size_t *next_line, struct sb_err *e)
{
	fio_log_run_init(run);
	*more = false;
	struct fio_log_entry x;
	int got;
	while ((got = next_entry(s, UINT64_MAX, &x, e)) == 1) {
		if (!fio_log_run_continues(run, &x)) {
			*more = true;
			*next_off = stream_line_offset(s);
			*next_line = stream_lineno(s);
			return 0;
		}
		fio_log_run_add(run, &x);
	}
	return got;
}

/* The run's entries again, up to byte `end`, into its trace. */
static int build_run(struct stream *s, uint64_t end, struct fio_trace_builder *b,
		     struct sb_err *e)
{
	struct fio_log_entry x;
	int got;
	while ((got = next_entry(s, end, &x, e)) == 1)
		if (fio_trace_add(b, &x, e))
			return sb_err_wrap(e, "%s", stream_path(s));
	return got;
}

static int read_runs(struct stream *s, enum fio_log_kind kind, int dir, unsigned slice_ms,
		     fio_log_trace_fn fn, void *ctx, struct sb_err *e)
{
	if (check_all(s, e))
		return -1;
	uint64_t start = 0;
	size_t start_line = 1;
	for (size_t index = 0;; index++) {
		struct fio_log_run run;
		bool more;
		uint64_t next_off = UINT64_MAX;
		size_t next_line = 0;
		if (scan_run(s, &run, &more, &next_off, &next_line, e))
			return -1;
		if (!run.n)
			return 0;
		unsigned d = dir >= 0 ? (unsigned)dir : fio_log_run_main_dir(&run);
		struct fio_trace_builder b;
		struct fio_log_trace t = { .index = index, .only = !index && !more,
					   .first_line = run.first_line,
					   .last_line = run.last_line, .dir = d };
		struct trace_pt *pts;
		if (fio_trace_begin(&b, &run, kind, d, slice_ms, e)) {
			fio_trace_free(&b);
			return sb_err_wrap(e, "%s", stream_path(s));
		}
		if (stream_seek(s, start, start_line, e) ||
		    build_run(s, more ? next_off : UINT64_MAX, &b, e)) {
			fio_trace_free(&b);
			return -1;
		}
		if (fio_trace_end(&b, &pts, &t.n, &t.info, e))
			return sb_err_wrap(e, "%s", stream_path(s));
		t.t = pts;
		int rc = fn(ctx, &t, e);
		free(pts);
		if (rc || !more)
			return rc;
		start = next_off;
		start_line = next_line;
		if (stream_seek(s, start, start_line, e))
			return -1;
	}
}

int fio_log_read(const char *path, enum fio_log_kind kind, int dir, unsigned slice_ms,
		 fio_log_trace_fn fn, void *ctx, struct sb_err *e)
{
	struct stream_opts so = { .what = "fio log", .spool_limit = FILE_LIMIT_LOG };
	struct stream *s;
	if (stream_open(path, &so, &s, e))
		return -1;
	int rc = read_runs(s, kind, dir, slice_ms, fn, ctx, e);
	stream_close(s);
	return rc;
}
