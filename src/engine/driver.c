/*
 * A driver thread: one backend queue, a set of jobs.  On io_uring each job
 * has its own driver (its own ring); on a single-queue backend one driver
 * serves every job of every workload, so virtual time stays one sequence.
 * The loop is fio's t/io_uring shape: fill every free slot, one enter that
 * submits and waits, handle the batch of completions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/agenda.h"
#include "engine/internal.h"

static int create_queue(struct driver *d, struct backend_queue **q, struct sb_err *e)
{
	struct run *r = d->run;
	struct queue_opts qo = { .iopoll = r->opts->iopoll, .sqpoll = r->opts->sqpoll,
				 .batch = r->batch };
	for (uint32_t i = 0; i < d->njobs; i++) {
		const struct workload *w = &d->jobs[i]->wl->w;
		qo.depth += w->qd;
		qo.nbufs += w->qd;
		if (workload_bs_max(w) > qo.buf_size)
			qo.buf_size = workload_bs_max(w);
		qo.sync |= w->sync;
		qo.buffered |= w->buffered;
		qo.paced |= workload_open_loop(w);
	}
	if (r->ops->queue_create(r->target, &qo, q, e))
		return -1;
	for (uint32_t i = 0; i < d->njobs; i++) {
		d->jobs[i]->q = *q;
		job_fill_buffers(d->jobs[i]);
	}
	return 0;
}

/* Wait with the others until every queue exists; false: do not run. */
static bool wait_for_go(struct run *r, bool ok, const char *mode)
{
	pthread_mutex_lock(&r->mu);
	r->ready++;
	if (!ok)
		r->failed_setup++;
	else if (!r->mode[0])
		snprintf(r->mode, sizeof r->mode, "%s", mode);
	pthread_cond_broadcast(&r->cv);
	if (r->inline_collector) {
		/* The only driver, on the caller's thread: it starts the run. */
		ok = ok && !r->failed_setup;
		pthread_mutex_unlock(&r->mu);
		return run_go(r, ok);
	}
	while (!r->go && !atomic_load(&r->abort))
		pthread_cond_wait(&r->cv, &r->mu);
	bool go = r->go && ok;
	pthread_mutex_unlock(&r->mu);
	return go;
}

/* The jobs stop: publish their last intervals so the collector finishes. */
static void finish_jobs(struct driver *d)
{
	for (uint32_t i = 0; i < d->njobs; i++)
		job_finish(d->jobs[i]);
}

/*
 * Close every interval that ended before time t, in lockstep over the jobs
 * (intervals are (start, end]: a completion exactly at a boundary belongs
 * to the interval it ends, which keeps virtual-time counts exact):
 * all of them publish interval i before any publishes i + 1.  A publish
 * waits when the collector is IVL_RING intervals behind, and the collector
 * needs interval i of every job of a workload; lockstep guarantees that a
 * job waiting for room never holds back an interval the collector needs.
 * d->boundary is a lower bound of the jobs' next boundaries, so the scan
 * over the jobs runs once per interval, not once per completion.
 */
static void advance_intervals(struct driver *d, uint64_t t)
{
	if (d->boundary >= t)
		return;
	for (;;) {
		uint64_t b = UINT64_MAX;
		for (uint32_t i = 0; i < d->njobs; i++)
			if (!d->jobs[i]->done && d->jobs[i]->next_boundary < b)
				b = d->jobs[i]->next_boundary;
		d->boundary = b;
		if (b >= t)
			return;
		run_publish_at(d->run, d->jobs, d->njobs, b);
	}
}

/* A workload of the driver: its jobs are d->jobs[first, first + n). */
struct watch {
	struct wl_state *wl;
	uint32_t first, n;
	bool seen;		/* its stop was seen: its jobs were told */
};

/* The driver's workloads, in order; returns how many (at most njobs). */
static uint32_t watch_init(const struct driver *d, struct watch *w)
{
	uint32_t k = 0;
	for (uint32_t i = 0; i < d->njobs; i++) {
		if (k && w[k - 1].wl == d->jobs[i]->wl) {
			w[k - 1].n++;
			continue;
		}
		w[k++] = (struct watch){ .wl = d->jobs[i]->wl, .first = i, .n = 1 };
	}
	return k;
}

/*
 * Put the jobs of workloads told to stop (or of every workload on an
 * abort) on the agenda, once; returns the earliest stop time still ahead.
 */
static uint64_t watch_stops(struct watch *w, uint32_t nw, struct agenda *ag,
			    bool abort, uint64_t now)
{
	uint64_t next = UINT64_MAX;
	for (uint32_t i = 0; i < nw; i++) {
		struct wl_state *wl = w[i].wl;
		if (w[i].seen)
			continue;
		if (abort || now >= wl->stop_at ||
		    atomic_load_explicit(&wl->stop, memory_order_relaxed)) {
			w[i].seen = true;
			for (uint32_t k = 0; k < w[i].n; k++)
				agenda_mark(ag, w[i].first + k);
		} else if (wl->stop_at < next) {
			next = wl->stop_at;
		}
	}
	return next;
}

/*
 * How long a wait with I/O in flight may last.  In virtual time: up to the
 * next deadline, so intervals close in order.  In real time only a due
 * submission (an open loop's next arrival) needs a timer: the wait is
 * io_uring's wait with a timeout, which returns at the first completion
 * or at the arrival, whichever comes first, so completions are stamped
 * as they come and the arrival is not missed.  Without one no timer is
 * armed: arming the kernel's timer for every wait cost a fifth of the
 * IOPS at QD1 on a loop device (bench/README.md).  Interval boundaries and the stop time can wait for
 * the next completion: an I/O belongs to the interval in which it
 * completes, so the intervals are the same, only published later, and
 * after the stop time the I/Os in flight are waited for anyway.
 */
static uint64_t wait_deadline(const struct run *r, uint64_t deadline, uint64_t due)
{
	return r->ops->caps.virtual_time ? deadline : due;
}

/*
 * Before the queue and its buffers go: wait for every I/O the backend
 * took, so no buffer is freed while the device may still read or write
 * it.  Their completions still count (job_complete).  Returns false when
 * the backend cannot say any more (a failing reap): the buffers must then
 * stay allocated.
 */
static bool drain(struct driver *d, struct backend_queue *q, struct io_cpl *cpls,
		  uint32_t cap, uint32_t queued)
{
	struct run *r = d->run;
	struct sb_err e;
	while (queued) {
		int got = r->ops->reap(q, cpls, 1, cap, UINT64_MAX, &e);
		if (got < 0)
			return false;
		queued -= (uint32_t)got < queued ? (uint32_t)got : queued;
		for (int i = 0; i < got; i++) {
			if (!cpls[i].t_done_ns)
				cpls[i].t_done_ns = r->ops->now(r->target);
			job_complete(r->jobs[(uint32_t)(cpls[i].user_data >> 32)], &cpls[i]);
		}
	}
	return true;
}

/* A backend that takes nothing with nothing in flight, for this long, is stuck. */
#define REFUSED_FOR_NS 10000000000ull
#define REFUSED_PAUSE_NS 100000ull

/* Returns the I/Os still with the backend when it stops early (an error). */
static uint32_t drive(struct driver *d, struct backend_queue *q, struct io_req *reqs,
		      struct io_cpl *cpls, uint32_t cap, struct agenda *ag,
		      uint32_t *order, struct watch *watch)
{
	struct run *r = d->run;
	const struct backend_ops *ops = r->ops;
	struct sb_err e;
	/* reqs[0, backlog): prepared, not yet taken by the backend; queued:
	   taken, not yet completed. */
	uint32_t backlog = 0, queued = 0, active = 0, nwatch = watch_init(d, watch);
	uint64_t refused_since = 0;
	for (uint32_t i = 0; i < d->njobs; i++)
		active += !d->jobs[i]->done;
	for (;;) {
		uint64_t now = ops->now(r->target);
		advance_intervals(d, now);
		agenda_expire(ag, now);
		bool abort = atomic_load_explicit(&r->abort, memory_order_relaxed);
		uint64_t deadline = watch_stops(watch, nwatch, ag, abort, now);
		uint32_t n = backlog, k = agenda_take(ag, order);
		for (uint32_t o = 0; o < k; o++) {
			struct job *j = d->jobs[order[o]];
			bool was_done = j->done;
			n += job_prepare(j, now, reqs + n);
			active -= !was_done && j->done;
			if (!j->done && !j->stopping && j->blocked_until)
				agenda_timer(ag, order[o], j->blocked_until);
			else
				agenda_cancel(ag, order[o]);
		}
		if (n) {
			int acc = ops->submit(q, reqs, n, &e);
			if (acc < 0) {
				run_fail(r, &e);
				return queued;
			}
			queued += (uint32_t)acc;
			backlog = n - (uint32_t)acc;
			memmove(reqs, reqs + acc, backlog * sizeof *reqs);
		}
		if (!active)
			return queued;
		if (backlog && !queued) {
			/* Refused with nothing in flight: nothing will free room. */
			if (!refused_since)
				refused_since = now;
			if (now - refused_since >= REFUSED_FOR_NS) {
				sb_errf(&e, "the target has taken none of %u I/Os for %llu s",
					backlog, (unsigned long long)(REFUSED_FOR_NS / 1000000000ull));
				run_fail(r, &e);
				return queued;
			}
			ops->idle(r->target, REFUSED_PAUSE_NS);
			continue;
		}
		refused_since = 0;
		/* Just past the boundary, so that the interval closes. */
		if (d->boundary != UINT64_MAX && d->boundary + 1 < deadline)
			deadline = d->boundary + 1;
		/* The next arrival of an open loop, the timers' earliest. */
		uint64_t due = agenda_next(ag);
		if (due < deadline)
			deadline = due;
		if (!queued) {
			/* Waiting for an arrival or between intervals: nothing
			   outstanding, so a sleep (virtual: idle time). */
			if (deadline > now && deadline != UINT64_MAX)
				ops->idle(r->target, deadline - now);
			continue;
		}
		/* Wait for a batch, but never for more than is in flight. */
		uint32_t min = r->batch < queued ? r->batch : queued;
		if (d->njobs > 1)
			min = 1;
		int got = ops->reap(q, cpls, min, cap, wait_deadline(r, deadline, due), &e);
		if (got < 0) {
			run_fail(r, &e);
			return queued;
		}
		queued -= (uint32_t)got;
		/* A backend that does not stamp: one clock read for the batch. */
		uint64_t t_reap = got && !cpls[0].t_done_ns ? ops->now(r->target) : 0;
		uint32_t first = d->jobs[0]->gindex;
		for (int i = 0; i < got; i++) {
			if (!cpls[i].t_done_ns)
				cpls[i].t_done_ns = t_reap;
			advance_intervals(d, cpls[i].t_done_ns);
			uint32_t gi = (uint32_t)(cpls[i].user_data >> 32);
			job_complete(r->jobs[gi], &cpls[i]);
			agenda_mark(ag, gi - first);
		}
	}
}

void *driver_main(void *arg)
{
	struct driver *d = arg;
	struct run *r = d->run;
	struct backend_queue *q = NULL;
	struct sb_err e;
	uint32_t cap = 0;
	for (uint32_t i = 0; i < d->njobs; i++)
		cap += d->jobs[i]->qd;
	struct io_req *reqs = calloc(cap, sizeof *reqs);
	struct io_cpl *cpls = calloc(cap, sizeof *cpls);
	uint32_t *order = calloc(d->njobs, sizeof *order);
	struct watch *watch = calloc(d->njobs, sizeof *watch);
	struct agenda ag = { 0 };
	bool ok = reqs && cpls && order && watch && !agenda_init(&ag, d->njobs);
	if (!ok) {
		sb_errf(&e, "out of memory");
		run_fail(r, &e);
	} else if (create_queue(d, &q, &e)) {
		run_fail(r, &e);
		ok = false;
	}
	bool buffers_free = true;
	enum fluid_way way = ok ? fluid_eligible(d) : FLUID_NO;
	if (wait_for_go(r, ok, ok ? r->ops->queue_mode(q) : "") &&
	    !(way != FLUID_NO && fluid_drive(d, q, way))) {
		uint32_t queued = drive(d, q, reqs, cpls, cap, &ag, order, watch);
		buffers_free = drain(d, q, cpls, cap, queued);
	}
	finish_jobs(d);
	/* A queue whose I/O could not be waited for is left allocated: the
	   device may still write into its buffers. */
	if (q && buffers_free)
		r->ops->queue_destroy(q);
	if (ag.ready)
		agenda_free(&ag);
	free(reqs);
	free(cpls);
	free(order);
	free(watch);
	return NULL;
}
