#include "device/sysfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "device/bytes.h"

int sysfs_read(const char *dir, const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX];
	if (snprintf(path, sizeof path, "%s/%s", dir, attr) >= (int)sizeof path)
		return -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = '\0';
	return 0;
}

static uint64_t read_u64(const char *dir, const char *attr, uint64_t dflt)
{
	char buf[64], *end;
	if (sysfs_read(dir, attr, buf, sizeof buf))
		return dflt;
	errno = 0;
	unsigned long long v = strtoull(buf, &end, 10);
	if (errno || end == buf)
		return dflt;
	return v;
}

static int read_flag(const char *dir, const char *attr)
{
	char buf[16];
	if (sysfs_read(dir, attr, buf, sizeof buf))
		return -1;
	return buf[0] == '1';
}

/* "mq-deadline kyber [bfq] none": the bracketed entry is the active one. */
static void active_scheduler(const char *list, char *out, size_t len)
{
	const char *open = strchr(list, '['), *close;
	if (open && (close = strchr(open, ']')) != NULL)
		snprintf(out, len, "%.*s", (int)(close - open - 1), open + 1);
	else
		str_copy(out, len, list);
}

static void transport_from_name(const char *name, char *out, size_t len)
{
	static const struct { const char *prefix, *transport; } map[] = {
		{ "nvme", "nvme" }, { "sd", "scsi" }, { "loop", "loop" },
		{ "zram", "zram" }, { "vd", "virtio" }, { "dm-", "device-mapper" },
		{ "md", "md" }, { "mmcblk", "mmc" }, { "nbd", "nbd" },
		{ "ram", "ram" }, { "pmem", "pmem" },
	};
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (!strncmp(name, map[i].prefix, strlen(map[i].prefix))) {
			str_copy(out, len, map[i].transport);
			return;
		}
	snprintf(out, len, "block");
}

/* The nearest ancestor directory of `dir` that is a PCI function with a
   link (NVMe drives and SATA controllers sit below one). */
static void find_pcie_link(const char *dir, struct pcie_link *l)
{
	char path[PATH_MAX], buf[64];
	str_copy(path, sizeof path, dir);
	memset(l, 0, sizeof *l);
	for (char *slash; (slash = strrchr(path, '/')) && slash != path;
	     *slash = '\0') {
		if (sysfs_read(path, "current_link_speed", buf, sizeof buf))
			continue;
		/* Conventional PCI functions and root ports without a link
		   report "Unknown": keep looking above is pointless, so stop. */
		if (!strncmp(buf, "Unknown", 7))
			return;
		l->present = true;
		str_copy(l->speed, sizeof l->speed, buf);
		str_copy(l->address, sizeof l->address, strrchr(path, '/') + 1);
		sysfs_read(path, "max_link_speed", l->max_speed,
			   sizeof l->max_speed);
		l->width = (unsigned)read_u64(path, "current_link_width", 0);
		l->max_width = (unsigned)read_u64(path, "max_link_width", 0);
		return;
	}
}

/* A temp1_input in `dir`'s hwmonN subdirectories, if any. */
static bool hwmon_in(const char *dir, char *out, size_t len)
{
	DIR *d = opendir(dir);
	bool found = false;
	if (!d)
		return false;
	for (struct dirent *de; !found && (de = readdir(d)) != NULL;) {
		char cand[PATH_MAX + 300];
		struct stat st;
		if (strncmp(de->d_name, "hwmon", 5) || !de->d_name[5])
			continue;
		snprintf(cand, sizeof cand, "%s/%s/temp1_input", dir,
			 de->d_name);
		if (stat(cand, &st) == 0 && strlen(cand) < len) {
			str_copy(out, len, cand);
			found = true;
		}
	}
	closedir(d);
	return found;
}

/*
 * hwmon publishes temperatures in millidegrees (NVMe since Linux 5.5,
 * drivetemp for SATA).  Below a class device such as nvme0 the hwmonN
 * directory sits directly in it; below a bus device (a SCSI disk) sysfs
 * groups it in a "hwmon" directory.
 */
static void find_hwmon(const char *disk, const char *ctrl, char *out,
		       size_t len)
{
	char dir[PATH_MAX + 32];
	const char *bases[] = { disk, ctrl };
	out[0] = '\0';
	for (size_t b = 0; b < 2; b++) {
		if (!bases[b] || !bases[b][0])
			continue;
		const char *subs[] = { "device", "device/hwmon", "", "hwmon" };
		for (size_t i = 0; i < 4; i++) {
			snprintf(dir, sizeof dir, "%s/%s", bases[b], subs[i]);
			if (hwmon_in(dir, out, len))
				return;
		}
	}
}

/*
 * The NVMe controller directory for a namespace named nvme<N>n<M>: with
 * native multipath the namespace hangs below a virtual subsystem device,
 * and the PCI function and hwmon are only reachable from the controller.
 * Best effort: the subsystem and controller numbers usually agree.
 */
static void nvme_ctrl_dir(const char *disk_name, char *out, size_t len)
{
	unsigned n;
	out[0] = '\0';
	if (sscanf(disk_name, "nvme%un", &n) != 1)
		return;
	char link[64];
	snprintf(link, sizeof link, "/sys/class/nvme/nvme%u", n);
	char real[PATH_MAX];
	if (realpath(link, real))
		str_copy(out, len, real);
}

int sysfs_block_facts(dev_t rdev, struct block_facts *f, struct sb_err *e)
{
	char link[64], dir[PATH_MAX], disk[PATH_MAX], buf[256];
	memset(f, 0, sizeof *f);
	f->major = major(rdev);
	f->minor = minor(rdev);
	snprintf(link, sizeof link, "/sys/dev/block/%u:%u", f->major, f->minor);
	if (!realpath(link, dir))
		return sb_errno(e, errno, "no sysfs entry %s for the device",
				link);
	str_copy(f->name, sizeof f->name, strrchr(dir, '/') + 1);

	/* A partition's queue and driver attributes live in its disk's
	   directory, one level up. */
	str_copy(disk, sizeof disk, dir);
	f->partition = sysfs_read(dir, "partition", buf, sizeof buf) == 0;
	if (f->partition)
		*strrchr(disk, '/') = '\0';
	str_copy(f->disk, sizeof f->disk, strrchr(disk, '/') + 1);
	transport_from_name(f->disk, f->transport, sizeof f->transport);

	/* `size` counts 512-byte sectors whatever the logical block size. */
	f->size_bytes = read_u64(dir, "size", 0) * 512;
	f->read_only = read_flag(dir, "ro") == 1;
	f->logical_block_size = (uint32_t)read_u64(disk, "queue/logical_block_size", 512);
	f->physical_block_size = (uint32_t)read_u64(disk, "queue/physical_block_size",
					  f->logical_block_size);
	f->min_io_size = (uint32_t)read_u64(disk, "queue/minimum_io_size", 0);
	f->optimal_io_size = (uint32_t)read_u64(disk, "queue/optimal_io_size", 0);
	f->rotational = read_flag(disk, "queue/rotational");
	f->discard_max_bytes = read_u64(disk, "queue/discard_max_bytes", 0);
	f->discard_granularity = read_u64(disk, "queue/discard_granularity", 0);
	f->write_zeroes_max_bytes = read_u64(disk, "queue/write_zeroes_max_bytes", 0);
	f->io_poll = read_flag(disk, "queue/io_poll");
	if (sysfs_read(disk, "queue/scheduler", buf, sizeof buf) == 0)
		active_scheduler(buf, f->scheduler, sizeof f->scheduler);
	sysfs_read(disk, "queue/write_cache", f->write_cache,
		   sizeof f->write_cache);

	/* NVMe puts model/serial/firmware_rev on the controller (device),
	   SCSI model/vendor/rev on the device; others publish nothing. */
	sysfs_read(disk, "device/model", f->model, sizeof f->model);
	sysfs_read(disk, "device/vendor", f->vendor, sizeof f->vendor);
	sysfs_read(disk, "device/serial", f->serial, sizeof f->serial);
	if (sysfs_read(disk, "device/firmware_rev", f->firmware,
		       sizeof f->firmware))
		sysfs_read(disk, "device/rev", f->firmware, sizeof f->firmware);
	sysfs_read(disk, "loop/backing_file", f->backing_file,
		   sizeof f->backing_file);
	char ctrl[PATH_MAX];
	nvme_ctrl_dir(f->disk, ctrl, sizeof ctrl);
	find_pcie_link(disk, &f->pcie);
	if (!f->pcie.present && ctrl[0])
		find_pcie_link(ctrl, &f->pcie);
	find_hwmon(disk, ctrl, f->hwmon_temp, sizeof f->hwmon_temp);
	return 0;
}
