/*
 * The bulk path: on a backend that offers run_fluid (the simulator), a run
 * of one uniform stream hands the whole stream to the backend, which
 * advances it slice by slice and reports each slice's bytes, I/Os and
 * latencies.  The engine stays the only driver of the device: it still
 * owns the clock's use, the ramp, the stop conditions and the intervals;
 * the slices land in the job's interval ring exactly as completions would.
 *
 * Only streams whose I/Os are interchangeable qualify: one job, no rate
 * (an open loop's arrivals are per I/O), no fsyncs or O_SYNC, no per-I/O
 * log; writes, or reads, or a random mix of both.  Streams that read below QD 16 stay I/O by I/O, so a
 * low-depth tail measurement counts every real I/O, unless the workload
 * says it needs no tail (bulk_any_depth: a sweep's point).
 */
#include <errno.h>
#include <stdatomic.h>

#include "engine/internal.h"

#define FLUID_MIN_READ_QD 16

bool fluid_eligible(const struct driver *d)
{
	const struct run *r = d->run;
	if (!r->ops->run_fluid || d->njobs != 1 || r->opts->iolog_path)
		return false;
	const struct workload *w = &d->jobs[0]->wl->w;
	if (w->trim_pct || workload_open_loop(w) || w->fsync_every || w->sync || w->buffered ||
	    workload_is_replay(w))
		return false;
	/* the bulk path spreads uniformly, at one block size */
	if (w->dist.kind != DIST_UNIFORM || workload_has_bssplit(w))
		return false;
	if (w->read_pct == 0)
		return true;
	if (w->read_pct < 100 && w->pattern != PATTERN_RAND)
		return false;
	return w->qd >= FLUID_MIN_READ_QD || w->bulk_any_depth;
}

struct fluid_ctx {
	struct run *r;
	struct job *j;
	enum io_dir dir;
	uint64_t next_off;
	bool any;		/* a slice arrived */
	bool pending;		/* the current interval is complete, not yet
				   handed over: the stream's last one is
				   handed over as the final interval */
};

static int on_slice(void *ctx, const struct fluid_slice *s, struct sb_err *e)
{
	(void)e;
	struct fluid_ctx *c = ctx;
	struct job *j = c->j;
	if (c->pending) {
		run_publish(c->r, j);
		c->pending = false;
	}
	struct ivl_buf *b = &j->ring[j->head % IVL_RING];
	c->any = true;
	b->bytes[c->dir] += s->bytes;
	b->ios[c->dir] += s->ios;
	if (s->ios) {
		hist_merge(b->hist[c->dir], s->lat);
		j->t_last = s->t_end_ns;
	}
	if (s->wios) {	/* a mix: c->dir is its reads */
		b->bytes[DIR_WRITE] += s->wbytes;
		b->ios[DIR_WRITE] += s->wios;
		hist_merge(b->hist[DIR_WRITE], s->wlat);
		j->t_last = s->t_end_ns;
	}
	c->next_off = s->next_off;
	/* Intervals are (start, end]: a slice ending on the boundary closes it. */
	if (j->next_boundary <= s->t_end_ns)
		c->pending = true;
	if (atomic_load(&j->wl->stop) || atomic_load(&c->r->abort))
		return 1;
	return 0;
}

/* One call of the backend; 1 when it declined before doing anything. */
static int run_part(struct fluid_ctx *c, struct backend_queue *q,
		    struct fluid_stream *st, uint64_t max_bytes, uint64_t max_ns)
{
	struct sb_err e;
	sb_err_clear(&e);
	if (c->r->ops->run_fluid(q, st, max_bytes, max_ns, c->r->interval, on_slice, c, &e)) {
		if (e.errnum == ENOTSUP && !c->any)
			return 1;
		run_fail(c->r, &e);
		return -1;
	}
	st->start_off = c->next_off;
	return 0;
}

bool fluid_drive(struct driver *d, struct backend_queue *q)
{
	struct run *r = d->run;
	struct job *j = d->jobs[0];
	struct wl_state *wl = j->wl;
	const struct workload *w = &wl->w;
	struct fluid_ctx c = { .r = r, .j = j, .dir = w->read_pct ? DIR_READ : DIR_WRITE };
	struct fluid_stream st = {
		.op = w->read_pct ? IO_READ : IO_WRITE,
		.random = w->pattern == PATTERN_RAND,
		.bs = w->bs, .qd = j->qd,
		.span_off = j->og.base, .span_len = j->og.nblocks * w->bs,
		.start_off = j->og.base + j->og.next * w->bs,
		.seed = rng_next(&j->rng),
		.read_pct = w->read_pct > 0 && w->read_pct < 100 ? w->read_pct : 0,
	};
	c.next_off = st.start_off;
	uint64_t now = r->ops->now(r->target);
	int rc = 0;
	if (wl->ramp_end > now)
		rc = run_part(&c, q, &st, 0, wl->ramp_end - now);
	if (rc == 1)
		return false;	/* the backend declined: run I/O by I/O */
	now = r->ops->now(r->target);
	if (rc == 0 && !atomic_load(&wl->stop) && !atomic_load(&r->abort) &&
	    now < wl->stop_at) {
		uint64_t max_ns = wl->stop_at != UINT64_MAX ? wl->stop_at - now : 0;
		uint64_t max_bytes = w->stop_bytes;
		if (!max_ns && !max_bytes)
			max_ns = UINT64_MAX;	/* until a hook says stop */
		rc = run_part(&c, q, &st, max_bytes, max_ns);
		if (rc == 1)
			return false;
	}
	job_finish(j);
	return true;
}
