/*
 * The io_uring backend's queue: one ring per job thread, created by that
 * thread (SINGLE_ISSUER ties the ring to its creator).
 *
 * Cost on this kind of machine is set by syscalls, wakeups and doorbells,
 * not by user-space code (about 1 us per syscall), so:
 *   - submit() only fills SQEs; reap() hands them to the kernel;
 *   - DEFER_TASKRUN|SINGLE_ISSUER keeps completions from waking the thread
 *     one by one: they are posted when we enter to wait for them;
 *   - the file is registered and the buffers are fixed.
 * reap() stamps each completion with a clock read made as soon as the
 * ring's tail shows it (see docs/run.md on batching and latency).
 *
 * reap()'s policy, from A/B measurements on loop devices and zram
 * (bench/README.md): submit and wait are two steps.  The submit enter
 * also runs the deferred completions, so when the batch is already there
 * no wait is entered at all; only when the thread has to sleep does it
 * cost a second enter.  At QD1 the separate wait was faster than waiting
 * inside the submit call (1.2x the IOPS on a loop device, 7 of 10 pairs).
 * A wait takes a timeout only when the caller has a deadline: arming the
 * kernel's timer for every wait cost 0.8x the IOPS at QD1 (9 of 10 pairs).
 *
 * Refusals: a submit the kernel refuses (-EAGAIN, -EBUSY, -EINTR) or takes
 * only in part leaves the rest of the SQEs in the ring; they are offered
 * again on the next call, and a wait waits only for what the kernel has.
 * With SQPOLL the kernel's thread takes the SQEs and nothing enters while
 * it is awake: completions are polled from the CQ ring, as fio does.
 */
#include "backend/uring_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

/* Block discard as an io_uring command (Linux 6.12+): _IO(0x12, 0). */
#ifndef BLOCK_URING_CMD_DISCARD
#define BLOCK_URING_CMD_DISCARD 0x1200
#endif

static int open_queue_fd(struct backend_queue *q, const struct queue_opts *o,
			 struct sb_err *e)
{
	const struct target_facts *f = &q->t->facts;
	int flags = (q->t->write ? O_RDWR : O_RDONLY) | O_CLOEXEC;
	if (!o->buffered)
		flags |= O_DIRECT;
	if (o->sync)
		flags |= O_SYNC;
	/* Our own descriptor so O_SYNC or buffered I/O stay per queue; the
	   session's O_EXCL descriptor keeps others out meanwhile. */
	char self[64];
	snprintf(self, sizeof self, "/proc/self/fd/%d", q->t->fd);
	q->fd = open(self, flags);
	if (q->fd < 0)
		q->fd = open(f->path, flags);
	if (q->fd < 0)
		return sb_errno(e, errno, "%s: cannot open for a queue", f->path);
	return 0;
}

static void ring_teardown(struct backend_queue *q)
{
	/*
	 * Unregister first: closing a ring tears it down in a kernel worker,
	 * which would hold the registered file (and so the device) open for
	 * a moment after we return; a caller that resets or detaches the
	 * device right after the run would find it busy.
	 */
	if (q->fixed_file)
		io_uring_unregister_files(&q->ring);
	if (q->fixed_bufs)
		io_uring_unregister_buffers(&q->ring);
	if (q->ring.ring_fd > 0)
		io_uring_queue_exit(&q->ring);
	memset(&q->ring, 0, sizeof q->ring);
	q->fixed_file = q->fixed_bufs = false;
}

/* Set up the ring with the best flags this kernel takes. */
static int ring_setup(struct backend_queue *q, uint32_t depth, bool iopoll,
		      bool sqpoll, struct sb_err *e)
{
	unsigned poll = iopoll ? IORING_SETUP_IOPOLL : 0;
	unsigned tries[3];
	int ntries = 0;
	if (sqpoll) {
		tries[ntries++] = IORING_SETUP_SQPOLL | poll;
	} else {
		tries[ntries++] = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | poll;
		tries[ntries++] = IORING_SETUP_COOP_TASKRUN | poll;
		tries[ntries++] = poll;
	}
	int r = -EINVAL;
	for (int i = 0; i < ntries; i++) {
		struct io_uring_params p;
		memset(&p, 0, sizeof p);
		p.flags = tries[i];
		if (sqpoll)
			p.sq_thread_idle = 1000;
		r = io_uring_queue_init_params(depth, &q->ring, &p);
		if (!r)
			break;
		memset(&q->ring, 0, sizeof q->ring);
		if (r != -EINVAL)
			break;
	}
	if (r)
		return sb_errno(e, -r, "io_uring setup (depth %u)", depth);
	q->sqpoll = q->ring.flags & IORING_SETUP_SQPOLL;
	q->kinflight = 0;

	if (!io_uring_register_files(&q->ring, &q->fd, 1))
		q->fixed_file = true;
	struct iovec *iov = calloc(q->nbufs, sizeof *iov);
	if (iov) {
		for (uint32_t i = 0; i < q->nbufs; i++) {
			iov[i].iov_base = q->bufmem + (size_t)i * q->buf_size;
			iov[i].iov_len = q->buf_size;
		}
		/* Registration may fail on memlock limits: plain buffers then. */
		if (!io_uring_register_buffers(&q->ring, iov, q->nbufs))
			q->fixed_bufs = true;
		free(iov);
	}
	return 0;
}

static void prep_one(struct backend_queue *q, struct io_uring_sqe *sqe,
		     const struct io_req *r)
{
	int fd = q->fixed_file ? 0 : q->fd;
	void *buf = q->bufmem + (size_t)r->buf * q->buf_size + r->buf_off;
	switch (r->op) {
	case IO_READ:
		if (q->fixed_bufs)
			io_uring_prep_read_fixed(sqe, fd, buf, r->len, r->offset, (int)r->buf);
		else
			io_uring_prep_read(sqe, fd, buf, r->len, r->offset);
		break;
	case IO_WRITE:
		if (q->fixed_bufs)
			io_uring_prep_write_fixed(sqe, fd, buf, r->len, r->offset, (int)r->buf);
		else
			io_uring_prep_write(sqe, fd, buf, r->len, r->offset);
		break;
	case IO_TRIM:
		if (q->t->facts.is_block_device) {	/* not with discard_ioctl */
			io_uring_prep_rw(IORING_OP_URING_CMD, sqe, fd, NULL, 0, 0);
			sqe->cmd_op = BLOCK_URING_CMD_DISCARD;
			sqe->addr = r->offset;
			sqe->addr3 = r->len;
		} else {
			io_uring_prep_fallocate(sqe, fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
						r->offset, r->len);
		}
		break;
	default:
		io_uring_prep_fsync(sqe, fd, 0);
		break;
	}
	if (q->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data64(sqe, r->user_data);
}

/*
 * One request on the fresh ring, waited for: a probe of what the kernel
 * and device can do.  *res gets its result; returns -1 only if the ring
 * itself failed.
 */
static int probe_one(struct backend_queue *q, const struct io_req *r, int *res,
		     const char *what, struct sb_err *e)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&q->ring);
	prep_one(q, sqe, r);
	struct io_uring_cqe *cqe;
	int ret = io_uring_submit_and_wait(&q->ring, 1);
	if (ret < 0)
		return sb_errno(e, -ret, "%s", what);
	if ((ret = io_uring_wait_cqe(&q->ring, &cqe)))
		return sb_errno(e, -ret, "%s", what);
	*res = cqe->res;
	io_uring_cqe_seen(&q->ring, cqe);
	return 0;
}

/* One synchronous read of the first block: does the device poll? */
static int probe_iopoll(struct backend_queue *q, int *res, struct sb_err *e)
{
	struct io_req r = { .offset = 0, .len = q->t->facts.logical_block,
			    .op = IO_READ, .buf = 0, .user_data = 0 };
	return probe_one(q, &r, res, "iopoll probe", e);
}

/*
 * Does this kernel discard a block device through io_uring (6.12 and
 * later)?  Asked, not guessed from the version: a discard of zero bytes,
 * which a kernel with the command refuses as an invalid range (-EINVAL)
 * and one without refuses as unsupported (-EOPNOTSUPP), with no data
 * touched.  A kernel without IORING_OP_URING_CMD at all says so in the
 * opcode probe.  An IOPOLL ring cannot run the command either.
 */
static int probe_cmd_discard(struct backend_queue *q, bool *supported, struct sb_err *e)
{
	*supported = false;
	struct io_uring_probe *p = io_uring_get_probe_ring(&q->ring);
	bool have_op = p && io_uring_opcode_supported(p, IORING_OP_URING_CMD);
	if (p)
		io_uring_free_probe(p);
	if (!have_op)
		return 0;
	struct io_req r = { .offset = 0, .len = 0, .op = IO_TRIM };
	int res;
	if (probe_one(q, &r, &res, "io_uring discard probe", e))
		return -1;
	*supported = res != -EOPNOTSUPP && res != -ENOTTY;
	return 0;
}

static void uring_queue_destroy(struct backend_queue *q)
{
	if (!q)
		return;
	ring_teardown(q);
	if (q->fd >= 0)
		close(q->fd);
	free(q->bufmem);
	free(q->local);
	free(q);
}

void uring_queue_set_faults(struct backend_queue *q, const struct uring_faults *f)
{
	q->faults = f;
}

void uring_queue_use_discard_ioctl(struct backend_queue *q)
{
	q->discard_ioctl = true;
}

bool uring_queue_discard_ioctl(const struct backend_queue *q)
{
	return q->discard_ioctl;
}

static int uring_queue_create(struct backend_target *t, const struct queue_opts *o,
			      struct backend_queue **out, struct sb_err *e)
{
	struct backend_queue *q = calloc(1, sizeof *q);
	if (!q)
		return sb_errf(e, "out of memory");
	q->t = t;
	q->fd = -1;
	/* Paced: the waits for an arrival end on time, not up to the
	   default 50 us of timer slack late (the thread is this queue's). */
	if (o->paced)
		prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	q->nbufs = o->nbufs ? o->nbufs : 1;
	q->buf_size = o->buf_size ? o->buf_size : t->facts.logical_block;
	size_t total = (size_t)q->nbufs * q->buf_size;
	void *mem = NULL;
	if (posix_memalign(&mem, 4096, total)) {
		free(q);
		return sb_errf(e, "cannot allocate %zu bytes of I/O buffers", total);
	}
	q->bufmem = mem;
	memset(q->bufmem, 0, total);
	q->local_cap = o->depth ? o->depth : 1;
	q->local = calloc(q->local_cap, sizeof *q->local);
	if (!q->local)
		goto fail;
	if (open_queue_fd(q, o, e))
		goto fail;
	/* A queue that says it has no poll queues is not polled: a polled
	   ring would only spin while interrupts complete the I/O. */
	bool iopoll = o->iopoll && !t->facts.cannot_poll;
	if (ring_setup(q, o->depth, iopoll, o->sqpoll, e))
		goto fail;
	const char *base = o->sqpoll ? "sqpoll" : "interrupt";
	snprintf(q->mode, sizeof q->mode, "%s", base);
	if (o->iopoll && !iopoll) {
		snprintf(q->mode, sizeof q->mode, "%s (device cannot poll)", base);
	} else if (iopoll) {
		int res = 0;
		if (probe_iopoll(q, &res, e))
			goto fail;
		if (res == -EOPNOTSUPP || res == -EINVAL) {
			/* Setup succeeds, every I/O fails: no poll queues. */
			ring_teardown(q);
			if (ring_setup(q, o->depth, false, o->sqpoll, e))
				goto fail;
			snprintf(q->mode, sizeof q->mode, "%s (device cannot poll)", base);
		} else if (res < 0) {
			sb_errno(e, -res, "%s: iopoll probe read", t->facts.path);
			goto fail;
		} else {
			snprintf(q->mode, sizeof q->mode, "%s", o->sqpoll ? "sqpoll+iopoll" : "iopoll");
		}
	}
	if (t->facts.is_block_device && t->write) {
		bool cmd = false;
		if (probe_cmd_discard(q, &cmd, e))
			goto fail;
		q->discard_ioctl = !cmd;
	}
	*out = q;
	return 0;
fail:
	uring_queue_destroy(q);
	return -1;
}

static void *uring_queue_buffer(struct backend_queue *q, uint32_t i)
{
	return i < q->nbufs ? q->bufmem + (size_t)i * q->buf_size : NULL;
}

static const char *uring_queue_mode(struct backend_queue *q)
{
	return q->mode;
}

/*
 * Hand the queued SQEs to the kernel (and, without SQPOLL, post the
 * completions that are ready).  A refusal the kernel means as "not now"
 * is no error: the SQEs stay queued for the next call.
 */
static int enter_submit(struct backend_queue *q, struct sb_err *e)
{
	int r;
	if (q->faults)
		r = q->faults->submit(&q->ring, q->faults->ctx);
	else if (q->sqpoll)
		r = io_uring_submit(&q->ring);	/* enters only to wake the thread */
	else
		r = io_uring_submit_and_get_events(&q->ring);
	if (r == -EAGAIN || r == -EBUSY || r == -EINTR)
		return 0;
	if (r < 0)
		return sb_errno(e, -r, "io_uring submit");
	/* With SQPOLL the count is of SQEs the thread has yet to take, not of
	   those taken now: uring_submit counted them as queued. */
	if (!q->sqpoll)
		q->kinflight += (uint32_t)r;
	return 0;
}

/*
 * A trim by BLKDISCARD, as fio's io_uring engine does without the command.
 * Through a descriptor that is not the exclusive one, kernels before the
 * discard command (6.1) only invalidate the range's page cache and fail
 * with EBUSY on dirty pages, e.g. a buffered writer's (the boot step's);
 * the range is then written back, as newer kernels do first, and the
 * discard tried once more.
 */
static void discard_now(struct backend_queue *q, const struct io_req *r)
{
	uint64_t range[2] = { r->offset, r->len };
	int res = ioctl(q->fd, BLKDISCARD, range) ? -errno : 0;
	if (res == -EBUSY &&
	    !sync_file_range(q->fd, (off64_t)r->offset, (off64_t)r->len,
			     SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
			     SYNC_FILE_RANGE_WAIT_AFTER))
		res = ioctl(q->fd, BLKDISCARD, range) ? -errno : 0;
	q->local[q->nlocal++] = (struct io_cpl){ .user_data = r->user_data, .res = res,
						 .t_done_ns = uring_now(q->t) };
}

/*
 * Queue up to n requests; returns how many were queued.  Fewer than n
 * when the SQ ring is full and the kernel takes none of it right now: the
 * caller offers the rest again after the next reap.
 */
static int uring_submit(struct backend_queue *q, const struct io_req *reqs,
			uint32_t n, struct sb_err *e)
{
	for (uint32_t i = 0; i < n; i++) {
		if (reqs[i].op == IO_TRIM && q->discard_ioctl) {
			if (q->nlocal == q->local_cap)
				return (int)i;
			discard_now(q, &reqs[i]);
			continue;
		}
		struct io_uring_sqe *sqe = io_uring_get_sqe(&q->ring);
		if (!sqe) {
			/* SQ full: hand what we have to the kernel first. */
			if (enter_submit(q, e))
				return -1;
			sqe = io_uring_get_sqe(&q->ring);
			if (!sqe)
				return (int)i;
		}
		prep_one(q, sqe, &reqs[i]);
		/* The SQ thread takes every SQE it sees. */
		q->kinflight += q->sqpoll;
	}
	return (int)n;
}

/*
 * Take up to max completions, each stamped with a clock read made right
 * after the ring's tail first showed it: a completion posted while we walk
 * the ring (without DEFER_TASKRUN the kernel posts them at any time) gets
 * the later stamp of the tail read that found it, never an earlier one,
 * and none waits for the rest of a batch to be stamped.
 */
static uint32_t take_completions(struct backend_queue *q, struct io_cpl *out,
				 uint32_t max)
{
	uint32_t n = 0;
	while (n < max && q->nlocal) {
		out[n++] = q->local[0];
		memmove(q->local, q->local + 1, --q->nlocal * sizeof *q->local);
	}
	unsigned ready;
	while (n < max && (ready = io_uring_cq_ready(&q->ring))) {
		uint64_t now = uring_now(q->t);
		struct io_uring_cqe *cqe;
		unsigned head, k = 0;
		io_uring_for_each_cqe(&q->ring, head, cqe) {
			if (k == ready || n == max)
				break;
			out[n].user_data = cqe->user_data;
			out[n].res = cqe->res;
			out[n].t_done_ns = now;
			n++;
			k++;
		}
		io_uring_cq_advance(&q->ring, k);
		q->kinflight -= k < q->kinflight ? k : q->kinflight;
	}
	return n;
}

static uint32_t ready(struct backend_queue *q)
{
	return io_uring_cq_ready(&q->ring) + q->nlocal;
}

/* SQPOLL: wait by polling the CQ ring, waking the SQ thread if it slept. */
static int poll_cq(struct backend_queue *q, uint32_t need, uint64_t deadline_ns,
		   struct sb_err *e)
{
	while (io_uring_cq_ready(&q->ring) < need) {
		if (io_uring_sq_ready(&q->ring) &&
		    (IO_URING_READ_ONCE(*q->ring.sq.kflags) & IORING_SQ_NEED_WAKEUP) &&
		    enter_submit(q, e))
			return -1;
		if (deadline_ns != UINT64_MAX && uring_now(q->t) >= deadline_ns)
			break;
	}
	return 0;
}

/* Nothing the kernel could complete: a short pause before offering again. */
static void pause_briefly(struct backend_queue *q, uint64_t deadline_ns)
{
	uint64_t d = 100000, now = uring_now(q->t);
	if (deadline_ns != UINT64_MAX)
		d = deadline_ns > now ? (deadline_ns - now < d ? deadline_ns - now : d) : 0;
	struct timespec ts = { 0, (long)d };
	if (d)
		nanosleep(&ts, NULL);
}

static int uring_reap(struct backend_queue *q, struct io_cpl *out, uint32_t min,
		      uint32_t max, uint64_t deadline_ns, struct sb_err *e)
{
	/* min 0 is a poll: enter once even with nothing to submit (the
	   deferred completions run in the kernel only when we enter). */
	if ((io_uring_sq_ready(&q->ring) || (min == 0 && !q->sqpoll && !ready(q))) &&
	    enter_submit(q, e))
		return -1;
	if (ready(q) >= min)
		return (int)take_completions(q, out, max);

	/* Wait only for completions the kernel can give. */
	uint32_t need = min - q->nlocal;
	if (need > q->kinflight)
		need = q->kinflight;
	if (!need) {
		pause_briefly(q, deadline_ns);
		return (int)take_completions(q, out, max);
	}
	if (q->sqpoll)
		return poll_cq(q, need, deadline_ns, e) ? -1 :
		       (int)take_completions(q, out, max);
	struct io_uring_cqe *cqe;
	int r;
	if (deadline_ns == UINT64_MAX) {
		r = io_uring_wait_cqe_nr(&q->ring, &cqe, need);
	} else {
		uint64_t now = uring_now(q->t);
		uint64_t left = deadline_ns > now ? deadline_ns - now : 0;
		struct __kernel_timespec ts = { (long long)(left / 1000000000ull),
						(long long)(left % 1000000000ull) };
		r = io_uring_wait_cqes(&q->ring, &cqe, need, &ts, NULL);
	}
	if (r < 0 && r != -ETIME && r != -EINTR && r != -EAGAIN && r != -EBUSY)
		return sb_errno(e, -r, "io_uring wait");
	return (int)take_completions(q, out, max);
}

const struct backend_ops backend_uring = {
	.name = "uring",
	.caps = { .single_queue = false, .virtual_time = false, .stamps_completions = true },
	.open = uring_open,
	.close = uring_close,
	.queue_create = uring_queue_create,
	.queue_destroy = uring_queue_destroy,
	.queue_buffer = uring_queue_buffer,
	.queue_mode = uring_queue_mode,
	.submit = uring_submit,
	.reap = uring_reap,
	.now = uring_now,
	.idle = uring_idle,
	.discard = uring_discard,
	.flush = uring_flush,
};
