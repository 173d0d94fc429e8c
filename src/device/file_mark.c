#include "device/file_mark.h"

#include <sys/xattr.h>

#define MARK_NAME "user.ssdbench.created"

bool file_mark_ours(const char *path)
{
	return setxattr(path, MARK_NAME, "1", 1, 0) == 0;
}

bool file_is_ours(const char *path)
{
	char v[4];
	return getxattr(path, MARK_NAME, v, sizeof v) == 1 && v[0] == '1';
}
