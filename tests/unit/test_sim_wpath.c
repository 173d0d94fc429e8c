/*
 * The write path's shortcuts against their rules, bit for bit:
 *   - jitter_tick's window (a time inside it answers without a division)
 *     against jitter_at and jitter_tick_end asked one by one, over times
 *     a write step meets: thousands in one tick, tick ends exactly and a
 *     hair either side, the first 1e-9 of a tick, hours and months in;
 *   - sampler_wa's memo against the bins read every time
 *     (sampler_wa_scan), through writes, folds, trims and GC;
 *   - a sampler write of no bytes (which the write path leaves out)
 *     against none at all;
 *   - the SLC room (wp_slc_room, which skips its division where the
 *     answer is sure) against its formula with the division, over pool
 *     and free-space states on every built-in drive.
 */
#include "check.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "common/rng.h"
#include "sim/model.h"
#include "sim/sampler.h"
#include "sim/sim.h"
#include "sim_fixture.h"

static bool same_bits(double a, double b)
{
	return !memcmp(&a, &b, sizeof a);
}

/* Where a test time goes next: mostly a write step on, now and then a
   tick's edge (on it, a few ulps or 1e-9 of a tick short), a gap of idle
   time, or back a little (an earlier query). */
static double next_time(struct rng *r, double t)
{
	uint64_t x = rng_below(r, 1000);
	double tick = 0.01, k = floor(t / tick);
	if (x < 850)
		return t + 1e-6 * (0.1 + 10 * rng_unit(r));
	if (x < 900) {
		double e = (k + 1.0) * tick;
		for (int i = (int)rng_below(r, 8) - 4; i < 0; i++)
			e = nextafter(e, 0);
		for (int i = (int)rng_below(r, 8) - 4; i > 0; i--)
			e = nextafter(e, INFINITY);
		return e;
	}
	if (x < 950)
		return ((k + 1.0) - 1e-9 * rng_unit(r) * 2) * tick;
	if (x < 990)
		return t + 0.05 * rng_unit(r);
	return t - 1e-4 * rng_unit(r);
}

TEST(jitter_tick_is_jitter_at_and_tick_end)
{
	struct rng r;
	rng_seed(&r, 21);
	/* from 0, and from hours, a week and a year in, where a time's ulp
	   is no longer small against 1e-9 of a tick */
	const double starts[] = { 0, 3600, 7 * 86400.0, 3.2e7 };
	uint64_t hits = 0, asked = 0;
	for (int k = 0; k < 4; k++) {
		struct jitter fast, ref;
		jitter_init(&fast, 0.3, 5 + (uint64_t)k);
		jitter_init(&ref, 0.3, 5 + (uint64_t)k);
		/* the process stands a tick short of the start already
		   (stepping it there would take billions of draws) */
		fast.tick = ref.tick = (uint64_t)(starts[k] / 0.01) - (starts[k] > 0);
		double t = starts[k];
		for (int i = 0; i < 300000; i++) {
			t = next_time(&r, t);
			hits += t >= fast.win_lo && t <= fast.win_hi;
			asked++;
			double end = 0, x = jitter_tick(&fast, t, &end);
			double ref_x = jitter_at(&ref, t), ref_end = jitter_tick_end(t);
			if (!same_bits(x, ref_x) || !same_bits(end, ref_end)) {
				CHECK_FAIL("start %g step %d, t %.17g: value %.17g vs %.17g, end %.17g vs %.17g",
					   starts[k], i, t, x, ref_x, end, ref_end);
				break;
			}
		}
	}
	/* the window answered most of them (the test reaches its path) */
	CHECK(hits > asked / 2);
	printf("  %llu of %llu times from the window\n", (unsigned long long)hits,
	       (unsigned long long)asked);
}

/* A sampler's next operation: host writes (sequential or random, to SLC
   or native), folds, trims; a drive of U bytes. */
static void sampler_op(struct sampler *sp, struct rng *r, uint64_t U, double *pos)
{
	uint64_t x = rng_below(r, 100);
	bool slc = rng_below(r, 3) == 0;
	double grain = (double)U / 200000.0;	/* about a sampler page */
	double b = grain * (rng_below(r, 4) ? 0.01 + 0.3 * rng_unit(r) : 1 + 50 * rng_unit(r));
	if (x < 40) {
		sampler_write_seq(sp, *pos, b, slc);
		*pos += b;
		if (*pos >= (double)U)
			*pos = 0;
	} else if (x < 70) {
		uint64_t off = rng_below(r, U / 2), len = 1 + rng_below(r, U - off);
		sampler_write_rand(sp, off, len, b, slc);
	} else if (x < 85) {
		/* a hot span of about a block: its pages are overwritten
		   while their block is still open, and GC takes blocks with
		   nothing valid (no copies: no block enters a bin after) */
		sampler_write_rand(sp, U / 3, U / 1000, b, false);
	} else if (x < 97) {
		sampler_fold(sp, b);
	} else {
		uint64_t off = rng_below(r, U), len = rng_below(r, (U - off) / 50 + 1);
		sampler_trim(sp, off, len);
	}
}

TEST(sampler_wa_memo_is_the_scan)
{
	const uint64_t U = 1ull << 34;
	struct rng r;
	rng_seed(&r, 22);
	uint64_t asked = 0, changed = 0;
	for (int k = 0; k < 3; k++) {
		struct sampler *sp;
		struct sb_err e;
		if (sampler_new(0.05 + 0.1 * k, U, (double)U / 20, 9, &sp, &e)) {
			CHECK_FAIL("%s", e.msg);
			continue;
		}
		double pos = 0, last = 0;
		for (int i = 0; i < 400000; i++) {
			sampler_op(sp, &r, U, &pos);
			/* asked after some operations, twice after some (the
			   second from the memo), so a memo that missed a change
			   of bins answers stale */
			if (rng_below(&r, 3))
				continue;
			double wa = sampler_wa(sp);
			if (rng_below(&r, 2))
				wa = sampler_wa(sp);
			double scan = sampler_wa_scan(sp);
			asked++;
			changed += !same_bits(scan, last);
			last = scan;
			if (!same_bits(wa, scan)) {
				CHECK_FAIL("rho %g op %d: memo %.17g, bins %.17g", 0.05 + 0.1 * k, i,
					   wa, scan);
				break;
			}
		}
		sampler_free(sp);
	}
	/* GC ran and the figure moved, often */
	CHECK(changed > asked / 100);
	printf("  %llu answers, %llu of them new\n", (unsigned long long)asked,
	       (unsigned long long)changed);
}

TEST(sampler_write_of_no_bytes_changes_nothing)
{
	const uint64_t U = 1ull << 34;
	struct rng ra, rb, rz;
	rng_seed(&ra, 23);
	rng_seed(&rb, 23);
	rng_seed(&rz, 24);
	struct sampler *a, *b;
	struct sb_err e;
	if (sampler_new(0.1, U, (double)U / 20, 9, &a, &e) ||
	    sampler_new(0.1, U, (double)U / 20, 9, &b, &e)) {
		CHECK_FAIL("%s", e.msg);
		return;
	}
	double pa = 0, pb = 0;
	for (int i = 0; i < 300000; i++) {
		sampler_op(a, &ra, U, &pa);
		sampler_op(b, &rb, U, &pb);
		/* b also gets writes of no bytes, of both kinds and signs */
		if (rng_below(&rz, 2)) {
			double zero = rng_below(&rz, 2) ? 0.0 : -0.0;
			bool slc = rng_below(&rz, 2);
			if (rng_below(&rz, 2))
				sampler_write_seq(b, pb, zero, slc);
			else
				sampler_write_rand(b, 0, U, zero, slc);
		}
		if (i % 1000 == 999 &&
		    (!same_bits(sampler_wa_scan(a), sampler_wa_scan(b)) ||
		     !same_bits(sampler_wa_recent(a), sampler_wa_recent(b)))) {
			CHECK_FAIL("op %d: WA %.17g vs %.17g", i, sampler_wa_scan(a),
				   sampler_wa_scan(b));
			break;
		}
	}
	sampler_free(a);
	sampler_free(b);
}

/* The room's formula as SIMULATOR.md gives it: the static pool's room,
   and the dynamic pool's, bounded by what free space above the reserve
   holds at m bits a cell. */
static double ref_room(const struct sim *s)
{
	if (s->p.route == ROUTE_DIRECT)
		return 0;
	double F = s->R - s->m * s->wp.S_dyn - s->wp.T_v - s->wp.T_i;
	double st = s->slc_st_cap - s->wp.S_st, dyn = (F - s->f_res) / s->m;
	st = st < 0.0 ? 0.0 : st;
	if (!(s->slc_dyn_max - s->wp.S_dyn >= dyn))
		dyn = s->slc_dyn_max - s->wp.S_dyn;
	return st + (dyn < 0.0 ? 0.0 : dyn);
}

/* A state's free space above the reserve from x: far below, within a
   byte either side of zero, near where it bounds the dynamic pool
   (b / m = a, a few ulps about), or far above. */
static void set_state(struct sim *s, struct rng *r)
{
	struct wpath *w = &s->wp;
	w->S_st = s->slc_st_cap * rng_unit(r) * 1.2;
	w->S_dyn = s->slc_dyn_max * rng_unit(r) * 1.1;
	double a = s->slc_dyn_max - w->S_dyn;
	double b;
	switch (rng_below(r, 5)) {
	case 0: b = -s->R * rng_unit(r); break;
	case 1: b = 4 * rng_unit(r) - 2; break;
	case 2: b = a * s->m * (1 + 0.002 * (rng_unit(r) - 0.5)); break;
	case 3:
		b = a * s->m;
		for (int i = (int)rng_below(r, 9) - 4; i; i += i < 0 ? 1 : -1)
			b = nextafter(b, i < 0 ? -INFINITY : INFINITY);
		break;
	default: b = s->R * rng_unit(r); break;
	}
	/* F = R - m S_dyn - T_v - T_i: T_i takes the rest */
	w->T_v = 0;
	w->T_i = s->R - s->m * w->S_dyn - (b + s->f_res);
}

TEST(slc_room_is_its_formula)
{
	struct rng r;
	rng_seed(&r, 25);
	uint64_t asked = 0, below = 0, capped = 0;
	for (unsigned d = 0; d < profile_builtin_count(); d++) {
		struct sim *s = open_scaled(profile_builtin_name(d), 0.01, 1);
		if (!s)
			continue;
		for (int i = 0; i < 200000; i++) {
			set_state(s, &r);
			double want = ref_room(s), got = wp_slc_room(s);
			double F = wp_free(s), a = s->slc_dyn_max - s->wp.S_dyn;
			asked++;
			below += F - s->f_res < 0;
			capped += s->m > 0 && F - s->f_res > a * s->m;
			if (!same_bits(got, want)) {
				CHECK_FAIL("%s: room %.17g, formula %.17g (F %.17g, S_dyn %.17g)",
					   s->p.name, got, want, F, s->wp.S_dyn);
				break;
			}
		}
		sim_close(s);
	}
	/* both sides the division may skip, often */
	CHECK(below > asked / 10);
	CHECK(capped > asked / 10);
	printf("  %llu rooms: %llu below the reserve, %llu capped by the pool\n",
	       (unsigned long long)asked, (unsigned long long)below,
	       (unsigned long long)capped);
}

CHECK_MAIN("test_sim_wpath")
