/* fio's bandwidth and IOPS logs, as fio wrote them in every version. */
#include "analysis/fio_input.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOG_FORMATS "accepted: \"time, value, direction, bs\" (fio < 3.18), " \
	"with \", offset\" (log_offset=1) and/or \", priority\" (fio 3.18 and later)"

/* A histogram log line has time, direction, bs and then its bins. */
#define HIST_MIN_FIELDS 8

/*
 * One field followed by a comma, end of line or end of text: an unsigned
 * integer (newer fio prints some with decimals: dropped) or, for the
 * priority of log_prio=1, hex.  Returns -1 when there is none.
 */
static int read_field(const char **p, const char *end, uint64_t *out)
{
	const char *s = *p;
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	if (s >= end || *s < '0' || *s > '9')
		return -1;
	uint64_t v = 0;
	if (end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		char *q;
		errno = 0;
		v = strtoull(s + 2, &q, 16);
		if (q == s + 2 || errno || q > end)
			return -1;
		s = q;
	} else {
		while (s < end && *s >= '0' && *s <= '9') {
			if (v > (UINT64_MAX - 9) / 10)
				return -1;
			v = v * 10 + (uint64_t)(*s++ - '0');
		}
		if (s < end && *s == '.')
			while (++s < end && *s >= '0' && *s <= '9')
				;
	}
	while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++;
	if (s < end) {
		if (*s != ',')
			return -1;
		s++;
	}
	*p = s;
	*out = v;
	return 0;
}

/* The fields of one line (at most `max`); -1 when one is not a number. */
static int read_line(const char *s, const char *eol, uint64_t *f, int max,
		     int *nf)
{
	int k = 0;
	while (s < eol) {
		uint64_t v;
		if (read_field(&s, eol, &v))
			return -1;
		if (k < max)
			f[k] = v;
		k++;
		while (s < eol && (*s == ' ' || *s == '\t' || *s == '\r'))
			s++;
	}
	*nf = k;
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
		s = eol + 1;
		while (q < eol && (*q == ' ' || *q == '\t' || *q == '\r'))
			q++;
		if (q == eol)
			continue;
		uint64_t f[6];
		int nf;
		int bad = read_line(q, eol, f, 6, &nf);
		if (!bad && nf >= HIST_MIN_FIELDS) {
			free(l);
			return sb_errf(e, "line %zu: %d columns: a histogram log "
				       "(write_hist_log: time, direction, bs, then the "
				       "latency bins), not a bandwidth or IOPS log",
				       line, nf);
		}
		if (bad || nf < 4 || nf > 6) {
			free(l);
			return sb_errf(e, "line %zu: not a fio log line; " LOG_FORMATS,
				       line);
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
		l[k++] = (struct fio_log_entry){ f[0], f[1], (unsigned)f[2], f[3], line };
	}
	if (k == 0) {
		free(l);
		return sb_errf(e, "no samples in the log");
	}
	*out = l;
	*n = k;
	return 0;
}

size_t fio_log_run_end(const struct fio_log_entry *l, size_t n, size_t start)
{
	size_t i = start + 1;
	while (i < n && l[i].t_ms >= l[i - 1].t_ms)
		i++;
	return i < n ? i : n;
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
	return repeats || l[n - 1].t_ms - l[0].t_ms < 5 * n;
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
	uint64_t first = UINT64_MAX, last = 0;
	for (size_t i = 0; i < n; i++)
		if (l[i].dir == dir) {
			if (l[i].t_ms > last)
				last = l[i].t_ms;
			if (l[i].t_ms < first)
				first = l[i].t_ms;
		}
	/* Completions that all carry one time give no duration: a rate
	   from them would be a rate over a made-up millisecond. */
	if (first == last)
		return sb_errf(e, "the %s entries of the log all have the time "
			       "%llu ms: no duration to take rates over",
			       dir_name(dir), (unsigned long long)last);
	if (last / slice_ms >= FIO_LOG_MAX_SLICES)
		return sb_errf(e, "the log's times reach %llu ms, more than %u "
			       "slices of %u ms; give a longer --slice",
			       (unsigned long long)last, FIO_LOG_MAX_SLICES,
			       slice_ms);
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

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The median positive step between entries of `dir`: the window. */
static uint64_t median_step(const struct fio_log_entry *l, size_t n,
			    unsigned dir, uint64_t *steps)
{
	size_t k = 0;
	uint64_t prev = 0;
	bool first = true;
	for (size_t i = 0; i < n; i++) {
		if (l[i].dir != dir)
			continue;
		if (!first && l[i].t_ms > prev)
			steps[k++] = l[i].t_ms - prev;
		prev = l[i].t_ms;
		first = false;
	}
	if (k == 0)
		return 0;
	qsort(steps, k, sizeof *steps, cmp_u64);
	return steps[(k - 1) / 2];
}

/* One entry's slice of `ms` milliseconds. */
static struct trace_pt entry_slice(const struct fio_log_entry *x,
				   enum fio_log_kind kind, uint64_t ms)
{
	struct trace_pt p = { .ns = ms * 1000000 };
	if (kind == FIO_LOG_BW) {
		p.bytes = (uint64_t)llround((double)x->value * 1024.0 *
					    (double)ms / 1000.0);
		p.ios = x->bs ? p.bytes / x->bs : 0;
	} else {
		p.ios = (uint64_t)llround((double)x->value * (double)ms / 1000.0);
		p.bytes = p.ios * x->bs;
	}
	return p;
}

int fio_log_to_trace(const struct fio_log_entry *l, size_t n,
		     enum fio_log_kind kind, unsigned dir, unsigned slice_ms,
		     struct trace_pt **out, size_t *nout,
		     struct fio_trace_info *info, struct sb_err *e)
{
	*out = NULL;
	*nout = 0;
	memset(info, 0, sizeof *info);
	if (kind == FIO_LOG_LAT)
		return sb_errf(e, "a latency log is not a bandwidth or IOPS trace");
	size_t have = 0;
	bool all_bs = true;
	for (size_t i = 0; i < n; i++)
		if (l[i].dir == dir) {
			have++;
			all_bs = all_bs && l[i].bs;
		}
	if (have == 0)
		return sb_errf(e, "no %s samples in the log", dir_name(dir));
	info->has_bytes = kind == FIO_LOG_BW || all_bs;
	info->has_ios = kind == FIO_LOG_IOPS || all_bs;
	if (fio_log_is_per_io(l, n)) {
		if (slice_ms == 0)
			return sb_errf(e, "per-I/O log: the slice length must be positive");
		return bin_per_io(l, n, dir, slice_ms, out, nout, e);
	}
	/* at most one gap slice before each entry */
	struct trace_pt *t = malloc(2 * have * sizeof *t);
	uint64_t *steps = malloc(have * sizeof *steps);
	if (!t || !steps) {
		free(t);
		free(steps);
		return sb_errno(e, ENOMEM, "fio log");
	}
	bool averaged = true;
	for (size_t i = 0; i < n; i++)
		if (l[i].dir == dir && l[i].bs)
			averaged = false;
	uint64_t win = averaged ? median_step(l, n, dir, steps) : 0;
	free(steps);
	info->averaged = averaged;
	info->window_ms = (double)win;
	size_t k = 0;
	uint64_t prev = 0;
	for (size_t i = 0; i < n; i++) {
		if (l[i].dir != dir)
			continue;
		if (l[i].t_ms < prev) {
			free(t);
			return sb_errf(e, "line %zu: time goes back (%llu ms after %llu ms)",
				       l[i].line, (unsigned long long)l[i].t_ms,
				       (unsigned long long)prev);
		}
		uint64_t dt = l[i].t_ms - prev;
		if (dt == 0)
			continue;
		prev = l[i].t_ms;
		uint64_t own = dt;
		if (win && 10 * dt >= 19 * win) {
			/* fio tries every window and logs nothing for one in
			   which nothing completed: whole windows without an
			   entry are a stall, at 0 */
			uint64_t missing = (dt + win / 2) / win - 1;
			own = dt - missing * win;
			t[k++] = (struct trace_pt){ .ns = missing * win * 1000000 };
			info->gaps++;
			info->gap_s += (double)(missing * win) / 1e3;
		}
		t[k++] = entry_slice(&l[i], kind, own);
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
