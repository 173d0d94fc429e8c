/*
 * A fault-injecting backend for engine tests: real time (CLOCK_MONOTONIC,
 * waits are sleeps), one queue, a fixed service time per I/O, and a small
 * RAM disk that writes land in, so the data can be checked afterwards.
 * Faults on demand:
 *   accept_max      a submit takes at most this many requests (partial)
 *   refuse_first    the first N submit calls take nothing (EAGAIN at submit)
 *   eagain_every    every Nth completion is -EAGAIN
 *   short_every     every Nth read/write completes only its first half
 *   fail_offset     the I/O at this offset fails with EIO (at completion, or
 *                   at submit with fail_at_submit)
 *   slow_offset     the I/O at this offset takes slow_ns
 * It counts what it saw, and how many I/Os were still in flight when the
 * queue (and its buffers) was destroyed.
 */
#ifndef SSDBENCH_TESTS_FAULT_BACKEND_H
#define SSDBENCH_TESTS_FAULT_BACKEND_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/backend.h"

#define FB_MAX_INFLIGHT 1024
#define FB_NO_OFFSET UINT64_MAX

struct fb_io {
	uint64_t due, user_data, offset;
	uint32_t len, buf, buf_off;
	uint8_t op;
	int32_t res;
};

struct fb_state {
	uint64_t size;			/* bytes; the RAM disk is this big */
	uint64_t lat_ns;
	uint32_t accept_max, refuse_first, eagain_every, short_every;
	uint64_t fail_offset;		/* FB_NO_OFFSET: none */
	bool fail_at_submit;
	uint64_t slow_offset, slow_ns;	/* FB_NO_OFFSET: none */

	uint8_t *disk;
	struct fb_io fly[FB_MAX_INFLIGHT];
	uint32_t nfly;
	uint64_t submit_calls, accepted, refused, completions, eagains, shorts;
	uint64_t bad_resubmits;		/* a remainder not where the rest was */
	int64_t inflight_at_destroy;	/* -1: not destroyed yet */
};

struct backend_target { struct fb_state *st; };
struct backend_queue {
	struct fb_state *st;
	uint8_t *buf;
	uint32_t nbufs, buf_size;
};

static struct fb_state *fb_next_state;	/* set by a test before engine_open */

static uint64_t fb_clock(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void fb_sleep_until(uint64_t t)
{
	uint64_t now = fb_clock();
	if (t <= now)
		return;
	uint64_t d = t - now;
	struct timespec ts = { (time_t)(d / 1000000000ull), (long)(d % 1000000000ull) };
	nanosleep(&ts, NULL);
}

static struct fb_state *fb_new(uint64_t size, uint64_t lat_ns)
{
	struct fb_state *st = calloc(1, sizeof *st);
	st->size = size;
	st->lat_ns = lat_ns;
	st->fail_offset = st->slow_offset = FB_NO_OFFSET;
	st->disk = calloc(1, size);
	st->inflight_at_destroy = -1;
	return st;
}

static void fb_free(struct fb_state *st)
{
	free(st->disk);
	free(st);
}

static int fb_open(const char *spec, const struct open_opts *o, struct backend_target **out,
		   struct target_facts *f, struct sb_err *e)
{
	(void)o;
	(void)e;
	struct backend_target *t = calloc(1, sizeof *t);
	t->st = fb_next_state;
	memset(f, 0, sizeof *f);
	f->size = t->st->size;
	f->logical_block = 512;
	f->physical_block = 4096;
	f->is_file = true;
	f->discard = true;
	snprintf(f->path, sizeof f->path, "%s", spec);
	snprintf(f->kind, sizeof f->kind, "file");
	*out = t;
	return 0;
}

static void fb_close(struct backend_target *t) { free(t); }

static int fb_queue_create(struct backend_target *t, const struct queue_opts *o,
			   struct backend_queue **out, struct sb_err *e)
{
	(void)e;
	struct backend_queue *q = calloc(1, sizeof *q);
	q->st = t->st;
	q->nbufs = o->nbufs;
	q->buf_size = o->buf_size;
	q->buf = calloc(o->nbufs, o->buf_size);
	*out = q;
	return 0;
}

static void fb_queue_destroy(struct backend_queue *q)
{
	q->st->inflight_at_destroy = q->st->nfly;
	free(q->buf);
	free(q);
}

static void *fb_queue_buffer(struct backend_queue *q, uint32_t i)
{ return q->buf + (size_t)i * q->buf_size; }
static const char *fb_queue_mode(struct backend_queue *q) { (void)q; return "fault"; }

static int fb_submit(struct backend_queue *q, const struct io_req *r, uint32_t n, struct sb_err *e)
{
	struct fb_state *s = q->st;
	s->submit_calls++;
	if (s->submit_calls <= s->refuse_first) {
		s->refused++;
		return 0;
	}
	uint32_t take = s->accept_max && s->accept_max < n ? s->accept_max : n;
	uint64_t now = fb_clock();
	for (uint32_t i = 0; i < take; i++) {
		if (s->fail_at_submit && r[i].offset == s->fail_offset)
			return sb_errf(e, "fault: submit refused at offset %llu",
				       (unsigned long long)r[i].offset);
		if (s->nfly == FB_MAX_INFLIGHT)
			return sb_errf(e, "fault: too many in flight");
		/* A remainder continues in its buffer where the first part ended. */
		if (r[i].buf_off && r[i].buf_off + r[i].len > q->buf_size)
			s->bad_resubmits++;
		struct fb_io *io = &s->fly[s->nfly++];
		*io = (struct fb_io){ .due = now + s->lat_ns, .user_data = r[i].user_data,
				      .offset = r[i].offset, .len = r[i].len, .buf = r[i].buf,
				      .buf_off = r[i].buf_off, .op = r[i].op };
		if (r[i].offset == s->slow_offset)
			io->due = now + s->slow_ns;
		s->accepted++;
	}
	return (int)take;
}

/* The outcome of one I/O at its completion: data moved, result chosen. */
static int32_t fb_finish(struct backend_queue *q, struct fb_io *io)
{
	struct fb_state *s = q->st;
	s->completions++;
	if (io->op == IO_FSYNC || io->op == IO_TRIM)
		return 0;
	if (io->offset == s->fail_offset)
		return -EIO;
	if (s->eagain_every && s->completions % s->eagain_every == 0) {
		s->eagains++;
		return -EAGAIN;
	}
	uint32_t len = io->len;
	if (s->short_every && len > 512 && s->completions % s->short_every == 0) {
		len = len / 2 / 512 * 512;
		s->shorts++;
	}
	if (io->offset + len > s->size)
		return -EINVAL;
	uint8_t *b = q->buf + (size_t)io->buf * q->buf_size + io->buf_off;
	if (io->op == IO_WRITE)
		memcpy(s->disk + io->offset, b, len);
	else
		memcpy(b, s->disk + io->offset, len);
	return (int32_t)len;
}

static int fb_cmp_due(const void *a, const void *b)
{
	const struct fb_io *x = a, *y = b;
	return x->due < y->due ? -1 : x->due > y->due;
}

static int fb_reap(struct backend_queue *q, struct io_cpl *out, uint32_t min, uint32_t max,
		   uint64_t deadline, struct sb_err *e)
{
	(void)e;
	struct fb_state *s = q->st;
	qsort(s->fly, s->nfly, sizeof s->fly[0], fb_cmp_due);
	if (min && s->nfly) {
		uint64_t t = s->fly[(min <= s->nfly ? min : s->nfly) - 1].due;
		fb_sleep_until(t < deadline ? t : deadline);
	}
	uint64_t now = fb_clock();
	uint32_t n = 0;
	while (n < max && n < s->nfly && s->fly[n].due <= now) {
		out[n].user_data = s->fly[n].user_data;
		out[n].res = fb_finish(q, &s->fly[n]);
		out[n].t_done_ns = s->fly[n].due;
		n++;
	}
	memmove(s->fly, s->fly + n, (s->nfly - n) * sizeof s->fly[0]);
	s->nfly -= n;
	return (int)n;
}

static uint64_t fb_now(struct backend_target *t) { (void)t; return fb_clock(); }
static void fb_idle(struct backend_target *t, uint64_t dt) { (void)t; fb_sleep_until(fb_clock() + dt); }
static int fb_discard(struct backend_target *t, uint64_t off, uint64_t len, struct sb_err *e)
{ (void)t; (void)off; (void)len; (void)e; return 0; }
static int fb_flush(struct backend_target *t, struct sb_err *e) { (void)t; (void)e; return 0; }

static const struct backend_ops fault_backend = {
	.name = "fault",
	.caps = { .single_queue = true, .virtual_time = false, .stamps_completions = true },
	.open = fb_open, .close = fb_close,
	.queue_create = fb_queue_create, .queue_destroy = fb_queue_destroy,
	.queue_buffer = fb_queue_buffer, .queue_mode = fb_queue_mode,
	.submit = fb_submit, .reap = fb_reap, .now = fb_now, .idle = fb_idle,
	.discard = fb_discard, .flush = fb_flush,
};

#endif
