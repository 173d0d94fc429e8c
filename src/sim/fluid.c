/*
 * The fluid engine: a uniform stream advanced by rates instead of I/Os.
 *
 * Writes integrate the write path (wpath.c) with the stream's own limit,
 * min(QD * bs / L_w0, command cap, link), between crossings; a 2 TB fill
 * costs a step per 10 ms tick and per change of regime or of the chunks'
 * classes, not per I/O.  Each step's I/Os get the latency Little's law
 * gives them at that step's rate.
 *
 * Reads do not change the write path, so their rate is measured: the
 * stream first runs through the discrete engine for a calibration window,
 * whose completions are real; the rest repeats the measured rate and
 * latency distribution.  Random mixes of reads and writes do the same,
 * with their writes going through the write path at the measured rate.
 * Exact streams (below QD 16, and sequential mixes) simulate every I/O;
 * a sampled mix (profile key sampled_mix) only in windows, its gaps
 * warped (exact_gap, sampled.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/model.h"
#include "sim/sampled.h"
#include "sim/spread.h"

/* One slice being filled. */
struct slicer {
	const struct sim *s;
	struct sim_slice sl;
	struct lat_hist *lat;
	struct lat_hist *wlat;		/* a mixed stream's writes */
	struct lat_hist *side_lat[SIM_MAX_SIDE];	/* side streams' */
	uint32_t nside;
	uint64_t t0_ns, slice_ns, k;	/* slice k ends at t0 + (k+1) slice */
	uint64_t deadline_ns;
	double end;			/* s: end of the current slice */
	sim_slice_fn fn;
	void *ctx;
	int stop;
	struct smp_window *smp;		/* a sampled stream's windows, or NULL */
	struct smp_window *smp_later;	/* or not yet: they begin with the */
	uint64_t smp_from_ns;		/* slice from this time */
};

/* Slice ends are integer ns from t0 (the caller's grid, or the stream's
   start), so a long stream's slices do not drift from the caller's
   interval boundaries. */
static uint64_t slice_end_ns(const struct slicer *z)
{
	return z->t0_ns + (z->k + 1) * z->slice_ns;
}

/* Where a stream that stopped at time t stands on the ns clock. */
static uint64_t stop_ns(const struct slicer *z, double t)
{
	uint64_t ns = s_to_ns(t);
	if (ns > z->deadline_ns || t >= ns_to_s(z->deadline_ns) - 1e-12)
		ns = z->deadline_ns;
	uint64_t b = slice_end_ns(z);
	if (ns + 2 >= b && ns < b + 2)
		ns = b;		/* rounding, not a real partial slice */
	return ns;
}

/* A warped gap's reads and writes (exact_gap), r and w of them, added to
   the slice with the latencies of the window's slice t. */
static void gap_add(struct slicer *z, const struct sim_stream *st,
		    const struct smp_slice *t, uint64_t r, uint64_t w)
{
	z->sl.ios += r;
	z->sl.bytes += r * st->bs;
	spread(z->lat, t->lat, r);
	z->sl.wios += w;
	z->sl.wbytes += w * st->bs;
	if (t->wlat)
		spread(z->wlat, t->wlat, w);
	z->smp->repeated += r;
	z->smp->repeated_w += w;
}

/* A sampled stream's slice: kept as its window's, or its reads replaced
   by the window's (sampled.h); none past the deadline, where no
   repeated read is in flight.  A warped mix's gap slices are counted by
   exact_gap, its writes through the write path: none is replaced here
   (a gap slice that a late completion passed in one jump, nothing
   completing in it, stays as it was, as in a stall). */
static void slice_sample(struct slicer *z, uint64_t t_end_ns)
{
	struct smp_slice now = { z->sl.bytes, z->sl.ios, z->lat, z->sl.wbytes, z->sl.wios, z->wlat };
	uint64_t a = z->sl.t_start_ns, d = z->deadline_ns;
	bool whole = t_end_ns == slice_end_ns(z) && a + z->slice_ns == t_end_ns;
	const struct smp_slice *t = smp_slice_ends(z->smp, &now, whole, z->side_lat);
	if (!t || z->smp->warp)
		return;
	uint64_t b = t_end_ns < d ? t_end_ns : d;
	a = a < d ? a : d;
	double frac = fmin(1.0, (double)(b - a) / (double)z->slice_ns);
	hist_reset(z->lat);
	if (frac >= 1.0) {
		z->sl.ios = t->ios;
		z->sl.bytes = t->bytes;
		hist_merge(z->lat, t->lat);
	} else {
		uint64_t n = (uint64_t)llround((double)t->ios * frac);
		z->sl.bytes = t->ios ? t->bytes / t->ios * n : 0;
		z->sl.ios = n;
		spread(z->lat, t->lat, n);
	}
	/* the slice's own reads, each simulated, are dropped for repeats */
	z->sl.sim_ios -= now.ios;
	z->smp->repeated += z->sl.ios;
}

static int slice_emit(struct slicer *z, uint64_t t_end_ns, struct sb_err *e)
{
	z->sl.t_end_ns = t_end_ns;
	z->sl.lat = z->lat;
	z->sl.wlat = z->wlat;
	for (uint32_t i = 0; i < z->nside; i++)
		z->sl.side[i].lat = z->side_lat[i];
	if (sim_self_check(z->s, e))
		return -1;
	if (z->smp)
		slice_sample(z, t_end_ns);
	int rc = z->fn(z->ctx, &z->sl, e);
	if (rc < 0)
		return -1;
	if (rc > 0)
		z->stop = 1;
	z->sl.t_start_ns = z->sl.t_end_ns;
	z->sl.bytes = z->sl.ios = 0;
	z->sl.wbytes = z->sl.wios = 0;
	z->sl.sim_ios = 0;
	hist_reset(z->lat);
	hist_reset(z->wlat);
	for (uint32_t i = 0; i < z->nside; i++) {
		z->sl.side[i].bytes = z->sl.side[i].ios = z->sl.side[i].sim_ios = 0;
		hist_reset(z->side_lat[i]);
	}
	if (t_end_ns >= slice_end_ns(z)) {
		z->k++;
		z->end = ns_to_s(slice_end_ns(z));
		if (z->smp_later && slice_end_ns(z) - z->slice_ns >= z->smp_from_ns) {
			z->smp = z->smp_later;	/* as at a stream's start */
			z->smp_later = NULL;
		} else if (z->smp && smp_slice_begins(z->smp)) {
			return sb_errno(e, ENOMEM, "sim: a sampled stream's window");
		}
	}
	return 0;
}

static int check_stream(const struct sim *s, const struct sim_stream *st,
			uint64_t max_bytes, uint64_t max_ns, uint64_t slice_ns,
			struct sb_err *e)
{
	if (sim_outstanding(s))
		return sb_errf(e, "sim: a fluid stream needs an empty queue (%u I/Os outstanding)",
			       sim_outstanding(s));
	if (!st->bs || !st->qd)
		return sb_errf(e, "sim: a fluid stream needs a block size and a queue depth");
	if (!max_bytes && !max_ns)
		return sb_errf(e, "sim: a fluid stream needs a byte or a time limit");
	if (!slice_ns)
		return sb_errf(e, "sim: a fluid stream needs a slice length");
	if (st->read_pct > 99 || (st->read_pct && !st->random && !st->exact))
		return sb_errf(e, "sim: a mixed bulk stream is random with 1-99 %% reads, not %u %%%s",
			       st->read_pct, st->random ? "" : " sequential");
	if (st->sampled && !st->nside && !(st->exact && st->read_pct && !st->random))
		return sb_errf(e, "sim: only reads beside side streams and sequential mixes are sampled");
	if (st->nside > SIM_MAX_SIDE || (st->nside && (st->write || st->read_pct)))
		return sb_errf(e, "sim: side streams (at most %d) go beside a read stream",
			       SIM_MAX_SIDE);
	for (uint32_t i = 0; i < st->nside; i++) {
		const struct sim_side *sd = &st->side[i];
		if ((sd->op != SIM_WRITE && sd->op != SIM_TRIM) || !sd->rate || !sd->bs ||
		    sd->span_off > s->capacity || sd->span_len > s->capacity - sd->span_off ||
		    sd->span_len < sd->bs)
			return sb_errf(e, "sim: side stream %u: a rate-limited write or trim "
				       "stream inside the drive", i + 1);
	}
	if (st->span_off > s->capacity || st->span_len > s->capacity - st->span_off ||
	    st->span_len < st->bs)
		return sb_errf(e, "sim: stream span %llu+%llu does not fit the drive's %llu bytes",
			       (unsigned long long)st->span_off,
			       (unsigned long long)st->span_len,
			       (unsigned long long)s->capacity);
	if (st->start_off < st->span_off || st->start_off >= st->span_off + st->span_len)
		return sb_errf(e, "sim: stream start %llu is outside its span",
			       (unsigned long long)st->start_off);
	return 0;
}

/* Mapped bytes of each class inside a span, estimated from the tags. */
struct span_mix {
	double L;		/* span bytes */
	double M_s, M_n;	/* valid SLC and native bytes in it */
	double folded;		/* share of native data of folded origin */
	double map_wb;		/* map write-backs per host byte (map.c) */
};

static void span_mix_init(const struct sim *s, const struct sim_stream *st,
			  struct span_mix *x)
{
	double n[4];
	chunks_count(s, st->span_off / s->chunk, (st->span_off + st->span_len - 1) / s->chunk, n);
	x->L = (double)st->span_len;
	x->M_s = fmin(x->L, n[CH_SLC] * (double)s->chunk * chunks_density(s, CH_SLC));
	x->M_n = fmin(x->L - x->M_s, (n[CH_NATIVE] + n[CH_FOLDED]) *
			(double)s->chunk * chunks_density(s, CH_NATIVE));
	double nat = n[CH_NATIVE] + n[CH_FOLDED];
	x->folded = nat > 0 ? n[CH_FOLDED] / nat : 0;
	/* The span holds no more than the drive does; the whole drive holds
	   exactly what the counters say. */
	double S = s->wp.S_st + s->wp.S_dyn;
	bool whole = st->span_off == 0 && st->span_len + s->chunk > s->capacity;
	x->M_s = whole ? S : fmin(x->M_s, S);
	x->M_n = whole ? s->wp.T_v : fmin(x->M_n, s->wp.T_v);
	x->map_wb = map_random_wb(s, st);
}

/* What a random write over the span overwrites, per host byte. */
static void mix_overwrite(const struct span_mix *mix, const struct sim_stream *st,
			  struct overwrite *ow)
{
	ow->inv_slc = mix->M_s / mix->L;
	ow->inv_nat = mix->M_n / mix->L;
	ow->folded = mix->folded * ow->inv_nat;
	ow->lba = 0;
	ow->span_off = st->span_off;
	ow->span_len = st->span_len;
	ow->map_wb = mix->map_wb;
}

/* The span's classes after `got` random bytes, `share` of them to SLC,
   and whatever folding moved meanwhile. */
static void mix_after(const struct sim *s, struct span_mix *mix, const struct overwrite *ow,
		      double got, double share, double S_before)
{
	mix->M_s = fmax(0, mix->M_s - ow->inv_slc * got) + share * got;
	mix->M_n = fmax(0, mix->M_n - ow->inv_nat * got) + (1 - share) * got;
	double S_after = s->wp.S_st + s->wp.S_dyn;
	if (S_before > 0 && S_after < S_before) {
		double moved = mix->M_s * (1 - S_after / S_before);
		mix->M_s -= moved;
		mix->M_n += moved;
	}
	double over = mix->M_s + mix->M_n - mix->L;
	if (over > 0)
		mix->M_n = fmax(0, mix->M_n - over);
}

/*
 * After a random stream, the unmapped data of its span is written where
 * the stream's bytes landed: the share of it a uniform random stream
 * covers, 1 - exp(-written / span), `slc` of the `written` bytes in SLC
 * and the rest native, as I/O by I/O each page is written where its data
 * went.  (Left unmapped while the counters held the data in SLC, a P1's
 * peak writes left a later fill overwriting native data that was not
 * there and the SLC data valid that was: stale data no per-I/O run had.)
 * Mapped data keeps its class: the bytes a stream spread over it are a
 * share of the class's density (moving those too left a whole-drive
 * discard with native data the SLC tags no longer named).
 */
static void span_mix_retag(struct sim *s, const struct sim_stream *st,
			   double written, double slc)
{
	chunks_map_random(s, st->span_off / s->chunk, (st->span_off + st->span_len - 1) / s->chunk,
			  1.0 - exp(-written / (double)st->span_len),
			  written > 0 ? slc / written : 0);
}


/*
 * A bulk random stream's write buffer (wbuf_mib).  I/O by I/O a write
 * completes when the buffer takes it, and the write path drains the
 * buffer at its own pace: as long as the buffer holds data, the drain
 * runs at what the drive can do (a fast 10 ms tick of GC takes more,
 * a slow one leaves the host writing into the room), and the host
 * writes at its queue's pace while there is room.  The bulk stream
 * follows the buffer's level: with data in it the write path is asked
 * for that data at no cap, else for the host's bytes at the host's cap;
 * the host's writes in a step are what the room lets in.
 */
struct wbuf {
	double B;		/* bytes the host wrote that the path has not */
	double cap;		/* the buffer's size */
	double low;		/* below this the host's cap paces the drain */
	/* what discrete writes before the stream left in the buffer: the
	   write path has taken it already (it stands at old_end), and
	   drains it at old_h bytes/s until then, freeing its room */
	double old_h, old_end;
};

/* The bytes discrete writes left in the buffer, not drained by t_ns. */
static double wbuf_held(const struct sim *s, uint64_t t_ns)
{
	double b = 0;
	for (uint32_t i = 0; i < s->wb_len; i++) {
		const struct wbuf_ent *x = &s->wb[(s->wb_head + i) & (s->wb_cap - 1)];
		if (x->drain_end > t_ns)
			b += x->bytes;
	}
	return b;
}

/* The room the older bytes still hold at t. */
static double wbuf_old(const struct wbuf *b, double t)
{
	return t >= b->old_end ? 0 : min_d(b->cap, b->old_h * (b->old_end - t));
}

static void wbuf_start(struct sim *s, const struct sim_stream *st, struct wbuf *b,
		       double host_cap, double drain_rate)
{
	struct wpath *w = &s->wp;
	b->cap = s->p.wbuf_mib * 1048576.0;
	/* a level the drain empties in a few µs at the host's pace */
	b->low = min_d(b->cap, max_d(2 * (double)st->bs, host_cap * 1e-5));
	b->B = 0;
	b->old_end = w->t;
	b->old_h = drain_rate;
	if (w->pend > 0 && w->pend_ow.span_off == st->span_off &&
	    w->pend_ow.span_len == st->span_len) {
		b->B = min_d(w->pend, b->cap);
		w->pend -= b->B;
	}
}

/*
 * One step of at most max_dt: *in gets the host bytes the buffer took
 * (at most `want`), the return is what the write path drained.
 */
static double wbuf_write(struct sim *s, struct wbuf *b, double want, double host_cap,
			 double max_dt, const struct overwrite *ow, double *share,
			 double *in)
{
	struct wpath *w = &s->wp;
	double t0 = w->t;
	double got = b->B >= b->low ? wp_write(s, b->B, INFINITY, max_dt, ow, share)
				    : wp_write(s, max_d(want, 0), host_cap, max_dt, ow, share);
	double dt = w->t - t0;
	*in = max_d(0, min_d(min_d(host_cap * dt, b->cap - b->B + got), want));
	b->B = max_d(0, b->B + *in - got);
	return got;
}

/* The stream is over: what the buffer holds drains after it (wp_idle_to). */
static void wbuf_end(struct sim *s, const struct wbuf *b, const struct overwrite *ow)
{
	struct wpath *w = &s->wp;
	if (b->B <= 0)
		return;
	w->pend += b->B;
	w->pend_ow = *ow;
}

/* The host's written bytes `in` as whole I/Os into the slice: the
   fraction carries to the next step; *left counts down what is owed. */
static uint64_t host_ios(struct slicer *z, const struct sim_stream *st, double in,
			 double *carry, double *left)
{
	*carry += in / (double)st->bs;
	uint64_t n = (uint64_t)*carry;
	*carry -= (double)n;
	*left -= (double)n;
	z->sl.ios += n;
	z->sl.bytes += n * st->bs;
	return n;
}

/* A slice of a write stream ends: the latencies wlat_add holds back go
   into it first. */
static int write_emit(const struct sim *s, struct wlat *wl, struct slicer *z,
		      uint64_t t_end_ns, struct sb_err *e)
{
	wlat_flush(s, wl);
	return slice_emit(z, t_end_ns, e);
}

/* A sequential write step's chunks at most (alike: chunks_alike). */
#define SEQ_RUN 4096

static int fluid_write(struct sim *s, const struct sim_stream *st,
		       uint64_t max_bytes, double deadline, struct slicer *z,
		       struct sb_err *e)
{
	const struct sim_profile *p = &s->p;
	struct wpath *w = &s->wp;
	double qd = min_d((double)st->qd, (double)p->qd_cap);
	double bs = (double)st->bs;
	double l_w0 = p->cores / (p->wr_cap_kiops * 1e3) + p->t_fw_wr_us * 1e-6 +
		      bs / (p->link_wr_gbs * 1e9);
	double host_cap = min_d(qd * bs / l_w0,
			       min_d(p->wr_cap_kiops * 1e3 * bs, p->link_wr_gbs * 1e9));
	double ios_left = max_bytes ? ceil((double)max_bytes / bs) : INFINITY;
	double pos = (double)st->start_off;
	double span_end = (double)(st->span_off + st->span_len);
	double ios_carry = 0, stall = 0, written = 0, to_slc = 0, owed = 0, map_owed = 0;
	double seq_rate = host_cap;	/* a sequential step's last pace */
	double t_fw = p->t_fw_wr_us * 1e-6;
	struct wlat wl = { 0 };
	struct span_mix mix = { 0 };
	struct wbuf buf = { 0 };
	struct overwrite ow_last = { 0 };

	if (st->random) {
		span_mix_init(s, st, &mix);
		wbuf_start(s, st, &buf, host_cap, 0);
	}
	/* After discrete writes the write path stands ahead, draining what
	   they left in the buffer: the host writes into the room it frees
	   (I/O by I/O it would), then the stream goes on from there. */
	double tau = ns_to_s(s->now);
	if (st->random && w->t > tau && buf.cap > 0) {
		buf.old_h = min_d(wbuf_held(s, s->now), buf.cap) / (w->t - tau);
		while (!z->stop && ios_left > 0 && tau < w->t - 1e-12 && tau < deadline - 1e-12) {
			double t1 = min_d(min_d(z->end, deadline), w->t);
			double in = min_d(host_cap * (t1 - tau),
					 buf.cap - buf.B - wbuf_old(&buf, t1));
			in = max_d(0, min_d(in, ios_left * bs - ios_carry * bs));
			buf.B += in;
			uint64_t n = host_ios(z, st, in, &ios_carry, &ios_left);
			double lat = in > 0 ? max_d(qd * bs * (t1 - tau) / in, l_w0) : l_w0;
			wlat_add(s, &wl, z->lat, n, lat, l_w0, t_fw, bs, qd);
			written += in;
			tau = t1;
			if (tau >= z->end - 1e-12 && write_emit(s, &wl, z, slice_end_ns(z), e))
				return -1;
		}
	}
	while (!z->stop) {
		double t_lim = min_d(z->end, deadline);
		if (ios_left <= 0 || w->t >= deadline - 1e-12)
			break;
		double want = ios_left * bs - ios_carry * bs;
		if (want < 1.0) {
			/* The last I/O's bytes are in: count it. */
			z->sl.ios++;
			z->sl.bytes += st->bs;
			hist_add_n(z->lat, s_to_ns(l_w0), 1);
			break;
		}
		struct overwrite ow;
		uint64_t c = 0;
		if (st->random) {
			mix_overwrite(&mix, st, &ow);
		} else {
			c = (uint64_t)pos >> s->chunk_shift;
			double to_chunk = (double)((c + 1) * s->chunk) - pos;
			if (to_chunk < 1.0) {
				/* Rounding left a sliver: start the next chunk. */
				pos = (double)((c + 1) * s->chunk);
				if (pos >= span_end - 0.5)
					pos = (double)st->span_off;
				continue;
			}
			/* The chunks after this one that hold their data where
			   it held its own take the same overwrite: one step
			   over them (the write path stops where its route
			   changes, and chunks_wrote tags them by it). */
			chunks_overwrite(s, (uint64_t)pos, &ow);
			/* (as far as the last step's pace reaches by the
			   slice's end: the map pages it marks are those) */
			double reach = seq_rate * (t_lim - w->t) * 1.25;
			if (reach > to_chunk) {
				double more = min_d((reach - to_chunk) / (double)s->chunk + 1, SEQ_RUN);
				to_chunk += (double)(chunks_alike(s, c, s->piece_prev, (uint64_t)more) *
						     s->chunk);
			}
			want = min_d(want, min_d(to_chunk, span_end - pos));
			ow.lba = pos;
			/* the map pages the step dirties, and what a step cut
			   short left owed of its own: paid at the step's rate */
			owed = map_write(s, (uint64_t)pos, (uint64_t)want) + map_owed;
			ow.map_wb = owed / want;
		}
		double t_before = w->t, share = 0;
		double S_before = w->S_st + w->S_dyn;
		uint64_t flushes = w->journal_flushes;
		double in = 0, got;
		if (st->random) {
			got = wbuf_write(s, &buf, want, host_cap, t_lim - w->t, &ow, &share, &in);
			ow_last = ow;
		} else {
			got = in = wp_write_route(s, want, host_cap, t_lim - w->t, &ow, &share);
			map_owed = owed * max_d(0, 1 - got / want);
			if (w->t > t_before && got > 0)
				seq_rate = got / (w->t - t_before);
		}
		double dt = w->t - t_before;
		/* A journal flush stalls the write in flight, not the rate of
		   every write of the step. */
		double jstall = (double)(w->journal_flushes - flushes) * s->journal_stall_s;
		jstall = min_d(jstall, dt * (1 - 1e-9));
		if (got <= 0 && in <= 0 && dt <= 0)
			return sb_errf(e, "sim: the write path cannot move (profile %s, t %.9f, limit %.9f, want %g)", p->name, w->t, t_lim, want);

		if (in > 0) {
			double rate = in / (dt - jstall);
			double lat = max_d(qd * bs / rate, l_w0);
			stall += jstall;
			uint64_t n = host_ios(z, st, in, &ios_carry, &ios_left);
			/* The I/Os that waited through a stall carry it. */
			uint64_t hit = stall > 0 ? (uint64_t)min_d((double)n, qd) : 0;
			hist_add_n(z->lat, s_to_ns(lat + stall), hit);
			wlat_add(s, &wl, z->lat, n - hit, lat, l_w0, t_fw, bs, qd);
			if (hit)
				stall = 0;
			written += in;
			to_slc += share * in;
		} else {
			stall += dt;
		}
		if (st->random) {
			mix_after(s, &mix, &ow, got, share, S_before);
		} else if (got > 0) {
			chunks_wrote(s, (uint64_t)pos, (uint64_t)(pos + got) - (uint64_t)pos,
				     share >= 0.5 ? CH_SLC : CH_NATIVE);
			pos += got;
			if (pos >= span_end - 0.5)
				pos = (double)st->span_off;
		}
		while (w->t >= z->end - 1e-12 && !z->stop)
			if (write_emit(s, &wl, z, slice_end_ns(z), e))
				return -1;
		z->sl.next_off = (uint64_t)pos;
	}
	uint64_t end_ns = stop_ns(z, w->t);
	wlat_flush(s, &wl);
	if (z->sl.ios || end_ns > z->sl.t_start_ns)
		if (slice_emit(z, end_ns, e))
			return -1;
	if (st->random) {
		wbuf_end(s, &buf, &ow_last);
		span_mix_retag(s, st, written, to_slc);
		map_after_random(s, st, written / bs, 1.0);
	}
	s->now = end_ns;
	s->drain_end = s->now;
	return 0;
}

/* Next offset of a read stream whose span holds n of its I/Os (asked
   once per I/O: the division is the caller's, once per stream). */
static uint64_t next_off_n(const struct sim_stream *st, uint64_t n, struct rng *r,
			   uint64_t *pos)
{
	if (st->random)
		return st->span_off + rng_below(r, n) * st->bs;
	uint64_t o = *pos;
	*pos += st->bs;
	if (*pos + st->bs > st->span_off + st->span_len)
		*pos = st->span_off;
	return o;
}

/* A repeated stream's clock moves to t; a slice that ends there is emitted. */
static int clock_to(struct sim *s, struct slicer *z, double t, struct sb_err *e)
{
	s->now = s_to_ns(t);
	if (t < z->end - 1e-12)
		return 0;
	s->now = slice_end_ns(z);
	return slice_emit(z, slice_end_ns(z), e);
}

/*
 * The slices that end before a completion at t are emitted first: it
 * belongs to the one it completes in, after a stop too (the I/Os in
 * flight then complete in the intervals after it, as they do I/O by I/O;
 * a drain after a hook's stop that stayed in the slice it began in put
 * 250 ms of a QD256 mix's writes in one interval).
 */
static int slices_before(struct slicer *z, uint64_t t, struct sb_err *e)
{
	while (t > slice_end_ns(z))
		if (slice_emit(z, slice_end_ns(z), e))
			return -1;
	return 0;
}

/* Enough real completions that the latency shape has a p99.99. */
#define CAL_IOS 65536

/* A calibration window: real discrete I/Os in a closed loop at depth qd. */
struct cal {
	struct rng r;
	uint64_t pos, inflight;
	uint64_t span_n;	/* a random stream's offsets (cal_off; 0: not yet) */
	uint32_t qd;
	struct rng draw;	/* a sampled stream's latency draws */
};

/* The window's next offset (next_off): the span's offsets counted once,
   not by a division per I/O. */
static uint64_t cal_off(const struct sim_stream *st, struct cal *k)
{
	if (!k->span_n)
		k->span_n = st->span_len / st->bs;
	return next_off_n(st, k->span_n, &k->r, &k->pos);
}

/* Count a completion in the slice, as a read or (tag 1) a write. */
static void cal_count(struct slicer *z, const struct sim_stream *st, const struct sim_cpl *c)
{
	bool wr = c->tag != 0;
	hist_add(wr ? z->wlat : z->lat, c->t_done_ns - c->t_submit_ns);
	*(wr ? &z->sl.wios : &z->sl.ios) += 1;
	*(wr ? &z->sl.wbytes : &z->sl.bytes) += st->bs;
	z->sl.sim_ios++;	/* a real completion: every count here is one */
}

/* A sampled stream's gap: no read is simulated (sampled.h). */
static bool smp_gap(const struct slicer *z)
{
	return z->smp && smp_in_gap(z->smp);
}

/*
 * In a gap the clock moves no further than the slice's end (the slice
 * is then emitted: nothing may complete in it) and, as the reads that
 * are not simulated would, keeps the drive busy up to there: no idle
 * work starts that the whole stream would not have allowed.
 */
static uint64_t gap_until(struct sim *s, const struct slicer *z, uint64_t until)
{
	uint64_t b = slice_end_ns(z);
	if (until > b)
		until = b;
	double busy = ns_to_s(until);
	if (busy > s->wp.last_busy)
		s->wp.last_busy = busy;
	return until;
}

/*
 * The next completion due by `deadline`: 1 with *c set, 0 when none; the
 * slices it passes are emitted.  In a sampled stream's gap a side
 * stream's I/O (not a flush: `hold` says which tags) is held to a latency
 * drawn from that stream's in the window when that is longer: beside the
 * reads it would have waited for them (queue slots, cores, link), and
 * its stream goes on only then.
 */
static int next_cpl(struct sim *s, struct slicer *z, struct cal *k, uint64_t deadline,
		    uint32_t hold, struct sim_cpl *c, struct sb_err *e)
{
	for (;;) {
		const struct smp_held *v = z->smp ? smp_held_next(z->smp) : NULL;
		uint64_t until = v && v->t_done < deadline ? v->t_done : deadline;
		if (sim_reap(s, c, 1, 1, until) == 1) {
			if (c->tag >= 2 && (hold >> c->tag & 1) && smp_gap(z)) {
				uint64_t lat = smp_side_draw(z->smp, (uint32_t)c->tag - 2,
							     rng_unit(&k->draw));
				if (c->t_submit_ns + lat > c->t_done_ns) {
					smp_hold(z->smp, c->tag, c->t_submit_ns + lat, lat);
					continue;
				}
			}
		} else if (v && v->t_done <= deadline) {
			struct smp_held x = smp_release(z->smp, v);
			if (s->now < x.t_done)
				s->now = x.t_done;
			*c = (struct sim_cpl){ x.tag, x.t_done - x.lat, x.t_done, 0 };
		} else {
			return 0;
		}
		return slices_before(z, c->t_done_ns, e) ? -1 : 1;
	}
}

/*
 * Top the queue up (at most `room` more I/Os in all; a mix draws each
 * I/O's kind, tagged 1 for a write), take the next completion, emit the
 * slices it passed and count it.  1 with *c set, 0 when nothing is
 * outstanding, -1 on error.
 */
static int cal_next(struct sim *s, const struct sim_stream *st, struct slicer *z,
		    struct cal *k, uint64_t room, struct sim_cpl *c, struct sb_err *e)
{
	while (k->inflight < k->qd && k->inflight < room) {
		bool wr = st->read_pct ? rng_below(&k->r, 100) >= st->read_pct : st->write;
		struct sim_io io = { wr ? SIM_WRITE : SIM_READ, cal_off(st, k),
				     st->bs, wr, false };
		if (sim_submit(s, &io, e))
			return -1;
		k->inflight++;
	}
	if (!sim_reap_next(s, c))
		return 0;
	k->inflight--;
	if (slices_before(z, c->t_done_ns, e))
		return -1;
	cal_count(z, st, c);
	return 1;
}

/*
 * A random stream on a drive that caches its map (map.c) starts with the
 * cache as earlier I/Os left it, often holding little of this span; the
 * warm-up then goes on, real I/O by real I/O, until the cache holds the
 * span (or all it can of it), so the calibration measures the misses the
 * rest of the stream will see.  The most warm-up I/Os this allows.
 */
static uint64_t map_warmup(struct sim *s, const struct sim_stream *st)
{
	if (!s->map || !st->random)
		return 0;
	map_watch(s, st);
	return 8 * s->map_slots;
}

/* The warm-up count after the done-th completion. */
static uint64_t warm_after(struct sim *s, uint64_t done, uint64_t warm,
			   uint64_t warm_max)
{
	return done == warm && warm < warm_max && map_cold(s, done) ? warm + 1 : warm;
}

/* Let the window's last I/Os finish; returns how many there were. */
static uint64_t cal_drain(struct sim *s, const struct sim_stream *st, struct slicer *z,
			  struct cal *k)
{
	uint64_t n = 0;
	struct sim_cpl c;
	while (k->inflight && sim_reap_next(s, &c)) {
		k->inflight--;
		cal_count(z, st, &c);
		n++;
	}
	return n;
}


/* The write buffer has no room for another of the stream's writes. */
static bool wb_full(const struct sim *s, const struct sim_stream *st)
{
	return s->wb_bytes + st->bs > s->wb_cap_bytes;
}

/*
 * A warped mix's gap (sampled.h), slice by slice.  No read is simulated.
 * The slice has as many reads as the window's it repeats (smp_peek: the
 * reads are what the drive bounds, its read link or its NAND), the I/Os
 * drawn a read or a write as the closed loop draws them until they are
 * there (so the writes are as many as the draws give, not the window's
 * few), in the cursor's order, each at its share of the slice.  (A budget
 * by Little's law instead, each I/O taking its kind's mean latency in the
 * window, let the reads of a read-link-bound P4800X vary from slice to
 * slice: their spread x11 at QD 4, and the SN8100's IOPS -3.5 % at QD 256.)
 * The writes go through the write
 * path there (the drive kept busy throughout, as the reads keep it), and
 * the slice counts them, with the latencies of the window's slice.  Then
 * the clock, the I/Os in flight and every discrete resource move on by as
 * much (sim_warp): the stream goes on from the state the window ended in.
 *
 * Only while the write buffer has room: a write that waits for room holds
 * its slot of the queue, and the closed loop is then bound by the buffer,
 * I/O by I/O (gaps there came out 5-8 % slow on an SN8100), so a window
 * that saw the buffer full is followed by no gap, and a gap ends, mid-
 * slice, at the write that fills it, or that puts the write path in a
 * regime its window did not see (burst to GC...): the slice holds what
 * the gap gave so far, the rest of it is simulated, a window begins with
 * the next.  The stream's last slice is simulated.
 */
static int exact_gap(struct sim *s, const struct sim_stream *st, struct slicer *z,
		     struct cal *k, struct sb_err *e)
{
	while (smp_gap(z) && !z->stop) {
		uint64_t b = slice_end_ns(z), S = z->slice_ns;
		if (b + S > z->deadline_ns) {
			smp_cut(z->smp);	/* the rest simulated */
			return 0;
		}
		if (!smp_unseen(z->smp, SMP_WB_FULL) || wb_full(s, st)) {
			smp_end_gap(z->smp);	/* bound by the buffer: simulated */
			return 0;
		}
		const struct smp_slice *t = smp_peek(z->smp);
		uint64_t n = t->ios + t->wios, t0 = s->now, r = 0, w = 0, cut = 0;
		for (uint64_t i = 0; r < t->ios && !cut; i++) {
			bool wr = rng_below(&k->r, 100) >= st->read_pct;	/* as cal_next */
			uint64_t off = cal_off(st, k);
			if (!wr) {
				r++;
				continue;
			}
			uint64_t tw = t0 + S * (i < n ? i : n - 1) / n;
			double tws = ns_to_s(tw);
			if (tws > s->wp.last_busy)
				s->wp.last_busy = tws;
			if (tws > s->wp.t)
				wp_idle_to(s, tws);	/* as sim_submit */
			timing_wpath(s, tw, off, st->bs);
			if (s->oom || s->stuck)
				return sb_errf(e, "sim %s: a sampled mix's write in a gap (%s)",
					       s->p.name, s->oom ? "no memory" : "the write path cannot move");
			w++;
			if (smp_unseen(z->smp, s->wp.last) || wb_full(s, st))
				cut = tw + 1 - t0;
		}
		z->sl.next_off = k->pos;
		double last = ns_to_s(sim_warp(s, cut ? cut : S));
		if (last > s->wp.last_busy)
			s->wp.last_busy = last;
		if (cut) {
			/* what the gap gave so far, the rest simulated */
			gap_add(z, st, t, r, w);
			smp_cut(z->smp);
			return 0;
		}
		/* the slice is the gap's (what was counted in it before the
		   gap began is replaced, as a repeated slice replaces it) */
		z->sl.ios = z->sl.bytes = z->sl.wios = z->sl.wbytes = z->sl.sim_ios = 0;
		hist_reset(z->lat);
		hist_reset(z->wlat);
		gap_add(z, st, t, r, w);
		if (slice_emit(z, b, e))
			return -1;
	}
	return 0;
}

/*
 * Every I/O of the stream through the discrete engine, in a closed loop
 * at its depth (a low-depth tail measurement: each latency is a real
 * I/O's).  Submissions stop at the deadline; the I/Os then in flight
 * complete and count, in the slices they complete in.  A sampled one (a
 * sequential mix of a sweep) is simulated in windows, the gaps between
 * warped (exact_gap).
 */
static int fluid_exact(struct sim *s, const struct sim_stream *st,
		       uint64_t max_bytes, double deadline, struct slicer *z,
		       struct sb_err *e)
{
	/* All qd in flight, as the engine would have them: beyond the
	   interface's depth they wait for a slot (timing_slot), and that
	   wait is part of their latency. */
	struct cal k = { .pos = st->start_off, .qd = st->qd };
	rng_seed(&k.r, st->seed ^ 0x6578616374ull);
	uint64_t ios_left = max_bytes ? (max_bytes + st->bs - 1) / st->bs : UINT64_MAX;
	uint64_t done = 0;
	while (!z->stop && done < ios_left) {
		if (smp_gap(z)) {
			if (exact_gap(s, st, z, &k, e))
				return -1;
			continue;
		}
		struct sim_cpl c;
		int got = cal_next(s, st, z, &k, ios_left - done, &c, e);
		if (got < 0)
			return -1;
		if (!got)
			break;
		done++;
		z->sl.next_off = k.pos;
		if (z->smp) {
			smp_regime(z->smp, s->wp.last);
			if (wb_full(s, st))
				smp_regime(z->smp, SMP_WB_FULL);
		}
		if (ns_to_s(c.t_done_ns) >= deadline)
			break;
	}
	struct sim_cpl c;
	while (k.inflight && sim_reap_next(s, &c)) {
		k.inflight--;
		if (slices_before(z, c.t_done_ns, e))
			return -1;
		cal_count(z, st, &c);
	}
	if ((z->sl.ios || z->sl.wios || s->now > z->sl.t_start_ns) && slice_emit(z, s->now, e))
		return -1;
	return 0;
}

/* A side stream: one I/O at a time behind a token bucket of one I/O. */
struct side_run {
	const struct sim_side *sd;
	struct rng r;
	double tokens;		/* bytes */
	uint64_t tokens_t;	/* ns: the last refill */
	uint64_t due;		/* ns: its next I/O may not go before */
	uint64_t written;	/* bytes since the last flush */
	bool busy, flushing;
};

static void side_init(struct side_run *u, const struct sim_side *sd, uint64_t now)
{
	memset(u, 0, sizeof *u);
	u->sd = sd;
	rng_seed(&u->r, sd->seed ^ 0x73696465ull);
	u->tokens = sd->bs;	/* the first I/O may go at once, as a job's */
	u->tokens_t = now;
	u->due = now;
}

/* The engine's token bucket (job.c rate_allows) for one I/O at a time. */
static bool side_allows(struct side_run *u, uint64_t now)
{
	double len = u->sd->bs;
	if (now > u->tokens_t) {
		u->tokens += (double)(now - u->tokens_t) * (double)u->sd->rate / 1e9;
		if (u->tokens > len)
			u->tokens = len;
		u->tokens_t = now;
	}
	if (u->tokens >= len) {
		u->tokens -= len;
		return true;
	}
	u->due = now + (uint64_t)((len - u->tokens) * 1e9 / (double)u->sd->rate) + 1;
	return false;
}

/* Issue side stream k's next I/O (tag 2 + k) if it may go now: a flush
   once flush_every bytes were written, else the rate decides. */
static int side_submit(struct sim *s, struct side_run *u, uint32_t k, struct sb_err *e)
{
	const struct sim_side *sd = u->sd;
	if (u->busy || u->due > s->now)
		return 0;
	struct sim_io io = { .tag = 2 + k };
	if (sd->op == SIM_WRITE && sd->flush_every && u->written >= sd->flush_every) {
		io.op = SIM_FLUSH;
		u->flushing = true;
		u->written = 0;
	} else {
		if (!side_allows(u, s->now))
			return 0;
		io.op = sd->op;
		io.len = sd->bs;
		io.offset = sd->span_off + rng_below(&u->r, sd->span_len / sd->bs) * sd->bs;
		if (sd->op == SIM_WRITE)
			u->written += sd->bs;
	}
	if (sim_submit(s, &io, e))
		return -1;
	u->busy = true;
	return 0;
}

/* Submit what the side streams may now; *next gets the earliest time one
   that waits for its rate may go (UINT64_MAX: none).  0 or -1. */
static int sides_go(struct sim *s, struct side_run *u, uint32_t n, uint64_t *next,
		    struct sb_err *e)
{
	*next = UINT64_MAX;
	for (uint32_t i = 0; i < n; i++) {
		if (side_submit(s, &u[i], i, e))
			return -1;
		if (!u[i].busy && u[i].due < *next)
			*next = u[i].due;
	}
	return 0;
}

/* A completion: emit the slices it passed, count it where it belongs. */
static void sides_count(struct slicer *z, const struct sim_stream *st, struct side_run *u,
			struct cal *k, const struct sim_cpl *c)
{
	if (c->tag < 2) {
		k->inflight--;
		cal_count(z, st, c);
		return;
	}
	struct side_run *x = &u[c->tag - 2];
	x->busy = false;
	if (x->flushing) {	/* an fsync counts as no I/O, as in the engine */
		x->flushing = false;
		return;
	}
	struct sim_side_slice *o = &z->sl.side[c->tag - 2];
	o->bytes += x->sd->bs;
	o->ios++;
	o->sim_ios++;
	hist_add(z->side_lat[c->tag - 2], c->t_done_ns - c->t_submit_ns);
}

/* The side streams whose fsync is in flight, a bit each (1 << i). */
static uint32_t sides_flushing(const struct side_run *u, uint32_t n)
{
	uint32_t m = 0;
	for (uint32_t i = 0; i < n; i++)
		m |= (uint32_t)u[i].flushing << i;
	return m;
}

/* The side streams' tags whose completions a gap may hold: not a flush
   (`flushing` from sides_flushing). */
static uint32_t sides_hold(uint32_t flushing, uint32_t n)
{
	return (((1u << n) - 1) & ~flushing) << 2;
}

/*
 * A read stream with rate-limited side streams beside it (the boot
 * search: readers, a writer with fsyncs, a trimmer): every I/O of all of
 * them simulated in one closed loop, the reads kept qd in flight, each
 * side stream's next I/O issued when its last is done and its rate
 * allows.  The side streams run, and stop, with the read stream.
 */
static int fluid_sides(struct sim *s, const struct sim_stream *st, uint64_t max_bytes,
		       struct slicer *z, struct sb_err *e)
{
	struct side_run u[SIM_MAX_SIDE];
	uint32_t ns = st->nside;
	for (uint32_t i = 0; i < ns; i++)
		side_init(&u[i], &st->side[i], s->now);
	/* every reader's I/O in flight, as in fluid_exact */
	struct cal k = { .pos = st->start_off, .qd = st->qd };
	rng_seed(&k.r, st->seed ^ 0x72656164ull);
	rng_seed(&k.draw, st->seed ^ 0x73616d706c6564ull);
	uint64_t ios_left = max_bytes ? (max_bytes + st->bs - 1) / st->bs : UINT64_MAX;
	uint64_t end = z->deadline_ns, done = 0, span_n = st->span_len / st->bs;
	/*
	 * The side streams change only when one is submitted (sides_go) or
	 * completes (sides_count): between, what sides_go would find -- the
	 * earliest time one waiting for its rate may go, `next` -- and which
	 * flush, stay as they were, and sides_go is asked again only once
	 * the clock reaches that time or a side I/O completed (`stale`).
	 */
	uint64_t next = UINT64_MAX;
	uint32_t flushing = 0;
	bool stale = true;
	struct sim_cpl c;
	for (;;) {
		bool open = s->now < end && !z->stop && done < ios_left;
		bool gap = smp_gap(z);
		if (open) {
			while (!gap && k.inflight < k.qd && k.inflight < ios_left - done) {
				struct sim_io io = { SIM_READ, next_off_n(st, span_n, &k.r, &k.pos),
						     st->bs, 0, false };
				if (sim_submit(s, &io, e))
					return -1;
				k.inflight++;
			}
			if (stale || next <= s->now) {
				if (sides_go(s, u, ns, &next, e))
					return -1;
				flushing = sides_flushing(u, ns);
				stale = false;
			}
			if (z->smp)
				smp_flush(z->smp, flushing);
		}
		uint64_t go = open ? next : UINT64_MAX;
		if (!sim_outstanding(s) && !(z->smp && smp_held_next(z->smp)) && go == UINT64_MAX)
			break;
		/* the next completion, or the clock to a side stream's time
		   (or the end) when that comes first */
		uint64_t until = !open ? UINT64_MAX : next < end ? next : end;
		if (gap && open)
			until = gap_until(s, z, until);
		int got = next_cpl(s, z, &k, until, sides_hold(flushing, ns), &c, e);
		if (got < 0)
			return -1;
		if (got) {
			done += c.tag < 2;
			sides_count(z, st, u, &k, &c);
			if (c.tag >= 2) {
				flushing = sides_flushing(u, ns);
				stale = true;
			}
			if (z->smp) {
				smp_regime(z->smp, s->wp.last);
				smp_flush(z->smp, flushing);
			}
		} else if (gap && open && s->now >= slice_end_ns(z) &&
			   slice_emit(z, slice_end_ns(z), e)) {
			return -1;	/* a gap's slice with nothing completing */
		}
	}
	bool any = z->sl.ios;
	for (uint32_t i = 0; i < ns; i++)
		any |= z->sl.side[i].ios > 0;
	if ((any || s->now > z->sl.t_start_ns) && slice_emit(z, s->now, e))
		return -1;
	return 0;
}

static int fluid_read(struct sim *s, const struct sim_stream *st,
		      uint64_t max_bytes, double deadline, struct slicer *z,
		      struct sb_err *e)
{
	struct cal k = { .pos = st->start_off };
	rng_seed(&k.r, st->seed ^ 0x72656164ull);
	uint64_t pos = st->start_off;
	uint32_t qd = k.qd = st->qd < (uint32_t)s->p.qd_cap ? st->qd : (uint32_t)s->p.qd_cap;
	uint64_t ios_left = max_bytes ? (max_bytes + st->bs - 1) / st->bs : UINT64_MAX;
	uint64_t warm = qd * 2u, cal = CAL_IOS > 8 * qd ? CAL_IOS : 8 * qd;
	struct lat_hist *shape = hist_new();
	if (!shape)
		return sb_errno(e, ENOMEM, "sim: histogram");
	uint64_t done = 0, t_warm = 0, t_last = 0, measured = 0, cal_done = 0;
	uint64_t warm_max = warm + map_warmup(s, st);
	struct spread_memo memo = { 0 };
	int rc = 0;

	/* Calibration: real discrete I/Os, closed loop at depth qd. */
	while (!z->stop && done < ios_left && done < warm + cal) {
		struct sim_cpl c;
		int got = cal_next(s, st, z, &k, ios_left - done, &c, e);
		if (got < 0) {
			rc = -1;
			goto out;
		}
		if (!got)
			break;
		done++;
		warm = warm_after(s, done, warm, warm_max);
		if (done == warm)
			t_warm = c.t_done_ns;
		if (done > warm) {
			hist_add(shape, c.t_done_ns - c.t_submit_ns);
			measured++;
			t_last = c.t_done_ns;
		}
		if (ns_to_s(c.t_done_ns) >= deadline)
			break;
	}
	done += cal_drain(s, st, z, &k);
	cal_done = done;
	pos = k.pos;
	s->wp.t = fmax(s->wp.t, ns_to_s(s->now));
	s->wp.last_busy = s->wp.t;

	/* The rest at the measured rate, with the measured latencies. */
	double rate = measured && t_last > t_warm ?
		      (double)measured / ns_to_s(t_last - t_warm) : 0;
	/* The drain may have reached or passed the slice's end: those
	   slices close first, so the rest starts inside its own (from
	   behind the clock its first step went backwards: a slice of
	   -(every read so far) reads). */
	while (rate > 0 && !z->stop && done < ios_left && s->now >= slice_end_ns(z) &&
	       ns_to_s(s->now) < deadline - 1e-12)
		if (slice_emit(z, slice_end_ns(z), e)) {
			rc = -1;
			goto out;
		}
	double t = ns_to_s(s->now), carry = 0;
	while (rate > 0 && !z->stop && done < ios_left && t < deadline - 1e-12) {
		double t_next = fmin(z->end, deadline);
		double want = (double)(ios_left - done);
		double dt = fmin(t_next - t, want / rate);
		carry += rate * dt;
		uint64_t n = (uint64_t)carry;
		carry -= (double)n;
		if (n > ios_left - done)
			n = ios_left - done;
		spread_again(&memo, z->lat, shape, n);
		z->sl.ios += n;
		z->sl.bytes += n * st->bs;
		done += n;
		if (!st->random) {
			uint64_t room = st->span_len / st->bs * st->bs;
			pos = st->span_off + (pos - st->span_off + n * st->bs) % room;
		}
		t += dt;
		if (clock_to(s, z, t, e)) {
			rc = -1;
			goto out;
		}
		if (dt <= 0)
			break;
	}
	s->now = stop_ns(z, ns_to_s(s->now));
	if ((z->sl.ios || s->now > z->sl.t_start_ns) && slice_emit(z, s->now, e))
		rc = -1;
	s->wp.t = fmax(s->wp.t, ns_to_s(s->now));
	s->wp.last_busy = s->wp.t;
	if (st->random)
		map_after_random(s, st, (double)(done - cal_done), 0.0);
out:
	spread_memo_free(&memo);
	hist_free(shape);
	return rc;
}

/*
 * A random stream of reads and writes (read_pct of the I/Os read) at depth.
 * The read latency shape is measured with real discrete I/Os first, as for
 * reads.  Then the depth is shared: with reads taking L_r and unhindered
 * writes l_w0, the queue could write at f_w qd / (f_r L_r + f_w l_w0); the
 * write path takes what it can of that (GC, bursts, folding and the space
 * accounting move as they would), the reads keep their ratio to the
 * writes, and the writes' latency is what Little's law leaves them, with
 * the body and release-unit tail of a write stream (wlat_add).
 */
static int fluid_mixed(struct sim *s, const struct sim_stream *st,
		       uint64_t max_bytes, double deadline, struct slicer *z,
		       struct sb_err *e)
{
	const struct sim_profile *p = &s->p;
	struct wpath *w = &s->wp;
	struct rng r;
	rng_seed(&r, st->seed ^ 0x6d69786564ull);
	uint32_t qd = st->qd < (uint32_t)p->qd_cap ? st->qd : (uint32_t)p->qd_cap;
	uint64_t ios_left = max_bytes ? (max_bytes + st->bs - 1) / st->bs : UINT64_MAX;
	uint64_t warm = qd * 2u, cal = CAL_IOS > 8 * qd ? CAL_IOS : 8 * qd;
	struct lat_hist *shape = hist_new();
	struct spread_shape prep = { 0 };	/* the shape taken apart, once measured */
	int rc = 0;
	if (!shape)
		return sb_errno(e, ENOMEM, "sim: histogram");
	uint64_t done = 0, measured = 0, land_ns = 0, land_n = 0;
	uint64_t warm_max = warm + map_warmup(s, st);
	struct cal k = { .r = r, .pos = st->start_off, .qd = qd };
	/* the write path's pace over the window: what it drains of the
	   buffer the window's writes leave */
	double h0 = w->host_bytes, wt0 = w->t;

	/* Calibration: real discrete I/Os, closed loop at depth qd. */
	while (!z->stop && done < ios_left && done < warm + cal) {
		struct sim_cpl c;
		int got = cal_next(s, st, z, &k, ios_left - done, &c, e);
		if (got < 0) {
			rc = -1;
			goto out;
		}
		if (!got)
			break;
		done++;
		warm = warm_after(s, done, warm, warm_max);
		if (done == warm) {
			land_ns = s->wr_land_ns;
			land_n = s->wr_land_n;
		}
		if (done > warm && !c.tag) {
			hist_add(shape, c.t_done_ns - c.t_submit_ns);
			measured++;
		}
		if (ns_to_s(c.t_done_ns) >= deadline)
			break;
	}
	done += cal_drain(s, st, z, &k);
	double drain = w->t > wt0 ? (w->host_bytes - h0) / (w->t - wt0) : 0;

	/* The rest: the queue shared between reads and the write path. */
	double bs = (double)st->bs, f_r = st->read_pct / 100.0, f_w = 1.0 - f_r;
	double L_r = measured ? hist_mean(shape) * 1e-9 : 0;
	double t_fw = p->t_fw_wr_us * 1e-6;
	double l_w0 = p->cores / (p->wr_cap_kiops * 1e3) + t_fw + bs / (p->link_wr_gbs * 1e9);
	/* A write's time to land as calibrated: with the queueing at the
	   controller and link it shares with the reads, without buffer waits. */
	double L_land = s->wr_land_n > land_n ?
			(double)(s->wr_land_ns - land_ns) / (double)(s->wr_land_n - land_n) * 1e-9 : l_w0;
	L_land = fmax(L_land, l_w0);
	double cap_w = fmin(f_w * qd / (f_r * L_r + f_w * L_land) * bs,
			    fmin(p->wr_cap_kiops * 1e3 * bs, p->link_wr_gbs * 1e9));
	double t = ns_to_s(s->now), carry_r = 0, carry_w = 0, written = 0, to_slc = 0;
	struct wlat wl = { 0 };
	struct span_mix mix = { 0 };
	struct wbuf buf;
	struct overwrite ow = { 0 };
	span_mix_init(s, st, &mix);
	wbuf_start(s, st, &buf, cap_w, drain);
	spread_shape_init(&prep, shape);
	while (measured && !z->stop && done < ios_left && t < deadline - 1e-12) {
		double t_next = fmin(z->end, deadline);
		t_next = fmin(t_next, t + (double)(ios_left - done) * bs / cap_w * f_w);
		if (w->t < t)
			w->t = t;
		double got = 0, share = 0;
		if (w->t > t) {
			/* the write path still drains what discrete writes
			   left: the host writes into the room it frees */
			double t1 = fmin(t_next, w->t);
			double in = fmin(cap_w * (t1 - t), buf.cap - buf.B - wbuf_old(&buf, t1));
			in = fmax(0, in);
			buf.B += in;
			got += in;
		}
		/* the host's writes of the step, through the buffer */
		while (t_next > w->t + 1e-12) {
			mix_overwrite(&mix, st, &ow);
			double S_before = w->S_st + w->S_dyn, in = 0, sh = 0;
			double t_w = w->t;
			double d = wbuf_write(s, &buf, cap_w * (t_next - w->t), cap_w,
					      t_next - w->t, &ow, &sh, &in);
			mix_after(s, &mix, &ow, d, sh, S_before);
			got += in;
			share += sh * in;
			if (w->t <= t_w)
				break;
		}
		share = got > 0 ? share / got : 0;
		double dt = t_next - t;
		double x_w = dt > 0 ? got / bs / dt : 0, x_r = x_w * f_r / f_w;
		/* Little: what the reads do not hold of the queue, writes do. */
		double L_w = x_w > 0 ? fmax(L_land, (qd - x_r * L_r) / x_w) : L_land;
		carry_w += got / bs;
		carry_r += got / bs * f_r / f_w;
		uint64_t n_w = (uint64_t)carry_w, n_r = (uint64_t)carry_r;
		if (n_w + n_r > ios_left - done) {
			n_r = n_r < ios_left - done ? n_r : ios_left - done;
			n_w = ios_left - done - n_r;
		}
		carry_w -= (double)n_w;
		carry_r -= (double)n_r;
		spread_shaped(z->lat, &prep, shape, n_r);
		wlat_add(s, &wl, z->wlat, n_w, L_w, L_land, t_fw, bs, x_w * L_w);
		wlat_flush(s, &wl);
		z->sl.ios += n_r;
		z->sl.bytes += n_r * st->bs;
		z->sl.wios += n_w;
		z->sl.wbytes += n_w * st->bs;
		written += got;
		to_slc += share * got;
		done += n_r + n_w;
		t = t_next;
		uint64_t k0 = z->k;
		if (clock_to(s, z, t, e)) {
			rc = -1;
			goto out;
		}
		/* A step of nothing ends the stream, unless it only closed
		   the slice the calibration ended on: writes admitted at a
		   drain's end often complete on a 10 ms tick, and so on a
		   slice's boundary (a QD256 sweep point then stopped 1.4 s
		   into its 5 minutes). */
		if (dt <= 0 && z->k == k0)
			break;
	}
	s->now = stop_ns(z, ns_to_s(s->now));
	if ((z->sl.ios || z->sl.wios || s->now > z->sl.t_start_ns) && slice_emit(z, s->now, e))
		rc = -1;
	wbuf_end(s, &buf, &ow);
	span_mix_retag(s, st, written, to_slc);
	map_after_random(s, st, written / bs / f_w, f_w);
	w->t = fmax(w->t, ns_to_s(s->now));
	w->last_busy = w->t;
	s->drain_end = s_to_ns(w->t);
out:
	spread_shape_free(&prep);
	hist_free(shape);
	return rc;
}

static void slicer_free(struct slicer *z)
{
	hist_free(z->lat);
	hist_free(z->wlat);
	for (uint32_t i = 0; i < z->nside; i++)
		hist_free(z->side_lat[i]);
}

/*
 * The clock moves to `behind` (no further than the deadline), where the
 * stream starts: the slices it passes are emitted empty, so every slice
 * after holds what completed in it, at its place on the caller's grid (a
 * stream that began its own grid there stored each interval up to a
 * slice late, and the last one short).
 */
static int wait_behind(struct sim *s, struct slicer *z, uint64_t behind, struct sb_err *e)
{
	if (behind > z->deadline_ns)
		behind = z->deadline_ns;
	while (!z->stop && slice_end_ns(z) <= behind)
		if (slice_emit(z, slice_end_ns(z), e))
			return -1;
	if (!z->stop && behind == z->deadline_ns && behind > z->sl.t_start_ns &&
	    slice_emit(z, behind, e))
		return -1;
	if (behind > s->now)
		s->now = behind;
	return 0;
}

int fluid_run(struct sim *s, const struct sim_stream *st,
	      uint64_t max_bytes, uint64_t max_ns, uint64_t slice_ns,
	      sim_slice_fn fn, void *ctx, struct sb_err *e)
{
	if (check_stream(s, st, max_bytes, max_ns, slice_ns, e))
		return -1;
	/* A buffer still draining from discrete writes: a bulk stream starts
	   behind it (an exact one meets it, as single I/Os would).  The
	   stream's slices stay on the caller's grid from where it was called
	   (`behind`: the time the stream starts): those it waits are emitted
	   empty, in their place, below. */
	uint64_t behind = s->now;
	if (!st->exact) {
		/* (a bulk random writer's buffered bytes are taken over by
		   the next: wbuf_start) */
		bool writes = st->random && (st->write || st->read_pct);
		double pend = writes ? s->wp.pend : 0;
		s->wp.pend -= pend;
		wp_idle_to(s, ns_to_s(s->now));
		s->wp.pend += pend;
		/* (a random writer or mix meets it, the host writing into
		   the room the drain frees: fluid_write, fluid_mixed; a mix
		   that waited instead came out 20 % slow against I/O by I/O
		   after its own ramp's writes) */
		if (s->wp.t > ns_to_s(s->now) && !writes)
			behind = s_to_ns(s->wp.t);
	}
	struct slicer z = { .s = s, .fn = fn, .ctx = ctx, .nside = st->nside };
	z.lat = hist_new();
	z.wlat = hist_new();
	bool oom = !z.lat || !z.wlat;
	for (uint32_t i = 0; i < z.nside; i++)
		oom |= !(z.side_lat[i] = hist_new());
	if (oom) {
		slicer_free(&z);
		return sb_errno(e, ENOMEM, "sim: histogram");
	}
	z.t0_ns = s->now;
	if (st->on_grid && s->now >= st->grid_ns)
		z.t0_ns = s->now - (s->now - st->grid_ns) % slice_ns;
	z.slice_ns = slice_ns;
	z.end = ns_to_s(slice_end_ns(&z));
	z.sl.t_start_ns = s->now;
	z.sl.next_off = st->start_off;
	z.deadline_ns = max_ns && max_ns < UINT64_MAX - s->now ? s->now + max_ns : UINT64_MAX;
	double deadline = z.deadline_ns == UINT64_MAX ? INFINITY : ns_to_s(z.deadline_ns);
	/* Sampled only for a time (a byte limit is met by counting every
	   I/O), on a full-duplex interface whose queue takes all the
	   stream's I/Os: beside reads that wait for a slot of the queue, or
	   share one half-duplex link with the writes (SATA), each side I/O's
	   and each read's time depends on the other's I/O by I/O (a Micron
	   sampled at 4 and 16 readers: p99 -13 to +7 %, IOPS +2.5 %). */
	struct smp_window smp;
	bool sides_ok = !s->p.link_shared && st->qd + st->nside <= (uint32_t)s->p.qd_cap;
	/* A sequential mix (exact) is sampled by warping its gaps
	   (exact_gap), which keeps every resource's state: no such limit. */
	bool mix_ok = !st->nside && st->exact && st->read_pct && !st->random;
	bool sampled = st->sampled && !max_bytes && (st->nside ? sides_ok : mix_ok);
	z.sl.way = sampled ? SIM_WAY_SAMPLED : st->nside || st->exact ? SIM_WAY_EXACT :
		   SIM_WAY_BULK;
	/* (the window starts with the stream, after the wait) */
	int rc = wait_behind(s, &z, behind, e);
	if (rc || z.stop || s->now >= z.deadline_ns) {
		slicer_free(&z);
		return rc;
	}
	if (sampled) {
		if (smp_init(&smp, st->nside, !st->nside, st->seed ^ 0x67617073ull)) {
			slicer_free(&z);
			return sb_errno(e, ENOMEM, "sim: a sampled stream's window");
		}
		if (s->now >= st->sample_from_ns) {
			z.smp = &smp;
		} else {
			z.smp_later = &smp;
			z.smp_from_ns = st->sample_from_ns;
		}
	}
	rc = st->nside ? fluid_sides(s, st, max_bytes, &z, e) :
		 st->exact ? fluid_exact(s, st, max_bytes, deadline, &z, e) :
		 st->read_pct ? fluid_mixed(s, st, max_bytes, deadline, &z, e) :
		 st->write ? fluid_write(s, st, max_bytes, deadline, &z, e) :
			     fluid_read(s, st, max_bytes, deadline, &z, e);
	if (sampled) {
		s->repeated_reads += smp.repeated;
		s->repeated_writes += smp.repeated_w;
		smp_free(&smp);
	}
	slicer_free(&z);
	return rc;
}
