#include "engine/iolog.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define IOLOG_BUF (256u << 10)
#define IOLOG_LINE_MAX 160u

struct iolog {
	int fd;
	int err;		/* first write errno */
	size_t used;
	char buf[IOLOG_BUF];
};

static void flush_buf(struct iolog *l)
{
	size_t off = 0;
	while (off < l->used && !l->err) {
		ssize_t n = write(l->fd, l->buf + off, l->used - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			l->err = n < 0 ? errno : EIO;
		else
			off += (size_t)n;
	}
	l->used = 0;
}

int iolog_create(const char *path, struct sb_err *e)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return sb_errno(e, errno, "iolog %s", path);
	ssize_t want = (ssize_t)strlen(IOLOG_HEADER);
	ssize_t n = write(fd, IOLOG_HEADER, (size_t)want);
	int err = errno;
	close(fd);
	if (n != want)
		return sb_errno(e, n < 0 ? err : EIO, "iolog %s", path);
	return 0;
}

int iolog_open(const char *path, struct iolog **out, struct sb_err *e)
{
	struct iolog *l = malloc(sizeof *l);
	if (!l)
		return sb_errf(e, "out of memory");
	l->fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (l->fd < 0) {
		free(l);
		return sb_errno(e, errno, "iolog %s", path);
	}
	l->err = 0;
	l->used = 0;
	*out = l;
	return 0;
}

void iolog_line(struct iolog *l, uint64_t t_ns, uint32_t workload, uint32_t job,
		char op, uint64_t offset, uint32_t len, uint64_t lat_ns, int32_t res)
{
	if (IOLOG_BUF - l->used < IOLOG_LINE_MAX)
		flush_buf(l);
	int n = snprintf(l->buf + l->used, IOLOG_LINE_MAX,
			 "%" PRIu64 ",%u,%u,%c,%" PRIu64 ",%u,%" PRIu64 ",%d\n",
			 t_ns, workload, job, op, offset, len, lat_ns, res);
	if (n > 0 && (unsigned)n < IOLOG_LINE_MAX)
		l->used += (size_t)n;
}

int iolog_close(struct iolog *l, struct sb_err *e)
{
	if (!l)
		return 0;
	flush_buf(l);
	int err = l->err;
	if (close(l->fd) && !err)
		err = errno;
	free(l);
	if (err)
		return sb_errno(e, err, "iolog write");
	return 0;
}
