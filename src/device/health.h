/*
 * A drive's health and temperature in one shape whatever the protocol, and
 * a monitor the suite polls during a run.  Unknown values are NAN (written
 * as JSON null), never 0, so "no sensor" cannot pass for "0 °C".
 *
 * Sampling costs one admin command (NVMe SMART log, plus the OCP log when
 * the drive has it) or one SMART READ DATA (SATA): microseconds on the
 * drive's admin queue, nothing on the I/O queues the benchmark uses.
 */
#ifndef SSDBENCH_DEVICE_HEALTH_H
#define SSDBENCH_DEVICE_HEALTH_H

#include <stddef.h>

#include "common/error.h"
#include "device/ata.h"
#include "device/nvme.h"

struct device_health {
	double temperature_c;
	double percent_used;		/* NVMe; SATA from a wear attribute */
	double available_spare_pct;
	double critical_warning;	/* NVMe bit field */
	double data_read_bytes, data_written_bytes;	/* host side */
	double media_written_bytes;	/* NAND side (OCP log C0h) */
	double power_on_hours, power_cycles, unsafe_shutdowns;
	double media_errors;
};

void device_health_unknown(struct device_health *h);
void device_health_from_nvme(const struct nvme_smart *s,
			     const struct nvme_ocp_smart *ocp,
			     struct device_health *h);
/* `sector_size` scales the LBA counters (241/242). */
void device_health_from_ata(const struct ata_smart *s, uint32_t sector_size,
			    struct device_health *h);

/*
 * Write amplification between two readings: NAND bytes written over host
 * bytes written, NAN when either counter is missing or did not move.  The
 * host counter has a granularity of 512 000 bytes, so short intervals give
 * rough values.
 */
double device_write_amplification(const struct device_health *before,
				  const struct device_health *after);

/* One named reading, keyed for store_add_device_reading(). */
struct device_reading {
	const char *key;
	double value;
};
#define DEVICE_MAX_READINGS 12

/* Every field of `h` with its key, unknown ones as NAN; returns how many. */
size_t device_health_fields(const struct device_health *h,
			    struct device_reading out[DEVICE_MAX_READINGS]);
/* Only the known values of `h`; returns how many. */
size_t device_health_readings(const struct device_health *h,
			      struct device_reading out[DEVICE_MAX_READINGS]);

/* --- sampling during a run ------------------------------------------- */

struct device_monitor;

/*
 * Opens `path` read-only for sampling.  Succeeds on any block device or
 * file; where there is nothing to read, samples are all unknown.
 */
int device_monitor_open(const char *path, struct device_monitor **out,
			struct sb_err *e);
int device_monitor_sample(struct device_monitor *m, struct device_health *h,
			  struct sb_err *e);
/* "nvme", "ata", "hwmon" or "none": where the samples come from. */
const char *device_monitor_source(const struct device_monitor *m);
void device_monitor_close(struct device_monitor *m);

#endif
