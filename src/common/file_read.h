/*
 * Reading a whole input file (a plan, a profile, a job file, a datasheet,
 * fio's JSON or log) with a size limit.  Devices, directories and sockets
 * are refused by name before anything is read: `/dev/zero` as an input
 * would otherwise grow memory until the kernel kills the process.  Pipes
 * are read, up to the limit.
 */
#ifndef SSDBENCH_COMMON_FILE_READ_H
#define SSDBENCH_COMMON_FILE_READ_H

#include <stddef.h>
#include <sys/types.h>

#include "common/error.h"

/* Limits for the inputs read whole. */
#define FILE_LIMIT_INI   (1u << 20)		/* 1 MiB: plan, profile, job file */
#define FILE_LIMIT_JSON  (256u << 20)		/* 256 MiB: fio --output-format=json */
#define FILE_LIMIT_LOG   (2048ull << 20)	/* 2 GiB: a fio log from a pipe (a file
					   is streamed, of any length) */

/*
 * The file at `path` as NUL-terminated text in *text (the caller frees it)
 * and its length in *len (may be NULL).  `what` names the file in messages
 * ("plan file", "fio log").  Refuses a file larger than `max` bytes (saying
 * the limit), one that holds a NUL byte (not text), and anything that is
 * not a regular file or a pipe.
 */
/* Why a file of this type is not read ("a directory", "a character
   device", ...), or NULL for a regular file or a pipe. */
const char *file_read_refusal(mode_t m);

int file_read_text(const char *path, const char *what, size_t max,
		   char **text, size_t *len, struct sb_err *e);

#endif
