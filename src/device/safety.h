/*
 * The refusals that protect data: before ssdbench writes to (or even opens)
 * a target, these checks say what they found.  Used by `run`, `suite` and
 * `purge`; they never change anything.
 */
#ifndef SSDBENCH_DEVICE_SAFETY_H
#define SSDBENCH_DEVICE_SAFETY_H

#include <stdbool.h>

#include "common/error.h"

struct safety_request {
	const char *path;	/* a block device or a regular file */
	bool write;		/* the workload writes, trims or purges */
	bool destroy_data;	/* the user passed --destroy-data */
};

/*
 * 0 when the target may be used as asked; -1 with a message naming what
 * was found otherwise: a block device to be written without --destroy-data,
 * a mounted device or one with mounted partitions, the device holding the
 * root filesystem, one with holders (LVM, md, dm), one another process has
 * open exclusively, a read-only device opened for writing, no permission.
 */
int safety_check(const struct safety_request *r, struct sb_err *e);

#endif
