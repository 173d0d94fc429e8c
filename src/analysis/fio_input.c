#include "analysis/fio_input.h"

#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


/* One unsigned field followed by a comma, end of line or end of text. */
static int read_field(const char **p, const char *end, uint64_t *out)
{
	const char *s = *p;
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	if (s >= end || *s < '0' || *s > '9')
		return -1;
	uint64_t v = 0;
	while (s < end && *s >= '0' && *s <= '9') {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s++ - '0');
	}
	/* fio prints some values with decimals in newer versions: drop them */
	if (s < end && *s == '.')
		while (++s < end && *s >= '0' && *s <= '9')
			;
	while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++;
	if (s < end && *s == ',')
		s++;
	*p = s;
	*out = v;
	return 0;
}

int fio_log_parse(const char *text, size_t len, struct fio_log_entry **out,
		  size_t *n, struct sb_err *e)
{
	*out = NULL;
	*n = 0;
	size_t cap = 1024, k = 0, line = 0;
	struct fio_log_entry *l = malloc(cap * sizeof *l);
	if (!l)
		return sb_errno(e, ENOMEM, "fio log");
	const char *s = text, *end = text + len;
	while (s < end) {
		const char *eol = memchr(s, '\n', (size_t)(end - s));
		if (!eol)
			eol = end;
		line++;
		const char *q = s;
		while (q < eol && (*q == ' ' || *q == '\t' || *q == '\r'))
			q++;
		if (q < eol) {
			uint64_t f[5];
			for (int i = 0; i < 5; i++) {
				if (read_field(&q, eol, &f[i])) {
					free(l);
					return sb_errf(e, "line %zu: not a fio log line "
						       "(time_ms, value, direction, bs, offset)",
						       line);
				}
			}
			if (f[2] > 2) {
				free(l);
				return sb_errf(e, "line %zu: direction %llu is not 0, 1 or 2",
					       line, (unsigned long long)f[2]);
			}
			if (k == cap) {
				struct fio_log_entry *more = realloc(l, 2 * cap * sizeof *l);
				if (!more) {
					free(l);
					return sb_errno(e, ENOMEM, "fio log");
				}
				l = more;
				cap *= 2;
			}
			l[k++] = (struct fio_log_entry){ f[0], f[1], (unsigned)f[2], f[3], f[4] };
		}
		s = eol + 1;
	}
	if (k == 0) {
		free(l);
		return sb_errf(e, "no samples in the log");
	}
	*out = l;
	*n = k;
	return 0;
}

unsigned fio_log_main_dir(const struct fio_log_entry *l, size_t n)
{
	size_t count[3] = { 0, 0, 0 };
	for (size_t i = 0; i < n; i++)
		count[l[i].dir]++;
	unsigned best = 0;
	for (unsigned d = 1; d < 3; d++)
		if (count[d] > count[best])
			best = d;
	return best;
}

bool fio_log_is_per_io(const struct fio_log_entry *l, size_t n)
{
	if (n == 0)
		return false;
	bool repeats = false;
	for (size_t i = 0; i < n; i++) {
		if (l[i].bs == 0)
			return false;
		if (i && l[i].t_ms == l[i - 1].t_ms && l[i].dir == l[i - 1].dir)
			repeats = true;
	}
	return repeats || l[n - 1].t_ms < 5 * n;
}

static const char *dir_name(unsigned dir)
{
	return dir == 0 ? "read" : dir == 1 ? "write" : "trim";
}

/* Per-I/O entries binned into slices of slice_ms. */
static int bin_per_io(const struct fio_log_entry *l, size_t n, unsigned dir,
		      unsigned slice_ms, struct trace_pt **out, size_t *nout,
		      struct sb_err *e)
{
	uint64_t last = 0;
	for (size_t i = 0; i < n; i++)
		if (l[i].dir == dir && l[i].t_ms > last)
			last = l[i].t_ms;
	size_t ns = (size_t)(last / slice_ms) + 1;
	struct trace_pt *t = calloc(ns, sizeof *t);
	if (!t)
		return sb_errno(e, ENOMEM, "fio log: %zu slices", ns);
	for (size_t k = 0; k < ns; k++)
		t[k].ns = (uint64_t)slice_ms * 1000000;
	/* the last slice lasts until the last completion's millisecond ends */
	t[ns - 1].ns = (last + 1 - (uint64_t)(ns - 1) * slice_ms) * 1000000;
	for (size_t i = 0; i < n; i++) {
		if (l[i].dir != dir)
			continue;
		struct trace_pt *p = &t[l[i].t_ms / slice_ms];
		p->bytes += l[i].bs;
		p->ios++;
	}
	*out = t;
	*nout = ns;
	return 0;
}

int fio_log_to_trace(const struct fio_log_entry *l, size_t n,
		     enum fio_log_kind kind, unsigned dir, unsigned slice_ms,
		     struct trace_pt **out, size_t *nout, struct sb_err *e)
{
	*out = NULL;
	*nout = 0;
	if (kind == FIO_LOG_LAT)
		return sb_errf(e, "a latency log is not a bandwidth or IOPS trace");
	size_t have = 0;
	for (size_t i = 0; i < n; i++)
		have += l[i].dir == dir;
	if (have == 0)
		return sb_errf(e, "no %s samples in the log", dir_name(dir));
	if (fio_log_is_per_io(l, n)) {
		if (slice_ms == 0)
			return sb_errf(e, "per-I/O log: the slice length must be positive");
		return bin_per_io(l, n, dir, slice_ms, out, nout, e);
	}
	struct trace_pt *t = malloc(have * sizeof *t);
	if (!t)
		return sb_errno(e, ENOMEM, "fio log");
	size_t k = 0;
	uint64_t prev = 0;
	for (size_t i = 0; i < n; i++) {
		if (l[i].dir != dir)
			continue;
		if (l[i].t_ms < prev) {
			free(t);
			return sb_errf(e, "entry %zu: time goes back (%llu ms after %llu ms)",
				       i + 1, (unsigned long long)l[i].t_ms,
				       (unsigned long long)prev);
		}
		uint64_t dt = l[i].t_ms - prev;
		if (dt == 0)
			continue;
		prev = l[i].t_ms;
		struct trace_pt *p = &t[k++];
		p->ns = dt * 1000000;
		if (kind == FIO_LOG_BW) {
			p->bytes = (uint64_t)llround((double)l[i].value * 1024.0 *
						     (double)dt / 1000.0);
			p->ios = l[i].bs ? p->bytes / l[i].bs : 0;
		} else {
			p->ios = (uint64_t)llround((double)l[i].value * (double)dt / 1000.0);
			p->bytes = p->ios * l[i].bs;
		}
	}
	if (k == 0) {
		free(t);
		return sb_errf(e, "the %s entries of the log all share one time",
			       dir_name(dir));
	}
	*out = t;
	*nout = k;
	return 0;
}
