/*
 * The platform a run was measured on, recorded with every run so a report
 * can say what produced its numbers: kernel, CPU, tool version.
 */
#ifndef SSDBENCH_DEVICE_HOST_H
#define SSDBENCH_DEVICE_HOST_H

#include "common/json.h"

/*
 * An object of host facts (keys: tool_version, kernel, machine, hostname,
 * cpus, cpus_allowed, cpu_model); `arg` is unused, so this fits json_to_string().
 */
void host_facts_json(struct json_writer *w, const void *arg);

/* The same, as a heap string for store_run_begin(); NULL on ENOMEM. */
char *host_facts_json_string(void);

#endif
