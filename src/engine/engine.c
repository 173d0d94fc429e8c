/*
 * The engine session and one run: validate the workloads, set up jobs and
 * driver threads, start every workload at one backend time, collect on
 * the calling thread, and hand back exact totals.
 */
#include "engine/engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/internal.h"

#define DEFAULT_INTERVAL_NS 100000000ull

struct engine {
	const struct backend_ops *ops;
	struct backend_target *target;
	struct target_facts facts;
	struct engine_opts opts;
};

int engine_open(const struct engine_opts *o, struct engine **out, struct sb_err *e)
{
	const struct backend_ops *ops = o->backend ? o->backend : backend_for(o->target);
	if (!ops)
		return sb_errf(e, "%s: no backend for this target (is the simulator built in?)",
			       o->target ? o->target : "(none)");
	struct engine *eng = calloc(1, sizeof *eng);
	if (!eng)
		return sb_errf(e, "out of memory");
	eng->ops = ops;
	eng->opts = *o;
	struct open_opts oo = { .write = o->allow_write, .create_size = o->file_size,
				.sim_options = o->sim_options, .sim_memo = o->sim_memo };
	if (ops->open(o->target, &oo, &eng->target, &eng->facts, e)) {
		free(eng);
		return -1;
	}
	*out = eng;
	return 0;
}

void engine_close(struct engine *eng)
{
	if (!eng)
		return;
	eng->ops->close(eng->target);
	free(eng);
}

const struct target_facts *engine_facts(const struct engine *eng)
{
	return &eng->facts;
}

uint64_t engine_now(struct engine *eng)
{
	return eng->ops->now(eng->target);
}

void engine_idle(struct engine *eng, uint64_t dt_ns)
{
	eng->ops->idle(eng->target, dt_ns);
}

int engine_discard(struct engine *eng, uint64_t off, uint64_t len, struct sb_err *e)
{
	if (!eng->opts.allow_write)
		return sb_errf(e, "%s: opened read-only, cannot discard", eng->facts.path);
	return eng->ops->discard(eng->target, off, len, e);
}

void run_fail(struct run *r, const struct sb_err *e)
{
	pthread_mutex_lock(&r->mu);
	if (!r->have_err) {
		r->err = *e;
		r->have_err = true;
	}
	atomic_store(&r->abort, true);
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
}

/* Buffers a and b trade their histograms (a job's buffers all have the
   same directions). */
static void swap_histograms(struct ivl_buf *a, struct ivl_buf *b)
{
	for (int d = 0; d < DIR_COUNT; d++) {
		struct lat_hist *h = a->hist[d], *rs = a->resp[d], *l = a->late[d];
		a->hist[d] = b->hist[d];
		a->resp[d] = b->resp[d];
		a->late[d] = b->late[d];
		b->hist[d] = h;
		b->resp[d] = rs;
		b->late[d] = l;
	}
}

/*
 * The job moves on to its next interval's buffer (after a handover).
 * `drained`: the collector has taken every interval published (tail ==
 * head, seen under the lock), so the buffer just handed over is free
 * again: its histograms, whose buckets were just written and read, are
 * in cache, and they go on to the next interval in place of the next
 * buffer's, untouched for IVL_RING intervals (which move to the free
 * buffer, to be reset when it is next in use).  On a virtual clock every
 * interval is collected at its hand-over, so a bulk stream's intervals
 * all use the same few cache lines instead of sixteen histograms' worth.
 */
static void next_buffer(struct run *r, struct job *j, bool drained)
{
	struct ivl_buf *b = &j->ring[j->head % IVL_RING];
	if (drained)
		swap_histograms(b, &j->ring[(j->head - 1) % IVL_RING]);
	for (int d = 0; d < DIR_COUNT; d++) {
		if (b->hist[d])
			hist_reset(b->hist[d]);
		if (b->resp[d]) {
			hist_reset(b->resp[d]);
			hist_reset(b->late[d]);
		}
		b->bytes[d] = b->ios[d] = 0;
	}
	b->sim_ios = 0;
	b->last = false;
	j->cur_index++;
	j->next_boundary += r->interval;
}

/*
 * How many published intervals a job may have waiting for the collector.
 * On a real device the ring absorbs a slow database commit.  On a virtual
 * clock nothing paces the driver, so it would run up to IVL_RING intervals
 * ahead of the hooks, and a hook's stop (steady state reached) would land
 * wherever thread scheduling put the driver: there the driver waits for
 * each interval to be collected, the stop is exact and reruns identical.
 */
static uint64_t ring_limit(const struct run *r)
{
	return r->ops->caps.virtual_time ? 1 : IVL_RING;
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t run_wall_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

uint64_t run_wall_coarse_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC_COARSE);
}

/*
 * Wait, under r->mu, until the collector has made room in j's ring.  In
 * real time that is a stall of real I/O (nothing is submitted meanwhile):
 * it is counted, with its length, for the run's record.  In virtual time
 * the wait is the pacing described at ring_limit, not a stall.
 */
static void wait_for_room(struct run *r, struct job *j)
{
	if (j->head - j->tail < ring_limit(r))
		return;
	bool count = !r->ops->caps.virtual_time;
	uint64_t t0 = count ? run_wall_ns() : 0;
	while (j->head - j->tail >= ring_limit(r))
		pthread_cond_wait(&r->cv, &r->mu);
	if (count) {
		atomic_fetch_add(&j->wl->stalls, 1);
		atomic_fetch_add(&j->wl->stall_ns, run_wall_ns() - t0);
	}
}

/*
 * On a virtual clock the collector runs on the driver's thread, called
 * here after every hand-over (under r->mu): what the thread hand-off gave
 * with a ring of one (every interval collected before the driver goes
 * on, so a hook's stop lands at the same interval) without a sleep and a
 * wake-up of two threads per interval.  Nothing is collected before the
 * run has started (a failed start publishes its empty last intervals).
 */
static void collect_inline(struct run *r)
{
	if (r->go)
		collect_ready(r, r->hooks, NULL);
}

void run_publish(struct run *r, struct job *j)
{
	struct ivl_buf *b = &j->ring[j->head % IVL_RING];
	bool last = b->last;
	b->index = j->cur_index;
	pthread_mutex_lock(&r->mu);
	j->head++;
	if (r->inline_collector) {
		collect_inline(r);
	} else {
		pthread_cond_broadcast(&r->cv);
		if (!last)
			wait_for_room(r, j);
	}
	bool drained = j->tail == j->head;
	pthread_mutex_unlock(&r->mu);
	if (!last)
		next_buffer(r, j, drained);
}

static bool ends_at(const struct job *j, uint64_t boundary)
{
	return !j->done && j->next_boundary == boundary;
}

void run_publish_at(struct run *r, struct job **jobs, uint32_t n, uint64_t boundary)
{
	for (uint32_t i = 0; i < n; i++)
		if (ends_at(jobs[i], boundary))
			jobs[i]->ring[jobs[i]->head % IVL_RING].index = jobs[i]->cur_index;
	pthread_mutex_lock(&r->mu);
	for (uint32_t i = 0; i < n; i++)
		if (ends_at(jobs[i], boundary))
			jobs[i]->head++;
	if (r->inline_collector) {
		collect_inline(r);
	} else {
		pthread_cond_broadcast(&r->cv);
		for (uint32_t i = 0; i < n; i++)
			if (ends_at(jobs[i], boundary))
				wait_for_room(r, jobs[i]);
	}
	pthread_mutex_unlock(&r->mu);
	/* I/O by I/O an interval's histograms cost little beside its I/Os:
	   the buffers keep their own */
	for (uint32_t i = 0; i < n; i++)
		if (ends_at(jobs[i], boundary))
			next_buffer(r, jobs[i], false);
}

static bool workload_writes(const struct workload *w)
{
	return workload_dir_used(w, DIR_WRITE) || workload_dir_used(w, DIR_TRIM) ||
	       w->fsync_every;
}

static int result_init(struct engine_result *res, uint32_t n, struct sb_err *e)
{
	memset(res, 0, sizeof *res);
	res->wl = calloc(n, sizeof *res->wl);
	if (!res->wl)
		return sb_errf(e, "out of memory");
	res->nworkloads = n;
	for (uint32_t i = 0; i < n; i++)
		for (int d = 0; d < DIR_COUNT; d++)
			if (!(res->wl[i].hist[d] = hist_new()))
				return sb_errf(e, "out of memory");
	return 0;
}

void engine_result_free(struct engine_result *res)
{
	if (!res || !res->wl)
		return;
	for (uint32_t i = 0; i < res->nworkloads; i++)
		for (int d = 0; d < DIR_COUNT; d++) {
			hist_free(res->wl[i].hist[d]);
			hist_free(res->wl[i].response[d]);
			hist_free(res->wl[i].lateness[d]);
		}
	free(res->wl);
	res->wl = NULL;
	res->nworkloads = 0;
}

static void run_free(struct run *r)
{
	for (uint32_t i = 0; i < r->nwl; i++) {
		struct wl_state *wl = &r->wls[i];
		for (uint32_t k = 0; wl->jobs && k < wl->njobs; k++)
			job_free(&wl->jobs[k]);
		free(wl->jobs);
		for (int d = 0; d < DIR_COUNT; d++)
			hist_free(wl->ivl_hist[d]);
	}
	free(r->wls);
	free(r->jobs);
	pthread_mutex_destroy(&r->mu);
	pthread_cond_destroy(&r->cv);
}

static int setup_workloads(struct engine *eng, struct run *r, const struct workload *w,
			   uint32_t n, struct engine_result *res, struct sb_err *e)
{
	r->wls = calloc(n, sizeof *r->wls);
	if (!r->wls)
		return sb_errf(e, "out of memory");
	r->nwl = n;
	uint64_t seed_base = eng->ops->now(eng->target);
	uint32_t njobs = 0;
	for (uint32_t i = 0; i < n; i++) {
		struct wl_state *wl = &r->wls[i];
		wl->w = w[i];
		wl->index = i;
		wl->run = r;
		wl->res = &res->wl[i];
		wl->way = IO_WAY_ENGINE;
		if (workload_validate(&wl->w, eng->facts.size, eng->facts.logical_block, e))
			return sb_err_wrap(e, "workload %u (%s)", i + 1, w[i].name);
		if (workload_dir_used(&wl->w, DIR_TRIM) && !eng->facts.discard)
			return sb_errf(e, "workload %u (%s) trims, but %s does not support "
				       "discard", i + 1, w[i].name, eng->facts.path);
		if (workload_writes(&wl->w) && !eng->opts.allow_write)
			return sb_errf(e, "workload %u (%s) writes, but the target was opened "
				       "read-only", i + 1, w[i].name);
		if (!wl->w.seed) {
			uint64_t x = seed_base + i;
			wl->w.seed = seed_draw(&x);
		}
		for (int d = 0; d < DIR_COUNT; d++)
			if (!(wl->ivl_hist[d] = hist_new()))
				return sb_errf(e, "out of memory");
		for (int d = 0; d < DIR_COUNT && workload_open_loop(&wl->w); d++)
			if (!(wl->res->response[d] = hist_new()) ||
			    !(wl->res->lateness[d] = hist_new()))
				return sb_errf(e, "out of memory");
		njobs += wl->w.jobs;
	}
	uint64_t x = r->wls[0].w.seed;
	r->stamp_salt = splitmix64(&x);
	r->jobs = calloc(njobs, sizeof *r->jobs);
	if (!r->jobs)
		return sb_errf(e, "out of memory");
	uint32_t g = 0;
	for (uint32_t i = 0; i < n; i++) {
		struct wl_state *wl = &r->wls[i];
		wl->jobs = calloc(wl->w.jobs, sizeof *wl->jobs);
		if (!wl->jobs)
			return sb_errf(e, "out of memory");
		wl->njobs = wl->w.jobs;
		for (uint32_t k = 0; k < wl->njobs; k++) {
			/* Single queue: buffers of all jobs side by side. */
			uint32_t base = 0;
			if (eng->ops->caps.single_queue)
				for (uint32_t p = 0; p < g; p++)
					base += r->jobs[p]->qd;
			if (job_init(&wl->jobs[k], wl, k, g, base, e))
				return -1;
			r->jobs[g++] = &wl->jobs[k];
		}
	}
	r->njobs = njobs;
	return 0;
}

/* Start the drivers, wait until each has its queue, then let them go. */
static int start_drivers(struct run *r, struct driver *drv, uint32_t ndrv)
{
	for (uint32_t i = 0; i < ndrv; i++) {
		if (pthread_create(&drv[i].thread, NULL, driver_main, &drv[i])) {
			struct sb_err te;
			sb_errf(&te, "cannot start an I/O thread");
			run_fail(r, &te);
			break;
		}
		drv[i].started = true;
	}
	pthread_mutex_lock(&r->mu);
	uint32_t started = 0;
	for (uint32_t i = 0; i < ndrv; i++)
		started += drv[i].started;
	while (r->ready < started)
		pthread_cond_wait(&r->cv, &r->mu);
	bool ok = !r->failed_setup && started == ndrv;
	pthread_mutex_unlock(&r->mu);
	return run_go(r, ok) ? 0 : -1;
}

bool run_go(struct run *r, bool ok)
{
	/* The start hook first (it may write to a store that takes a while):
	   the workloads' clock starts when the I/O can. */
	const struct engine_hooks *hooks = r->hooks;
	struct sb_err e;
	if (ok && hooks->on_start && hooks->on_start(hooks->ctx, r->facts, r->mode, &e)) {
		run_fail(r, &e);
		ok = false;
	}
	if (ok) {
		r->t0 = r->ops->now(r->target);
		for (uint32_t i = 0; i < r->nwl; i++) {
			struct wl_state *wl = &r->wls[i];
			uint64_t ramp = (wl->w.ramp_ns + r->interval - 1) / r->interval * r->interval;
			wl->start = r->t0;
			wl->ramp_end = r->t0 + ramp;
			wl->stop_at = wl->w.stop_time_ns ? wl->ramp_end + wl->w.stop_time_ns : UINT64_MAX;
			wl->last_ckpt_wall = run_wall_coarse_ns();
			for (uint32_t k = 0; k < wl->njobs; k++)
				job_start(&wl->jobs[k], r->t0);
		}
	}
	pthread_mutex_lock(&r->mu);
	if (ok)
		r->go = true;
	else
		atomic_store(&r->abort, true);
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
	return ok;
}

int engine_run(struct engine *eng, const struct workload *w, uint32_t n,
	       const struct engine_hooks *hooks_in, struct engine_result *res,
	       struct sb_err *e)
{
	static const struct engine_hooks no_hooks;
	const struct engine_hooks *hooks = hooks_in ? hooks_in : &no_hooks;
	if (!n)
		return sb_errf(e, "no workload to run");
	if (result_init(res, n, e))
		return -1;
	snprintf(res->backend, sizeof res->backend, "%s", eng->ops->name);
	res->facts = eng->facts;

	struct run r;
	memset(&r, 0, sizeof r);
	pthread_mutex_init(&r.mu, NULL);
	pthread_cond_init(&r.cv, NULL);
	r.ops = eng->ops;
	r.target = eng->target;
	r.opts = &eng->opts;
	r.hooks = hooks;
	r.facts = &eng->facts;
	/* A virtual clock has nothing to overlap: no threads to hand
	   intervals between (see collect_inline). */
	r.inline_collector = eng->ops->caps.virtual_time && eng->ops->caps.single_queue;
	r.interval = eng->opts.interval_ns ? eng->opts.interval_ns : DEFAULT_INTERVAL_NS;
	/* One completion per wait unless asked (fio's default,
	   iodepth_batch_complete_min=1): waiting for k delays the stamps of
	   the first k-1 of them, see docs/run.md. */
	r.batch = eng->opts.batch ? eng->opts.batch : 1;

	int rc = -1;
	struct driver *drv = NULL;
	uint32_t ndrv = 0;
	if (eng->opts.iolog_path && iolog_create(eng->opts.iolog_path, e))
		goto out;
	if (setup_workloads(eng, &r, w, n, res, e))
		goto out;

	ndrv = eng->ops->caps.single_queue ? 1 : r.njobs;
	drv = calloc(ndrv, sizeof *drv);
	if (!drv) {
		sb_errf(e, "out of memory");
		goto out;
	}
	for (uint32_t i = 0; i < ndrv; i++) {
		drv[i].run = &r;
		drv[i].jobs = eng->ops->caps.single_queue ? r.jobs : &r.jobs[i];
		drv[i].njobs = eng->ops->caps.single_queue ? r.njobs : 1;
	}
	if (r.inline_collector) {
		/* One driver on this thread; it starts the run itself (run_go)
		   and collects as it publishes. */
		driver_main(&drv[0]);
		if (r.go)
			collector_loop(&r, hooks);
	} else if (!start_drivers(&r, drv, ndrv)) {
		collector_loop(&r, hooks);
	}
	for (uint32_t i = 0; i < ndrv; i++)
		if (drv[i].started)
			pthread_join(drv[i].thread, NULL);
	snprintf(res->mode, sizeof res->mode, "%s", r.mode);
	res->batch = r.batch;
	for (uint32_t i = 0; i < r.nwl; i++) {
		res->wl[i].driver_stalls = atomic_load(&r.wls[i].stalls);
		res->wl[i].driver_stall_ns = atomic_load(&r.wls[i].stall_ns);
	}
	rc = 0;
out:
	free(drv);
	run_free(&r);
	if (r.have_err) {
		*e = r.err;
		rc = -1;
	}
	return rc;
}
