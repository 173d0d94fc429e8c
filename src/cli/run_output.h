/*
 * What `ssdbench run` shows and records: the human summary, the --json
 * document (keys in docs/json.md) and the JSON snippets the database keeps
 * for a run (target facts, workload specs, host).
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
void run_print_json(FILE *out, const struct run_report *r);

/* Heap JSON strings for the store; NULL on ENOMEM. */
char *run_facts_json(const struct target_facts *f);
char *run_workload_json(const struct workload *w);
char *run_host_json(void);

#endif
