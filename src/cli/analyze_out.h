/*
 * The analyses `ssdbench analyze` runs on one trace, and how it prints
 * them: in words for people, or as JSON members with the stable keys of
 * docs/analysis.md.  The figures all come from src/analysis.
 */
#ifndef SSDBENCH_CLI_ANALYZE_OUT_H
#define SSDBENCH_CLI_ANALYZE_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/bursts.h"
#include "analysis/fill.h"
#include "analysis/fio_input.h"
#include "analysis/steady.h"
#include "common/error.h"
#include "common/hist.h"
#include "common/json.h"
#include "store/store.h"

enum {
	AK_FILL = 1,
	AK_STEADY = 2,
	AK_CONSISTENCY = 4,
	AK_BURSTS = 8,
	AK_ALL = 15,
};

/* "fill", "steady", "consistency", "bursts" or "all". */
int analyze_parse_kind(const char *s, unsigned *kinds, struct sb_err *e);

struct analyze_opts {
	unsigned kinds;
	bool json;
	int metric;			/* TRACE_BW, TRACE_IOPS, or -1: by I/O size */
	int ss_metric;			/* steady state's: from the rule name
					   (bw_slope ...), else as `metric` */
	uint64_t capacity;		/* for drive-writes; 0 unknown */
	struct fill_params fill;
	struct ss_params ss;
	struct burst_params bursts;
};

void analyze_opts_default(struct analyze_opts *o);

struct analyzed_trace {
	const char *name;		/* workload or file name */
	const char *direction;		/* "read", "write", "trim" */
	const struct trace_pt *t;
	size_t n;
	const struct lat_hist *lat;	/* may be NULL */
	bool no_bytes;			/* an IOPS log without block sizes */
	bool no_ios;			/* a bandwidth log without block sizes */
	/* A stored workload's totals: where its I/Os come from (simulated
	   one by one or extrapolated); NULL for a file. */
	const struct store_totals *from;
};

/* Analyse one trace; with `jw` as one JSON object, else as text. */
int analyze_trace(const struct analyze_opts *o, const struct analyzed_trace *a,
		  struct json_writer *jw, struct sb_err *e);

/* What a steady-state verdict was judged by (rule, metric, interval,
   window, limit): in words, or as members of the current JSON object. */
void analyze_print_ss_how(const struct ss_params *p, const struct ss_result *r);
void analyze_json_ss_how(struct json_writer *jw, const struct ss_params *p,
			 const struct ss_result *r);

/* fio's JSON summary of one job, as text or a JSON object; a job run with
   fio's ss= also gets its window judged again by ssdbench's detector. */
void analyze_print_fio_job(const struct fio_job_summary *j,
			   struct json_writer *jw);

#endif
