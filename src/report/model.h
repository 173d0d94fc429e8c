/*
 * What a report knows about one run, in a compact form: read once from the
 * store (model_load.c), then only looked at.  Interval samples shrink to
 * the few numbers a chart draws, and each latency histogram shrinks to the
 * analysis' QoS row (exact ranks) and its nines curve (analysis/latency.h),
 * so a full suite run of several hundred workloads and a few comparison
 * runs fit in memory comfortably (a histogram is 280 KiB, its curve 7 KiB).
 *
 * Nothing in it needs the store: a test may build one by hand.
 */
#ifndef SSDBENCH_REPORT_MODEL_H
#define SSDBENCH_REPORT_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/latency.h"
#include "analysis/trace.h"
#include "common/error.h"
#include "common/hist.h"
#include "common/sample.h"

/*
 * The nines curve: RPT_GRID_STEPS points per nine, from the minimum up to
 * six nines (99.9999 %, CHART_NINES_MAX) or as far as the I/Os support,
 * then the maximum (lat_nines_curve).
 */
#define RPT_GRID_STEPS 50
#define RPT_GRID_NINES 6
#define RPT_CURVE_MAX (RPT_GRID_NINES * RPT_GRID_STEPS + 2)

struct rpt_lat {
	uint64_t count;		/* I/Os; 0 = this direction did nothing */
	double mean_us, min_us, max_us;
	struct lat_summary qos;	/* lat_qos_percentiles, exact ranks (ns) */
	size_t ncurve;
	struct nines_pt curve[RPT_CURVE_MAX];
};

/*
 * Percentile p in µs.  The QoS percentiles (50, 90, 99 ... 99.9999: every
 * table's) are the histogram's exact rank; 0 and 100 are the minimum and
 * maximum; any other p is the curve's nearest point (charts only).
 */
double rpt_lat_at(const struct rpt_lat *l, double p);

/* Fill `l` from a histogram in nanoseconds. */
void rpt_lat_from_hist(struct rpt_lat *l, const struct lat_hist *h);

/* One interval sample, reduced; counts stay exact for the analysis. */
struct rpt_point {
	double t_s;		/* end of the interval, from the workload start */
	double dur_s;
	uint64_t dur_ns;
	uint64_t bytes[2];	/* read, write */
	uint64_t ios[2];
	double lat_mean_us;	/* over both directions, 0 without I/O */
	double lat_p99_us;	/* the larger of the directions' p99 */
	bool ramp;
};

/* What the workload spec says, where it says it; -1 / "" when unknown. */
struct rpt_spec {
	char pattern[8];	/* "seq", "rand" or "replay" */
	int read_pct;
	int64_t bs;
	int qd, jobs;
	int64_t span;
	bool sync;
};

struct rpt_workload {
	int64_t id;
	char step[64];		/* "" for a plain run */
	char name[64];		/* the step's key: "mix=70 qd=1" */
	char label[128];	/* what the page says: "RND 4 KiB 70:30 QD1" */
	char status[16];
	struct rpt_spec spec;
	uint64_t bytes[2], ios[2];
	double measured_s;
	struct rpt_lat lat[2];	/* read, write */
	struct rpt_point *pts;
	size_t npts;
	/* Device queries made while it ran (monitor=): their starts on the
	   samples' clock, in seconds, and their total time. */
	double *query_t_s;
	size_t nqueries;
	double query_s;
	/* Where its I/Os come from (common/sample.h; IO_WAY_UNKNOWN: an
	   older database): every direction's I/Os reported, and when
	   sim_known (a simulated drive) how many were simulated one by one. */
	enum io_way way;
	bool sim_known;
	uint64_t ios_reported, ios_simulated;
};

/* A workload's name in words (labels.c); the page shows it, the name
   stays the key. */
const char *workload_label(const struct rpt_workload *w, char *buf, size_t len);

struct rpt_step {
	char name[64];		/* "seq_sweeps" */
	char kind[32];		/* "sweep": from the step's parameters */
	char *params_json;	/* the plan's settings of the step, or NULL */
};

struct rpt_metric {
	char step[64];		/* "" when run-wide */
	char key[128];
	double value;
	char unit[16];
};

struct rpt_run {
	char label[128];	/* how charts and tables name this device */
	char source[512];	/* database file */
	int64_t id;
	char kind[16], status[16], engine_mode[64];
	char target[512];
	char started_at[32], finished_at[32];
	char *command_line, *host_json, *facts_json, *params_json;
	uint64_t capacity;	/* bytes, from the target facts; 0 unknown */
	/* Waits of the I/O threads for the collector, over every workload
	   (0 in a healthy run), and their total time. */
	uint64_t driver_stalls, driver_stall_ns;
	bool stalls_known;	/* false: an older database without them */
	struct rpt_step *steps;	/* in run order, each name once */
	size_t nsteps;
	struct rpt_workload *wl;
	size_t nwl;
	struct rpt_metric *metrics;
	size_t nmetrics;
};

/* Load run `run_id` of the database at `path` (opened read-only). */
int rpt_run_load(struct rpt_run *r, const char *path, int64_t run_id,
		 struct sb_err *e);
void rpt_run_free(struct rpt_run *r);

/* Make labels distinct (charts and rankings name devices by label): a
   label seen before gets its run id, then its database, appended. */
void rpt_labels_unique(struct rpt_run *runs, size_t n);

/* Lookups. */
const struct rpt_metric *rpt_metric(const struct rpt_run *r, const char *key);
const struct rpt_step *rpt_step(const struct rpt_run *r, const char *step);
/* A step parameter's text ("0.80,0.15,0.05"); false if absent. */
bool rpt_step_param(const struct rpt_run *r, const char *step,
		    const char *key, char *buf, size_t len);
/* The workload of `step` named `name`, NULL if none. */
const struct rpt_workload *rpt_find(const struct rpt_run *r, const char *step,
				    const char *name);

/* Totals of a workload over its measured time (ramp excluded). */
double rpt_bw(const struct rpt_workload *w);	/* bytes/s, both directions */
double rpt_iops(const struct rpt_workload *w);
/* A stall (the findings' <point>.stall): nothing completed in a measured
   window.  Returns the window in seconds (its totals, else its samples),
   0 when the point is no stall. */
double rpt_stall_window_s(const struct rpt_workload *w);

/*
 * The measured (non-ramp) samples as the analysis library's trace: bytes
 * and I/Os of both directions.  Caller frees; NULL with *n = 0 when the
 * workload has no measured sample (or memory ran out).
 */
struct trace_pt *rpt_trace(const struct rpt_workload *w, size_t *n);

/* Read the spec fields out of a workload's spec JSON (NULL if none),
   then fill the gaps from its name. */
void rpt_spec_parse(struct rpt_spec *s, const char *spec_json,
		    const char *name);

#endif
