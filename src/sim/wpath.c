/*
 * The write path: where host bytes go (SLC, native), and the background
 * work that competes with them (folding, GC), integrated as piecewise
 * constant rates.  A step runs in one regime until the first of: the bytes
 * asked for are written, a time limit, the end of the 10 ms jitter tick, or
 * a crossing (a cache filling, free space reaching a watermark, SLC
 * emptying, a round segment ending).  The next step re-reads the state, so
 * regimes follow from state alone (SIMULATOR.md §4-§6).
 */
#include <math.h>

#include "sim/model.h"

#define EPS_B 1.0		/* bytes: below this a quantity is empty */
#define ROOM_MIN (1 << 20)	/* SLC room worth switching back to SLC */
#define MIN_DT 1e-7		/* s: a crossing never makes a shorter step */

static const char *const regime_names[] = {
	"slc", "direct", "fold-round", "gc", "burst", "stalled", "idle",
};

const char *regime_name(enum regime r)
{
	return regime_names[r];
}

double wp_free(const struct sim *s)
{
	const struct wpath *w = &s->wp;
	return s->R - s->m * w->S_dyn - w->T_v - w->T_i;
}

/*
 * max_d(0, min_d(a, b / m)) for m > 0, without the division when its
 * side is sure (every write step asks, and the division is most of the
 * step's latency): b a byte or more short of the reserve makes b / m
 * negative, so the minimum is negative whichever it is and the answer
 * 0; b above a x (m + 0.001), with a > 0, makes b / m above a by far
 * more than two roundings (of 1e-16 each, against 0.001 / m), so the
 * minimum is a.
 */
static double dyn_room(double a, double b, int m)
{
	if (m > 0 && b <= -1.0)
		return 0.0;
	if (m > 0 && a > 0 && b > a * (m + 0.001))
		return a;
	return max_d(0.0, min_d(a, b / m));
}

/* The SLC room when free space is F (wp_free): a step knows F already. */
static double slc_room_at(const struct sim *s, double F)
{
	if (s->p.route == ROUTE_DIRECT)
		return 0;
	const struct wpath *w = &s->wp;
	double st = max_d(0.0, s->slc_st_cap - w->S_st);
	return st + dyn_room(s->slc_dyn_max - w->S_dyn, F - s->f_res, s->m);
}

double wp_slc_room(const struct sim *s)
{
	return slc_room_at(s, wp_free(s));
}

static double slc_bytes(const struct sim *s)
{
	return s->wp.S_st + s->wp.S_dyn;
}

/*
 * What folding may take while the host writes.  On slc_then_direct drives
 * only the dynamic cache: it is what eats free space, and folding the
 * static pool would only reopen it for a moment (the static pool comes back
 * in idle time, SIMULATOR.md §6).  On slc_only drives the whole pool.
 */
static double foldable(const struct sim *s)
{
	return s->p.route == ROUTE_SLC_ONLY ? slc_bytes(s) : s->wp.S_dyn;
}

/*
 * The state a step starts from, as the regime's choice, its rates and its
 * crossings all read it: free space, what folding may take, the SLC room.
 * Nothing changes them between the three, so one step reads them once.
 */
struct view {
	double F, S, room;
};

static void view_of(const struct sim *s, struct view *v)
{
	v->F = wp_free(s);
	v->S = foldable(s);
	v->room = slc_room_at(s, v->F);
}

/*
 * Foreground GC's hysteresis: on below f_lo while there is stale data,
 * off when nothing is stale or (no bank to spend) when something else, a
 * trim, gave the space back; with a bank, bursts spend it.  Returns
 * whether GC runs.
 */
static bool gc_update(struct sim *s, double F)
{
	struct wpath *w = &s->wp;
	const struct sim_profile *p = &s->p;
	if (!(p->rho_eff > 0 && s->m > 0))
		return false;
	if (!w->gc_active && F < s->f_lo && w->T_i > EPS_B)
		w->gc_active = true;
	if (w->gc_active && (w->T_i <= EPS_B ||
			     (p->beta <= 0 && F >= s->f_lo + s->w_burst + ROOM_MIN))) {
		w->gc_active = false;
		w->burst = false;
	}
	if (w->gc_active) {
		if (!w->burst && p->beta > 0 && s->w_burst > 0 &&
		    F >= s->f_lo + s->w_burst)
			w->burst = true;
		if (w->burst && F <= s->f_lo)
			w->burst = false;
	}
	return w->gc_active;
}

/*
 * The room that reopens an slc_only drive's write window.  The window is
 * the firmware's span of folding work, win_open at the fresh drive's fold
 * rate (the ~4.5 s stalls of the P1's post-cache fill); under GC folding
 * is slower by 1 + kappa_gc (WA - 1) (regime_rates), and a window of the
 * same bytes held every write for that many times as long (48 s on a
 * preconditioned P1).  So under GC the window is as much smaller: the
 * same stall in time, the same average rate (folding sets it either way).
 */
static double win_open_room(const struct sim *s)
{
	if (!s->wp.gc_active)
		return s->win_open_b;
	return s->win_open_b / (1.0 + s->p.kappa_gc * (waf_inst(s) - 1.0));
}

/* Update the modes that have hysteresis, then name the regime. */
static enum regime choose(struct sim *s, const struct view *v)
{
	struct wpath *w = &s->wp;
	const struct sim_profile *p = &s->p;
	double F = v->F, S = v->S, room = v->room;

	if (p->route == ROUTE_SLC_ONLY) {
		double win = win_open_room(s);
		if (!w->win_open && room >= win)
			w->win_open = true;
		/* Shut with a MiB left rather than at zero, so the last
		   writes do not crawl through ever smaller steps. */
		if (w->win_open && room <= min_d(ROOM_MIN, win / 2)) {
			w->win_open = false;
			w->fg_seen = true;
		}
		/* Folding lands in native blocks, so GC must make room for
		   them as on any drive (regime_rates slows folding by it). */
		gc_update(s, F);
		w->burst = false;
		return w->win_open ? RG_SLC : RG_STALL;
	}
	if (p->route == ROUTE_SLC_THEN_DIRECT &&
	    (room > ROOM_MIN || (w->last == RG_SLC && room > EPS_B)))
		return RG_SLC;
	if (p->nrounds > 0 && s->f_fg > 0 && S > EPS_B &&
	    (w->round_seg >= 0 || F < s->f_fg)) {
		if (w->round_seg < 0) {
			w->round_seg = 0;
			w->round_left = p->rounds[0].fold_gb * 1e9;
			w->fg_seen = true;
		}
		return RG_ROUND;
	}
	if (gc_update(s, F))
		return w->burst ? RG_BURST : RG_GC;
	return RG_DIRECT;
}

/* Take up to x bytes out of the SLC pools; returns how many there were. */
static double slc_take(struct wpath *w, double x, bool static_first)
{
	double *first = static_first ? &w->S_st : &w->S_dyn;
	double *second = static_first ? &w->S_dyn : &w->S_st;
	double a = min_d(x, *first);
	double b = min_d(x - a, *second);
	*first -= a;
	*second -= b;
	return a + b;
}

/* Fold x bytes out of SLC into native blocks. */
static void fold_apply(struct sim *s, double x, bool static_first)
{
	struct wpath *w = &s->wp;
	double moved = slc_take(w, x, static_first);
	w->T_v += moved;
	w->nand_bytes += moved;
	w->fold_bytes += moved;
	if (s->samp && moved > 0)
		sampler_fold(s->samp, moved);
	if (w->S_st < EPS_B * 1e-3)
		w->S_st = 0;
	if (w->S_dyn < EPS_B * 1e-3)
		w->S_dyn = 0;
	chunks_fold(s, moved);
}

/* GC reclaims g stale bytes, copying the valid ones of its victims. */
static void gc_apply(struct sim *s, double g)
{
	struct wpath *w = &s->wp;
	g = min_d(g, w->T_i);
	w->T_i -= g;
	double copies = g * (waf_inst(s) - 1.0);
	w->nand_bytes += copies;
	w->gc_copy_bytes += copies;
}

/*
 * Time until F crosses X, moving at dF per second; INFINITY if never.  A
 * step that ended on X going down starts the next one there: it crosses at
 * once (a step of MIN_DT), so the rules that act below a mark see it.
 */
static double cross(double F, double X, double dF)
{
	if (F >= X && dF < 0)
		return (F - X) / -dF;
	if (F < X && dF > 0)
		return (X - F) / dF;
	return INFINITY;
}

/* An idle step of `amount` bytes at `rate`, within the `left` seconds:
   at least MIN_DT (or what is left), so a sliver of work cannot hold the
   loop to steps of nothing. */
static double idle_dt(double left, double amount, double rate)
{
	double dt = min_d(left, amount / rate);
	return max_d(dt, min_d(left, MIN_DT));
}

/* A bulk stream's buffered bytes drain before anything else the drive
   does: the write path runs ahead of the host's clock, as after
   discrete writes (a flush waits for drain_end). */
#define SETTLE_PIECES 16

static void wp_settle(struct sim *s)
{
	struct wpath *w = &s->wp;
	double b = w->pend / SETTLE_PIECES;
	w->pend = 0;
	/* in pieces, each held in the buffer until it has drained, so the
	   writes after it find the room as I/O by I/O */
	for (int i = 0; i < SETTLE_PIECES; i++) {
		wp_write(s, b, INFINITY, INFINITY, &w->pend_ow, NULL);
		if (timing_wbuf_hold(s, s_to_ns(w->t), (uint32_t)b))
			s->oom = true;
	}
	uint64_t end = s_to_ns(w->t);
	if (end > s->drain_end)
		s->drain_end = end;
}

void wp_idle_to(struct sim *s, double t)
{
	struct wpath *w = &s->wp;
	if (w->pend > 0)
		wp_settle(s);
	if (t <= w->t)
		return;
	double start = w->last_busy + s->t_idle_enter_s;
	if (w->t < start) {
		if (t <= start) {
			w->t = t;
			return;
		}
		w->t = start;
	}
	/* Idle: foreground state is over until the host comes back. */
	w->fg_seen = false;
	w->round_seg = -1;
	w->burst = false;
	w->last = RG_IDLE;
	while (w->t < t) {
		double left = t - w->t;
		double S = slc_bytes(s), F = wp_free(s);
		bool gc_can = s->p.rho_eff > 0 && s->m > 0 && w->T_i > EPS_B && s->g_idle > 0;
		/*
		 * Idle folding takes the static pool first.  Its data lands in
		 * native blocks, a byte of free space per byte (the pool is no
		 * part of R), while folding the dynamic pool gives m-1 per byte
		 * back: so the static pool goes only as far as free space
		 * allows; past that the dynamic pool goes first, or GC makes
		 * the room (on a full drive GC holds F at f_lo, often below
		 * what the pool holds).
		 */
		if (S > EPS_B && s->f_idle > 0) {
			double room = s->m > 0 ? F : INFINITY;
			bool st = w->S_st > 0 && room > EPS_B;
			bool dyn = !st && w->S_dyn > EPS_B;
			if (st || dyn) {
				double x = st ? min_d(w->S_st, room) : w->S_dyn;
				double dt = idle_dt(left, x, s->f_idle);
				fold_apply(s, min_d(s->f_idle * dt, x), st);
				w->t += dt;
				continue;
			}
			if (gc_can) {
				double dt = idle_dt(left, min_d(w->T_i, w->S_st - F), s->g_idle);
				gc_apply(s, s->g_idle * dt);
				w->t += dt;
				continue;
			}
		}
		/* GC in idle banks a burst's worth of free space; stale data it
		   can reclaim without copies (blocks left with nothing valid)
		   it reclaims in full. */
		double target = waf_inst(s) < 1.05 ? s->R : s->f_lo + s->w_burst;
		if (gc_can && F < target) {
			double dt = idle_dt(left, min_d(w->T_i, target - F), s->g_idle);
			gc_apply(s, s->g_idle * dt);
			w->t += dt;
			continue;
		}
		break;
	}
	if (wp_free(s) >= s->f_lo + s->w_burst || w->T_i <= EPS_B)
		w->gc_active = false;
	w->t = t;
}

void wp_trim(struct sim *s, double slc, double nat, bool whole)
{
	struct wpath *w = &s->wp;
	slc = slc_take(w, slc, false);
	nat = min_d(nat, w->T_v);
	w->T_v -= nat;
	w->inv_bytes += slc + nat;
	/* A trimmed whole chunk leaves whole blocks without valid data: they
	   are erased without copies, so the space is free at once (a purge by
	   discard gives a fresh drive).  A partial trim leaves stale pages
	   for GC. */
	if (s->m > 0 && !whole)
		w->T_i += nat;
}

/* The rates of one step. */
struct rates {
	enum regime rg;
	double h;		/* host bytes/s */
	double fold;		/* SLC -> native bytes/s, dynamic pool first */
	double gc;		/* stale bytes reclaimed/s */
	bool to_slc;
};

static void regime_rates(struct sim *s, enum regime rg, double host_cap,
			 const struct overwrite *ow, const struct view *v, double jit,
			 struct rates *r)
{
	const struct sim_profile *p = &s->p;
	struct wpath *w = &s->wp;
	bool have_slc = v->S > EPS_B;
	/* GC's jitter is that of scattered data: a sequential overwrite under
	   GC is as smooth as a fill, and so is a burst (no GC runs). */
	double sigma = rg == RG_GC ?
		       p->sigma_seq + (p->sigma_gc - p->sigma_seq) * waf_scatter(s) :
		       p->sigma_seq;
	double j = 1.0 + sigma * jit;
	if (j < 0.05)
		j = 0.05;
	j /= 1.0 + ow->map_wb;	/* map write-backs share the host's path */
	double cfo = 1.0 + ow->folded * (p->c_fo - 1.0);
	double wa;

	r->rg = rg;
	r->fold = 0;
	r->gc = 0;
	r->to_slc = false;
	switch (rg) {
	case RG_SLC:
		r->h = s->w_slc * j;
		r->to_slc = true;
		if (p->route == ROUTE_SLC_ONLY && have_slc)
			r->fold = w->fg_seen ? s->fold_rate : s->f_bg;
		break;
	case RG_STALL:
		r->h = s->stall_rate * j;
		r->fold = have_slc ? s->fold_rate : 0;
		break;
	case RG_DIRECT:
		r->h = s->w_dir * j / cfo;
		if (have_slc && !w->fg_seen)
			r->fold = s->f_bg;
		break;
	case RG_ROUND: {
		const struct sim_round_seg *seg = &p->rounds[w->round_seg];
		r->h = seg->host_gbs * 1e9 * j / cfo;
		r->fold = (s->w_dir - seg->host_gbs * 1e9) / p->kappa_fg;
		break;
	}
	case RG_GC:
		wa = waf_inst(s);
		r->h = s->p_gc * j / (1.0 + (1.0 + p->beta) * p->kappa_gc * (wa - 1.0)) / cfo;
		r->gc = (1.0 + p->beta) * r->h;
		break;
	case RG_BURST:
		r->h = s->w_dir * j / cfo;
		break;
	case RG_IDLE:
		r->h = 0;
		break;
	}
	if (r->h > host_cap) {
		/* The queue, not the drive, sets the pace; GC keeps its ratio
		   to the host's writes. */
		r->gc *= host_cap / r->h;
		r->h = host_cap;
	}
	if ((rg == RG_SLC || rg == RG_STALL) && w->gc_active) {
		/* slc_only under GC: the die time of the copies comes out of
		   folding, and GC reclaims what folding and native host
		   writes take, with its over-reclaim.  Folding does not wait
		   for the host, so this comes after the queue's cap: GC
		   scaled by the host's pace would fall behind folding, and
		   folding the static pool would eat the free space. */
		wa = waf_inst(s);
		r->fold /= 1.0 + p->kappa_gc * (wa - 1.0);
		r->gc = (1.0 + p->beta) * (r->fold + (r->to_slc ? 0 : r->h));
	}
}

/* The regime's crossings: the longest step that stays inside it. */
static double step_limit(struct sim *s, const struct rates *r,
			 const struct overwrite *ow, const struct view *v)
{
	struct wpath *w = &s->wp;
	double F = v->F, S = v->S;
	double lim = INFINITY;
	double h_nat = r->to_slc ? 0 : r->h;
	double h_slc = r->to_slc ? r->h : 0;
	/* dF/dt, from where the step's bytes come from and go to.  Host
	   native bytes take one each.  Host SLC bytes fill the static pool
	   first, which is no part of R, then the dynamic one at m each.
	   Folding and SLC overwrites take the dynamic pool first: folding
	   it frees m-1 per byte and overwriting it m, while folding the
	   static pool takes one native byte per byte and overwriting it
	   frees nothing.  GC frees what it reclaims.  Each source holds for
	   the whole step: the step ends where a pool fills or empties. */
	double st_room = max_d(0.0, s->slc_st_cap - w->S_st);
	bool dyn_in = st_room <= EPS_B, dyn_out = w->S_dyn > EPS_B;
	double dF = -h_nat - (dyn_in ? s->m * h_slc : 0) + r->gc +
		    (dyn_out ? (s->m - 1) * r->fold + s->m * r->h * ow->inv_slc : -r->fold);
	if (s->m == 0)
		dF = 0;

	if (r->fold > 0)
		lim = min_d(lim, S / r->fold);
	if (!dyn_in && h_slc > 0)
		lim = min_d(lim, st_room / h_slc);
	if (dyn_out && w->S_st > EPS_B && r->fold + r->h * ow->inv_slc > 0)
		lim = min_d(lim, w->S_dyn / (r->fold + r->h * ow->inv_slc));
	if (r->gc > 0) {
		double dTi = r->h * ow->inv_nat - r->gc;
		if (dTi < 0)
			lim = min_d(lim, w->T_i / -dTi);
	}
	if (r->rg == RG_SLC && r->h > 0)
		lim = min_d(lim, max_d(v->room, EPS_B) / r->h);
	if (r->rg == RG_STALL && r->fold > 0 && s->m > 0)
		lim = min_d(lim, (win_open_room(s) - v->room) /
				(r->fold * (s->m - 1) / s->m));
	if (r->rg == RG_ROUND && r->fold > 0)
		lim = min_d(lim, w->round_left / r->fold);
	if (s->m > 0) {
		if (s->p.route == ROUTE_SLC_THEN_DIRECT)
			lim = min_d(lim, cross(F, s->f_res + s->m * (double)ROOM_MIN, dF));
		if (s->p.nrounds > 0 && s->f_fg > 0 && S > EPS_B && w->round_seg < 0)
			lim = min_d(lim, cross(F, s->f_fg, dF));
		if (s->p.rho_eff > 0) {
			lim = min_d(lim, cross(F, s->f_lo, dF));
			if (w->gc_active)
				lim = min_d(lim, cross(F, s->f_lo + s->w_burst, dF));
		}
	}
	return max_d(lim, MIN_DT);
}

/* Apply one step of dt seconds; returns host bytes written. */
static double step_apply(struct sim *s, const struct rates *r, double dt,
			 const struct overwrite *ow, double *to_slc)
{
	struct wpath *w = &s->wp;
	double b = r->h * dt;

	/* What the new data replaces. */
	double inv_s = slc_take(w, b * ow->inv_slc, false);
	double inv_n = min_d(b * ow->inv_nat, w->T_v);
	w->T_v -= inv_n;
	if (s->m > 0)
		w->T_i += inv_n;

	/* Where it goes. */
	double slc = 0;
	if (r->to_slc) {
		double st_room = max_d(0.0, s->slc_st_cap - w->S_st);
		double st = min_d(b, st_room);
		double dyn = min_d(b - st, max_d(0.0, wp_slc_room(s) - st_room));
		w->S_st += st;
		w->S_dyn += dyn;
		slc = st + dyn;
	}
	double nat = b - slc;
	w->T_v += nat;
	w->nand_bytes += nat + b * ow->map_wb;
	w->map_wb_bytes += b * ow->map_wb;
	w->inv_bytes += inv_s + inv_n;
	/* The chunk map estimates what an overwrite hits from class
	   averages; the LBA space bounds the truth: no more valid data than
	   user capacity, so any excess was overwritten too. */
	double excess = w->S_st + w->S_dyn + w->T_v - s->U;
	if (excess > 0) {
		double x = min_d(excess, w->T_v);
		w->T_v -= x;
		if (s->m > 0)
			w->T_i += x;
		slc_take(w, excess - x, false);
		w->inv_bytes += excess;
	}
	*to_slc += slc;

	/* GC's sampler sees the host's data where it lands.  A step's bytes
	   mostly go one way: no bytes would change nothing there (its carry
	   plus zero is its carry), so the other call is left out. */
	if (s->samp) {
		if (ow->span_len) {
			if (slc != 0)
				sampler_write_rand(s->samp, ow->span_off, ow->span_len, slc, true);
			if (nat != 0)
				sampler_write_rand(s->samp, ow->span_off, ow->span_len, nat, false);
		} else {
			if (slc != 0)
				sampler_write_seq(s->samp, ow->lba, slc, true);
			if (nat != 0)
				sampler_write_seq(s->samp, ow->lba + slc, nat, false);
		}
	}

	if (r->fold > 0) {
		double x = min_d(r->fold * dt, foldable(s));
		fold_apply(s, x, false);
		if (r->rg == RG_ROUND) {
			w->round_left -= x;
			if (w->round_left <= EPS_B || foldable(s) <= EPS_B) {
				w->round_seg++;
				if (w->round_seg >= s->p.nrounds || foldable(s) <= EPS_B)
					w->round_seg = -1;
				else
					w->round_left = s->p.rounds[w->round_seg].fold_gb * 1e9;
			}
		}
	}
	if (r->gc > 0)
		gc_apply(s, r->gc * dt);

	w->host_bytes += b;
	w->t += dt;
	w->last = r->rg;
	if (s->journal_b > 0) {
		w->journal += b;
		if (w->journal >= s->journal_b - EPS_B) {
			w->journal = 0;
			w->journal_flushes++;
			w->t += s->journal_stall_s;	/* the host path waits */
		}
	}
	w->last_busy = w->t;
	return b;
}

/* wp_write and wp_write_route: with one_route, the host's bytes stop
   where the next would go elsewhere (SLC or native) than the first. */
static double write_for(struct sim *s, double bytes, double host_cap, double max_dt,
			const struct overwrite *ow_in, double *slc_share, bool one_route)
{
	struct wpath *w = &s->wp;
	struct overwrite piece = *ow_in, *ow = &piece;
	double done = 0, to_slc = 0;
	double t_end = w->t + max_dt;
	int route = -1;
	while (done < bytes - 1e-6 && w->t < t_end) {
		struct view v;
		struct rates r;
		double tick_end, jit = jitter_tick(&s->jit, w->t, &tick_end);
		view_of(s, &v);
		regime_rates(s, choose(s, &v), host_cap, ow, &v, jit, &r);
		if (r.h <= 0 && r.fold <= 0 && r.gc <= 0)
			break;	/* nothing can move: the caller's limit decides */
		if (one_route && r.h > 0) {
			if (route >= 0 && route != r.to_slc)
				break;
			route = r.to_slc;
		}
		double dt = step_limit(s, &r, ow, &v);
		dt = min_d(dt, tick_end - w->t);
		dt = min_d(dt, t_end - w->t);
		if (r.h > 0) {
			dt = min_d(dt, (bytes - done) / r.h);
			if (s->journal_b > 0)
				dt = min_d(dt, max_d(s->journal_b - w->journal, EPS_B) / r.h);
		}
		if (!(dt > 0))
			dt = MIN_DT;
		double b = step_apply(s, &r, dt, ow, &to_slc);
		done += b;
		piece.lba += b;
	}
	if (slc_share)
		*slc_share = done > 0 ? to_slc / done : 0;
	return done;
}

double wp_write(struct sim *s, double bytes, double host_cap, double max_dt,
		const struct overwrite *ow, double *slc_share)
{
	return write_for(s, bytes, host_cap, max_dt, ow, slc_share, false);
}

double wp_write_route(struct sim *s, double bytes, double host_cap, double max_dt,
		      const struct overwrite *ow, double *slc_share)
{
	return write_for(s, bytes, host_cap, max_dt, ow, slc_share, true);
}
