/*
 * Shared by the libFuzzer harnesses: the input as a NUL-terminated string
 * (the parsers take text), and as a temporary file (the readers that take
 * a path).  Each harness checks only that its parser returns, with an
 * error or a result, without a sanitizer report; what the result is, the
 * unit tests check.
 */
#ifndef SSDBENCH_FUZZ_COMMON_H
#define SSDBENCH_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input up to its first NUL, as text; NULL when out of memory. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *t = malloc(size + 1);
	if (t) {
		memcpy(t, data, size);
		t[size] = '\0';
	}
	return t;
}

/* The input written to a new temporary file; its path in `path`. */
static inline int fuzz_file(const uint8_t *data, size_t size, char path[64])
{
	snprintf(path, 64, "/tmp/ssdbench-fuzz-XXXXXX");
	int fd = mkstemp(path);
	if (fd < 0)
		return -1;
	size_t off = 0;
	while (off < size) {
		ssize_t w = write(fd, data + off, size - off);
		if (w <= 0) {
			close(fd);
			unlink(path);
			return -1;
		}
		off += (size_t)w;
	}
	close(fd);
	return 0;
}

#endif
