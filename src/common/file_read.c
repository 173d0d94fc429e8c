#include "common/file_read.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/units.h"

const char *file_read_refusal(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	if (S_ISREG(m) || S_ISFIFO(m))
		return NULL;
	return "not a regular file";
}

static int too_large(const char *what, const char *path, size_t max,
		     struct sb_err *e)
{
	char lim[32];
	fmt_bytes((uint64_t)max, lim, sizeof(lim));
	return sb_errf(e, "%s %s is larger than %s, the limit for a %s", what,
		       path, lim, what);
}

int file_read_text(const char *path, const char *what, size_t max,
		   char **text, size_t *len, struct sb_err *e)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return sb_errno(e, errno, "cannot open %s (%s)", path, what);
	struct stat st;
	if (fstat(fd, &st)) {
		int err = errno;
		close(fd);
		return sb_errno(e, err, "%s %s", what, path);
	}
	const char *bad = file_read_refusal(st.st_mode);
	if (bad) {
		close(fd);
		return sb_errf(e, "%s %s is %s, not a file", what, path, bad);
	}
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max) {
		close(fd);
		return too_large(what, path, max, e);
	}
	size_t cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 1 << 16;
	size_t n = 0;
	char *buf = malloc(cap);
	int rc = buf ? 0 : sb_errno(e, ENOMEM, "%s %s", what, path);
	while (!rc) {
		if (n + 1 == cap) {
			if (n >= max + 1) {
				rc = too_large(what, path, max, e);
				break;
			}
			size_t ncap = cap * 2 > max + 2 ? max + 2 : cap * 2;
			char *nb = realloc(buf, ncap);
			if (!nb) {
				rc = sb_errno(e, ENOMEM, "%s %s", what, path);
				break;
			}
			buf = nb;
			cap = ncap;
		}
		ssize_t got = read(fd, buf + n, cap - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			rc = sb_errno(e, errno, "%s %s: read error", what, path);
		else if (got == 0)
			break;
		else
			n += (size_t)got;
	}
	close(fd);
	if (!rc && n > max)
		rc = too_large(what, path, max, e);
	if (!rc && memchr(buf, '\0', n))
		rc = sb_errf(e, "%s %s is not text (it holds a NUL byte)", what,
			     path);
	if (rc) {
		free(buf);
		return -1;
	}
	buf[n] = '\0';
	*text = buf;
	if (len)
		*len = n;
	return 0;
}
