/*
 * Whether a file target fits in its filesystem before anything is written:
 * a file is created sparse at its --size and filled by the run, so a size
 * beyond the free space would otherwise fail with ENOSPC halfway.
 */
#ifndef SSDBENCH_DEVICE_FILE_SPACE_H
#define SSDBENCH_DEVICE_FILE_SPACE_H

#include <stdint.h>

#include "common/error.h"

/*
 * 0 when the file at `path` (which may not exist yet) can hold `size`
 * bytes: what it lacks (size minus the blocks already allocated to it) is
 * at most the free space of the filesystem it is or will be on.  -1 with a
 * message naming both sizes otherwise, or when the filesystem cannot be
 * asked.  A filesystem that counts no blocks (ramfs) is not checked.
 */
int file_space_check(const char *path, uint64_t size, struct sb_err *e);

#endif
