/*
 * The suite's use of the device layer: facts and health for the record,
 * temperature and health readings during a run, and purges.  Kept apart
 * so the rest of the suite sees plain values (the device layer and the
 * store both name a struct device_reading).
 */
#ifndef SSDBENCH_SUITE_DEVICE_IO_H
#define SSDBENCH_SUITE_DEVICE_IO_H

#include <stdbool.h>
#include <stddef.h>

#include "backend/backend.h"
#include "common/error.h"


/*
 * Purge a block device by `method` (a device-layer name, "auto" picks the
 * strongest it supports), into LBA format `lbaf` (-1: keep).  The target
 * must be closed.  `used` receives the method that ran.
 */
int suite_purge_device(const char *path, const char *method, int lbaf,
		       char *used, size_t used_len, struct sb_err *e);

struct suite_monitor;
/* NULL without error when the target has nothing to read (sim). */
int suite_monitor_open(const struct target_facts *tf, struct suite_monitor **m,
		       struct sb_err *e);
/* Known readings now: keys[i] = values[i]; returns how many. */
size_t suite_monitor_sample(struct suite_monitor *m, const char **keys,
			    double *values, size_t max);
/* Where the readings come from: "nvme", "ata", "hwmon" or "none". */
const char *suite_monitor_source(const struct suite_monitor *m);
void suite_monitor_close(struct suite_monitor *m);

#endif
