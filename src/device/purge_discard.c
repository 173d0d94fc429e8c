/*
 * The weakest purge: tell the device every block is unused.  An SSD's FTL
 * then holds no valid data, which is what fresh-out-of-box means for
 * performance, but whether discarded blocks read back as zeros is up to
 * the device (ATA "RZAT", NVMe DLFEAT).  Done in 1 GiB steps so a large
 * device shows progress and the timeout is honoured.
 */
#include "device/purge_impl.h"

#include <errno.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <linux/fs.h>

#define DISCARD_STEP (1ull << 30)

int purge_discard(int fd, const struct device_facts *f,
		  const struct purge_request *r, uint64_t timeout_ns,
		  struct purge_result *res, struct sb_err *e)
{
	uint64_t size = f->block.size_bytes, start = purge_now_ns();
	uint64_t last_report = start;
	for (uint64_t off = 0; off < size; off += DISCARD_STEP) {
		uint64_t range[2] = { off, size - off < DISCARD_STEP
					   ? size - off : DISCARD_STEP };
		if (ioctl(fd, BLKDISCARD, range)) {
			int err = errno;
			if (err == EOPNOTSUPP)
				return sb_errno(e, err, "the device does not "
						"support discard");
			return sb_errno(e, err, "discard of %llu bytes at "
					"offset %llu",
					(unsigned long long)range[1],
					(unsigned long long)off);
		}
		uint64_t now = purge_now_ns();
		if (now - start > timeout_ns)
			return sb_errf(e, "discard timed out after %llu of %llu "
				       "bytes", (unsigned long long)(off + range[1]),
				       (unsigned long long)size);
		if (r->progress && now - last_report >= 1000000000ull) {
			r->progress(r->ctx, "discard",
				    (double)(off + range[1]) / (double)size);
			last_report = now;
		}
	}
	snprintf(res->detail, sizeof res->detail,
		 "discard (BLKDISCARD) of all %llu bytes; whether the blocks "
		 "now read as zeros depends on the device",
		 (unsigned long long)size);
	return 0;
}
