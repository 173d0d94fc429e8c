/*
 * A driver thread: one backend queue, a set of jobs.  On io_uring each job
 * has its own driver (its own ring); on a single-queue backend one driver
 * serves every job of every workload, so virtual time stays one sequence.
 * The loop is fio's t/io_uring shape: fill every free slot, one enter that
 * submits and waits, handle the batch of completions.
 */
#include <stdio.h>
#include <stdlib.h>

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
		if (w->bs > qo.buf_size)
			qo.buf_size = w->bs;
		qo.sync |= w->sync;
		qo.buffered |= w->buffered;
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
 */
static void advance_intervals(struct driver *d, uint64_t t)
{
	for (;;) {
		uint64_t b = UINT64_MAX;
		for (uint32_t i = 0; i < d->njobs; i++)
			if (!d->jobs[i]->done && d->jobs[i]->next_boundary < b)
				b = d->jobs[i]->next_boundary;
		if (b >= t)
			return;
		for (uint32_t i = 0; i < d->njobs; i++)
			if (!d->jobs[i]->done && d->jobs[i]->next_boundary == b)
				run_publish(d->run, d->jobs[i]);
	}
}

/*
 * How long a wait with I/O in flight may last.  In virtual time: up to the
 * next deadline, so intervals close in order.  In real time only a due
 * submission (the rate limiter) needs a timer: arming the kernel's timer
 * for every wait cost a fifth of the IOPS at QD1 on a loop device
 * (bench/README.md).  Interval boundaries and the stop time can wait for
 * the next completion: an I/O belongs to the interval in which it
 * completes, so the intervals are the same, only published later, and
 * after the stop time the I/Os in flight are waited for anyway.
 */
static uint64_t wait_deadline(const struct run *r, uint64_t deadline, uint64_t due)
{
	return r->ops->caps.virtual_time ? deadline : due;
}

static void drive(struct driver *d, struct backend_queue *q, struct io_req *reqs,
		  struct io_cpl *cpls, uint32_t cap)
{
	struct run *r = d->run;
	const struct backend_ops *ops = r->ops;
	struct sb_err e;
	for (;;) {
		uint64_t now = ops->now(r->target);
		advance_intervals(d, now);
		uint32_t n = 0, inflight = 0, active = 0;
		uint64_t deadline = UINT64_MAX, due = UINT64_MAX;
		for (uint32_t i = 0; i < d->njobs; i++) {
			struct job *j = d->jobs[i];
			n += job_prepare(j, now, reqs + n);
			inflight += j->inflight;
			active += !j->done;
			uint64_t jd = job_deadline(j);
			if (jd < deadline)
				deadline = jd;
			if (job_due(j) < due)
				due = job_due(j);
		}
		if (n && ops->submit(q, reqs, n, &e)) {
			run_fail(r, &e);
			return;
		}
		if (!active)
			return;
		if (!inflight) {
			/* Rate-limited or between intervals: nothing outstanding. */
			if (deadline > now && deadline != UINT64_MAX)
				ops->idle(r->target, deadline - now);
			continue;
		}
		/* Wait for a batch, but never for more than is in flight. */
		uint32_t min = r->batch < inflight ? r->batch : inflight;
		if (d->njobs > 1)
			min = 1;
		int got = ops->reap(q, cpls, min, cap, wait_deadline(r, deadline, due), &e);
		if (got < 0) {
			run_fail(r, &e);
			return;
		}
		/* A backend that does not stamp: one clock read for the batch. */
		uint64_t t_reap = got && !cpls[0].t_done_ns ? ops->now(r->target) : 0;
		for (int i = 0; i < got; i++) {
			if (!cpls[i].t_done_ns)
				cpls[i].t_done_ns = t_reap;
			advance_intervals(d, cpls[i].t_done_ns);
			job_complete(r->jobs[cpls[i].user_data >> 32], &cpls[i]);
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
	bool ok = reqs && cpls;
	if (!ok) {
		sb_errf(&e, "out of memory");
		run_fail(r, &e);
	} else if (create_queue(d, &q, &e)) {
		run_fail(r, &e);
		ok = false;
	}
	if (wait_for_go(r, ok, ok ? r->ops->queue_mode(q) : "") &&
	    !(fluid_eligible(d) && fluid_drive(d, q)))
		drive(d, q, reqs, cpls, cap);
	finish_jobs(d);
	if (q)
		r->ops->queue_destroy(q);
	free(reqs);
	free(cpls);
	return NULL;
}
