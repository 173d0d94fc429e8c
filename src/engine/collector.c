/*
 * The collector: on the calling thread, it turns the jobs' published
 * intervals into one interval sample per workload, keeps the workload's
 * running totals (exact sums and a merged histogram, constant memory
 * however long the run) and calls the hooks, so hooks never run on an I/O
 * thread.
 */
#include <string.h>
#include <time.h>

#include "engine/internal.h"

/* Checkpoints about once a second of backend time. */
#define CHECKPOINT_NS 1000000000ull

/* Every job of the workload has interval next_index ready (or is over). */
static bool interval_ready(const struct wl_state *wl)
{
	for (uint32_t i = 0; i < wl->njobs; i++) {
		const struct job *j = &wl->jobs[i];
		if (!j->collected_last && j->tail == j->head)
			return false;
	}
	return true;
}

static void fill_dir(struct interval_dir *out, const struct lat_hist *h,
		     uint64_t bytes, uint64_t ios)
{
	static const double ps[] = { 50, 99 };
	uint64_t v[2] = { 0, 0 };
	memset(out, 0, sizeof *out);
	out->bytes = bytes;
	out->ios = ios;
	if (!h || !h->count)
		return;
	hist_percentiles(h, ps, 2, v);
	out->lat_p50_ns = v[0];
	out->lat_p99_ns = v[1];
	out->lat_max_ns = h->max;
	out->lat_sum_ns = h->sum;
}

static void measured_so_far(struct wl_state *wl, uint64_t t_now)
{
	struct workload_result *res = wl->res;
	res->started_ns = wl->start;
	res->finished_ns = t_now;
	res->measured_ns = t_now > wl->ramp_end ? t_now - wl->ramp_end : 0;
	res->driver_stalls = atomic_load(&wl->stalls);
	res->driver_stall_ns = atomic_load(&wl->stall_ns);
	res->way = wl->way;
}

/* Merge interval next_index of every job; the collector owns those buffers. */
static void merge_interval(struct run *r, struct wl_state *wl,
			   struct interval_sample *s)
{
	uint64_t bytes[DIR_COUNT] = { 0 }, ios[DIR_COUNT] = { 0 }, sim = 0, all = 0;
	uint64_t i = wl->next_index;
	memset(s, 0, sizeof *s);
	s->workload = wl->index;
	s->index = i;
	s->t_start_ns = i * r->interval;
	s->t_end_ns = (i + 1) * r->interval;
	s->ramp = wl->start + s->t_end_ns <= wl->ramp_end;
	/* One job with this interval (one job, or a bulk stream's first):
	   its own histograms are the interval's, no copy needed. */
	const struct lat_hist *one[DIR_COUNT] = { NULL };
	uint32_t live = 0;
	for (uint32_t k = 0; k < wl->njobs; k++) {
		struct job *j = &wl->jobs[k];
		if (!j->collected_last && live++ == 0)
			for (int d = 0; d < DIR_COUNT; d++)
				one[d] = j->ring[j->tail % IVL_RING].hist[d];
	}
	const struct lat_hist *h[DIR_COUNT];
	for (int d = 0; d < DIR_COUNT; d++) {
		h[d] = live == 1 ? one[d] : wl->ivl_hist[d];
		if (live != 1)
			hist_reset(wl->ivl_hist[d]);
	}
	bool all_over = true;
	for (uint32_t k = 0; k < wl->njobs; k++) {
		struct job *j = &wl->jobs[k];
		if (j->collected_last)
			continue;
		struct ivl_buf *b = &j->ring[j->tail % IVL_RING];
		sim += b->sim_ios;
		for (int d = 0; d < DIR_COUNT; d++) {
			bytes[d] += b->bytes[d];
			ios[d] += b->ios[d];
			all += b->ios[d];
			if (b->hist[d] && live != 1)
				hist_merge(wl->ivl_hist[d], b->hist[d]);
			/* open loop: straight into the totals (no per-interval
			   figure of its own) */
			if (b->resp[d] && !s->ramp) {
				hist_merge(wl->res->response[d], b->resp[d]);
				hist_merge(wl->res->lateness[d], b->late[d]);
			}
		}
		if (b->last) {
			j->collected_last = true;
			if (b->t_last > wl->t_last)
				wl->t_last = b->t_last;
		} else {
			all_over = false;
		}
	}
	if (all_over) {
		/* The last interval ends with the last completion. */
		wl->finished = true;
		uint64_t end = wl->t_last > wl->start ? wl->t_last - wl->start : 0;
		if (end < s->t_end_ns)
			s->t_end_ns = end > s->t_start_ns ? end : s->t_start_ns;
	}
	/* Through the engine on a simulated drive, each I/O was simulated. */
	wl->res->simulated = r->ops->caps.virtual_time;
	if (!s->ramp && wl->res->simulated)
		wl->res->ios_simulated += wl->way == IO_WAY_ENGINE ? all : sim;
	for (int d = 0; d < DIR_COUNT; d++) {
		fill_dir(&s->dir[d], h[d], bytes[d], ios[d]);
		if (s->ramp)
			continue;
		wl->res->bytes[d] += bytes[d];
		wl->res->ios[d] += ios[d];
		if (h[d])
			hist_merge(wl->res->hist[d], h[d]);
	}
	measured_so_far(wl, wl->finished ? wl->t_last : wl->start + s->t_end_ns);
}

/* Done this workload, in [0, 1], or -1 when it runs until told. */
static double workload_fraction(const struct run *r, const struct wl_state *wl)
{
	double f = -1;
	uint64_t elapsed = (wl->next_index) * r->interval;
	if (wl->stop_at != UINT64_MAX && wl->stop_at > wl->start)
		f = (double)elapsed / (double)(wl->stop_at - wl->start);
	if (wl->w.stop_bytes) {
		uint64_t done = 0;
		for (int d = 0; d < DIR_COUNT; d++)
			done += wl->res->bytes[d];
		double fb = (double)done / (double)wl->w.stop_bytes;
		if (fb > f)
			f = fb;
	}
	if (wl->finished)
		f = 1;
	return f > 1 ? 1 : f;
}

static void report_progress(struct run *r, const struct engine_hooks *h,
			    const struct wl_state *wl)
{
	if (!h->on_progress)
		return;
	double f = -1;
	for (uint32_t i = 0; i < r->nwl; i++) {
		double fi = workload_fraction(r, &r->wls[i]);
		if (fi >= 0 && (f < 0 || fi < f))
			f = fi;
	}
	double elapsed = (double)(wl->next_index * r->interval) / 1e9;
	double eta = f > 0 ? elapsed * (1 - f) / f : -1;
	h->on_progress(h->ctx, f, eta, wl->res);
}

/*
 * About once a second: of backend time on a real clock, of wall time on a
 * virtual one, where a simulated hour would otherwise write the totals and
 * histograms 3600 times (a third of a long simulated preconditioning's
 * CPU) while what a crash loses is wall time either way.  The final
 * totals are written at the end whatever the checkpoints were.
 */
static bool checkpoint_due(const struct run *r, const struct wl_state *wl)
{
	if (r->ops->caps.virtual_time)
		return run_wall_coarse_ns() - wl->last_ckpt_wall >= CHECKPOINT_NS;
	uint64_t every = (CHECKPOINT_NS + r->interval - 1) / r->interval;
	return wl->next_index - wl->last_ckpt_index >= every;
}

/* Emit one interval of wl; the lock is not held. */
static void emit(struct run *r, const struct engine_hooks *h, struct wl_state *wl)
{
	struct interval_sample s;
	struct sb_err e;
	merge_interval(r, wl, &s);
	wl->next_index++;
	if (h->on_interval) {
		int rc = h->on_interval(h->ctx, &s, &e);
		if (rc < 0) {
			run_fail(r, &e);
		} else if (rc > 0 && !wl->finished) {
			wl->res->stopped_by_hook = true;
			atomic_store(&wl->stop, true);
		}
	}
	if (h->on_checkpoint && !s.ramp && (wl->finished || checkpoint_due(r, wl))) {
		wl->last_ckpt_index = wl->next_index;
		wl->last_ckpt_wall = run_wall_coarse_ns();
		if (h->on_checkpoint(h->ctx, wl->index, wl->res, &e))
			run_fail(r, &e);
	}
	report_progress(r, h, wl);
}

static void consume(struct wl_state *wl)
{
	for (uint32_t k = 0; k < wl->njobs; k++) {
		struct job *j = &wl->jobs[k];
		if (j->tail < j->head)
			j->tail++;
	}
}

bool collect_ready(struct run *r, const struct engine_hooks *h, bool *all_done_out)
{
	bool progress = false, all_done = true;
	for (uint32_t i = 0; i < r->nwl; i++) {
		struct wl_state *wl = &r->wls[i];
		while (!wl->finished && interval_ready(wl)) {
			pthread_mutex_unlock(&r->mu);
			emit(r, h, wl);
			pthread_mutex_lock(&r->mu);
			consume(wl);
			progress = true;
		}
		all_done &= wl->finished;
	}
	if (!all_done && r->opts->interrupted && *r->opts->interrupted)
		for (uint32_t i = 0; i < r->nwl; i++)
			atomic_store(&r->wls[i].stop, true);
	if (all_done_out)
		*all_done_out = all_done;
	return progress;
}

int collector_loop(struct run *r, const struct engine_hooks *h)
{
	pthread_mutex_lock(&r->mu);
	for (;;) {
		bool all_done;
		bool progress = collect_ready(r, h, &all_done);
		if (progress)
			pthread_cond_broadcast(&r->cv);
		if (all_done)
			break;
		if (!progress) {
			/* Woken by a publish; the timeout only polls for SIGINT. */
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 50000000;
			if (ts.tv_nsec >= 1000000000) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000;
			}
			pthread_cond_timedwait(&r->cv, &r->mu, &ts);
		}
	}
	pthread_mutex_unlock(&r->mu);
	return 0;
}
