/*
 * The results database: one SQLite file holds every run, its workloads and
 * steps, the target's facts, the interval samples, latency histograms,
 * summaries and the analysis' figures.  Writes happen while a run goes, in
 * transactions committed at least once a second (store_tick), so a crash
 * loses at most the last second.  Reads serve show/export, the analysis
 * and the report; nothing here measures or computes findings.
 *
 * This header is the contract between the rooms that write (engine runner,
 * suite) and those that read (analysis front end, report).
 */
#ifndef SSDBENCH_STORE_STORE_H
#define SSDBENCH_STORE_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/hist.h"
#include "common/sample.h"

/* A store belongs to the thread that opened it: its connection is opened
   without SQLite's own lock (nothing else may use it meanwhile). */
struct store;

#define STORE_DEFAULT_PATH "ssdbench.db"

/* Open (creating and migrating to the current schema) or fail with why. */
int store_open(const char *path, struct store **out, struct sb_err *e);
/* Open an existing database for reading only; never creates or migrates. */
int store_open_readonly(const char *path, struct store **out, struct sb_err *e);
/* Commits anything pending.  A failure here cannot be reported: a writer
   that must know calls store_tick(s, true, e) first. */
void store_close(struct store *s);
int store_schema_version(struct store *s);

/*
 * Copy the runs of the database at src_path (opened read-only; refused if it
 * is not ssdbench's, newer than this binary, or s's own file) into s, with
 * everything that belongs to them.  Runs already in s (same runs.uid) are
 * skipped.  One transaction: on failure s is as it was.
 */
struct store_merge_result {
	int64_t runs_merged;	/* copied now */
	int64_t runs_present;	/* already in s, skipped */
};
int store_merge(struct store *s, const char *src_path,
		struct store_merge_result *r, struct sb_err *e);

/* --- writing -------------------------------------------------------------- */

struct run_begin {
	const char *kind;		/* "run" (ssdbench run) or "suite" */
	const char *target;		/* as given by the user */
	const char *command_line;	/* for the record */
	const char *params_json;	/* the plan / options, JSON; may be NULL */
	const char *host_json;		/* kernel, CPU, tool version; may be NULL */
};
int store_run_begin(struct store *s, const struct run_begin *b,
		    int64_t *run_id, struct sb_err *e);
/* The target's facts (size, block sizes, model ...) as JSON; `when` is
   "before" or "after" the run. */
int store_run_target_facts(struct store *s, int64_t run_id, const char *when,
			   const char *facts_json, struct sb_err *e);
/* status: "running", "done", "failed", "interrupted". */
int store_run_finish(struct store *s, int64_t run_id, const char *status,
		     const char *error, struct sb_err *e);
/* Record the I/O mode that actually ran ("interrupt", "iopoll", "virtual"). */
int store_run_engine_mode(struct store *s, int64_t run_id, const char *mode,
			  struct sb_err *e);

/*
 * The lease of a run: one writer at a time.  Taking it fails, naming the
 * holder (process, host, since when), while another live process holds
 * it; a stale lease (its process gone) is taken over.  Released by the
 * holder when it is done with the run.
 */
int store_lease_take(struct store *s, int64_t run_id, struct sb_err *e);
int store_lease_release(struct store *s, int64_t run_id, struct sb_err *e);

/* Suite steps; a plain `run` has none (step_id 0 below). */
int store_step_begin(struct store *s, int64_t run_id, int seq,
		     const char *name, const char *params_json,
		     int64_t *step_id, struct sb_err *e);
/* status: "done", "failed", "interrupted", "partial" (restarted on resume). */
int store_step_finish(struct store *s, int64_t step_id, const char *status,
		      const char *error, struct sb_err *e);

int store_workload_begin(struct store *s, int64_t run_id, int64_t step_id,
			 uint32_t index, const char *name,
			 const char *spec_json, int64_t *workload_id,
			 struct sb_err *e);

struct store_totals {
	uint64_t bytes[DIR_COUNT];
	uint64_t ios[DIR_COUNT];
	uint64_t measured_ns;
	/* I/O threads waiting for the collector (engine.h); 0 when healthy. */
	uint64_t driver_stalls, driver_stall_ns;
	/* Written only: an open loop's response latency and lateness per
	   direction (engine.h), NULL in a closed loop. */
	const struct lat_hist *response[DIR_COUNT], *lateness[DIR_COUNT];
	/*
	 * Where the I/Os of ios[] come from (common/sample.h): the way they
	 * were produced (IO_WAY_UNKNOWN: recorded before schema 6) and, when
	 * sim_known (a simulated drive), how many of them were simulated one
	 * by one; store_ios_reported(t) - ios_simulated were extrapolated.
	 */
	enum io_way way;
	bool sim_known;
	uint64_t ios_simulated;
};

/* The I/Os the totals report, every direction. */
static inline uint64_t store_ios_reported(const struct store_totals *t)
{
	return t->ios[DIR_READ] + t->ios[DIR_WRITE] + t->ios[DIR_TRIM];
}

/* Of those, the ones not simulated one by one (sim_known only). */
static inline uint64_t store_ios_extrapolated(const struct store_totals *t)
{
	uint64_t n = store_ios_reported(t);
	return n > t->ios_simulated ? n - t->ios_simulated : 0;
}
/* Totals and histograms so far (checkpoint) or final; replaces earlier. */
int store_workload_totals(struct store *s, int64_t workload_id,
			  const struct store_totals *t,
			  struct lat_hist *const hist[DIR_COUNT], bool final,
			  struct sb_err *e);
int store_workload_finish(struct store *s, int64_t workload_id,
			  const char *status, const char *mode,
			  struct sb_err *e);

/* Buffered; goes to disk with the next commit. */
int store_add_sample(struct store *s, int64_t workload_id,
		     const struct interval_sample *smp, struct sb_err *e);

/* A figure for a run (step/workload 0 when not specific): analysis
   results and suite outcomes, keyed like "fill.pass1.slc_cache_gb". */
int store_put_metric(struct store *s, int64_t run_id, int64_t step_id,
		     int64_t workload_id, const char *key, double value,
		     const char *unit, struct sb_err *e);

/* A device reading during a run: temperature, health counters. */
int store_add_device_reading(struct store *s, int64_t run_id, uint64_t t_ns,
			     const char *key, double value, struct sb_err *e);
/*
 * A device query (health, temperature) made while workload_id ran, from
 * t_start_ns to t_end_ns on the workload's clock (the samples' times), so
 * analysis and report can tell which intervals it may have disturbed.
 */
int store_add_device_query(struct store *s, int64_t workload_id, uint64_t t_start_ns,
			   uint64_t t_end_ns, const char *source, struct sb_err *e);

/* Commit if the last commit is older than a second (or `force`). */
int store_tick(struct store *s, bool force, struct sb_err *e);
/*
 * Several processes writing one database (targets measured at once):
 * SQLite lets one write at a time, and a transaction held open for the
 * second between ticks would make the others' collectors wait that long.
 * With `ns` 0 every tick commits, so the write lock is held only while
 * one interval's rows are written.
 */
void store_set_commit_every(struct store *s, uint64_t ns);
/*
 * Tests: every commit takes `ns` longer, as on a slow disk or during a WAL
 * checkpoint, so a test can show what a slow store does to a run.
 */
void store_set_commit_delay(struct store *s, uint64_t ns);

/* --- reading -------------------------------------------------------------- */

struct run_row {
	int64_t id;
	char kind[16];
	char target[512];
	char status[16];
	char engine_mode[64];
	char started_at[32];	/* ISO 8601 UTC */
	char finished_at[32];
	char *command_line;	/* heap strings, freed by store_run_row_free */
	char *params_json;
	char *host_json;
	char *facts_before_json;
	char *facts_after_json;
	char *error;
};
int store_get_run(struct store *s, int64_t run_id, struct run_row *out,
		  struct sb_err *e);
void store_run_row_free(struct run_row *r);
/* All runs, newest first. Caller frees with store_run_rows_free. */
int store_list_runs(struct store *s, struct run_row **out, size_t *n,
		    struct sb_err *e);
void store_run_rows_free(struct run_row *rows, size_t n);

struct step_row {
	int64_t id;
	int seq;
	char name[64];
	char status[16];
	char started_at[32], finished_at[32];
	char *params_json;
	char *error;
};
int store_list_steps(struct store *s, int64_t run_id, struct step_row **out,
		     size_t *n, struct sb_err *e);
void store_step_rows_free(struct step_row *rows, size_t n);

struct workload_row {
	int64_t id;
	int64_t step_id;
	uint32_t index;
	char name[64];
	char status[16];
	char mode[64];
	char *spec_json;
	struct store_totals totals;
	bool final;		/* totals are final, not a checkpoint */
	bool stalls_known;	/* false: a database from before stalls were
				   recorded (schema 2); totals' stalls are 0 */
};
/* step_id 0: every workload of the run (any step), else that step's. */
int store_list_workloads(struct store *s, int64_t run_id, int64_t step_id,
			 struct workload_row **out, size_t *n,
			 struct sb_err *e);
void store_workload_rows_free(struct workload_row *rows, size_t n);

/* A device query (health, temperature) made while a workload ran, on the
   workload's clock (the samples' t_start_ns/t_end_ns). */
struct device_query_row {
	uint64_t t_start_ns, t_end_ns;
	char source[16];
};
/* A workload's device queries in time order; none in a database from
   before they were recorded (schema 2, see workload_row.stalls_known).
   Caller frees *out with free(). */
int store_list_device_queries(struct store *s, int64_t workload_id,
			      struct device_query_row **out, size_t *n,
			      struct sb_err *e);
/* Their total time: what show and the report print. */
uint64_t device_queries_total_ns(const struct device_query_row *q, size_t n);

/* Every sample of a workload, in order.  Caller frees *out with free(). */
int store_load_samples(struct store *s, int64_t workload_id,
		       struct interval_sample **out, size_t *n,
		       struct sb_err *e);
/* A sample's time and counts, without its latencies: what a trace of
   rates needs, read at a third of the columns (a preconditioning's
   million samples). */
struct sample_counts {
	uint64_t t_start_ns, t_end_ns;
	bool ramp;
	uint64_t bytes[DIR_COUNT], ios[DIR_COUNT];
};
/*
 * Every sample's counts, in order (as store_load_samples), handed to fn
 * one at a time as they are read, so a caller keeps only what it needs of
 * them (a trace: a third of a sample_counts' 72 bytes, where a
 * preconditioning's million samples read as an array first were 80 MB of
 * fresh pages).  dirs, a mask of 1 << DIR_*: the directions whose bytes
 * and I/Os the caller uses; the others may read as 0 (only the writes
 * asked for: their columns alone are read).  fn returns non-zero with e
 * set to stop the reading: the call then returns -1.
 */
typedef int (*sample_counts_fn)(void *ctx, const struct sample_counts *c,
				struct sb_err *e);
int store_each_sample_counts(struct store *s, int64_t workload_id, unsigned dirs,
			     sample_counts_fn fn, void *ctx, struct sb_err *e);
int store_load_histogram(struct store *s, int64_t workload_id,
			 enum io_dir dir, struct lat_hist *out,
			 struct sb_err *e);
/*
 * Which latency a histogram holds: service (submission to completion,
 * store_load_histogram), or an open loop's response (scheduled arrival to
 * completion) and lateness (arrival to submission).  A closed-loop
 * workload, or one recorded before schema 5, has no response or lateness
 * histogram: *out is then empty.
 */
enum hist_kind { HIST_SERVICE, HIST_RESPONSE, HIST_LATENESS };
/* "service", "response", "lateness" (arrival_histograms.kind). */
const char *hist_kind_name(enum hist_kind k);
int store_load_histogram_kind(struct store *s, int64_t workload_id,
			      enum io_dir dir, enum hist_kind kind,
			      struct lat_hist *out, struct sb_err *e);

struct metric_row {
	int64_t step_id, workload_id;
	char key[128];
	double value;
	char unit[16];
};
int store_list_metrics(struct store *s, int64_t run_id,
		       struct metric_row **out, size_t *n, struct sb_err *e);

struct device_reading {
	uint64_t t_ns;
	char key[64];
	double value;
};
int store_list_device_readings(struct store *s, int64_t run_id,
			       struct device_reading **out, size_t *n,
			       struct sb_err *e);

#endif
