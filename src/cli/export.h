/*
 * Writing a stored run out: JSON (everything, or parts) and CSV (samples,
 * per-direction summaries or histogram buckets).  Column and key names are
 * documented in docs/database.md and stay stable; add, never rename.
 */
#ifndef SSDBENCH_CLI_EXPORT_H
#define SSDBENCH_CLI_EXPORT_H

#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "store/store.h"

/* What goes into a JSON export besides the run, steps, workloads with their
   summaries, metrics and device readings. */
enum {
	EXPORT_SAMPLES = 1u << 0,
	EXPORT_HISTOGRAMS = 1u << 1,
};

#define EXPORT_FORMAT_VERSION 1

int export_json_run(FILE *out, struct store *s, int64_t run_id,
		    unsigned parts, struct sb_err *e);
/* A workload's io_way, ios_reported, ios_simulated, ios_extrapolated
   members (docs/json.md), as every JSON output writes them. */
struct json_writer;
void export_json_provenance(struct json_writer *w, const struct store_totals *t);

/* The list of runs, as `ssdbench show --json` prints it. */
int export_json_run_list(FILE *out, struct store *s, struct sb_err *e);

int export_csv_samples(FILE *out, struct store *s, int64_t run_id,
		       struct sb_err *e);
int export_csv_summary(FILE *out, struct store *s, int64_t run_id,
		       struct sb_err *e);
int export_csv_histograms(FILE *out, struct store *s, int64_t run_id,
			  struct sb_err *e);

#endif
