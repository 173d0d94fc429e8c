/*
 * Errors travel up as a message with context; only the CLI decides to exit.
 *
 * Convention everywhere in ssdbench: a function that can fail returns 0 on
 * success and -1 on failure, after writing a human sentence into the caller's
 * struct sb_err.  Callers that add meaning wrap it ("fill pass 2: ...").
 */
#ifndef SSDBENCH_COMMON_ERROR_H
#define SSDBENCH_COMMON_ERROR_H

#include <stddef.h>

struct sb_err {
	int errnum;		/* errno of the root cause, 0 if none */
	char msg[1024];
};

/* Set the message; always returns -1 so callers can `return sb_errf(...)`. */
int sb_errf(struct sb_err *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Like sb_errf, then appends ": strerror(errnum)" and records errnum. */
int sb_errno(struct sb_err *e, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Prefix context to an existing message: "ctx: old message". Returns -1. */
int sb_err_wrap(struct sb_err *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void sb_err_clear(struct sb_err *e);

#endif
