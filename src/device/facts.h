/*
 * Everything ssdbench records about a target (a review's device summary):
 * gathered before and after a run, stored with it as JSON, printed by
 * `info` and by the report.  One collection reads sysfs (or the filesystem, for a file),
 * then asks the device itself through NVMe or ATA passthrough; a device
 * that does not speak either is not an error, the probe notes say why.
 */
#ifndef SSDBENCH_DEVICE_FACTS_H
#define SSDBENCH_DEVICE_FACTS_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "common/json.h"
#include "device/ata.h"
#include "device/health.h"
#include "device/nvme.h"
#include "device/sysfs.h"

struct file_facts {
	uint64_t size_bytes;
	uint64_t allocated_bytes;	/* st_blocks: holes are not counted */
	uint32_t fs_block_size;
	char filesystem[16];		/* "ext4", "xfs", "tmpfs", ... */
	/* O_DIRECT alignment from statx (Linux 6.1+); 0 when unknown. */
	uint32_t dio_mem_align, dio_offset_align;
	char device[64];		/* block device holding the file */
};

struct device_facts {
	char path[PATH_MAX];
	char collected_at[32];		/* ISO 8601 UTC */
	bool is_file;
	struct file_facts file;
	struct block_facts block;

	bool nvme;
	char nvme_note[256];		/* why not NVMe, or what failed */
	struct nvme_ctrl_info nvme_ctrl;
	struct nvme_ns_info nvme_ns;
	bool nvme_smart_ok, ocp_ok;
	struct nvme_smart nvme_smart;
	struct nvme_ocp_smart ocp;
	char ocp_note[256];

	bool ata;
	char ata_note[256];
	struct ata_identify ata_id;
	bool ata_smart_ok;
	struct ata_smart ata_smart;

	struct device_health health;
};

/* Fails only when `path` is missing or neither a block device nor a
   regular file; probe failures become notes.  `f` is large: allocate it. */
int device_facts_collect(const char *path, struct device_facts *f,
			 struct sb_err *e);

/* The summary every target has, whichever source knew it. */
uint64_t device_facts_size(const struct device_facts *f);
uint32_t device_facts_logical_block(const struct device_facts *f);
const char *device_facts_model(const struct device_facts *f);
/* "nvme", "ata", "loop", "zram", "virtio", "scsi", ..., "file". */
const char *device_facts_transport(const struct device_facts *f);

/* The JSON form (docs/device.md lists every key). */
void device_facts_json(struct json_writer *w, const char *key,
		       const struct device_facts *f);
/* The same as a heap string for the store; NULL on allocation failure. */
char *device_facts_json_string(const struct device_facts *f);
/* The human form of `ssdbench info`. */
void device_facts_print(FILE *out, const struct device_facts *f);

#endif
