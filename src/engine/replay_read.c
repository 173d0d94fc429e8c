/* A trace file as a stream of I/Os: its format told or given, its records
   parsed one at a time (replay_iolog.c, replay_blk.c). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "common/stream.h"
#include "engine/replay.h"

/* fio reads iolog lines into 4096 bytes; blkparse's are shorter. */
#define TRACE_LINE_MAX 4096u

struct trace_reader {
	struct stream *in;
	enum replay_format fmt;
	bool told;		/* the format was told from the file (auto) */
	struct fio_iolog_state iolog;
	struct blk_state blk;
};

bool replay_number(const char *s, uint64_t *out)
{
	if (*s < '0' || *s > '9')
		return false;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

static const char *const format_names[] = { "auto", "iolog", "blkparse", "blktrace" };

const char *replay_format_name(enum replay_format f)
{
	return (unsigned)f < sizeof format_names / sizeof format_names[0] ? format_names[f] : "?";
}

int replay_format_parse(const char *s, uint8_t *out, struct sb_err *e)
{
	for (uint8_t i = 0; i < sizeof format_names / sizeof format_names[0]; i++)
		if (!strcmp(s, format_names[i])) {
			*out = i;
			return 0;
		}
	return sb_errf(e, "replay-format: '%s' is not auto, iolog, blkparse or blktrace", s);
}

int replay_timing_parse(const char *s, struct replay_spec *spec, struct sb_err *e)
{
	if (!strcmp(s, "recorded")) {
		spec->timing = REPLAY_RECORDED;
		return 0;
	}
	if (!strcmp(s, "afap")) {
		spec->timing = REPLAY_AFAP;
		return 0;
	}
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || errno || strcmp(end, "x") || !isfinite(v) || v < 0.001 || v > 1e6 ||
	    s[0] < '0' || s[0] > '9')
		return sb_errf(e, "replay-timing: '%s' is not recorded, afap or a speed "
			       "such as 2x or 0.5x (0.001x to 1000000x)", s);
	spec->timing = v == 1.0 ? REPLAY_RECORDED : REPLAY_SCALED;
	spec->speed = v;
	return 0;
}

const char *replay_timing_format(const struct replay_spec *spec, char *buf, unsigned len)
{
	if (spec->timing == REPLAY_AFAP)
		snprintf(buf, len, "afap");
	else if (spec->timing == REPLAY_SCALED)
		snprintf(buf, len, "%gx", spec->speed);
	else
		snprintf(buf, len, "recorded");
	return buf;
}

static int wrong_file(struct trace_reader *r, struct sb_err *e)
{
	return sb_errf(e, "%s:%zu: not a trace this reads: a fio iolog starts with 'fio "
		       "version 2 iolog' or 'fio version 3 iolog', blkparse's text with an "
		       "event line ('7,0 1 1 0.000000000 123 Q W 0 + 8 [dd]'), a "
		       "blkparse -d dump with blktrace's magic number",
		       stream_path(r->in), stream_lineno(r->in) ? stream_lineno(r->in) : 1);
}

/* What the file is, from its first bytes. */
static int tell_format(struct trace_reader *r, struct sb_err *e)
{
	const void *p;
	long got = stream_peek(r->in, BLKTRACE_REC, &p, e);
	if (got < 0)
		return -1;
	if (got >= 4 && blktrace_magic(p))
		r->fmt = REPLAY_FMT_BLKTRACE;
	else if (got >= 12 && !memcmp(p, "fio version ", 12))
		r->fmt = REPLAY_FMT_IOLOG;
	else
		r->fmt = REPLAY_FMT_BLKPARSE;
	r->told = true;
	return 0;
}

static int read_iolog_header(struct trace_reader *r, struct sb_err *e)
{
	char *line;
	size_t len;
	int got = stream_line(r->in, TRACE_LINE_MAX, &line, &len, e);
	if (got < 0)
		return -1;
	if (got == 0 || fio_iolog_header(line, &r->iolog.version))
		return sb_errf(e, "%s:1: not a fio iolog: its first line must be 'fio version 2 "
			       "iolog' or 'fio version 3 iolog' (version 1 logs are not read)",
			       stream_path(r->in));
	return 0;
}

int trace_reader_open(const char *path, enum replay_format fmt, struct trace_reader **out,
		      struct sb_err *e)
{
	struct trace_reader *r = calloc(1, sizeof *r);
	if (!r)
		return sb_errno(e, ENOMEM, "trace %s", path);
	struct stream_opts so = { .what = "trace", .refuse_pipe = true };
	r->fmt = fmt;
	int rc = stream_open(path, &so, &r->in, e);
	if (!rc && fmt == REPLAY_FMT_AUTO)
		rc = tell_format(r, e);
	if (!rc && r->fmt == REPLAY_FMT_IOLOG)
		rc = read_iolog_header(r, e);
	if (rc) {
		trace_reader_close(r);
		return -1;
	}
	*out = r;
	return 0;
}

void trace_reader_close(struct trace_reader *r)
{
	if (!r)
		return;
	stream_close(r->in);
	free(r);
}

enum replay_format trace_reader_format(const struct trace_reader *r)
{
	return r->fmt;
}

uint64_t trace_reader_skipped(const struct trace_reader *r)
{
	return r->fmt == REPLAY_FMT_IOLOG ? r->iolog.skipped : r->blk.skipped;
}

static int next_binary(struct trace_reader *r, struct trace_io *io, struct sb_err *e)
{
	for (;;) {
		uint64_t at = stream_offset(r->in);
		const void *rec, *pdu;
		int got = stream_bytes(r->in, BLKTRACE_REC, &rec, e);
		if (got <= 0)
			return got;
		uint32_t pdu_len;
		int k = blktrace_record(&r->blk, rec, &pdu_len, io, e);
		if (k < 0)
			return sb_err_wrap(e, "%s: the record at byte %llu", stream_path(r->in),
					   (unsigned long long)at);
		if (pdu_len && stream_bytes(r->in, pdu_len, &pdu, e) != 1)
			return sb_errf(e, "%s: the record at byte %llu: its %u bytes of payload "
				       "are not all there", stream_path(r->in),
				       (unsigned long long)at, pdu_len);
		if (k)
			return 1;
	}
}

int trace_reader_next(struct trace_reader *r, struct trace_io *io, struct sb_err *e)
{
	if (r->fmt == REPLAY_FMT_BLKTRACE)
		return next_binary(r, io, e);
	for (;;) {
		char *line;
		size_t len;
		int got = stream_line(r->in, TRACE_LINE_MAX, &line, &len, e);
		/* binary, or lines far too long, where a first event line was
		   looked for: not a trace at all (a read error says itself) */
		if (got < 0 && !e->errnum && r->told && r->fmt == REPLAY_FMT_BLKPARSE &&
		    !r->blk.events)
			return wrong_file(r, e);
		if (got <= 0)
			return got;
		int k = r->fmt == REPLAY_FMT_IOLOG ? fio_iolog_line(&r->iolog, line, io, e)
						   : blkparse_line(&r->blk, line, io, e);
		/* told blkparse by elimination, and not one event line yet */
		if (k < 0 && r->told && r->fmt == REPLAY_FMT_BLKPARSE && !r->blk.events)
			return wrong_file(r, e);
		if (k < 0)
			return sb_err_wrap(e, "%s:%zu", stream_path(r->in), stream_lineno(r->in));
		if (k)
			return 1;
	}
}

int replay_scan(struct replay_spec *spec, struct sb_err *e)
{
	struct trace_reader *r;
	if (trace_reader_open(spec->path, (enum replay_format)spec->format, &r, e))
		return -1;
	memset(spec->ios, 0, sizeof spec->ios);
	spec->bytes = 0;
	spec->len_max = 0;
	uint64_t first = 0, last = 0, n = 0;
	struct trace_io io;
	int got;
	while ((got = trace_reader_next(r, &io, e)) == 1) {
		if (!n++)
			first = last = io.t_ns;
		if (io.t_ns > last)
			last = io.t_ns;
		spec->ios[io.op == IO_READ ? 0 : io.op == IO_WRITE ? 1 : 2]++;
		spec->bytes += io.len;
		if (io.len > spec->len_max)
			spec->len_max = io.len;
	}
	spec->format = (uint8_t)trace_reader_format(r);
	spec->skipped = trace_reader_skipped(r);
	spec->duration_ns = last - first;
	trace_reader_close(r);
	if (got < 0)
		return -1;
	if (!n)
		return sb_errf(e, "%s: no I/O to replay in this %s trace (%llu records that "
			       "move no data)", spec->path, replay_format_name(spec->format),
			       (unsigned long long)spec->skipped);
	return 0;
}
