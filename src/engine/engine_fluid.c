/*
 * The bulk path: on a backend that offers run_fluid (the simulator), a run
 * of one uniform stream hands the whole stream to the backend, which
 * advances it slice by slice and reports each slice's bytes, I/Os and
 * latencies.  The engine stays the only driver of the device: it still
 * owns the clock's use, the ramp, the stop conditions and the intervals;
 * the slices land in the job's interval ring exactly as completions would.
 *
 * Only streams whose I/Os are interchangeable qualify: one workload, no
 * rate (an open loop's arrivals are per I/O) and no replay, no fsyncs or
 * O_SYNC, no per-I/O log; writes, or reads, or a mix of both.  Streams that read below QD 16, and sequential mixes at
 * any depth, go "exact": the backend simulates every I/O of them in its
 * own loop (nothing extrapolated, so a low-depth tail measurement counts
 * every I/O; only the engine's per-I/O work is saved).  A random stream
 * that says it needs no tail (bulk_any_depth: a sweep's point, an rw_ratio
 * run) takes the calibrated bulk path at any depth.
 *
 * Several random jobs of one workload on the one queue are one stream at
 * their summed depth: each keeps its QD in flight, so the queue holds the
 * sum, and their I/Os are drawn alike.  The stream is accounted to the
 * first job; the others hand over an empty last interval at the start,
 * so the workload's samples and totals are the stream's.  (Sequential
 * jobs each own a slice of the span: they stay separate streams.)
 *
 * Beside a reading workload, rate-limited single-I/O workloads that write
 * (with fsyncs) or trim go along as the backend's side streams (the boot
 * search: readers, writer, trimmer), each I/O of theirs simulated, and so
 * is every read (exact).  They share the reads' start and stop: no ramp,
 * the same time, no byte limit of their own.  When the readers need no
 * per-I/O tail (sampled_ok: a boot trial's, whose figures are its rate,
 * p99, p99.9 and max) the stream goes as `sampled`: the backend may
 * simulate the reads in windows recurring through the run and repeat
 * them between, the side streams' I/Os still all simulated.  A sweep
 * point's sequential mix (bulk_any_depth: its rate and percentiles) goes
 * as `sampled` too: the backend simulates it in windows and warps the
 * time between, its writes all through the write path.
 */
#include <errno.h>
#include <stdatomic.h>

#include "engine/internal.h"

#define FLUID_MIN_READ_QD 16

/* The backend can take this workload's I/Os as a uniform stream. */
static bool uniform(const struct workload *w)
{
	/* the bulk path spreads uniformly, at one block size */
	return !w->sync && !w->buffered && w->dist.kind == DIST_UNIFORM &&
	       !workload_has_bssplit(w);
}

/* A side stream: one job at QD 1, a rate, random writes or trims. */
static bool side_eligible(const struct wl_state *wl, const struct wl_state *main)
{
	const struct workload *w = &wl->w;
	bool writes = w->read_pct == 0 && w->trim_pct == 0;
	bool trims = w->trim_pct == 100 && !w->fsync_every;
	/* its rate as evenly spaced arrivals: the backend's own pacing */
	return wl->njobs == 1 && w->qd == 1 && w->rate && !w->rate_iops &&
	       w->rate_process == ARRIVAL_UNIFORM && uniform(w) &&
	       w->pattern == PATTERN_RAND && (writes || trims) && !w->stop_bytes &&
	       !w->ramp_ns && !main->w.ramp_ns && w->stop_time_ns == main->w.stop_time_ns;
}

/*
 * The driver's workloads as a main stream (jobs [0, n_main)) and side
 * streams (one job each, after it); false when they are not that shape.
 */
static bool split_jobs(const struct driver *d, uint32_t *n_main)
{
	const struct wl_state *wl = d->jobs[0]->wl;
	uint32_t n = wl->njobs;
	if (n > d->njobs || d->jobs[n - 1]->wl != wl || d->njobs - n > FLUID_MAX_SIDE)
		return false;
	for (uint32_t i = n; i < d->njobs; i++)
		if (!side_eligible(d->jobs[i]->wl, wl) ||
		    (wl->w.read_pct != 100 || wl->w.trim_pct))
			return false;
	*n_main = n;
	return true;
}

enum fluid_way fluid_eligible(const struct driver *d)
{
	const struct run *r = d->run;
	uint32_t n;
	if (!r->ops->run_fluid || !d->njobs || r->opts->iolog_path || !split_jobs(d, &n))
		return FLUID_NO;
	const struct workload *w = &d->jobs[0]->wl->w;
	if (n > 1 && w->pattern != PATTERN_RAND)
		return FLUID_NO;
	if (w->trim_pct || workload_open_loop(w) || workload_is_replay(w) ||
	    w->fsync_every || !uniform(w))
		return FLUID_NO;
	/* A sequential mix has no bulk model (the random mix's split of the
	   queue missed its rate by up to 24 %): every I/O, at any depth.  Nor
	   have reads beside side streams: what the side streams do to the
	   reads' tail after a calibration window is not seen (a boot trial's
	   readers' p99 came out 7 % low at 128 readers on the Micron, which
	   moved the search's answer), so every read is simulated there too. */
	if ((w->pattern == PATTERN_SEQ && w->read_pct > 0 && w->read_pct < 100) ||
	    d->njobs > n)
		return FLUID_EXACT;
	if (w->read_pct == 0 || w->qd * n >= FLUID_MIN_READ_QD || w->bulk_any_depth)
		return FLUID_BULK;
	return FLUID_EXACT;
}

struct fluid_ctx {
	struct run *r;
	struct driver *d;
	uint32_t n_main;	/* the main stream's jobs: d->jobs[0, n_main) */
	struct job *j;		/* the first: the main stream's intervals */
	enum io_dir dir;
	struct job *side[FLUID_MAX_SIDE];
	enum io_dir side_dir[FLUID_MAX_SIDE];
	uint32_t nside;
	uint64_t next_off;
	bool any;		/* a slice arrived */
	bool pending;		/* the current interval is complete, not yet
				   handed over: the stream's last one is
				   handed over as the final interval */
};

/* Add n I/Os of `bytes` with their latencies to job j's open interval,
   `sim` of them simulated one by one. */
static void account(struct job *j, enum io_dir d, uint64_t bytes, uint64_t ios,
		    uint64_t sim, const struct lat_hist *lat, uint64_t t_end)
{
	struct ivl_buf *b = &j->ring[j->head % IVL_RING];
	b->bytes[d] += bytes;
	b->ios[d] += ios;
	b->sim_ios += sim;
	if (ios) {
		hist_merge(b->hist[d], lat);
		j->t_last = t_end;
	}
}

static int on_slice(void *ctx, const struct fluid_slice *s, struct sb_err *e)
{
	(void)e;
	struct fluid_ctx *c = ctx;
	struct job *j = c->j;
	if (!c->any) {
		/* The backend took the stream: it is the first job's (see the
		   top), the others are over before any interval.  Its way is
		   the backend's, and the side streams' (beside sampled reads
		   their I/Os wait as they would beside every read). */
		for (uint32_t i = 1; i < c->n_main; i++)
			job_finish(c->d->jobs[i]);
		j->wl->way = s->way;
		for (uint32_t i = 0; i < c->nside; i++)
			c->side[i]->wl->way = s->way;
	}
	if (c->pending) {
		run_publish(c->r, j);
		for (uint32_t i = 0; i < c->nside; i++)
			run_publish(c->r, c->side[i]);
		c->pending = false;
	}
	c->any = true;
	/* the slice's simulated I/Os, of its reads and writes alike */
	account(j, c->dir, s->bytes, s->ios, s->sim_ios, s->lat, s->t_end_ns);
	/* a mix: c->dir is its reads */
	account(j, DIR_WRITE, s->wbytes, s->wios, 0, s->wlat, s->t_end_ns);
	for (uint32_t i = 0; i < c->nside; i++)
		account(c->side[i], c->side_dir[i], s->side[i].bytes, s->side[i].ios,
			s->side[i].sim_ios, s->side[i].lat, s->t_end_ns);
	c->next_off = s->next_off;
	/* Intervals are (start, end]: a slice ending on the boundary closes it. */
	if (j->next_boundary <= s->t_end_ns)
		c->pending = true;
	bool stop = atomic_load(&j->wl->stop) || atomic_load(&c->r->abort);
	for (uint32_t i = 0; i < c->nside; i++)
		stop |= atomic_load(&c->side[i]->wl->stop);
	return stop;
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

/* The side streams of the run: d->jobs[n_main, njobs), one job each. */
static void sides_of(struct fluid_ctx *c, struct fluid_stream *st)
{
	struct driver *d = c->d;
	for (uint32_t i = c->n_main; i < d->njobs; i++) {
		struct job *j = d->jobs[i];
		const struct workload *w = &j->wl->w;
		uint32_t k = c->nside++;
		bool trim = w->trim_pct == 100;
		c->side[k] = j;
		c->side_dir[k] = trim ? DIR_TRIM : DIR_WRITE;
		st->side[k] = (struct fluid_side){
			.op = trim ? IO_TRIM : IO_WRITE, .bs = w->bs,
			.span_off = j->og.base, .span_len = j->og.nblocks * w->bs,
			.rate = j->rate, .fsync_every = w->fsync_every,
			.seed = rng_next(&j->rng),
		};
	}
	st->nside = c->nside;
}

bool fluid_drive(struct driver *d, struct backend_queue *q, enum fluid_way way)
{
	struct run *r = d->run;
	struct job *j = d->jobs[0];
	struct wl_state *wl = j->wl;
	const struct workload *w = &wl->w;
	struct fluid_ctx c = { .r = r, .d = d, .j = j, .dir = w->read_pct ? DIR_READ : DIR_WRITE };
	split_jobs(d, &c.n_main);
	uint32_t qd = 0;
	for (uint32_t i = 0; i < c.n_main; i++)
		qd += d->jobs[i]->qd;
	struct fluid_stream st = {
		.op = w->read_pct ? IO_READ : IO_WRITE,
		.random = w->pattern == PATTERN_RAND,
		.bs = w->bs, .qd = qd,
		.span_off = j->og.base, .span_len = j->og.nblocks * w->bs,
		.start_off = j->og.base + j->og.next * w->bs,
		.seed = rng_next(&j->rng),
		.read_pct = w->read_pct > 0 && w->read_pct < 100 ? w->read_pct : 0,
		.exact = way == FLUID_EXACT,
		/* each part (the ramp, the rest) on the workload's intervals:
		   the ramp's last I/Os may complete past its end */
		.grid_ns = wl->start,
	};
	sides_of(&c, &st);
	/* reads beside side streams that need no per-I/O tail: the backend
	   may simulate them in recurring windows (the writes and trims all);
	   so may it a sweep point's sequential mix (every write still through
	   the write path) */
	bool seq_mix = w->pattern == PATTERN_SEQ && st.read_pct;
	st.sampled = !w->stop_bytes &&
		     (st.nside ? w->sampled_ok : seq_mix && w->bulk_any_depth && st.exact);
	c.next_off = st.start_off;
	uint64_t now = r->ops->now(r->target);
	int rc = 0;
	/* The ramp is never sampled: the measurement starts from the state
	   a ramp of every I/O leaves (a sampled one moved the phase of an
	   SN8100's GC and burst cycle at the start of a sequential mix's
	   point: -1.8 % of its IOPS at QD 32, -0.5 % after an exact ramp). */
	/* An exact stream (no byte limit, which counts from the ramp's end)
	   runs on through the ramp's end, as I/O by I/O; its windows begin
	   there.  Run as two, its queue drained at the ramp's end and filled
	   again: a QD256 mix's first interval after the ramp held a tenth of
	   its reads, the next four times as many as the rest. */
	bool through = st.exact && !w->stop_bytes;
	st.sample_from_ns = wl->ramp_end;
	bool sampled = st.sampled;
	st.sampled = false;
	if (wl->ramp_end > now && !through)
		rc = run_part(&c, q, &st, 0, wl->ramp_end - now);
	st.sampled = sampled;
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
	for (uint32_t i = 0; i < c.nside; i++)
		job_finish(c.side[i]);
	return true;
}
