/*
 * The memo of streams (sim.h, memo.c) and the snapshots under it
 * (snapshot.c).  The reference is the same calls on a drive without a
 * memo: every slice (its numbers, times and every histogram bucket,
 * listed here by a plain scan of all of them) and the state after, and
 * after a further workload, must be the same.  A drive in any other
 * state (a write, another idle, another drive seed) or asked another
 * stream runs the stream instead; a replay that the caller stops part way
 * leaves the drive where the run would have stopped.
 */
#include "check.h"
#include "sim_fixture.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/model.h"
#include "sim/sim.h"

#define SLICE 100000000ull	/* 100 ms */
#define MAXSL 4096
#define MAXB 256		/* non-zero buckets kept per histogram */

/* One histogram as a plain list of its non-zero buckets. */
struct hsum {
	uint64_t count, sum, min, max;
	uint32_t n, idx[MAXB];
	uint64_t val[MAXB];
	bool null, over;
};

struct rec {
	uint64_t t_start, t_end, bytes, ios, next_off, wbytes, wios, sim_ios, now;
	int way;
	struct hsum lat, wlat;
};

struct trace {
	struct rec *r;
	size_t n;
	size_t stop_at;		/* answer 1 at this slice (SIZE_MAX: never) */
	const struct sim *s;
};

static void hsum_of(struct hsum *o, const struct lat_hist *h)
{
	memset(o, 0, sizeof *o);
	if (!h) {
		o->null = true;
		return;
	}
	o->count = h->count;
	o->sum = h->sum;
	o->min = h->min;
	o->max = h->max;
	for (uint32_t i = 0; i < HIST_NBUCKETS; i++)
		if (h->buckets[i]) {
			if (o->n == MAXB) {
				o->over = true;
				break;
			}
			o->idx[o->n] = i;
			o->val[o->n++] = h->buckets[i];
		}
}

static bool hsum_eq(const struct hsum *a, const struct hsum *b)
{
	return a->null == b->null && a->over == b->over && a->count == b->count &&
	       a->sum == b->sum && a->min == b->min && a->max == b->max && a->n == b->n &&
	       !memcmp(a->idx, b->idx, sizeof a->idx[0] * a->n) &&
	       !memcmp(a->val, b->val, sizeof a->val[0] * a->n);
}

static int on_slice(void *ctx, const struct sim_slice *sl, struct sb_err *e)
{
	(void)e;
	struct trace *t = ctx;
	if (t->n == MAXSL)
		return 1;
	struct rec *r = &t->r[t->n];
	*r = (struct rec){ .t_start = sl->t_start_ns, .t_end = sl->t_end_ns,
			   .bytes = sl->bytes, .ios = sl->ios, .next_off = sl->next_off,
			   .wbytes = sl->wbytes, .wios = sl->wios, .sim_ios = sl->sim_ios,
			   .now = sim_now(t->s), .way = (int)sl->way };
	hsum_of(&r->lat, sl->lat);
	hsum_of(&r->wlat, sl->wlat);
	return t->n++ == t->stop_at;
}

static struct trace *trace_new(const struct sim *s)
{
	struct trace *t = calloc(1, sizeof *t);
	t->r = calloc(MAXSL, sizeof *t->r);
	t->stop_at = SIZE_MAX;
	t->s = s;
	return t;
}

static void trace_free(struct trace *t)
{
	if (t)
		free(t->r);
	free(t);
}

static bool traces_eq(const struct trace *a, const struct trace *b)
{
	if (a->n != b->n || !a->n)
		return false;
	for (size_t i = 0; i < a->n; i++) {
		const struct rec *x = &a->r[i], *y = &b->r[i];
		if (x->t_start != y->t_start || x->t_end != y->t_end || x->bytes != y->bytes ||
		    x->ios != y->ios || x->next_off != y->next_off || x->wbytes != y->wbytes ||
		    x->wios != y->wios || x->sim_ios != y->sim_ios || x->now != y->now ||
		    x->way != y->way || !hsum_eq(&x->lat, &y->lat) || !hsum_eq(&x->wlat, &y->wlat))
			return false;
	}
	return true;
}

static bool states_eq(const struct sim *a, const struct sim *b)
{
	struct sim_state x, y;
	sim_state(a, &x);
	sim_state(b, &y);
	return x.now_s == y.now_s && x.slc_static == y.slc_static && x.slc_dyn == y.slc_dyn &&
	       x.native_valid == y.native_valid && x.native_stale == y.native_stale &&
	       x.free_bytes == y.free_bytes && x.slc_room == y.slc_room &&
	       x.host_bytes == y.host_bytes && x.nand_bytes == y.nand_bytes &&
	       x.fold_bytes == y.fold_bytes && x.gc_copy_bytes == y.gc_copy_bytes &&
	       x.wa_inst == y.wa_inst && !strcmp(x.regime, y.regime) &&
	       x.map_hits == y.map_hits && x.map_misses == y.map_misses &&
	       x.map_wb_bytes == y.map_wb_bytes && sim_now(a) == sim_now(b);
}

/* The reclaim step's fill: half the drive, sequential 128 KiB at QD 256. */
static struct sim_stream fill_stream(const struct sim *s, uint64_t seed)
{
	uint64_t half = sim_capacity(s) / 2 / 131072 * 131072;
	return (struct sim_stream){ .write = true, .bs = 131072, .qd = 256,
				    .span_len = half, .seed = seed };
}

static uint64_t fill_bytes(const struct sim *s)
{
	return sim_capacity(s) / 2 / 131072 * 131072;
}

/* A fill from where s stands, traced (stop_at: the slice the caller
   stops at). */
static struct trace *fill(struct sim *s, uint64_t seed, size_t stop_at)
{
	struct trace *t = trace_new(s);
	t->stop_at = stop_at;
	struct sim_stream st = fill_stream(s, seed);
	struct sb_err e;
	if (sim_run_fluid(s, &st, fill_bytes(s), 0, SLICE, on_slice, t, &e))
		CHECK_FAIL("fill: %s", e.msg);
	return t;
}

/* What follows the fill in the step, and more: an idle, a sequential
   write for 2 s from the fill's end, an idle, random writes for 1 s, a
   few single reads. */
static struct trace *after(struct sim *s)
{
	struct trace *t = trace_new(s);
	struct sb_err e;
	sim_idle(s, 3000000000ull);
	struct sim_stream w = fill_stream(s, 9);
	w.span_off = fill_bytes(s);
	w.span_len = sim_capacity(s) - w.span_off;
	w.span_len = w.span_len / 131072 * 131072;
	w.start_off = w.span_off;
	if (sim_run_fluid(s, &w, 0, 2000000000ull, SLICE, on_slice, t, &e))
		CHECK_FAIL("write: %s", e.msg);
	sim_idle(s, 500000000ull);
	struct sim_stream r = { .write = true, .random = true, .bs = 4096, .qd = 32,
				.span_len = sim_capacity(s) / 4096 * 4096, .seed = 77 };
	if (sim_run_fluid(s, &r, 0, 1000000000ull, SLICE, on_slice, t, &e))
		CHECK_FAIL("random write: %s", e.msg);
	for (uint64_t i = 0; i < 64; i++) {
		struct sim_io io = { SIM_READ, (i * 7919 % 1000) * 1048576, 4096, i, false };
		if (sim_submit(s, &io, &e))
			CHECK_FAIL("read: %s", e.msg);
	}
	struct sim_cpl c[64];
	CHECK(sim_reap(s, c, 64, 64, UINT64_MAX) == 64);
	for (int i = 0; i < 64 && t->n < MAXSL; i++)
		t->r[t->n++] = (struct rec){ .t_start = c[i].t_submit_ns, .t_end = c[i].t_done_ns,
					     .ios = c[i].tag };
	return t;
}

static const char *const drives[] = { "sn850x-4tb", "rc100-480gb", "p1-1tb" };
#define SCALE 0.01
#define PURGE_REST 250000000ull

/* A fresh drive as the step's purge leaves it: opened, rested. */
/* A memo, or NULL with the failure reported. */
static struct sim_memo *new_memo(void)
{
	struct sim_memo *m;
	struct sb_err e;
	if (sim_memo_new(&m, &e)) {
		CHECK_FAIL("%s", e.msg);
		return NULL;
	}
	return m;
}

static struct sim *fresh(const char *name, uint64_t seed, struct sim_memo *m)
{
	struct sim *s = open_scaled(name, SCALE, seed);
	if (s) {
		sim_use_memo(s, m);
		sim_idle(s, PURGE_REST);
	}
	return s;
}

/* Against the plain run: the first fill with a memo is recorded, the next
   ones (other stream seeds: a sequential write reads none) repeat it,
   slice for slice, and the drive goes on as the plain one. */
TEST(memo_repeats_a_fresh_drives_fill_exactly)
{
	for (size_t d = 0; d < sizeof drives / sizeof drives[0]; d++) {
		struct sb_err e;
		struct sim_memo *m = new_memo();
		if (!m)
			return;
		struct sim *ref = fresh(drives[d], 5, NULL);
		struct trace *fr = fill(ref, 1, SIZE_MAX);
		struct trace *ar = after(ref);
		CHECK(fr->n > 20 && fr->r[fr->n / 2].lat.count > 0 && !fr->r[fr->n / 2].lat.over);
		for (uint64_t round = 0; round < 3; round++) {
			struct sim *s = fresh(drives[d], 5, m);
			struct trace *f = fill(s, 100 + round, SIZE_MAX);
			CHECK_EQ_U64(sim_memo_records(m), 1);
			CHECK_EQ_U64(sim_memo_replays(m), round);
			if (!traces_eq(f, fr))
				CHECK_FAIL("%s round %llu: the fill's slices differ", drives[d],
					   (unsigned long long)round);
			struct trace *a = after(s);
			if (!traces_eq(a, ar) || !states_eq(s, ref))
				CHECK_FAIL("%s round %llu: the drive goes on otherwise after the fill",
					   drives[d], (unsigned long long)round);
			if (sim_check_invariants(s, &e))
				CHECK_FAIL("%s: %s", drives[d], e.msg);
			trace_free(f);
			trace_free(a);
			sim_close(s);
		}
		trace_free(fr);
		trace_free(ar);
		sim_close(ref);
		sim_memo_free(m);
	}
}

/* A drive in another state, or another stream: run, not repeated, and
   the same as without a memo. */
TEST(memo_is_not_used_from_another_state_or_for_another_stream)
{
	const char *name = "sn850x-4tb";
	struct sb_err e;
	struct sim_memo *m = new_memo();
	if (!m)
		return;
	struct sim *s = fresh(name, 5, m);
	trace_free(fill(s, 1, SIZE_MAX));
	sim_close(s);
	CHECK_EQ_U64(sim_memo_records(m), 1);
	for (int variant = 0; variant < 5; variant++) {
		struct sim *ref = fresh(name, variant == 2 ? 6 : 5, NULL);
		s = fresh(name, variant == 2 ? 6 : 5, m);
		for (int k = 0; k < 2; k++) {
			struct sim *x = k ? s : ref;
			if (variant == 0) {
				/* one write in between */
				struct sim_io io = { SIM_WRITE, 1 << 20, 4096, 1, false };
				struct sim_cpl c;
				if (sim_submit(x, &io, &e))
					CHECK_FAIL("%s", e.msg);
				CHECK(sim_reap(x, &c, 1, 1, UINT64_MAX) == 1);
			} else if (variant == 1) {
				sim_idle(x, 1);	/* a nanosecond later */
			} else if (variant == 4) {
				if (sim_discard(x, 0, 1 << 20, &e))	/* a trim of nothing */
					CHECK_FAIL("%s", e.msg);
			}
		}
		uint64_t before = sim_memo_replays(m);
		struct trace *fr, *f;
		if (variant == 3) {
			/* another stream: QD 128 */
			fr = trace_new(ref);
			f = trace_new(s);
			struct sim_stream st = fill_stream(ref, 1);
			st.qd = 128;
			if (sim_run_fluid(ref, &st, fill_bytes(ref), 0, SLICE, on_slice, fr, &e) ||
			    sim_run_fluid(s, &st, fill_bytes(s), 0, SLICE, on_slice, f, &e))
				CHECK_FAIL("%s", e.msg);
		} else {
			fr = fill(ref, 1, SIZE_MAX);
			f = fill(s, 1, SIZE_MAX);
		}
		if (sim_memo_replays(m) != before)
			CHECK_FAIL("variant %d: the memo was used", variant);
		struct trace *ar = after(ref), *a = after(s);
		if (!traces_eq(f, fr) || !traces_eq(a, ar) || !states_eq(s, ref))
			CHECK_FAIL("variant %d: not as without a memo", variant);
		trace_free(fr);
		trace_free(f);
		trace_free(ar);
		trace_free(a);
		sim_close(ref);
		sim_close(s);
	}
	sim_memo_free(m);
}

/* The caller stops a repeated fill part way: it had the slices up to that
   one, once each, and the drive stands where the plain run stopped. */
TEST(memo_replay_stopped_part_way_stands_where_the_run_stopped)
{
	const char *name = "rc100-480gb";
	struct sim_memo *m = new_memo();
	if (!m)
		return;
	struct sim *s = fresh(name, 5, m);
	struct trace *whole = fill(s, 1, SIZE_MAX);
	sim_close(s);
	CHECK(whole->n > 20);
	size_t k = whole->n / 2;
	struct sim *ref = fresh(name, 5, NULL);
	struct trace *fr = fill(ref, 1, k);
	s = fresh(name, 5, m);
	struct trace *f = fill(s, 1, k);
	CHECK_EQ_U64(f->n, k + 1);
	if (!traces_eq(f, fr))
		CHECK_FAIL("the slices up to the stop differ");
	struct trace *ar = after(ref), *a = after(s);
	if (!traces_eq(a, ar) || !states_eq(s, ref))
		CHECK_FAIL("the drive does not stand where the run stopped");
	trace_free(whole);
	trace_free(fr);
	trace_free(f);
	trace_free(ar);
	trace_free(a);
	sim_close(ref);
	sim_close(s);
	sim_memo_free(m);
}

/* A snapshot restored into another drive behaves as the original does
   from there; the comparison sees a copy as the same and one write as
   a difference. */
TEST(snapshot_restored_behaves_as_the_original)
{
	for (size_t d = 0; d < sizeof drives / sizeof drives[0]; d++) {
		struct sb_err e;
		struct sim *s = fresh(drives[d], 5, NULL);
		trace_free(fill(s, 1, SIZE_MAX));
		struct sim *snap = NULL;
		if (sim_snapshot(s, &snap, &e)) {
			CHECK_FAIL("%s", e.msg);
			return;
		}
		CHECK(sim_same_state(s, snap));
		struct sim *other = fresh(drives[d], 8, NULL);
		CHECK(!sim_same_state(other, snap));
		trace_free(after(other));	/* its allocations grown otherwise */
		if (sim_restore(other, snap, &e))
			CHECK_FAIL("%s", e.msg);
		CHECK(sim_same_state(other, snap));
		struct trace *a = after(s), *b = after(other);
		if (!traces_eq(a, b) || !states_eq(s, other))
			CHECK_FAIL("%s: the restored drive goes on otherwise", drives[d]);
		CHECK(!sim_same_state(s, snap));
		trace_free(a);
		trace_free(b);
		sim_close(snap);
		sim_close(other);
		sim_close(s);
	}
}

/* The claim the memo's key rests on for a sequential bulk write: its
   seed changes nothing (memo.c seed_read). */
TEST(sequential_bulk_write_reads_no_seed)
{
	for (size_t d = 0; d < sizeof drives / sizeof drives[0]; d++) {
		struct sim *a = fresh(drives[d], 5, NULL), *b = fresh(drives[d], 5, NULL);
		struct trace *fa = fill(a, 1, SIZE_MAX), *fb = fill(b, 0xdeadbeefull, SIZE_MAX);
		if (!traces_eq(fa, fb) || !sim_same_state(a, b))
			CHECK_FAIL("%s: the seed changed a sequential fill", drives[d]);
		trace_free(fa);
		trace_free(fb);
		sim_close(a);
		sim_close(b);
	}
}

CHECK_MAIN("test_sim_memo")
