/*
 * The `sim` backend: the virtual-time SSD model behind the backend
 * interface.  One target is one simulated drive with one clock, so it has
 * one queue (caps.single_queue) and the engine drives it from one thread;
 * now() is the model's clock and idle() lets the drive do its background
 * work.  Completions carry their model time (caps.stamps_completions).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "sim/sim.h"
#include "sim/spec.h"

struct backend_target {
	struct sim *sim;
	bool fluid;
	bool sampled;		/* sampled=0: sampled streams run exact */
	bool sampled_mix;	/* the profile's: sequential mixes are sampled */
	struct backend_queue *q;
};

struct backend_queue {
	struct backend_target *t;
	uint8_t *bufs;
	uint32_t nbufs, buf_size;
	struct sim_cpl *cpl;
	uint32_t ncpl;
	bool sync;		/* O_SYNC: writes complete on media */
};

static int sim_b_open(const char *spec, const struct open_opts *o,
		      struct backend_target **out, struct target_facts *f,
		      struct sb_err *e)
{
	struct sim_spec sp;
	if (sim_spec_parse(spec, o ? o->sim_options : NULL, &sp, e))
		return -1;
	struct backend_target *t = calloc(1, sizeof *t);
	if (!t)
		return sb_errno(e, ENOMEM, "sim");
	if (sim_open(&sp.profile, sp.seed, &t->sim, e)) {
		free(t);
		return -1;
	}
	if (o && o->sim_memo)
		sim_use_memo(t->sim, o->sim_memo);
	t->fluid = sp.fluid;
	t->sampled = sp.sampled;
	t->sampled_mix = sp.profile.sampled_mix;
	memset(f, 0, sizeof *f);
	f->size = sim_capacity(t->sim);
	f->logical_block = 512;
	f->physical_block = 4096;
	f->is_sim = true;
	f->discard = true;
	snprintf(f->path, sizeof f->path, "%s", spec);
	snprintf(f->kind, sizeof f->kind, "sim");
	*out = t;
	return 0;
}

static void sim_b_close(struct backend_target *t)
{
	if (!t)
		return;
	sim_close(t->sim);
	free(t);
}

static void sim_b_queue_destroy(struct backend_queue *q)
{
	if (!q)
		return;
	q->t->q = NULL;
	free(q->bufs);
	free(q->cpl);
	free(q);
}

static int sim_b_queue_create(struct backend_target *t, const struct queue_opts *o,
			      struct backend_queue **out, struct sb_err *e)
{
	if (t->q)
		return sb_errf(e, "sim: a simulated drive has one queue, and it exists");
	struct backend_queue *q = calloc(1, sizeof *q);
	if (!q)
		return sb_errno(e, ENOMEM, "sim: queue");
	q->t = t;
	q->nbufs = o->nbufs;
	q->buf_size = o->buf_size;
	q->ncpl = o->depth ? o->depth : 1;
	q->sync = o->sync;
	size_t bytes = (size_t)o->nbufs * o->buf_size;
	if ((bytes && posix_memalign((void **)&q->bufs, 4096, bytes)) ||
	    !(q->cpl = calloc(q->ncpl, sizeof *q->cpl))) {
		free(q->bufs);
		free(q);
		return sb_errno(e, ENOMEM, "sim: %u buffers of %u bytes", o->nbufs, o->buf_size);
	}
	t->q = q;
	*out = q;
	return 0;
}

static void *sim_b_queue_buffer(struct backend_queue *q, uint32_t i)
{
	return i < q->nbufs ? q->bufs + (size_t)i * q->buf_size : NULL;
}

static const char *sim_b_queue_mode(struct backend_queue *q)
{
	(void)q;
	return "virtual";
}

static int sim_b_submit(struct backend_queue *q, const struct io_req *reqs,
			uint32_t n, struct sb_err *e)
{
	static const uint8_t map[] = { SIM_READ, SIM_WRITE, SIM_TRIM, SIM_FLUSH };
	for (uint32_t i = 0; i < n; i++) {
		if (reqs[i].op > IO_FSYNC)
			return sb_errf(e, "sim: unknown operation %u", reqs[i].op);
		struct sim_io io = { map[reqs[i].op], reqs[i].offset, reqs[i].len,
				     reqs[i].user_data, q->sync };
		if (sim_submit(q->t->sim, &io, e))
			return -1;
	}
	return (int)n;
}

static int sim_b_reap(struct backend_queue *q, struct io_cpl *out, uint32_t min,
		      uint32_t max, uint64_t deadline_ns, struct sb_err *e)
{
	(void)e;
	int total = 0;
	while ((uint32_t)total < max) {
		uint32_t want = max - (uint32_t)total;
		if (want > q->ncpl)
			want = q->ncpl;
		uint32_t need = min > (uint32_t)total ? min - (uint32_t)total : 0;
		if (need > want)
			need = want;
		int got = sim_reap(q->t->sim, q->cpl, (int)need, (int)want, deadline_ns);
		for (int i = 0; i < got; i++)
			out[total + i] = (struct io_cpl){ q->cpl[i].tag, q->cpl[i].res,
							  q->cpl[i].t_done_ns };
		total += got;
		if ((uint32_t)got < want)
			break;
	}
	return total;
}

static uint64_t sim_b_now(struct backend_target *t)
{
	return sim_now(t->sim);
}

static void sim_b_idle(struct backend_target *t, uint64_t dt_ns)
{
	sim_idle(t->sim, dt_ns);
}

static int sim_b_discard(struct backend_target *t, uint64_t off, uint64_t len,
			 struct sb_err *e)
{
	return sim_discard(t->sim, off, len, e);
}

static int sim_b_flush(struct backend_target *t, struct sb_err *e)
{
	(void)e;
	sim_flush(t->sim);
	return 0;
}

struct fluid_tramp {
	fluid_slice_fn fn;
	void *ctx;
};

_Static_assert(FLUID_MAX_SIDE == SIM_MAX_SIDE, "side streams: one limit");

static int tramp(void *ctx, const struct sim_slice *sl, struct sb_err *e)
{
	struct fluid_tramp *t = ctx;
	struct fluid_slice fs = {
		.t_start_ns = sl->t_start_ns, .t_end_ns = sl->t_end_ns,
		.bytes = sl->bytes, .ios = sl->ios, .lat = sl->lat,
		.next_off = sl->next_off,
		.wbytes = sl->wbytes, .wios = sl->wios, .wlat = sl->wlat,
		.sim_ios = sl->sim_ios,
		.way = sl->way == SIM_WAY_SAMPLED ? IO_WAY_SAMPLED :
		       sl->way == SIM_WAY_BULK ? IO_WAY_BULK : IO_WAY_EXACT,
	};
	for (int i = 0; i < SIM_MAX_SIDE; i++) {
		fs.side[i].bytes = sl->side[i].bytes;
		fs.side[i].ios = sl->side[i].ios;
		fs.side[i].lat = sl->side[i].lat;
		fs.side[i].sim_ios = sl->side[i].sim_ios;
	}
	return t->fn(t->ctx, &fs, e);
}

static int sim_b_run_fluid(struct backend_queue *q, const struct fluid_stream *st,
			   uint64_t max_bytes, uint64_t max_ns, uint64_t slice_ns,
			   fluid_slice_fn fn, void *ctx, struct sb_err *e)
{
	if (!q->t->fluid)
		return sb_errno(e, ENOTSUP, "sim: bulk streams are off (fluid=0)");
	if (!st->read_pct && st->op != IO_READ && st->op != IO_WRITE)
		return sb_errf(e, "sim: a fluid stream reads or writes");
	struct sim_stream ss = {
		.write = st->op == IO_WRITE, .random = st->random, .bs = st->bs,
		.qd = st->qd, .span_off = st->span_off, .span_len = st->span_len,
		.start_off = st->start_off, .seed = st->seed, .read_pct = st->read_pct,
		.exact = st->exact, .on_grid = true, .grid_ns = st->grid_ns,
		.sample_from_ns = st->sample_from_ns,
		.sampled = st->sampled && q->t->sampled && (st->nside || q->t->sampled_mix),
	};
	struct sim_side side[SIM_MAX_SIDE];
	if (st->nside > SIM_MAX_SIDE)
		return sb_errf(e, "sim: at most %d side streams", SIM_MAX_SIDE);
	for (uint32_t i = 0; i < st->nside; i++) {
		const struct fluid_side *f = &st->side[i];
		side[i] = (struct sim_side){
			.op = f->op == IO_TRIM ? SIM_TRIM : SIM_WRITE, .bs = f->bs,
			.span_off = f->span_off, .span_len = f->span_len, .rate = f->rate,
			.flush_every = f->fsync_every, .seed = f->seed,
		};
	}
	ss.side = side;
	ss.nside = st->nside;
	struct fluid_tramp t = { fn, ctx };
	return sim_run_fluid(q->t->sim, &ss, max_bytes, max_ns, slice_ns, tramp, &t, e);
}

const struct backend_ops backend_sim = {
	.name = "sim",
	.caps = { .single_queue = true, .virtual_time = true, .stamps_completions = true },
	.open = sim_b_open,
	.close = sim_b_close,
	.queue_create = sim_b_queue_create,
	.queue_destroy = sim_b_queue_destroy,
	.queue_buffer = sim_b_queue_buffer,
	.queue_mode = sim_b_queue_mode,
	.submit = sim_b_submit,
	.reap = sim_b_reap,
	.now = sim_b_now,
	.idle = sim_b_idle,
	.discard = sim_b_discard,
	.flush = sim_b_flush,
	.run_fluid = sim_b_run_fluid,
};
