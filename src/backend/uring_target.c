/*
 * The io_uring backend's target: opening a file or block device with
 * O_DIRECT, learning its size and block sizes, and the clock.  The clock
 * is CLOCK_MONOTONIC (vDSO, ~30 ns here) and an idle is a plain sleep.
 */
#include "backend/uring_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "device/file_space.h"

/* A number from sysfs for the device dev (whole disk or partition). */
static int sysfs_dev_u64(dev_t dev, const char *attr, uint64_t *out)
{
	char path[256];
	/* A partition has no queue/ of its own: its parent disk's applies. */
	const char *forms[] = { "/sys/dev/block/%u:%u/%s", "/sys/dev/block/%u:%u/../%s" };
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof path, forms[i], major(dev), minor(dev), attr);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		unsigned long long v;
		int ok = fscanf(f, "%llu", &v) == 1;
		fclose(f);
		if (ok) {
			*out = v;
			return 0;
		}
	}
	return -1;
}

static int block_facts(int fd, dev_t rdev, struct target_facts *f,
		       struct sb_err *e)
{
	uint64_t size;
	int lbs = 0;
	unsigned int pbs = 0;
	if (ioctl(fd, BLKGETSIZE64, &size))
		return sb_errno(e, errno, "%s: cannot read the device size", f->path);
	if (ioctl(fd, BLKSSZGET, &lbs) || lbs <= 0)
		return sb_errno(e, errno, "%s: cannot read the logical block size", f->path);
	if (ioctl(fd, BLKPBSZGET, &pbs) || pbs == 0)
		pbs = (unsigned)lbs;
	uint64_t v = 0;
	f->size = size;
	f->logical_block = (uint32_t)lbs;
	f->physical_block = pbs;
	f->is_block_device = true;
	f->rotational = !sysfs_dev_u64(rdev, "queue/rotational", &v) && v;
	v = 0;
	f->discard = !sysfs_dev_u64(rdev, "queue/discard_max_bytes", &v) && v > 0;
	v = 1;
	f->cannot_poll = !sysfs_dev_u64(rdev, "queue/io_poll", &v) && v == 0;
	snprintf(f->kind, sizeof f->kind, "block");
	return 0;
}

static void file_facts(int fd, const struct stat *st, struct target_facts *f)
{
	struct statx sx;
	uint32_t lbs = 0;
	/* The kernel knows the direct-I/O alignment of a file (6.1+). */
	if (!statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) &&
	    (sx.stx_mask & STATX_DIOALIGN) && sx.stx_dio_offset_align)
		lbs = sx.stx_dio_offset_align;
	uint64_t v;
	if (!lbs && !sysfs_dev_u64(st->st_dev, "queue/logical_block_size", &v))
		lbs = (uint32_t)v;
	if (!lbs)
		lbs = 4096;	/* safe for every filesystem we know */
	f->size = (uint64_t)st->st_size;
	f->logical_block = lbs;
	f->physical_block = (uint32_t)st->st_blksize > lbs ? (uint32_t)st->st_blksize : lbs;
	f->is_file = true;
	f->rotational = !sysfs_dev_u64(st->st_dev, "queue/rotational", &v) && v;
	f->discard = true;	/* a punched hole */
	snprintf(f->kind, sizeof f->kind, "file");
}

static int open_file(const char *path, const struct open_opts *o, int *fd,
		     struct sb_err *e)
{
	int flags = (o->write ? O_RDWR : O_RDONLY) | O_DIRECT | O_CLOEXEC;
	if (o->create_size)
		flags |= O_CREAT;
	bool existed = access(path, F_OK) == 0;
	*fd = open(path, flags, 0644);
	if (*fd >= 0) {
		/* One writer per file, as O_EXCL gives one per block device:
		   two runs writing one file would measure each other. */
		if (o->write && flock(*fd, LOCK_EX | LOCK_NB)) {
			int err = errno;
			close(*fd);
			*fd = -1;
			if (err == EWOULDBLOCK)
				return sb_errf(e, "%s: the file is in use by another "
					       "ssdbench run writing to it", path);
			return sb_errno(e, err, "%s: cannot lock it", path);
		}
		return 0;
	}
	int err = errno;
	if (err == EINVAL) {
		/* open(2) says EINVAL with O_DIRECT: the filesystem has no direct I/O. */
		int probe = open(path, flags & ~O_DIRECT, 0644);
		if (probe >= 0) {
			close(probe);
			if (!existed)
				unlink(path);	/* the failed open created it */
			return sb_errf(e, "%s: the filesystem does not support O_DIRECT "
				       "(direct I/O is needed to measure the device, not the page cache)",
				       path);
		}
	}
	if (err == EACCES || err == EPERM)
		return sb_errno(e, err, "%s: no permission to open it %s", path,
				o->write ? "for writing" : "for reading");
	if (err == EROFS)
		return sb_errno(e, err, "%s: read-only filesystem, cannot write", path);
	if (err == ENOENT && !o->create_size)
		return sb_errno(e, err, "%s: no such file (give --size to create it)", path);
	return sb_errno(e, err, "%s: cannot open", path);
}

static int open_block(const char *path, const struct open_opts *o, int *fd,
		      struct sb_err *e)
{
	/* O_EXCL on a block device: fails if it is mounted or claimed. */
	int flags = (o->write ? O_RDWR : O_RDONLY) | O_DIRECT | O_EXCL | O_CLOEXEC;
	*fd = open(path, flags);
	if (*fd >= 0)
		return 0;
	int err = errno;
	if (err == EBUSY)
		return sb_errf(e, "%s: the device is in use (mounted, or opened "
			       "exclusively by another process)", path);
	if (err == EROFS)
		return sb_errf(e, "%s: the device is read-only, cannot write to it", path);
	if (err == EACCES || err == EPERM)
		return sb_errno(e, err, "%s: no permission to open the device %s",
				path, o->write ? "for writing" : "for reading");
	return sb_errno(e, err, "%s: cannot open the device", path);
}

int uring_open(const char *spec, const struct open_opts *o,
	       struct backend_target **out, struct target_facts *facts,
	       struct sb_err *e)
{
	struct stat st;
	int fd = -1;
	bool exists = !stat(spec, &st);
	if (!exists && errno != ENOENT)
		return sb_errno(e, errno, "%s: cannot look at it", spec);
	if (exists && S_ISDIR(st.st_mode))
		return sb_errf(e, "%s: is a directory, not a file or block device", spec);
	bool is_block = exists && S_ISBLK(st.st_mode);
	if (exists && !is_block && !S_ISREG(st.st_mode))
		return sb_errf(e, "%s: neither a regular file nor a block device", spec);

	struct backend_target *t = calloc(1, sizeof *t);
	if (!t)
		return sb_errf(e, "out of memory");
	t->fd = -1;
	t->write = o->write;
	snprintf(t->facts.path, sizeof t->facts.path, "%s", spec);
	if (strlen(spec) >= sizeof t->facts.path) {
		free(t);
		return sb_errf(e, "%.64s...: path too long", spec);
	}
	/* A file grown to --size must fit before it is created or extended. */
	if (!is_block && o->create_size &&
	    file_space_check(spec, exists && (uint64_t)st.st_size > o->create_size
				   ? (uint64_t)st.st_size : o->create_size, e))
		goto fail;
	if (is_block ? open_block(spec, o, &fd, e) : open_file(spec, o, &fd, e))
		goto fail;
	t->fd = fd;
	if (fstat(fd, &st)) {
		sb_errno(e, errno, "%s: fstat", spec);
		goto fail;
	}
	if (is_block) {
		if (block_facts(fd, st.st_rdev, &t->facts, e))
			goto fail;
	} else {
		if (o->create_size && (uint64_t)st.st_size < o->create_size) {
			if (!o->write) {
				sb_errf(e, "%s: smaller than --size and opened read-only", spec);
				goto fail;
			}
			if (ftruncate(fd, (off_t)o->create_size)) {
				sb_errno(e, errno, "%s: cannot extend to %llu bytes", spec,
					 (unsigned long long)o->create_size);
				goto fail;
			}
			if (fstat(fd, &st)) {
				sb_errno(e, errno, "%s: fstat", spec);
				goto fail;
			}
		}
		file_facts(fd, &st, &t->facts);
	}
	*facts = t->facts;
	*out = t;
	return 0;
fail:
	if (t->fd >= 0)
		close(t->fd);
	free(t);
	return -1;
}

void uring_close(struct backend_target *t)
{
	if (!t)
		return;
	if (t->fd >= 0)
		close(t->fd);
	free(t);
}

uint64_t uring_now(struct backend_target *t)
{
	(void)t;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void uring_idle(struct backend_target *t, uint64_t dt_ns)
{
	uint64_t until = uring_now(t) + dt_ns;
	struct timespec ts = { (time_t)(until / 1000000000ull), (long)(until % 1000000000ull) };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static int trim_sync(int fd, bool is_block, uint64_t off, uint64_t len)
{
	if (is_block) {
		uint64_t range[2] = { off, len };
		return ioctl(fd, BLKDISCARD, range) ? -errno : 0;
	}
	return fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off,
			 (off_t)len) ? -errno : 0;
}

int uring_discard(struct backend_target *t, uint64_t off, uint64_t len,
		  struct sb_err *e)
{
	int r = trim_sync(t->fd, t->facts.is_block_device, off, len);
	if (r)
		return sb_errno(e, -r, "%s: discard of %llu bytes at %llu", t->facts.path,
				(unsigned long long)len, (unsigned long long)off);
	return 0;
}

int uring_flush(struct backend_target *t, struct sb_err *e)
{
	if (fsync(t->fd))
		return sb_errno(e, errno, "%s: flush", t->facts.path);
	return 0;
}
