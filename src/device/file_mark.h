/*
 * Files ssdbench created itself.  A file target that must be written
 * before it is read (new, growing, or with holes) is filled with data,
 * which destroys whatever it held: that is done without asking only for a
 * file ssdbench made.  The mark is an extended attribute on the file, so
 * it goes with the file; where the file system keeps no user attributes,
 * no file is recognised and --destroy-data is asked for.
 */
#ifndef SSDBENCH_DEVICE_FILE_MARK_H
#define SSDBENCH_DEVICE_FILE_MARK_H

#include <stdbool.h>

/* Mark a file this process just created; false if the mark cannot be kept. */
bool file_mark_ours(const char *path);
bool file_is_ours(const char *path);

#endif
