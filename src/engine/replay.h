/*
 * Trace replay: reading a recorded trace as a stream of I/Os, and handing
 * them to a job at their times, remapped onto the workload's span.
 *
 * Formats (docs/run.md, "Replaying a trace"):
 *   iolog     fio's write_iolog: "fio version 2 iolog" (file name, action,
 *             offset, length; time only from "wait" lines) or "fio version
 *             3 iolog" (a leading timestamp in microseconds, as fio 3.31
 *             and later write it);
 *   blkparse  blkparse's default text output; the D events (issued to
 *             the device) are replayed, every other event is skipped;
 *   blktrace  the binary events `blkparse -d FILE` dumps (struct
 *             blk_io_trace, either byte order); again the D events.
 * Syncs and flushes are counted, not replayed.  A trace is read in one
 * pass with one bounded buffer, never whole; a bad record is an error that
 * names the file and its line (or byte offset).
 */
#ifndef SSDBENCH_ENGINE_REPLAY_H
#define SSDBENCH_ENGINE_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "engine/replay_spec.h"

struct workload;

/* One data I/O of a trace, as recorded. */
struct trace_io {
	uint64_t t_ns;		/* the trace's own clock */
	uint64_t offset;	/* bytes on the traced device or file */
	uint32_t len;		/* bytes, 1 .. REPLAY_LEN_MAX */
	uint8_t op;		/* IO_READ, IO_WRITE or IO_TRIM */
};

/* The longest I/O a trace may hold: the engine's largest block. */
#define REPLAY_LEN_MAX (64u << 20)

const char *replay_format_name(enum replay_format f);
int replay_format_parse(const char *s, uint8_t *out, struct sb_err *e);
/* "recorded", "afap" or a speed "2x" / "0.5x" into spec's timing and speed. */
int replay_timing_parse(const char *s, struct replay_spec *spec, struct sb_err *e);
/* "recorded", "afap" or "2x". */
const char *replay_timing_format(const struct replay_spec *spec, char *buf, unsigned len);

struct trace_reader;
/* A pipe is refused: a trace is read once to check it, once to replay. */
int trace_reader_open(const char *path, enum replay_format fmt,
		      struct trace_reader **out, struct sb_err *e);
/* 1 with the next I/O, 0 at the end, -1 with e naming the file and line. */
int trace_reader_next(struct trace_reader *r, struct trace_io *io, struct sb_err *e);
enum replay_format trace_reader_format(const struct trace_reader *r);
uint64_t trace_reader_skipped(const struct trace_reader *r);
void trace_reader_close(struct trace_reader *r);

/* Read the whole trace once: format, counts, longest I/O, duration, into
   spec (its path, format and timing as given).  A trace without a data
   I/O is an error. */
int replay_scan(struct replay_spec *spec, struct sb_err *e);

/*
 * Where a recorded I/O lands on a span of `span` bytes from `base`, on a
 * target of logical block `block`: its length rounded up to whole blocks,
 * its offset taken modulo the span and aligned down to a block, then moved
 * back if the I/O would end past the span.  A trace that fits the span
 * with aligned I/Os keeps its offsets.  Needs len rounded <= span.
 */
void replay_map(uint64_t base, uint64_t span, uint32_t block, uint64_t offset,
		uint32_t len, uint64_t *out_off, uint32_t *out_len);

/* A job's trace during a run. */
struct replay_src;
enum { REPLAY_WAIT = 0, REPLAY_DUE = 1, REPLAY_END = 2 };
int replay_src_open(const struct workload *w, struct replay_src **out, struct sb_err *e);
void replay_src_close(struct replay_src *s);
/* The workload starts at backend time t0: the first I/O is due then. */
void replay_src_start(struct replay_src *s, uint64_t t0);
/*
 * The next I/O at backend time `now`, due at *due (its recorded time,
 * scaled; now when as fast as possible): REPLAY_DUE with it in *io, mapped
 * (take it with replay_src_take once issued), REPLAY_WAIT when *due is
 * still ahead, REPLAY_END after the last; -1 with e set on a bad record.
 */
int replay_src_next(struct replay_src *s, uint64_t now, struct trace_io *io,
		    uint64_t *due, struct sb_err *e);
void replay_src_take(struct replay_src *s);

/* --- the formats' records, one at a time (replay_iolog.c, replay_blk.c) --- */

/* A decimal number and nothing else (no sign, no space). */
bool replay_number(const char *s, uint64_t *out);

/* 0 when the line is a fio iolog header, with its version (2 or 3). */
int fio_iolog_header(const char *line, int *version);
struct fio_iolog_state {
	int version;
	char file[257];		/* the file the I/O is on, once seen */
	uint64_t wait_ns;	/* version 2: time from "wait" lines */
	uint64_t skipped;
};
/* 1 with an I/O, 0 for a line without one, -1 with e set (no file:line). */
int fio_iolog_line(struct fio_iolog_state *st, char *line, struct trace_io *io,
		   struct sb_err *e);

struct blk_state {
	bool have_dev;
	uint32_t major, minor;	/* the device the events are of */
	bool summary;		/* text: past the events, in the totals */
	uint64_t events;	/* text: lines that had an event's shape */
	uint64_t skipped;
};
int blkparse_line(struct blk_state *st, char *line, struct trace_io *io,
		  struct sb_err *e);
/* Binary: a record of BLKTRACE_REC bytes; *pdu: bytes that follow it. */
#define BLKTRACE_REC 48u
bool blktrace_magic(const void *rec);
int blktrace_record(struct blk_state *st, const void *rec, uint32_t *pdu,
		    struct trace_io *io, struct sb_err *e);

#endif
