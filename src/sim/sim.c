/*
 * The simulated drive as a device: open, the clock, submit and reap, idle,
 * trim, and a look at the state.  Timing lives in timing.c, the write path
 * in wpath.c, bulk streams in fluid.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/mapcache.h"
#include "sim/model.h"

int sim_open(const struct sim_profile *p, uint64_t seed, struct sim **out,
	     struct sb_err *e)
{
	struct sim *s = calloc(1, sizeof *s);
	if (!s)
		return sb_errf(e, "sim: out of memory");
	s->p = *p;
	s->m = p->bits_per_cell;
	s->capacity = (uint64_t)(p->user_gb * 1e9) / 4096 * 4096;
	if (s->capacity < (1u << 20)) {
		free(s);
		return sb_errf(e, "sim %s: capacity %.0f bytes is below 1 MiB (scale too small?)",
			       p->name, p->user_gb * 1e9);
	}
	s->U = (double)s->capacity;
	s->R = s->m ? p->phys_gb * 1e9 : s->U;
	s->slc_st_cap = p->slc_static_gb * 1e9;
	s->slc_dyn_max = p->slc_dyn_max_gb * 1e9;
	s->f_res = p->f_res_gb * 1e9;
	s->f_fg = p->f_fg_gb * 1e9;
	s->f_lo = p->f_lo_gb > 0 ? p->f_lo_gb * 1e9 : (s->R - s->U) / 2;
	s->w_burst = p->w_burst_gb * 1e9;
	s->w_slc = p->w_slc_gbs * 1e9;
	s->w_dir = p->w_dir_gbs * 1e9;
	s->f_bg = p->f_bg_gbs * 1e9;
	s->f_idle = p->f_idle_gbs * 1e9;
	s->p_gc = p->p_gc_gbs * 1e9;
	s->g_idle = p->g_idle_gbs * 1e9;
	s->fold_rate = p->fold_rate_gbs * 1e9;
	s->stall_rate = p->stall_rate_gbs * 1e9;
	s->win_open_b = p->win_open_gb * 1e9;
	s->journal_b = p->journal_gib * 1073741824.0;
	s->journal_stall_s = p->journal_stall_ms * 1e-3;
	s->t_idle_enter_s = p->t_idle_enter_ms * 1e-3;

	s->wp.round_seg = -1;
	s->wp.win_open = true;
	s->wp.last = RG_IDLE;
	s->wp.last_busy = -1e9;
	jitter_init(&s->jit, p->tau_s, seed);
	rng_seed(&s->rng_retry, seed ^ 0x7265747279ull);
	rng_seed(&s->rng_collide, seed ^ 0x636f6c6c6964ull);
	rng_seed(&s->rng_fw, seed ^ 0x6677ull);
	rng_seed(&s->rng_chunks, seed ^ 0x6368756e6bull);
	latency_init(s);

	s->core_free = calloc((size_t)p->cores, sizeof *s->core_free);
	s->unit_free = calloc((size_t)p->units, sizeof *s->unit_free);
	s->ch_free = calloc((size_t)p->channels, sizeof *s->ch_free);
	if (p->qd_cap < 1024) {
		s->nslots = (uint32_t)p->qd_cap;
		s->slot_free = calloc(s->nslots, sizeof *s->slot_free);
		s->slot_n = s->nslots;	/* all free at 0 */
	}
	if (!s->core_free || !s->unit_free || !s->ch_free ||
	    (s->nslots && !s->slot_free) || chunks_init(s, e)) {
		sim_close(s);
		return sb_errf(e, "sim %s: out of memory", p->name);
	}
	if (map_init(s, e) || timing_init(s, e)) {
		sim_close(s);
		return -1;
	}
	if (p->rho_eff > 0 && s->m > 0 &&
	    sampler_new(p->rho_eff, s->capacity, s->slc_st_cap + s->slc_dyn_max, seed,
			&s->samp, e)) {
		sim_close(s);
		return -1;
	}
	s->pristine = true;
	*out = s;
	return 0;
}

void sim_close(struct sim *s)
{
	if (!s)
		return;
	sampler_free(s->samp);
	mapcache_free(s->map);
	free(s->tags);
	free(s->core_free);
	free(s->unit_free);
	free(s->ch_free);
	free(s->slot_free);
	free(s->wb);
	cplq_free(&s->cq);
	free(s);
}

const struct sim_profile *sim_profile(const struct sim *s) { return &s->p; }
uint64_t sim_capacity(const struct sim *s) { return s->capacity; }
uint64_t sim_now(const struct sim *s) { return s->now; }
uint32_t sim_outstanding(const struct sim *s) { return cplq_len(&s->cq); }

/* Trim a byte range: its data stops being valid. */
static void trim_range(struct sim *s, uint64_t off, uint64_t len)
{
	if (s->samp)
		sampler_trim(s->samp, off, len);
	for (uint64_t o = off; o < off + len; ) {
		uint64_t c = o / s->chunk;
		uint64_t n = (c + 1) * s->chunk - o;
		if (n > off + len - o)
			n = off + len - o;
		struct overwrite ow;
		chunks_overwrite(s, o, &ow);
		s->piece_end = UINT64_MAX;	/* a trim is no write stream */
		wp_trim(s, ow.inv_slc * (double)n, ow.inv_nat * (double)n, n == s->chunk);
		chunks_trimmed(s, o, n);
		o += n;
	}
}

int sim_submit(struct sim *s, const struct sim_io *io, struct sb_err *e)
{
	s->pristine = false;
	if (io->op != SIM_FLUSH &&
	    (io->offset > s->capacity || io->len > s->capacity - io->offset))
		return sb_errf(e, "sim: I/O at %llu + %llu is beyond the drive's %llu bytes",
			       (unsigned long long)io->offset,
			       (unsigned long long)io->len,
			       (unsigned long long)s->capacity);
	if ((io->op == SIM_READ || io->op == SIM_WRITE) && io->len == 0)
		return sb_errf(e, "sim: zero-length %s", io->op == SIM_READ ? "read" : "write");
	/* A read's chunk tag and map-cache set, a write's chunk, are the
	   loads most likely to miss the CPU's cache: ask for them before the
	   work that does not need them. */
	uint64_t c = io->offset >> s->chunk_shift;
	if (io->op == SIM_READ) {
		__builtin_prefetch(&s->tags[c]);
		if (s->map)
			mapcache_prefetch(s->map, div_by(&s->map_div, io->offset));
	} else if (io->op == SIM_WRITE) {
		__builtin_prefetch(&s->tags[c], 1);
	}
	/* the interface's slots, when it has fewer than the engine holds */
	uint64_t t = s->nslots ? timing_slot(s, s->now) : s->now;
	/* Host activity: bring the background up to now; the drive is busy. */
	double t_s = ns_to_s(t);
	if (t_s > s->wp.t)
		wp_idle_to(s, t_s);
	uint64_t done;
	switch (io->op) {
	case SIM_READ:
		done = timing_read(s, t, io->offset, io->len);
		break;
	case SIM_WRITE:
		done = timing_write(s, t, io->offset, io->len);
		if (io->fua) {
			/* On media: behind everything the buffer holds, then
			   the commit, as a flush would be. */
			uint64_t empty = s->drain_end > done ? s->drain_end : done;
			done = empty + s->t_commit_ns;
		}
		break;
	case SIM_TRIM:
		trim_range(s, io->offset, io->len);
		done = timing_other(s, t);
		break;
	case SIM_FLUSH: {
		uint64_t empty = s->drain_end > t ? s->drain_end : t;
		done = empty + s->t_commit_ns;
		break;
	}
	default:
		return sb_errf(e, "sim: unknown operation %u", io->op);
	}
	if (s->oom) {
		s->oom = false;
		return sb_errno(e, ENOMEM, "sim: write buffer");
	}
	if (s->stuck) {
		s->stuck = false;
		return sb_errf(e, "sim %s: the write path cannot move (no host rate, no folding)",
			       s->p.name);
	}
	if (sim_self_check(s, e))
		return -1;
	if (s->nslots)
		timing_slot_done(s, done);
	double busy = ns_to_s(done);
	if (busy > s->wp.last_busy)
		s->wp.last_busy = busy;
	struct cpl_ent h = {
		.seq = s->seq++, .tag = io->tag, .t_submit = s->now,
		.res = io->op == SIM_FLUSH ? 0 : (int32_t)io->len,
	};
	if (cplq_push(&s->cq, done, h))
		return sb_errno(e, ENOMEM, "sim: completion queue");
	return 0;
}

int sim_reap(struct sim *s, struct sim_cpl *out, int min, int max,
	     uint64_t deadline_ns)
{
	int n = 0;
	s->pristine = false;
	while (n < max && cplq_len(&s->cq)) {
		uint64_t t = cplq_min_t(&s->cq);
		if (t > s->now) {
			/* Wait only while fewer than `min` are in hand. */
			if (n >= min || t > deadline_ns)
				break;
			s->now = t;
		}
		out[n++] = sim_take(s, t);
	}
	if (n < min && deadline_ns != UINT64_MAX && deadline_ns > s->now)
		s->now = deadline_ns;
	return n;
}

uint64_t sim_warp(struct sim *s, uint64_t dt)
{
	s->pristine = false;
	uint64_t last = cplq_shift(&s->cq, dt, s->now + dt);
	timing_shift(s, dt);
	s->now += dt;
	return last;
}

void sim_idle(struct sim *s, uint64_t dt_ns)
{
	s->now += dt_ns;
	wp_idle_to(s, ns_to_s(s->now));
}

int sim_discard(struct sim *s, uint64_t off, uint64_t len, struct sb_err *e)
{
	if (off > s->capacity || len > s->capacity - off)
		return sb_errf(e, "sim: discard of %llu + %llu is beyond the drive's %llu bytes",
			       (unsigned long long)off, (unsigned long long)len,
			       (unsigned long long)s->capacity);
	s->pristine = false;
	wp_idle_to(s, ns_to_s(s->now));
	trim_range(s, off, len);
	return 0;
}

void sim_flush(struct sim *s)
{
	s->pristine = false;
	uint64_t empty = s->drain_end > s->now ? s->drain_end : s->now;
	s->now = empty + s->t_commit_ns;
	wp_idle_to(s, ns_to_s(s->now));
}

void sim_state(const struct sim *s, struct sim_state *st)
{
	const struct wpath *w = &s->wp;
	st->now_s = fmax(ns_to_s(s->now), s->wp.t);
	st->slc_static = w->S_st;
	st->slc_dyn = w->S_dyn;
	st->native_valid = w->T_v;
	st->native_stale = w->T_i;
	st->free_bytes = wp_free(s);
	st->slc_room = wp_slc_room(s);
	st->host_bytes = w->host_bytes;
	st->nand_bytes = w->nand_bytes;
	st->fold_bytes = w->fold_bytes;
	st->gc_copy_bytes = w->gc_copy_bytes;
	st->wa_inst = waf_inst(s);
	st->regime = regime_name(w->last);
	struct mapcache_stats ms = { 0 };
	uint64_t held = 0, dirty = 0;
	if (s->map) {
		mapcache_stats(s->map, &ms);
		mapcache_census(s->map, &held, &dirty);
	}
	st->map_held = (double)held;
	st->map_dirty = (double)dirty;
	st->map_hits = (double)ms.hits;
	st->map_misses = (double)ms.misses;
	st->map_wb_bytes = w->map_wb_bytes;
	st->map_cached_span = s->map ? (double)s->map_slots * (double)s->map_lba : s->U;
	st->repeated_reads = (double)s->repeated_reads;
	st->repeated_writes = (double)s->repeated_writes;
}

int sim_check_invariants(const struct sim *s, struct sb_err *e)
{
	const struct wpath *w = &s->wp;
	const double tol = 1.0 + 1e-9 * s->R;
	if (w->S_st < 0 || w->S_dyn < 0 || w->T_v < 0 || w->T_i < 0)
		return sb_errf(e, "negative counter: S_st %g S_dyn %g T_v %g T_i %g",
			       w->S_st, w->S_dyn, w->T_v, w->T_i);
	if (s->m == 0)
		return 0;
	double F = wp_free(s);
	if (fabs(s->m * w->S_dyn + w->T_v + w->T_i + F - s->R) > tol)
		return sb_errf(e, "m*S_dyn + T_v + T_i + F = %.0f, not R = %.0f",
			       s->m * w->S_dyn + w->T_v + w->T_i + F, s->R);
	if (F < -tol)
		return sb_errf(e, "free space F = %.0f is negative", F);
	if (w->S_st > s->slc_st_cap + tol || w->S_dyn > s->slc_dyn_max + tol)
		return sb_errf(e, "SLC over its size: static %.0f / %.0f, dynamic %.0f / %.0f",
			       w->S_st, s->slc_st_cap, w->S_dyn, s->slc_dyn_max);
	double valid = w->S_st + w->S_dyn + w->T_v;
	if (fabs(valid - (w->host_bytes - w->inv_bytes)) > tol + 1e-9 * w->host_bytes)
		return sb_errf(e, "host bytes not conserved: valid %.0f, written %.0f - invalidated %.0f",
			       valid, w->host_bytes, w->inv_bytes);
	if (valid > s->U + tol)
		return sb_errf(e, "valid data %.0f exceeds the user capacity %.0f", valid, s->U);
	uint64_t n = 0, q = 0;
	for (int i = 0; i < 4; i++) {
		n += s->ntag[i];
		q += s->eq[i];
	}
	if (n != s->nchunks || q != s->nchunks * CHUNK_ONE)
		return sb_errf(e, "chunk counts add to %llu chunks and %.6f of shares, not %llu",
			       (unsigned long long)n, (double)q / CHUNK_ONE,
			       (unsigned long long)s->nchunks);
	return 0;
}
