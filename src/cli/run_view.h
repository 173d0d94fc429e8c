/*
 * What `show` and `export` say about a stored run, computed in one place so
 * the two never disagree: per direction the rates from the totals and the
 * latency figures from the stored histogram.
 */
#ifndef SSDBENCH_CLI_RUN_VIEW_H
#define SSDBENCH_CLI_RUN_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/latency.h"
#include "common/error.h"
#include "store/store.h"

#define RUN_VIEW_NPCT 6
/* The percentiles every human listing shows (show, export, run's summary):
   50, 99, 99.9, 99.99, 99.999, 99.9999 and their names "p50" ... "p99.9999". */
extern const double run_view_pcts[RUN_VIEW_NPCT];
extern const char *const run_view_pct_names[RUN_VIEW_NPCT];

/* The figures of one latency histogram. */
struct lat_view {
	uint64_t count;		/* latencies in the histogram */
	double mean_ns;		/* NaN when count is 0 */
	uint64_t min_ns, max_ns;
	uint64_t pct_ns[RUN_VIEW_NPCT];
	/* At least one latency beyond the percentile (common/rank.h);
	   otherwise pct_ns is only the max and is shown as such. */
	bool pct_supported[RUN_VIEW_NPCT];
};

struct dir_view {
	uint64_t ios, bytes;
	double iops, bw_bytes;	/* per second of measured time; NaN if none */
	struct lat_view lat;	/* service latency: submission to completion */
	/*
	 * An open loop (a rate; docs/run.md): the response latency (from
	 * each I/O's scheduled arrival) and the late starts.  open_loop
	 * false: none recorded (a closed loop, or a database from before
	 * schema 5).
	 */
	bool open_loop;
	struct lat_view resp;
	struct lateness_summary late;
};

/* What outputs print instead of a percentile without support. */
#define PCT_AT_MAX "=max"

/* `scratch` is a histogram the caller lends (they are 280 KiB). */
int run_view_dir(struct store *s, const struct workload_row *w,
		 enum io_dir d, struct lat_hist *scratch, struct dir_view *out,
		 struct sb_err *e);

/*
 * Call `fn` for every workload of a run, in order, lending it a scratch
 * histogram; stops at the first failure.  An unknown run is an error.
 */
typedef int (*run_view_workload_fn)(struct store *s,
				    const struct workload_row *w,
				    struct lat_hist *scratch, void *ctx,
				    struct sb_err *e);
int run_view_each_workload(struct store *s, int64_t run_id,
			   run_view_workload_fn fn, void *ctx,
			   struct sb_err *e);

/* Nothing happened in this direction: no I/O and no latency. */
bool dir_view_empty(const struct dir_view *v);

/*
 * Where a workload's I/Os come from, in words: "engine, each I/O measured
 * on the device", "bulk: 65,631 of 9,812,345 I/Os simulated one by one
 * (0.67 %), 9,746,714 extrapolated", "not recorded (...)".
 */
void run_view_provenance(const struct store_totals *t, char *buf, size_t len);

/* A run id as typed: a number, or "last" (*id = 0) for the newest run.
   A failure is a usage error. */
int run_view_parse_id(const char *arg, int64_t *id, struct sb_err *e);
/* Turn the 0 of "last" into the newest run's id; fails on an empty file. */
int run_view_resolve_last(struct store *s, int64_t *id, struct sb_err *e);

/*
 * "running" in the database after the writer is gone means it was killed
 * (or still runs): nobody can tell from the file alone, so say both.
 */
const char *run_view_status(const char *status, char *buf, size_t len);

#endif
