/*
 * Collecting the facts.  Read-only all the way: the device is opened
 * O_RDONLY and only Identify, log reads, IDENTIFY DEVICE and SMART READ
 * DATA are sent.
 */
#include "device/facts.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "device/bytes.h"

static const char *fs_name(unsigned long magic)
{
	switch (magic) {
	case EXT4_SUPER_MAGIC: return "ext4";	/* also ext2 and ext3 */
	case XFS_SUPER_MAGIC: return "xfs";
	case BTRFS_SUPER_MAGIC: return "btrfs";
	case TMPFS_MAGIC: return "tmpfs";
	case F2FS_SUPER_MAGIC: return "f2fs";
	case OVERLAYFS_SUPER_MAGIC: return "overlay";
	default: return "other";
	}
}

static void collect_file(int fd, const struct stat *st, struct file_facts *ff)
{
	struct statfs sfs;
	char link[64], dir[PATH_MAX], *real;
	ff->size_bytes = (uint64_t)st->st_size;
	ff->allocated_bytes = (uint64_t)st->st_blocks * 512;
	ff->fs_block_size = (uint32_t)st->st_blksize;
	str_copy(ff->filesystem, sizeof ff->filesystem,
		 fstatfs(fd, &sfs) == 0 ? fs_name((unsigned long)sfs.f_type)
					: "unknown");
#ifdef STATX_DIOALIGN
	struct statx sx;
	if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) == 0 &&
	    (sx.stx_mask & STATX_DIOALIGN)) {
		ff->dio_mem_align = sx.stx_dio_mem_align;
		ff->dio_offset_align = sx.stx_dio_offset_align;
	}
#endif
	snprintf(link, sizeof link, "/sys/dev/block/%u:%u", major(st->st_dev),
		 minor(st->st_dev));
	if ((real = realpath(link, dir)) != NULL)
		str_copy(ff->device, sizeof ff->device, strrchr(dir, '/') + 1);
}

/* NVMe: controller and namespace identity, then the logs.  A log that
   cannot be read is a note, not a failure: some controllers refuse the
   global SMART log, most lack the OCP one. */
static void probe_nvme(int fd, struct device_facts *f)
{
	uint8_t page[NVME_IDENTIFY_SIZE];
	uint32_t nsid;
	struct sb_err e;

	if (nvme_get_nsid(fd, &nsid, &e) ||
	    nvme_identify(fd, 0, NVME_CNS_CTRL, page, &e) ||
	    nvme_parse_id_ctrl(page, sizeof page, &f->nvme_ctrl, &e) ||
	    nvme_identify(fd, nsid, NVME_CNS_NS, page, &e) ||
	    nvme_parse_id_ns(page, sizeof page, &f->nvme_ns, &e)) {
		str_copy(f->nvme_note, sizeof f->nvme_note, e.msg);
		return;
	}
	f->nvme = true;
	f->nvme_ns.nsid = nsid;
	if (nvme_get_log(fd, NVME_NSID_ALL, NVME_LOG_SMART, page, NVME_LOG_SIZE,
			 &e) == 0 &&
	    nvme_parse_smart(page, NVME_LOG_SIZE, &f->nvme_smart, &e) == 0)
		f->nvme_smart_ok = true;
	else
		str_copy(f->nvme_note, sizeof f->nvme_note, e.msg);
	if (nvme_get_log(fd, NVME_NSID_ALL, NVME_LOG_OCP_SMART, page,
			 NVME_LOG_SIZE, &e) == 0 &&
	    nvme_parse_ocp_smart(page, NVME_LOG_SIZE, &f->ocp, &e) == 0)
		f->ocp_ok = true;
	else
		str_copy(f->ocp_note, sizeof f->ocp_note, e.msg);
}

static void probe_ata(int fd, struct device_facts *f)
{
	uint8_t page[ATA_SECTOR];
	struct sb_err e;
	if (ata_identify(fd, page, &e) ||
	    ata_parse_identify(page, sizeof page, &f->ata_id, &e)) {
		str_copy(f->ata_note, sizeof f->ata_note, e.msg);
		return;
	}
	f->ata = true;
	if (!f->ata_id.smart_supported || !f->ata_id.smart_enabled) {
		str_copy(f->ata_note, sizeof f->ata_note,
			 f->ata_id.smart_supported ? "SMART is disabled"
						   : "no SMART");
		return;
	}
	if (ata_smart_read(fd, page, &e) == 0 &&
	    ata_parse_smart(page, sizeof page, &f->ata_smart, &e) == 0)
		f->ata_smart_ok = true;
	else
		str_copy(f->ata_note, sizeof f->ata_note, e.msg);
}

static void set_health(struct device_facts *f)
{
	if (f->nvme_smart_ok)
		device_health_from_nvme(&f->nvme_smart,
					f->ocp_ok ? &f->ocp : NULL, &f->health);
	else if (f->ata_smart_ok)
		device_health_from_ata(&f->ata_smart,
				       f->ata_id.logical_sector_size,
				       &f->health);
	else
		device_health_unknown(&f->health);
}

int device_facts_collect(const char *path, struct device_facts *f,
			 struct sb_err *e)
{
	struct stat st;
	memset(f, 0, sizeof *f);
	str_copy(f->path, sizeof f->path, path);
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(f->collected_at, sizeof f->collected_at, "%Y-%m-%dT%H:%M:%SZ",
		 &tm);

	if (stat(path, &st))
		return sb_errno(e, errno, "%s", path);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		int err = errno;
		/* sysfs still knows a block device we may not open. */
		if (!S_ISBLK(st.st_mode) || (err != EACCES && err != EPERM))
			return sb_errno(e, err, "%s", path);
		if (sysfs_block_facts(st.st_rdev, &f->block, e))
			return sb_err_wrap(e, "%s", path);
		snprintf(f->nvme_note, sizeof f->nvme_note, "not probed: cannot "
			 "open the device (%s)", strerror(err));
		str_copy(f->ata_note, sizeof f->ata_note, f->nvme_note);
		device_health_unknown(&f->health);
		return 0;
	}
	if (fstat(fd, &st)) {
		int err = errno;
		close(fd);
		return sb_errno(e, err, "%s", path);
	}
	if (S_ISREG(st.st_mode)) {
		f->is_file = true;
		collect_file(fd, &st, &f->file);
		str_copy(f->nvme_note, sizeof f->nvme_note, "a regular file");
		str_copy(f->ata_note, sizeof f->ata_note, "a regular file");
		device_health_unknown(&f->health);
		close(fd);
		return 0;
	}
	if (!S_ISBLK(st.st_mode)) {
		close(fd);
		if (S_ISCHR(st.st_mode))
			return sb_errf(e, "%s is a character device; give a "
				       "block device (an NVMe namespace such as "
				       "/dev/nvme0n1, not the controller "
				       "/dev/nvme0) or a file", path);
		return sb_errf(e, "%s is neither a block device nor a regular "
			       "file", path);
	}
	if (sysfs_block_facts(st.st_rdev, &f->block, e)) {
		close(fd);
		return sb_err_wrap(e, "%s", path);
	}
	probe_nvme(fd, f);
	if (f->nvme)
		str_copy(f->ata_note, sizeof f->ata_note, "an NVMe device");
	else
		probe_ata(fd, f);
	set_health(f);
	close(fd);
	return 0;
}

uint64_t device_facts_size(const struct device_facts *f)
{
	return f->is_file ? f->file.size_bytes : f->block.size_bytes;
}

uint32_t device_facts_logical_block(const struct device_facts *f)
{
	if (f->is_file)
		return f->file.dio_offset_align ? f->file.dio_offset_align
						: f->file.fs_block_size;
	return f->block.logical_block_size;
}

const char *device_facts_model(const struct device_facts *f)
{
	if (f->nvme)
		return f->nvme_ctrl.model;
	if (f->ata)
		return f->ata_id.model;
	return f->is_file ? "" : f->block.model;
}

const char *device_facts_transport(const struct device_facts *f)
{
	if (f->is_file)
		return "file";
	if (f->nvme)
		return "nvme";
	if (f->ata)
		return "ata";
	return f->block.transport;
}
