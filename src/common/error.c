#include "common/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int sb_errf(struct sb_err *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
	e->errnum = 0;
	return -1;
}

int sb_errno(struct sb_err *e, int errnum, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < sizeof e->msg)
		snprintf(e->msg + n, sizeof e->msg - n, ": %s", strerror(errnum));
	e->errnum = errnum;
	return -1;
}

int sb_err_wrap(struct sb_err *e, const char *fmt, ...)
{
	char prefix[512], old[sizeof e->msg];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof prefix, fmt, ap);
	va_end(ap);
	memcpy(old, e->msg, sizeof old);
	/* Truncation is acceptable: the root cause stays at the front. */
	int n = snprintf(e->msg, sizeof e->msg, "%.500s: ", prefix);
	if (n > 0 && (size_t)n < sizeof e->msg)
		snprintf(e->msg + n, sizeof e->msg - (size_t)n, "%.*s",
			 (int)(sizeof e->msg - (size_t)n - 1), old);
	return -1;
}

void sb_err_clear(struct sb_err *e)
{
	e->errnum = 0;
	e->msg[0] = '\0';
}
