/*
 * A simulated drive's state as a value: a deep copy, a comparison and a
 * restore, for the memo of streams (memo.c).
 *
 * The state is struct sim and every allocation it points to:
 *   tags        nchunks bytes             chunks.c
 *   core_free   p.cores words             sim.c
 *   unit_free   p.units words             sim.c
 *   ch_free     p.channels words          sim.c
 *   slot_free   nslots words (or NULL)    sim.c
 *   wb          wb_cap entries (or NULL)  timing.c (grows)
 *   samp        the GC sampler (or NULL)  sampler.c
 *   map         the map cache (or NULL)   mapcache.c
 *   cq          the I/Os in flight: none here (a snapshot is taken and
 *               compared only with nothing in flight; an empty queue's
 *               ring position and capacities change no completion)
 * and two fields that are bookkeeping, not state: memo and pristine.
 * A field added to struct sim that points to memory of its own must be
 * listed here: the size check below fails until it is looked at.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/mapcache.h"
#include "sim/model.h"
#include "sim/sampler.h"

/* Checked when struct sim changes: a new pointer goes in the list above,
   in strip() and in copy_parts(); then this is the new size. */
_Static_assert(sizeof(struct sim) == 5352,
	       "struct sim changed: check snapshot.c's list of its allocations");

static size_t tags_bytes(const struct sim *s) { return (size_t)s->nchunks; }
static size_t words(uint64_t n) { return (size_t)n * sizeof(uint64_t); }

/* The struct as bytes (padding and all) without its pointers and its
   bookkeeping: what is compared and copied as the struct itself. */
static void strip(const struct sim *s, struct sim *v)
{
	memcpy(v, s, sizeof *v);
	v->tags = NULL;
	v->core_free = v->unit_free = v->ch_free = v->slot_free = NULL;
	v->wb = NULL;
	memset(&v->cq, 0, sizeof v->cq);
	v->samp = NULL;
	v->map = NULL;
	v->memo = NULL;
	v->pristine = false;
}

static void *dup_bytes(const void *src, size_t n, bool *oom)
{
	if (!src)
		return NULL;
	void *p = malloc(n ? n : 1);
	if (!p) {
		*oom = true;
		return NULL;
	}
	memcpy(p, src, n);
	return p;
}

/* c (stripped) gets its own copies of s's allocations. */
static int copy_parts(const struct sim *s, struct sim *c)
{
	bool oom = false;
	c->tags = dup_bytes(s->tags, tags_bytes(s), &oom);
	c->core_free = dup_bytes(s->core_free, words((uint64_t)s->p.cores), &oom);
	c->unit_free = dup_bytes(s->unit_free, words((uint64_t)s->p.units), &oom);
	c->ch_free = dup_bytes(s->ch_free, words((uint64_t)s->p.channels), &oom);
	c->slot_free = dup_bytes(s->slot_free, words(s->nslots), &oom);
	c->wb = dup_bytes(s->wb, sizeof *s->wb * s->wb_cap, &oom);
	if (s->samp && sampler_clone(s->samp, &c->samp))
		oom = true;
	if (s->map && mapcache_clone(s->map, &c->map))
		oom = true;
	return oom ? -1 : 0;
}

int sim_snapshot(const struct sim *s, struct sim **out, struct sb_err *e)
{
	if (cplq_len(&s->cq))
		return sb_errf(e, "sim: a snapshot with %u I/Os in flight", cplq_len(&s->cq));
	struct sim *c = malloc(sizeof *c);
	if (!c)
		return sb_errf(e, "sim: out of memory for a snapshot");
	strip(s, c);
	if (copy_parts(s, c)) {
		sim_close(c);
		return sb_errf(e, "sim: out of memory for a snapshot");
	}
	*out = c;
	return 0;
}

static bool same_words(const uint64_t *a, const uint64_t *b, uint64_t n)
{
	return !a == !b && (!a || !memcmp(a, b, words(n)));
}

bool sim_same_state(const struct sim *a, const struct sim *b)
{
	if (cplq_len(&a->cq) || cplq_len(&b->cq))
		return false;
	struct sim *v = malloc(2 * sizeof *v);
	if (!v)
		return false;	/* not shown the same */
	strip(a, &v[0]);
	strip(b, &v[1]);
	bool same = !memcmp(&v[0], &v[1], sizeof *v);
	free(v);
	/* The struct equal, the arrays have the same sizes. */
	return same &&
	       !memcmp(a->tags, b->tags, tags_bytes(a)) &&
	       same_words(a->core_free, b->core_free, (uint64_t)a->p.cores) &&
	       same_words(a->unit_free, b->unit_free, (uint64_t)a->p.units) &&
	       same_words(a->ch_free, b->ch_free, (uint64_t)a->p.channels) &&
	       same_words(a->slot_free, b->slot_free, a->nslots) &&
	       !a->wb == !b->wb && (!a->wb || !memcmp(a->wb, b->wb, sizeof *a->wb * a->wb_cap)) &&
	       !a->samp == !b->samp && (!a->samp || sampler_equal(a->samp, b->samp)) &&
	       !a->map == !b->map && (!a->map || mapcache_equal(a->map, b->map));
}

int sim_restore(struct sim *s, const struct sim *snap, struct sb_err *e)
{
	if (cplq_len(&s->cq))
		return sb_errf(e, "sim: a restore with %u I/Os in flight", cplq_len(&s->cq));
	struct sim *c;
	if (sim_snapshot(snap, &c, e))
		return -1;
	/* Swap: s takes the copy's state and keeps its queue and memo; the
	   copy takes s's old allocations, and is closed with them. */
	struct sim old;
	memcpy(&old, s, sizeof old);
	memcpy(s, c, sizeof *s);
	s->cq = old.cq;
	s->memo = old.memo;
	s->pristine = old.pristine;
	memcpy(c, &old, sizeof *c);
	memset(&c->cq, 0, sizeof c->cq);
	sim_close(c);
	return 0;
}
