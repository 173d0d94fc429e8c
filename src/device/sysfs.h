/*
 * What the kernel knows about a block device without asking the device:
 * /sys/dev/block/MAJ:MIN and its queue/ directory, the model strings a
 * driver publishes, a loop device's backing file, and the PCIe link of the
 * nearest PCI function above the device.  Works for every block device,
 * so it is the fallback when neither NVMe nor ATA passthrough answers.
 */
#ifndef SSDBENCH_DEVICE_SYSFS_H
#define SSDBENCH_DEVICE_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/error.h"

struct pcie_link {
	bool present;
	char address[32];		/* "0000:01:00.0" */
	char speed[32], max_speed[32];	/* "16.0 GT/s PCIe" */
	unsigned width, max_width;	/* lanes */
};

struct block_facts {
	char name[64];			/* "nvme0n1", "loop3", "sda1" */
	char disk[64];			/* the whole disk ("sda" for "sda1") */
	bool partition;
	unsigned major, minor;
	/* "nvme", "scsi", "loop", "zram", "virtio", "device-mapper", "md",
	   "mmc" or "block" when the name says nothing more. */
	char transport[16];
	uint64_t size_bytes;
	uint32_t logical_block_size, physical_block_size;
	uint32_t min_io_size, optimal_io_size;
	int rotational;			/* 1, 0, or -1 when unknown */
	bool read_only;
	uint64_t discard_max_bytes;	/* 0: no discard */
	uint64_t discard_granularity;
	uint64_t write_zeroes_max_bytes;
	char scheduler[32];		/* the active one, "none" */
	char write_cache[32];		/* "write back", "write through", "" */
	int io_poll;			/* queue/io_poll: 1, 0, -1 unknown */
	char model[64], vendor[32], serial[64], firmware[32];
	char backing_file[512];		/* loop devices */
	struct pcie_link pcie;
	/* A hwmon temperature input for the device, "" when none. */
	char hwmon_temp[512];
};

/* Facts for the block device `rdev` (st_rdev of its node). */
int sysfs_block_facts(dev_t rdev, struct block_facts *out, struct sb_err *e);

/* Read a sysfs attribute of the device under `dir` into `buf` without the
   trailing newline; -1 when it does not exist or cannot be read. */
int sysfs_read(const char *dir, const char *attr, char *buf, size_t len);

#endif
