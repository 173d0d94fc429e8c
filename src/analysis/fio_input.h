/*
 * Readers for what fio leaves behind, so years of a reviewer's fio data can
 * be analysed without re-running anything.  They parse text already in
 * memory (the CLI reads the file): no I/O here.
 *
 * Logs (write_bw_log / write_iops_log / write_lat_log, with log_avg_msec):
 * one line per sample, "time_ms, value, direction, bs, offset[, prio]";
 * direction 0 read, 1 write, 2 trim.  Values: KiB/s for bandwidth logs,
 * IOPS for IOPS logs, ns for latency logs.
 *
 * JSON (--output-format=json): jobs[] with read/write/trim objects holding
 * io_bytes, bw_bytes, iops, runtime (ms), total_ios and clat_ns {min, max,
 * mean, percentile {"99.000000": ns}}.
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
	uint64_t offset;
};

/* Parse a whole log; *out is malloc'd (free()).  Errors name the line. */
int fio_log_parse(const char *text, size_t len, struct fio_log_entry **out,
		  size_t *n, struct sb_err *e);

/* The direction with the most entries (ties: the lowest). */
unsigned fio_log_main_dir(const struct fio_log_entry *l, size_t n);

/*
 * Whether a log holds one entry per I/O (written without log_avg_msec):
 * every entry carries its block size and the entries come faster than one
 * per 5 ms on average or share timestamps.  fio writes bs 0 in averaged
 * logs.
 */
bool fio_log_is_per_io(const struct fio_log_entry *l, size_t n);

/*
 * The entries of one direction as a trace.
 *
 * Averaged logs: a sample covers the time since the previous entry of that
 * direction (from 0 for the first), as fio's averaging windows do; an entry
 * at the same time as the previous one has no time of its own and is
 * skipped.  A bandwidth log gives bytes = KiB/s x 1024 x dt (rounded),
 * I/Os = bytes / bs; an IOPS log gives I/Os = IOPS x dt, bytes = I/Os x bs.
 * fio does not log the last partial window, so the trace ends up to one
 * window short of the job.
 *
 * Per-I/O logs are binned into slices of `slice_ms`: each I/O adds its bs
 * to the bytes of its slice, so the total is exact.
 *
 * Latency logs are not traces (fails).
 */
int fio_log_to_trace(const struct fio_log_entry *l, size_t n,
		     enum fio_log_kind kind, unsigned dir, unsigned slice_ms,
		     struct trace_pt **out, size_t *nout, struct sb_err *e);

#define FIO_JSON_MAX_PS 32

struct fio_dir_summary {
	uint64_t io_bytes, total_ios, runtime_ms;
	double bw_bytes, iops;
	double clat_mean_ns;
	uint64_t clat_min_ns, clat_max_ns;
	size_t np;
	double ps[FIO_JSON_MAX_PS];
	uint64_t pv_ns[FIO_JSON_MAX_PS];
};

struct fio_job_summary {
	char name[128];
	struct fio_dir_summary dir[3];	/* read, write, trim */
};

/* Every job of a fio JSON document; *jobs malloc'd (free()).  Text before
   the first '{' (fio's notes) is skipped. */
int fio_json_parse(const char *text, size_t len,
		   struct fio_job_summary **jobs, size_t *n,
		   struct sb_err *e);

#endif
