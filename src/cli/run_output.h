/*
 * What `ssdbench run` shows: the human summary and the --json document
 * (keys in docs/json.md).
 */
#ifndef SSDBENCH_CLI_RUN_OUTPUT_H
#define SSDBENCH_CLI_RUN_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/engine.h"

struct run_report {
	const struct engine_result *res;
	const struct workload *w;	/* res->nworkloads of them */
	int64_t run_id;			/* 0: no database */
	const char *status;		/* "done", "interrupted", "failed" */
	const char *error;		/* NULL unless failed */
	uint32_t batch;
	bool iopoll, sqpoll;		/* asked for */
	bool mib;
};

void run_print_summary(FILE *out, const struct run_report *r);

/* An open loop's late starts, one line / one object ("lateness" in
   docs/json.md): run, show and export say them alike. */
struct lateness_summary;
struct json_writer;
void run_print_lateness(FILE *out, const char *indent, const struct lateness_summary *l);
void run_json_lateness(struct json_writer *j, const char *key,
		       const struct lateness_summary *l);
void run_print_json(FILE *out, const struct run_report *r);

#endif
