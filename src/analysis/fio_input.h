/*
 * Readers for what fio leaves behind, so years of a reviewer's fio data can
 * be analysed without re-running anything.  They parse text the caller
 * read (a line at a time, or all of it): no I/O here.
 *
 * Logs (write_bw_log / write_iops_log / write_lat_log): one line per
 * sample, "time_ms, value, direction, bs" up to fio 3.17; log_offset=1 adds
 * ", offset" and fio 3.18 adds ", priority" (hex with log_prio=1) at the
 * end.  Direction 0 read, 1 write, 2 trim.  Values: KiB/s for bandwidth
 * logs, IOPS for IOPS logs, ns for latency logs.  A histogram log
 * (write_hist_log: time, direction, bs, then hundreds of bins) is not a
 * trace and is refused for what it is.
 *
 * JSON (--output-format=json), read with jansson: jobs[] with
 * read/write/trim (or mixed) objects holding io_bytes, bw, iops, runtime
 * (ms), total_ios, clat and lat {min, max, mean, percentile}, and, for jobs
 * run with ss=, a steadystate object.
 */
#ifndef SSDBENCH_ANALYSIS_FIO_INPUT_H
#define SSDBENCH_ANALYSIS_FIO_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/trace.h"
#include "common/error.h"

enum fio_log_kind { FIO_LOG_BW, FIO_LOG_IOPS, FIO_LOG_LAT };

struct fio_log_entry {
	uint64_t t_ms;
	uint64_t value;
	unsigned dir;
	uint64_t bs;
	size_t line;
};

/* One line of a log (`len` bytes at s, without its newline; `line` its
   number): 1 with the entry in *out, 0 for a blank line, -1 with e set
   ("line N: ..." naming the formats accepted). */
int fio_log_line(const char *s, size_t len, size_t line,
		 struct fio_log_entry *out, struct sb_err *e);

/* Parse a whole log; *out is malloc'd (free()).  Errors name the line and
   the formats accepted. */
int fio_log_parse(const char *text, size_t len, struct fio_log_entry **out,
		  size_t *n, struct sb_err *e);

/*
 * What one run of a log is, known after reading it once, entry by entry
 * (a log of any length is read as a stream: pass one gathers this, pass
 * two builds the trace).  fio appends the log of a job run again (or the
 * next job of the same name) to the same file, its time starting from 0
 * again: an entry earlier than the one before starts the next run.
 */
struct fio_log_run {
	size_t n, count[3];
	bool all_bs;			/* every entry has its block size */
	bool dir_all_bs[3], dir_any_bs[3];
	bool repeats;			/* an entry at the time and direction
					   of the one before */
	uint64_t first_t, last_t;	/* of the first and the last entry */
	uint64_t dir_min[3], dir_max[3];
	size_t first_line, last_line;
	unsigned last_dir;
};
void fio_log_run_init(struct fio_log_run *r);
/* Whether x belongs to the run (else it starts the next one). */
bool fio_log_run_continues(const struct fio_log_run *r, const struct fio_log_entry *x);
void fio_log_run_add(struct fio_log_run *r, const struct fio_log_entry *x);
/* The direction with the most entries (ties: the lowest). */
unsigned fio_log_run_main_dir(const struct fio_log_run *r);

/* The entries from `start` up to the returned index are one run. */
size_t fio_log_run_end(const struct fio_log_entry *l, size_t n, size_t start);

/* fio_log_run_main_dir of the entries l[0, n). */
unsigned fio_log_main_dir(const struct fio_log_entry *l, size_t n);

/* What a trace made from a log knows. */
struct fio_trace_info {
	bool has_bytes;		/* an IOPS log without bs has no bytes */
	bool has_ios;		/* a bandwidth log without bs has no I/O count */
	bool averaged;		/* log_avg_msec: entries on a grid, bs 0 */
	double window_ms;	/* averaged: the window each entry covers */
	size_t gaps;		/* averaged: stretches with no entry (stalls) */
	double gap_s;		/* their total time */
};

/*
 * The entries of one direction of one run as a trace.
 *
 * Averaged logs (log_avg_msec; fio writes bs 0): fio samples once per
 * window W (the median step between entries) and each entry's rate is over
 * the time since the previous attempt.  fio writes no entry for a window
 * in which nothing completed ("No entries for interval" in its stat.c), so
 * a step of about two windows or more (>= 1.9 W) is a stall: the whole
 * windows missing are a slice at 0, and the entry covers the rest.  A
 * shorter step is fio's sampling thread running late, and the entry
 * covers all of it.  Older logs with the block
 * size filled in (fio 2.x's bw_avg_time sampling) were written when a
 * completion found the window over: an entry covers the time since the
 * previous one, as fio computed it.  An entry at the time of the previous
 * one has no time of its own and is skipped.  A bandwidth log gives
 * bytes = KiB/s x 1024 x time (rounded), I/Os = bytes / bs; an IOPS log
 * I/Os = IOPS x time, bytes = I/Os x bs (unknown without bs: see `info`).
 * fio does not log the last partial window, so the trace ends up to one
 * window short of the job.
 *
 * Per-I/O logs are binned into slices of `slice_ms`: each I/O adds its bs
 * to the bytes of its slice, so the total is exact.
 *
 * Latency logs are not traces (fails).
 */
/* Per-I/O logs are binned into at most this many slices (at 100 ms, 19
   days; at 1 ms, 4.6 hours): 400 MB of trace.  An averaged run has at most
   this many entries of its direction. */
#define FIO_LOG_MAX_SLICES (1u << 24)
int fio_log_to_trace(const struct fio_log_entry *l, size_t n,
		     enum fio_log_kind kind, unsigned dir, unsigned slice_ms,
		     struct trace_pt **out, size_t *nout,
		     struct fio_trace_info *info, struct sb_err *e);

/*
 * The same trace built entry by entry from a run described by `run` (its
 * first reading): begin, add every entry of the run in order, end.  A
 * per-I/O log keeps only its slices; an averaged one the entries of its
 * direction until the window is known.  fio_trace_end frees the builder
 * whatever it returns; after a failed begin or add, fio_trace_free does.
 */
struct fio_trace_builder {
	enum fio_log_kind kind;
	unsigned dir, slice_ms;
	bool per_io;
	struct fio_trace_info info;
	struct trace_pt *t;		/* per-I/O: the slices */
	size_t nt;
	struct fio_log_entry *ent;	/* averaged: the direction's entries */
	size_t nent, cap;
};
int fio_trace_begin(struct fio_trace_builder *b, const struct fio_log_run *run,
		    enum fio_log_kind kind, unsigned dir, unsigned slice_ms,
		    struct sb_err *e);
int fio_trace_add(struct fio_trace_builder *b, const struct fio_log_entry *x,
		  struct sb_err *e);
int fio_trace_end(struct fio_trace_builder *b, struct trace_pt **out, size_t *nout,
		  struct fio_trace_info *info, struct sb_err *e);
void fio_trace_free(struct fio_trace_builder *b);

#define FIO_JSON_MAX_PS 32

/* Directions of a fio JSON job; FIO_MIXED is unified_rw_reporting's. */
enum { FIO_READ, FIO_WRITE, FIO_TRIM, FIO_MIXED, FIO_NDIRS };
extern const char *const fio_dir_names[FIO_NDIRS];

/* clat or lat of one direction, in ns whatever unit the file used. */
struct fio_lat_summary {
	bool present;
	double min_ns, max_ns, mean_ns;		/* NAN when absent */
	size_t np;				/* percentiles, ascending */
	double ps[FIO_JSON_MAX_PS];
	double pv_ns[FIO_JSON_MAX_PS];
};

/* One direction; every figure NAN when the file does not hold it. */
struct fio_dir_summary {
	bool present;			/* the object is in the file */
	bool io_kib;			/* io_bytes was in KiB (fio < 2.21) */
	bool lat_us;			/* latency was in us (fio < 2.99) */
	double io_bytes, total_ios, runtime_ms, bw_bytes, iops;
	struct fio_lat_summary clat, lat;
};

/*
 * fio's steadystate object (ss=, ss_dur=): the rule as fio names it, its
 * verdict and criterion, and the window's data (one value per second: B/s
 * and IOPS, fio's integer rates) oldest first.
 */
struct fio_ss_summary {
	bool present;
	char ss[64];			/* "iops_slope:10.000000%" */
	bool slope;			/* *_slope, else the mean-deviation rule */
	bool iops;			/* iops*, else bw* */
	bool pct;			/* the limit is a % of the mean */
	double limit;
	double duration_s;
	bool attained;
	double criterion;		/* as fio printed it (% when pct) */
	double slope_value, max_deviation;
	double bw_mean, iops_mean;	/* fio's: integer sum / duration */
	size_t n;
	uint64_t *bw_data, *iops_data;	/* n each, malloc'd */
};

struct fio_job_summary {
	char name[128];
	char version[32];		/* "fio version" of its document */
	unsigned document;		/* which document of the file, from 0 */
	struct fio_dir_summary dir[FIO_NDIRS];
	struct fio_ss_summary ss;
};

/*
 * Every job of every fio JSON document in the text.  fio's notes and
 * errors may come before, between or after the documents (stderr mixed in,
 * outputs appended with >>): a document is a JSON object that starts a line
 * and holds a "jobs" array.  Units are told by the fields present, not the
 * version string: io_bytes is in KiB when neither io_kbytes nor clat_ns is
 * there, bw is KiB/s unless bw_bytes is, latency is in us under clat/lat
 * and in ns under clat_ns/lat_ns.  *jobs is malloc'd: fio_jobs_free().
 */
int fio_json_parse(const char *text, size_t len,
		   struct fio_job_summary **jobs, size_t *n,
		   struct sb_err *e);
void fio_jobs_free(struct fio_job_summary *jobs, size_t n);

#endif
