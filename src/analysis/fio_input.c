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

int fio_log_line(const char *s, size_t len, size_t line, struct fio_log_entry *out,
		 struct sb_err *e)
{
	const char *q = s, *eol = s + len;
	while (q < eol && (*q == ' ' || *q == '\t' || *q == '\r'))
		q++;
	if (q == eol)
		return 0;
	uint64_t f[6];
	int nf;
	int bad = read_line(q, eol, f, 6, &nf);
	if (!bad && nf >= HIST_MIN_FIELDS)
		return sb_errf(e, "line %zu: %d columns: a histogram log "
			       "(write_hist_log: time, direction, bs, then the "
			       "latency bins), not a bandwidth or IOPS log",
			       line, nf);
	if (bad || nf < 4 || nf > 6)
		return sb_errf(e, "line %zu: not a fio log line; " LOG_FORMATS, line);
	if (f[2] > 2)
		return sb_errf(e, "line %zu: direction %llu is not 0, 1 or 2",
			       line, (unsigned long long)f[2]);
	*out = (struct fio_log_entry){ f[0], f[1], (unsigned)f[2], f[3], line };
	return 1;
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
		struct fio_log_entry x;
		int got = fio_log_line(s, (size_t)(eol - s), line, &x, e);
		s = eol + 1;
		if (got < 0) {
			free(l);
			return -1;
		}
		if (!got)
			continue;
		if (k == cap) {
			struct fio_log_entry *more = realloc(l, 2 * cap * sizeof *l);
			if (!more) {
				free(l);
				return sb_errno(e, ENOMEM, "fio log");
			}
			l = more;
			cap *= 2;
		}
		l[k++] = x;
	}
	if (k == 0) {
		free(l);
		return sb_errf(e, "no samples in the log");
	}
	*out = l;
	*n = k;
	return 0;
}

void fio_log_run_init(struct fio_log_run *r)
{
	memset(r, 0, sizeof *r);
	r->all_bs = true;
	for (int d = 0; d < 3; d++)
		r->dir_all_bs[d] = true;
}

bool fio_log_run_continues(const struct fio_log_run *r, const struct fio_log_entry *x)
{
	return r->n == 0 || x->t_ms >= r->last_t;
}

void fio_log_run_add(struct fio_log_run *r, const struct fio_log_entry *x)
{
	unsigned d = x->dir;
	if (r->n == 0) {
		r->first_t = x->t_ms;
		r->first_line = x->line;
	} else if (x->t_ms == r->last_t && d == r->last_dir) {
		r->repeats = true;
	}
	if (!r->count[d] || x->t_ms < r->dir_min[d])
		r->dir_min[d] = x->t_ms;
	if (!r->count[d] || x->t_ms > r->dir_max[d])
		r->dir_max[d] = x->t_ms;
	r->count[d]++;
	r->all_bs = r->all_bs && x->bs;
	r->dir_all_bs[d] = r->dir_all_bs[d] && x->bs;
	r->dir_any_bs[d] = r->dir_any_bs[d] || x->bs;
	r->last_t = x->t_ms;
	r->last_dir = d;
	r->last_line = x->line;
	r->n++;
}

unsigned fio_log_run_main_dir(const struct fio_log_run *r)
{
	unsigned best = 0;
	for (unsigned d = 1; d < 3; d++)
		if (r->count[d] > r->count[best])
			best = d;
	return best;
}

/*
 * Whether the run holds one entry per I/O (written without log_avg_msec):
 * every entry carries its block size and the entries come faster than one
 * per 5 ms on average or share timestamps.
 */
static bool run_per_io(const struct fio_log_run *r)
{
	return r->n && r->all_bs && (r->repeats || r->last_t - r->first_t < 5 * r->n);
}

static void run_of(const struct fio_log_entry *l, size_t n, struct fio_log_run *r)
{
	fio_log_run_init(r);
	for (size_t i = 0; i < n; i++)
		fio_log_run_add(r, &l[i]);
}

size_t fio_log_run_end(const struct fio_log_entry *l, size_t n, size_t start)
{
	struct fio_log_run r;
	fio_log_run_init(&r);
	size_t i = start;
	while (i < n && fio_log_run_continues(&r, &l[i]))
		fio_log_run_add(&r, &l[i++]);
	return i;
}

unsigned fio_log_main_dir(const struct fio_log_entry *l, size_t n)
{
	struct fio_log_run r;
	run_of(l, n, &r);
	return fio_log_run_main_dir(&r);
}

static const char *dir_name(unsigned dir)
{
	return dir == 0 ? "read" : dir == 1 ? "write" : "trim";
}

int fio_trace_begin(struct fio_trace_builder *b, const struct fio_log_run *run,
		    enum fio_log_kind kind, unsigned dir, unsigned slice_ms,
		    struct sb_err *e)
{
	memset(b, 0, sizeof *b);
	b->kind = kind;
	b->dir = dir;
	b->slice_ms = slice_ms;
	if (kind == FIO_LOG_LAT)
		return sb_errf(e, "a latency log is not a bandwidth or IOPS trace");
	if (dir > 2)
		return sb_errf(e, "direction %u is not 0, 1 or 2", dir);
	size_t have = run->count[dir];
	if (have == 0)
		return sb_errf(e, "no %s samples in the log", dir_name(dir));
	b->info.has_bytes = kind == FIO_LOG_BW || run->dir_all_bs[dir];
	b->info.has_ios = kind == FIO_LOG_IOPS || run->dir_all_bs[dir];
	b->per_io = run_per_io(run);
	if (b->per_io) {
		if (slice_ms == 0)
			return sb_errf(e, "per-I/O log: the slice length must be positive");
		uint64_t first = run->dir_min[dir], last = run->dir_max[dir];
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
		b->t = calloc(ns, sizeof *b->t);
		if (!b->t)
			return sb_errno(e, ENOMEM, "fio log: %zu slices", ns);
		for (size_t k = 0; k < ns; k++)
			b->t[k].ns = (uint64_t)slice_ms * 1000000;
		/* the last slice lasts until the last completion's millisecond ends */
		b->t[ns - 1].ns = (last + 1 - (uint64_t)(ns - 1) * slice_ms) * 1000000;
		b->nt = ns;
		return 0;
	}
	/* An averaged log has an entry per window: its trace is as long as
	   the entries, which are kept until the window is known. */
	if (have > FIO_LOG_MAX_SLICES)
		return sb_errf(e, "%zu %s entries in one run of the log, more than %u",
			       have, dir_name(dir), FIO_LOG_MAX_SLICES);
	b->ent = malloc(have * sizeof *b->ent);
	if (!b->ent)
		return sb_errno(e, ENOMEM, "fio log: %zu entries", have);
	b->cap = have;
	return 0;
}

int fio_trace_add(struct fio_trace_builder *b, const struct fio_log_entry *x,
		  struct sb_err *e)
{
	if (x->dir != b->dir)
		return 0;
	if (b->per_io) {
		size_t k = (size_t)(x->t_ms / b->slice_ms);
		if (k >= b->nt)
			return sb_errf(e, "line %zu: a time the first reading of the log "
				       "did not have (did the file change?)", x->line);
		b->t[k].bytes += x->bs;
		b->t[k].ios++;
		return 0;
	}
	if (b->nent == b->cap)
		return sb_errf(e, "line %zu: more entries than the first reading of the "
			       "log found (did the file change?)", x->line);
	b->ent[b->nent++] = *x;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The median positive step between entries: the window. */
static uint64_t median_step(const struct fio_log_entry *l, size_t n, uint64_t *steps)
{
	size_t k = 0;
	for (size_t i = 1; i < n; i++)
		if (l[i].t_ms > l[i - 1].t_ms)
			steps[k++] = l[i].t_ms - l[i - 1].t_ms;
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

/* The entries of one direction of an averaged or sampled log as slices. */
static int entries_to_trace(struct fio_trace_builder *b, struct trace_pt **out,
			    size_t *nout, struct sb_err *e)
{
	const struct fio_log_entry *l = b->ent;
	size_t n = b->nent;
	struct fio_trace_info *info = &b->info;
	/* at most one gap slice before each entry */
	struct trace_pt *t = malloc(2 * (n ? n : 1) * sizeof *t);
	uint64_t *steps = malloc((n ? n : 1) * sizeof *steps);
	if (!t || !steps) {
		free(t);
		free(steps);
		return sb_errno(e, ENOMEM, "fio log");
	}
	bool averaged = true;
	for (size_t i = 0; i < n; i++)
		if (l[i].bs)
			averaged = false;
	uint64_t win = averaged ? median_step(l, n, steps) : 0;
	free(steps);
	info->averaged = averaged;
	info->window_ms = (double)win;
	size_t k = 0;
	uint64_t prev = 0;
	for (size_t i = 0; i < n; i++) {
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
		t[k++] = entry_slice(&l[i], b->kind, own);
	}
	if (k == 0) {
		free(t);
		return sb_errf(e, "the %s entries of the log all share one time",
			       dir_name(b->dir));
	}
	*out = t;
	*nout = k;
	return 0;
}

int fio_trace_end(struct fio_trace_builder *b, struct trace_pt **out, size_t *nout,
		  struct fio_trace_info *info, struct sb_err *e)
{
	*out = NULL;
	*nout = 0;
	int rc = 0;
	if (b->per_io) {
		*out = b->t;
		*nout = b->nt;
		b->t = NULL;
	} else {
		rc = entries_to_trace(b, out, nout, e);
	}
	*info = b->info;
	fio_trace_free(b);
	return rc;
}

void fio_trace_free(struct fio_trace_builder *b)
{
	free(b->t);
	free(b->ent);
	b->t = NULL;
	b->ent = NULL;
}

int fio_log_to_trace(const struct fio_log_entry *l, size_t n,
		     enum fio_log_kind kind, unsigned dir, unsigned slice_ms,
		     struct trace_pt **out, size_t *nout,
		     struct fio_trace_info *info, struct sb_err *e)
{
	*out = NULL;
	*nout = 0;
	memset(info, 0, sizeof *info);
	struct fio_log_run run;
	run_of(l, n, &run);
	struct fio_trace_builder b;
	if (fio_trace_begin(&b, &run, kind, dir, slice_ms, e)) {
		fio_trace_free(&b);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (fio_trace_add(&b, &l[i], e)) {
			fio_trace_free(&b);
			return -1;
		}
	return fio_trace_end(&b, out, nout, info, e);
}
