/*
 * A virtual-time backend for engine tests: one queue (like the simulator),
 * a model clock, and a fixed service time per operation with unlimited
 * parallelism, so the right answers are known exactly: at queue depth q
 * and latency L a closed loop does q/L I/Os per second and every latency
 * is L.  It records every request so tests can check offsets and data.
 *
 * vt_ring_backend is the same device seen as io_uring sees one: the
 * completions carry no time, so the engine stamps them when it reaps, and
 * the clock is not declared virtual, so the engine's real-time defaults
 * (the completion batch) apply.  With `svc` set, the k-th submitted I/O
 * takes svc[k % nsvc] instead of the fixed time: known per-I/O truth.
 */
#ifndef SSDBENCH_TESTS_VT_BACKEND_H
#define SSDBENCH_TESTS_VT_BACKEND_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"

#define VT_MAX_INFLIGHT 4096
#define VT_MAX_LOG 200000

struct vt_io {
	uint64_t done, user_data, offset;
	uint32_t len;
	uint8_t op;
};

struct vt_state {
	uint64_t size;
	uint64_t lat[4];		/* ns per op kind */
	uint64_t fail_after;		/* nth I/O fails with EIO; 0 = never */
	bool no_discard;		/* the device cannot trim */
	const uint64_t *svc;		/* per-I/O service times, or NULL */
	uint64_t nsvc;
	uint64_t now;
	struct vt_io fly[VT_MAX_INFLIGHT];
	uint32_t nfly;
	uint64_t submitted;
	uint64_t by_op[4];		/* submitted, per enum io_op */
	/* log of submitted reads/writes/trims */
	struct vt_io log[VT_MAX_LOG];
	uint64_t stamps[VT_MAX_LOG];	/* first stamp of each write */
	uint64_t nlog;
	uint64_t max_inflight;
};

struct backend_target { struct vt_state *st; };
struct backend_queue {
	struct vt_state *st;
	uint8_t *buf;
	uint32_t nbufs, buf_size;
};

static struct vt_state *vt_next_state;	/* set by a test before engine_open */

static int vt_open(const char *spec, const struct open_opts *o, struct backend_target **out,
		   struct target_facts *f, struct sb_err *e)
{
	(void)o;
	(void)e;
	struct backend_target *t = calloc(1, sizeof *t);
	t->st = vt_next_state;
	memset(f, 0, sizeof *f);
	f->size = t->st->size;
	f->logical_block = 512;
	f->physical_block = 4096;
	f->is_sim = true;
	f->discard = !t->st->no_discard;
	snprintf(f->path, sizeof f->path, "%s", spec);
	snprintf(f->kind, sizeof f->kind, "sim");
	*out = t;
	return 0;
}

static void vt_close(struct backend_target *t) { free(t); }

static int vt_queue_create(struct backend_target *t, const struct queue_opts *o,
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

static void vt_queue_destroy(struct backend_queue *q) { free(q->buf); free(q); }
static void *vt_queue_buffer(struct backend_queue *q, uint32_t i)
{ return q->buf + (size_t)i * q->buf_size; }
static const char *vt_queue_mode(struct backend_queue *q) { (void)q; return "virtual"; }

static int vt_submit(struct backend_queue *q, const struct io_req *r, uint32_t n, struct sb_err *e)
{
	struct vt_state *s = q->st;
	for (uint32_t i = 0; i < n; i++) {
		if (s->nfly == VT_MAX_INFLIGHT)
			return sb_errf(e, "vt: too many in flight");
		struct vt_io *io = &s->fly[s->nfly++];
		io->done = s->now + (s->svc ? s->svc[s->submitted % s->nsvc] : s->lat[r[i].op]);
		io->user_data = r[i].user_data;
		io->offset = r[i].offset;
		io->len = r[i].len;
		io->op = r[i].op;
		s->submitted++;
		s->by_op[r[i].op & 3]++;
		if (r[i].op != IO_FSYNC && s->nlog < VT_MAX_LOG) {
			s->log[s->nlog] = *io;
			if (r[i].op == IO_WRITE)
				memcpy(&s->stamps[s->nlog], q->buf + (size_t)r[i].buf * q->buf_size, 8);
			s->nlog++;
		}
		if (s->fail_after && s->submitted == s->fail_after)
			io->len = UINT32_MAX;	/* marks a failing I/O */
	}
	if (s->nfly > s->max_inflight)
		s->max_inflight = s->nfly;
	return (int)n;
}

static int vt_cmp_done(const void *a, const void *b)
{
	const struct vt_io *x = a, *y = b;
	return x->done < y->done ? -1 : x->done > y->done;
}

static int vt_reap(struct backend_queue *q, struct io_cpl *out, uint32_t min, uint32_t max,
		   uint64_t deadline, struct sb_err *e)
{
	(void)e;
	struct vt_state *s = q->st;
	qsort(s->fly, s->nfly, sizeof s->fly[0], vt_cmp_done);
	if (min) {
		uint64_t t = min <= s->nfly ? s->fly[min - 1].done : UINT64_MAX;
		if (t > deadline)
			t = deadline;
		if (t > s->now && t != UINT64_MAX)
			s->now = t;
	}
	uint32_t n = 0;
	while (n < max && n < s->nfly && s->fly[n].done <= s->now) {
		struct vt_io *io = &s->fly[n];
		out[n].user_data = io->user_data;
		out[n].t_done_ns = io->done;
		out[n].res = io->len == UINT32_MAX ? -EIO : io->op == IO_TRIM || io->op == IO_FSYNC ? 0 : (int32_t)io->len;
		n++;
	}
	memmove(s->fly, s->fly + n, (s->nfly - n) * sizeof s->fly[0]);
	s->nfly -= n;
	return (int)n;
}

/* io_uring's CQEs carry no time: the engine stamps them. */
static int vt_ring_reap(struct backend_queue *q, struct io_cpl *out, uint32_t min,
			uint32_t max, uint64_t deadline, struct sb_err *e)
{
	int n = vt_reap(q, out, min, max, deadline, e);
	for (int i = 0; i < n; i++)
		out[i].t_done_ns = 0;
	return n;
}

static uint64_t vt_now(struct backend_target *t) { return t->st->now; }
static void vt_idle(struct backend_target *t, uint64_t dt) { t->st->now += dt; }
static int vt_discard(struct backend_target *t, uint64_t off, uint64_t len, struct sb_err *e)
{ (void)t; (void)off; (void)len; (void)e; return 0; }
static int vt_flush(struct backend_target *t, struct sb_err *e) { (void)t; (void)e; return 0; }

static const struct backend_ops vt_backend = {
	.name = "vt",
	.caps = { .single_queue = true, .virtual_time = true, .stamps_completions = true },
	.open = vt_open, .close = vt_close,
	.queue_create = vt_queue_create, .queue_destroy = vt_queue_destroy,
	.queue_buffer = vt_queue_buffer, .queue_mode = vt_queue_mode,
	.submit = vt_submit, .reap = vt_reap, .now = vt_now, .idle = vt_idle,
	.discard = vt_discard, .flush = vt_flush,
};

static const struct backend_ops vt_ring_backend = {
	.name = "vt-ring",
	.caps = { .single_queue = true, .virtual_time = false, .stamps_completions = false },
	.open = vt_open, .close = vt_close,
	.queue_create = vt_queue_create, .queue_destroy = vt_queue_destroy,
	.queue_buffer = vt_queue_buffer, .queue_mode = vt_queue_mode,
	.submit = vt_submit, .reap = vt_ring_reap, .now = vt_now, .idle = vt_idle,
	.discard = vt_discard, .flush = vt_flush,
};

#endif
