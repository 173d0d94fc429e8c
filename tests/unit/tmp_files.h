/*
 * Files a unit test writes: all in one temporary directory, made on first
 * use and removed by tmp_files_remove() (the test's last TEST).
 */
#ifndef SSDBENCH_TESTS_TMP_FILES_H
#define SSDBENCH_TESTS_TMP_FILES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static char tmp_files_dir[64];

/* The path of `name` in the directory; valid until the next call. */
static inline const char *tmp_path(const char *name)
{
	static char path[128];
	if (!tmp_files_dir[0]) {
		snprintf(tmp_files_dir, sizeof tmp_files_dir, "/tmp/ssdbench-unit.XXXXXX");
		if (!mkdtemp(tmp_files_dir))
			CHECK_FAIL("mkdtemp");
	}
	snprintf(path, sizeof path, "%s/%s", tmp_files_dir, name);
	return path;
}

static inline void tmp_files_remove(void)
{
	char cmd[128];
	if (tmp_files_dir[0]) {
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp_files_dir);
		CHECK(system(cmd) == 0);
	}
}

#endif
