/*
 * The memo of streams (sim.h): sim_run_fluid's entry.
 *
 * The simulator is deterministic: a stream from a given state, with the
 * same stream, limits and slice length, gives the same slices and leaves
 * the same state, whatever the caller does with the slices, as long as it
 * lets the stream run to its end (the slice callback's only way back into
 * the stream is its return value).  So a stream asked again from a state
 * shown equal byte for byte (snapshot.c: the struct, every allocation,
 * the clock) to the one a recorded stream started from repeats the
 * record: its slices are handed over again and the drive is put in the
 * recorded end state.  A suite's cache-reclaim step purges (reopens) the
 * drive and fills it seven times over: six of its fills repeat the first.
 *
 * Only a stream from a drive that has only idled since it was opened is
 * recorded or compared (`pristine`): that costs a copy of the state per
 * purge, not per stream, and it is only a filter, the comparison decides.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/model.h"

/* A slice's histograms: its reads (or a stream's only direction), a
   mix's writes, the side streams'. */
#define NHIST (2 + SIM_MAX_SIDE)
#define NO_HIST SIZE_MAX

struct memo_slice {
	struct sim_slice sl;	/* its histogram pointers cleared */
	uint64_t now;		/* the drive's clock when it was handed over */
	size_t hist[NHIST];	/* each histogram's words in the pool, or NO_HIST */
};

/* A stream as asked: the memo's key beside the start state. */
struct memo_key {
	struct sim_stream st;	/* side points to the key's own copy */
	struct sim_side side[SIM_MAX_SIDE];
	uint64_t max_bytes, max_ns, slice_ns;
};

struct sim_memo {
	bool valid;		/* a whole record: start, key, slices, end */
	struct sim *start, *end;
	struct memo_key key;
	struct memo_slice *slices;
	size_t nslices, cap_slices;
	uint64_t *pool;		/* the slices' histograms, sparse (hist_put) */
	size_t npool, cap_pool;
	struct lat_hist *scratch[NHIST];	/* a replayed slice's histograms */
	uint64_t records, replays;
};

int sim_memo_new(struct sim_memo **out, struct sb_err *e)
{
	struct sim_memo *m = calloc(1, sizeof *m);
	if (!m)
		return sb_errno(e, ENOMEM, "sim: memo");
	for (int i = 0; i < NHIST; i++)
		if (!(m->scratch[i] = hist_new())) {
			sim_memo_free(m);
			return sb_errno(e, ENOMEM, "sim: memo's histograms");
		}
	*out = m;
	return 0;
}

/* Forget the record (its memory for slices and histograms stays). */
static void memo_clear(struct sim_memo *m)
{
	m->valid = false;
	sim_close(m->start);
	sim_close(m->end);
	m->start = m->end = NULL;
	m->nslices = m->npool = 0;
}

void sim_memo_free(struct sim_memo *m)
{
	if (!m)
		return;
	memo_clear(m);
	free(m->slices);
	free(m->pool);
	for (int i = 0; i < NHIST; i++)
		hist_free(m->scratch[i]);
	free(m);
}

void sim_use_memo(struct sim *s, struct sim_memo *m) { s->memo = m; }
uint64_t sim_memo_records(const struct sim_memo *m) { return m->records; }
uint64_t sim_memo_replays(const struct sim_memo *m) { return m->replays; }

/* ---- histograms, sparse: every word a reader of a histogram can see ---- */

static int pool_push(struct sim_memo *m, uint64_t v)
{
	if (m->npool == m->cap_pool) {
		size_t cap = m->cap_pool ? m->cap_pool * 2 : 4096;
		uint64_t *p = realloc(m->pool, cap * sizeof *p);
		if (!p)
			return -1;
		m->pool = p;
		m->cap_pool = cap;
	}
	m->pool[m->npool++] = v;
	return 0;
}

/*
 * h into the pool: count, sum, min, max, lo, hi, the nzw words, then for
 * every set bit of nzw its nz word and for every set bit of that the
 * bucket.  A bucket whose nz bit is clear is zero, and so is an nz word
 * whose nzw bit is clear (hist.h): these words are the whole histogram.
 */
static int hist_put(struct sim_memo *m, const struct lat_hist *h, size_t *at)
{
	*at = m->npool;
	int rc = pool_push(m, h->count) | pool_push(m, h->sum) |
		 pool_push(m, h->min) | pool_push(m, h->max) |
		 pool_push(m, h->lo) | pool_push(m, h->hi);
	for (uint32_t s = 0; s < HIST_NSUM; s++)
		rc |= pool_push(m, h->nzw[s]);
	for (uint32_t s = 0; s < HIST_NSUM; s++)
		for (uint64_t q = h->nzw[s]; q; q &= q - 1) {
			uint32_t w = s * 64u + (uint32_t)__builtin_ctzll(q);
			rc |= pool_push(m, h->nz[w]);
			for (uint64_t b = h->nz[w]; b; b &= b - 1)
				rc |= pool_push(m, h->buckets[w * 64u + (uint32_t)__builtin_ctzll(b)]);
		}
	return rc ? -1 : 0;
}

/* Every word of h that may be non-zero, zero (h as hist_put left it, or
   fresh). */
static void hist_zero(struct lat_hist *h)
{
	for (uint32_t s = 0; s < HIST_NSUM; s++) {
		for (uint64_t q = h->nzw[s]; q; q &= q - 1) {
			uint32_t w = s * 64u + (uint32_t)__builtin_ctzll(q);
			for (uint64_t b = h->nz[w]; b; b &= b - 1)
				h->buckets[w * 64u + (uint32_t)__builtin_ctzll(b)] = 0;
			h->nz[w] = 0;
		}
		h->nzw[s] = 0;
	}
}

/* The histogram hist_put stored at `at`, into h. */
static void hist_get(const struct sim_memo *m, size_t at, struct lat_hist *h)
{
	const uint64_t *p = m->pool + at;
	hist_zero(h);
	h->count = p[0];
	h->sum = p[1];
	h->min = p[2];
	h->max = p[3];
	h->lo = (uint32_t)p[4];
	h->hi = (uint32_t)p[5];
	p += 6;
	for (uint32_t s = 0; s < HIST_NSUM; s++)
		h->nzw[s] = *p++;
	for (uint32_t s = 0; s < HIST_NSUM; s++)
		for (uint64_t q = h->nzw[s]; q; q &= q - 1) {
			uint32_t w = s * 64u + (uint32_t)__builtin_ctzll(q);
			h->nz[w] = *p++;
			for (uint64_t b = h->nz[w]; b; b &= b - 1)
				h->buckets[w * 64u + (uint32_t)__builtin_ctzll(b)] = *p++;
		}
}

/* ---- slices ---- */

static const struct lat_hist **hist_slot(struct sim_slice *sl, int i)
{
	return i == 0 ? &sl->lat : i == 1 ? &sl->wlat : &sl->side[i - 2].lat;
}

static int slice_put(struct sim_memo *m, const struct sim_slice *sl, uint64_t now)
{
	if (m->nslices == m->cap_slices) {
		size_t cap = m->cap_slices ? m->cap_slices * 2 : 1024;
		struct memo_slice *p = realloc(m->slices, cap * sizeof *p);
		if (!p)
			return -1;
		m->slices = p;
		m->cap_slices = cap;
	}
	struct memo_slice *ms = &m->slices[m->nslices];
	ms->sl = *sl;
	ms->now = now;
	for (int i = 0; i < NHIST; i++) {
		const struct lat_hist **h = hist_slot(&ms->sl, i);
		ms->hist[i] = NO_HIST;
		if (*h && hist_put(m, *h, &ms->hist[i]))
			return -1;
		*h = NULL;
	}
	m->nslices++;
	return 0;
}

/* Recorded slice k as it was handed over: its histograms in the scratch
   ones. */
static struct sim_slice slice_get(struct sim_memo *m, size_t k)
{
	const struct memo_slice *ms = &m->slices[k];
	struct sim_slice sl = ms->sl;
	for (int i = 0; i < NHIST; i++)
		if (ms->hist[i] != NO_HIST) {
			hist_get(m, ms->hist[i], m->scratch[i]);
			*hist_slot(&sl, i) = m->scratch[i];
		}
	return sl;
}

/* ---- the key ---- */

/*
 * Whether a stream's seed is an input of its run: not for a sequential
 * bulk write (fluid.c's fluid_write reads it only for a random stream's
 * write buffer, chunk tags and map cache; nothing sampled, no side
 * streams, no mix).  The engine draws every workload a seed of its own,
 * so the reclaim step's fills differ only there.  test_sim_memo checks
 * that two seeds give the same slices and state.
 */
static bool seed_read(const struct sim_stream *st)
{
	return st->random || st->exact || st->read_pct || st->sampled || st->nside ||
	       !st->write;
}

static void key_of(struct memo_key *k, const struct sim_stream *st, uint64_t max_bytes,
		   uint64_t max_ns, uint64_t slice_ns)
{
	memset(k, 0, sizeof *k);
	k->st = *st;
	if (!seed_read(st))
		k->st.seed = 0;
	/* (a grid's phase decides the slices, not where it began) */
	k->st.grid_ns = st->on_grid && slice_ns ? st->grid_ns % slice_ns : 0;
	for (uint32_t i = 0; i < st->nside && i < SIM_MAX_SIDE; i++)
		k->side[i] = st->side[i];
	k->st.side = k->side;
	k->max_bytes = max_bytes;
	k->max_ns = max_ns;
	k->slice_ns = slice_ns;
}

static bool same_side(const struct sim_side *a, const struct sim_side *b)
{
	return a->op == b->op && a->bs == b->bs && a->span_off == b->span_off &&
	       a->span_len == b->span_len && a->rate == b->rate &&
	       a->flush_every == b->flush_every && a->seed == b->seed;
}

/* Every field of the stream, field by field (no padding compared). */
static bool same_key(const struct memo_key *a, const struct memo_key *b)
{
	const struct sim_stream *x = &a->st, *y = &b->st;
	if (x->write != y->write || x->random != y->random || x->bs != y->bs ||
	    x->qd != y->qd || x->span_off != y->span_off || x->span_len != y->span_len ||
	    x->start_off != y->start_off || x->seed != y->seed ||
	    x->read_pct != y->read_pct || x->exact != y->exact ||
	    x->sampled != y->sampled || x->nside != y->nside ||
	    x->on_grid != y->on_grid || x->grid_ns != y->grid_ns ||
	    x->sample_from_ns != y->sample_from_ns ||
	    a->max_bytes != b->max_bytes || a->max_ns != b->max_ns ||
	    a->slice_ns != b->slice_ns)
		return false;
	for (uint32_t i = 0; i < x->nside; i++)
		if (!same_side(&a->side[i], &b->side[i]))
			return false;
	return true;
}

/* ---- record, replay ---- */

struct recording {
	struct sim_memo *m;
	const struct sim *s;
	sim_slice_fn fn;
	void *ctx;
	bool whole;		/* every slice kept, and fn let the stream go on */
};

static int record_slice(void *ctx, const struct sim_slice *sl, struct sb_err *e)
{
	struct recording *r = ctx;
	if (r->whole && slice_put(r->m, sl, sim_now(r->s)))
		r->whole = false;	/* out of memory: no record, the run goes on */
	int rc = r->fn(r->ctx, sl, e);
	if (rc)
		r->whole = false;
	return rc;
}

static int record(struct sim_memo *m, struct sim *s, const struct memo_key *k,
		  sim_slice_fn fn, void *ctx, struct sb_err *e)
{
	const struct sim_stream *st = &k->st;
	memo_clear(m);
	struct sb_err ignored;
	if (sim_snapshot(s, &m->start, &ignored))
		return fluid_run(s, st, k->max_bytes, k->max_ns, k->slice_ns, fn, ctx, e);
	m->key = *k;
	m->key.st.side = m->key.side;
	struct recording r = { m, s, fn, ctx, true };
	int rc = fluid_run(s, st, k->max_bytes, k->max_ns, k->slice_ns, record_slice, &r, e);
	if (rc || !r.whole || sim_snapshot(s, &m->end, &ignored)) {
		memo_clear(m);
		return rc;
	}
	m->valid = true;
	m->records++;
	return 0;
}

/* The stream run again from the start without handing over its first
   `skip` slices (fn had them from the record), slice `skip` answered with
   `rc`, fn's answer to it, and any after it handed to fn as the run would
   have (rc 0 with skip = all of them: the run's end state, when it could
   not be copied). */
struct rerun {
	size_t skip, seen;
	int rc;
	sim_slice_fn fn;
	void *ctx;
};

static int rerun_slice(void *ctx, const struct sim_slice *sl, struct sb_err *e)
{
	struct rerun *r = ctx;
	size_t k = r->seen++;
	return k < r->skip ? 0 : k == r->skip ? r->rc : r->fn(r->ctx, sl, e);
}

static int rerun(struct sim *s, const struct memo_key *k, size_t skip, int rc,
		 sim_slice_fn fn, void *ctx, struct sb_err *e)
{
	struct rerun r = { skip, 0, rc, fn, ctx };
	int got = fluid_run(s, &k->st, k->max_bytes, k->max_ns, k->slice_ns, rerun_slice, &r, e);
	size_t want = rc ? skip + 1 : skip;
	if (r.seen < want)	/* determinism broken: say so, loudly */
		return sb_errf(e, "sim %s: a stream run again gave %zu slices where its record "
			       "had %zu", s->p.name, r.seen, want);
	return got;
}

static int replay(struct sim_memo *m, struct sim *s, sim_slice_fn fn, void *ctx,
		  struct sb_err *e)
{
	uint64_t now0 = s->now;
	for (size_t k = 0; k < m->nslices; k++) {
		struct sim_slice sl = slice_get(m, k);
		s->now = m->slices[k].now;
		int rc = fn(ctx, &sl, e);
		if (rc) {
			s->now = now0;	/* nothing else moved */
			return rerun(s, &m->key, k, rc, fn, ctx, e);
		}
	}
	s->now = now0;
	struct sb_err ignored;
	if (sim_restore(s, m->end, &ignored))
		return rerun(s, &m->key, m->nslices, 0, fn, ctx, e);
	m->replays++;
	return 0;
}

int sim_run_fluid(struct sim *s, const struct sim_stream *st,
		  uint64_t max_bytes, uint64_t max_ns, uint64_t slice_ns,
		  sim_slice_fn fn, void *ctx, struct sb_err *e)
{
	struct sim_memo *m = s->memo;
	bool from_open = s->pristine;
	s->pristine = false;
	if (!m || !from_open || cplq_len(&s->cq) || st->nside > SIM_MAX_SIDE)
		return fluid_run(s, st, max_bytes, max_ns, slice_ns, fn, ctx, e);
	struct memo_key k;
	key_of(&k, st, max_bytes, max_ns, slice_ns);
	if (m->valid && same_key(&m->key, &k) && sim_same_state(s, m->start))
		return replay(m, s, fn, ctx, e);
	return record(m, s, &k, fn, ctx, e);
}
