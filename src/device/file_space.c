#include "device/file_space.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "common/units.h"

int file_space_check(const char *path, uint64_t size, struct sb_err *e)
{
	struct stat st;
	uint64_t allocated = 0;
	char where[PATH_MAX];
	if (!stat(path, &st)) {
		allocated = (uint64_t)st.st_blocks * 512;
		snprintf(where, sizeof where, "%s", path);
	} else if (errno == ENOENT) {
		/* Not created yet: the filesystem of the directory it goes in. */
		char copy[PATH_MAX];
		snprintf(copy, sizeof copy, "%s", path);
		snprintf(where, sizeof where, "%s", dirname(copy));
	} else {
		return sb_errno(e, errno, "%s: cannot look at it", path);
	}
	if (size <= allocated)
		return 0;
	struct statvfs fs;
	if (statvfs(where, &fs))
		return sb_errno(e, errno, "%s: cannot ask its filesystem for the free space", path);
	/* ramfs and the like count no blocks at all: nothing to go by. */
	if (fs.f_blocks == 0)
		return 0;
	/* Root may use the blocks a filesystem reserves (ext4's 5 %); others not. */
	uint64_t blocks = geteuid() == 0 ? fs.f_bfree : fs.f_bavail;
	uint64_t avail = blocks * (uint64_t)fs.f_frsize;
	uint64_t need = size - allocated;
	if (need <= avail)
		return 0;
	char sz[32], nd[32], av[32];
	fmt_bytes(size, sz, sizeof sz);
	fmt_bytes(need, nd, sizeof nd);
	fmt_bytes(avail, av, sizeof av);
	if (allocated)
		return sb_errf(e, "%s: a %s file needs %s more than it holds, but its "
			       "filesystem has only %s free; give a smaller --size or free space",
			       path, sz, nd, av);
	return sb_errf(e, "%s: a %s file does not fit: its filesystem has only %s free; "
		       "give a smaller --size or free space", path, sz, av);
}
