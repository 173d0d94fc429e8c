/*
 * The refusals that protect data.  Everything is read from the kernel's own
 * tables (mountinfo, swaps, sysfs holders and partitions) rather than from
 * tools, and nothing is changed: an exclusive open is tried and closed.
 */
#include "device/safety.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* The sysfs directory of a block device number, canonical. */
static int sysfs_dir(dev_t dev, char *out, size_t len)
{
	char link[64];
	snprintf(link, sizeof link, "/sys/dev/block/%u:%u", major(dev), minor(dev));
	char *real = realpath(link, NULL);
	if (!real)
		return -1;
	snprintf(out, len, "%s", real);
	free(real);
	return 0;
}

static int read_devnum(const char *path, dev_t *out)
{
	FILE *f = fopen(path, "r");
	unsigned ma, mi;
	if (!f)
		return -1;
	int ok = fscanf(f, "%u:%u", &ma, &mi) == 2;
	fclose(f);
	if (!ok)
		return -1;
	*out = makedev(ma, mi);
	return 0;
}

static bool is_partition_dir(const char *dir)
{
	char p[PATH_MAX];
	if (snprintf(p, sizeof p, "%s/partition", dir) >= (int)sizeof p)
		return false;
	return access(p, F_OK) == 0;
}

/* The devices that make up the target: itself and, for a disk, its partitions. */
struct devset {
	dev_t dev[256];
	char name[256][64];
	int n;
};

static void devset_build(dev_t dev, const char *dir, struct devset *s)
{
	s->n = 0;
	s->dev[s->n] = dev;
	snprintf(s->name[s->n], sizeof s->name[0], "%s", strrchr(dir, '/') + 1);
	s->n++;
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d)) && s->n < 256) {
		char sub[PATH_MAX], devf[PATH_MAX + 8];
		if (de->d_name[0] == '.')
			continue;
		if (snprintf(sub, sizeof sub, "%s/%s", dir, de->d_name) >= (int)sizeof sub ||
		    strlen(de->d_name) >= sizeof s->name[0] || !is_partition_dir(sub))
			continue;
		snprintf(devf, sizeof devf, "%s/dev", sub);
		if (!read_devnum(devf, &s->dev[s->n]))
			memcpy(s->name[s->n++], de->d_name, strlen(de->d_name) + 1);
	}
	closedir(d);
}

static int devset_find(const struct devset *s, dev_t dev)
{
	for (int i = 0; i < s->n; i++)
		if (s->dev[i] == dev)
			return i;
	return -1;
}

static int check_mounts(const char *path, const struct devset *s, struct sb_err *e)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	if (!f)
		return sb_errno(e, errno, "%s: cannot read the mount table to check "
				"the device is not in use", path);
	char line[4096];
	int rc = 0;
	while (fgets(line, sizeof line, f)) {
		unsigned id, parent, ma, mi;
		char root[PATH_MAX], mnt[PATH_MAX];
		if (sscanf(line, "%u %u %u:%u %4095s %4095s", &id, &parent, &ma, &mi, root, mnt) != 6)
			continue;
		int k = devset_find(s, makedev(ma, mi));
		if (k < 0)
			continue;
		if (!strcmp(mnt, "/"))
			rc = sb_errf(e, "%s holds the root filesystem (/dev/%s is mounted at /); "
				     "refusing to use it", path, s->name[k]);
		else if (k == 0)
			rc = sb_errf(e, "%s is mounted at %s; unmount it first", path, mnt);
		else
			rc = sb_errf(e, "%s has a mounted partition (/dev/%s at %s); "
				     "unmount it first", path, s->name[k], mnt);
		break;
	}
	fclose(f);
	return rc;
}

/* The root filesystem may sit on a device-mapper or md stack; compare its
   device and that device's disk with ours. */
static int check_root(const char *path, const struct devset *s, struct sb_err *e)
{
	struct stat root;
	if (stat("/", &root))
		return 0;
	char dir[PATH_MAX];
	int k = devset_find(s, root.st_dev);
	if (k >= 0)
		return sb_errf(e, "%s holds the root filesystem; refusing to use it", path);
	/* Root on a partition of our disk is found through mountinfo; here,
	   root's disk as sysfs sees it. */
	if (!sysfs_dir(root.st_dev, dir, sizeof dir) && is_partition_dir(dir)) {
		char devf[PATH_MAX + 8];
		dev_t disk;
		snprintf(devf, sizeof devf, "%s/../dev", dir);
		if (!read_devnum(devf, &disk) && devset_find(s, disk) == 0)
			return sb_errf(e, "%s holds the root filesystem; refusing to use it", path);
	}
	return 0;
}

static int check_holders(const char *path, const char *dir, const struct devset *s,
			 struct sb_err *e)
{
	for (int i = 0; i < s->n; i++) {
		char hdir[PATH_MAX + 80];
		if (i == 0)
			snprintf(hdir, sizeof hdir, "%s/holders", dir);
		else
			snprintf(hdir, sizeof hdir, "%s/%s/holders", dir, s->name[i]);
		DIR *d = opendir(hdir);
		if (!d)
			continue;
		struct dirent *de;
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			int rc = sb_errf(e, "%s is in use: /dev/%s is held by %s (LVM, RAID, "
					 "device-mapper or a similar layer)", path, s->name[i], de->d_name);
			closedir(d);
			return rc;
		}
		closedir(d);
	}
	return 0;
}

static int check_swaps(const char *path, const struct devset *s, struct sb_err *e)
{
	FILE *f = fopen("/proc/swaps", "r");
	if (!f)
		return 0;
	char line[1024], name[PATH_MAX];
	int rc = 0;
	while (!rc && fgets(line, sizeof line, f)) {
		struct stat st;
		if (sscanf(line, "%1023s", name) == 1 && !stat(name, &st) &&
		    S_ISBLK(st.st_mode) && devset_find(s, st.st_rdev) >= 0)
			rc = sb_errf(e, "%s is in use as swap (%s)", path, name);
	}
	fclose(f);
	return rc;
}

static int check_block(const struct safety_request *r, const struct stat *st,
		       struct sb_err *e)
{
	char dir[PATH_MAX];
	struct devset s;
	if (sysfs_dir(st->st_rdev, dir, sizeof dir))
		return sb_errf(e, "%s: cannot find the device in sysfs", r->path);
	devset_build(st->st_rdev, dir, &s);
	if (check_mounts(r->path, &s, e) || check_root(r->path, &s, e) ||
	    check_holders(r->path, dir, &s, e) || check_swaps(r->path, &s, e))
		return -1;

	if (access(r->path, r->write ? R_OK | W_OK : R_OK))
		return sb_errno(e, errno, "%s: no permission to %s the device", r->path,
				r->write ? "write" : "read");
	/* Held exclusively by someone else (a mounted filesystem, a running
	   benchmark, a RAID layer not yet in sysfs): O_EXCL says so. */
	int fd = open(r->path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0 && errno == EBUSY)
		return sb_errf(e, "%s is in use: another process has it open exclusively", r->path);
	if (fd < 0)
		return sb_errno(e, errno, "%s: cannot open", r->path);
	int ro = 0;
	if (ioctl(fd, BLKROGET, &ro))
		ro = 0;
	close(fd);
	if (r->write && ro)
		return sb_errf(e, "%s is a read-only device; cannot write to it", r->path);
	if (r->write && !r->destroy_data)
		return sb_errf(e, "%s is a block device: this workload writes to it and "
			       "destroys its data; pass --destroy-data to confirm", r->path);
	return 0;
}

int safety_check(const struct safety_request *r, struct sb_err *e)
{
	struct stat st;
	if (!r->path || !*r->path)
		return sb_errf(e, "no target given");
	if (stat(r->path, &st)) {
		if (errno == ENOENT)
			return 0;	/* a file to be created */
		return sb_errno(e, errno, "%s", r->path);
	}
	if (S_ISBLK(st.st_mode))
		return check_block(r, &st, e);
	if (S_ISDIR(st.st_mode))
		return sb_errf(e, "%s is a directory, not a file or block device", r->path);
	if (!S_ISREG(st.st_mode))
		return sb_errf(e, "%s is neither a regular file nor a block device", r->path);
	if (access(r->path, r->write ? R_OK | W_OK : R_OK))
		return sb_errno(e, errno, "%s: no permission to %s it", r->path,
				r->write ? "write" : "read");
	return 0;
}
