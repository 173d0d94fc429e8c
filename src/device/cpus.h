/*
 * Which CPUs a target's threads run on when several targets are measured
 * at once: the NUMA node of the device where sysfs tells
 * (/sys/dev/block/M:m/device/numa_node, the node's cpulist), the CPUs of
 * that node (or all allowed ones) split among the targets that share
 * them, so no two targets' I/O threads compete for one CPU while there
 * are CPUs enough.
 */
#ifndef SSDBENCH_DEVICE_CPUS_H
#define SSDBENCH_DEVICE_CPUS_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/* Linux's cpulist text ("0-3,8,10-11") into a set; clear errors. */
int cpu_list_parse(const char *text, cpu_set_t *out, struct sb_err *e);
/* The set back as a cpulist ("0-3,8"); "" for the empty set. */
const char *cpu_list_format(const cpu_set_t *s, char *buf, size_t len);

/*
 * The NUMA node of the device behind `target`: a block device's own, a
 * file's file system's device; -1 when sysfs does not say (a simulated
 * drive, a loop device, a machine with one node).
 */
int target_numa_node(const char *target);
/* The CPUs of node `node` from sysfs; -1 when it has no cpulist. */
int numa_node_cpus(int node, cpu_set_t *out);

#define PIN_NODES_MAX 64

/* What the pinning knows: the CPUs the process may use, each node's. */
struct pin_input {
	cpu_set_t allowed;
	cpu_set_t node_cpus[PIN_NODES_MAX];
	bool node_known[PIN_NODES_MAX];
};

struct pin_choice {
	cpu_set_t cpus;		/* where the target's threads run */
	int node;		/* the device's node, -1 unknown */
	bool on_node;		/* cpus are of that node */
	bool shared;		/* fewer CPUs than targets: one shared */
};

/*
 * Pin n targets whose devices are on nodes[i] (-1 unknown): each gets
 * the allowed CPUs of its node, or all allowed CPUs when the node is
 * unknown or has none allowed; targets with the same candidates split
 * them in contiguous, equal parts, in target order.
 */
void pin_plan(const struct pin_input *in, const int *nodes, uint32_t n,
	      struct pin_choice *out);

/* The input of the running machine: sched_getaffinity and sysfs. */
int pin_input_read(struct pin_input *in, struct sb_err *e);

#endif
