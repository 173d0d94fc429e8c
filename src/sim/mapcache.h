/*
 * The mapping cache (SIMULATOR.md §8): which pages of the L2P map a drive
 * holds in DRAM (or, DRAM-less, in the host memory buffer).  A map page
 * maps a contiguous stretch of LBA space; a lookup of a page that is not
 * held is a miss, which loads it (a NAND read, charged by the caller) and
 * evicts the least recently used page of its set.  A write makes its page
 * dirty; a clean page becoming dirty owes one write-back of the page,
 * whenever it is later written (the caller charges it then, so a long
 * stream pays once per dirtied page, as it would at eviction).
 *
 * Structure: `slots` pages in sets of up to 8 ways, set = page mod sets,
 * LRU inside a set.  With the set index taken from the page number (not a
 * hash), a contiguous span of pages spreads over the sets within one
 * page, so a span no larger than the cache fits whole and uniform access
 * over a larger span of N pages hits with probability slots / N, as a
 * fully associative LRU would.  Deterministic; 1 byte per slot when the
 * map has at most 127 pages per set and the sets 8 ways, else 4.
 */
#ifndef SSDBENCH_SIM_MAPCACHE_H
#define SSDBENCH_SIM_MAPCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/* In the header only for the inline part of mapcache_access and
   mapcache_prefetch (below); the fields are mapcache.c's. */
struct mapcache {
	uint32_t *slot;		/* wide: nsets x ways slots */
	uint64_t *set8;		/* compact: one word per set, slot j its byte j */
	uint64_t nsets, ways, npages;
	/* page / nsets: a shift when nsets is a power of two, else a
	   multiply (magicdiv.h: exact, pages and sets being below 2^31) */
	int set_shift;		/* -1: not a power of two */
	uint64_t set_magic;
	uint64_t lookups, misses, dirtied;	/* hits: lookups - misses */
	/* The page the last lookup left at the front of its set, and
	   whether it is dirty there: page << 1 | dirty (UINT64_MAX: none,
	   as in a cache that holds nothing).  Every lookup sets it. */
	uint64_t front;
};

struct mapcache_stats {
	uint64_t hits, misses;
	uint64_t dirtied;	/* clean pages made dirty: write-backs owed */
};

/* A cache of `slots` map pages (0: nothing is held, every lookup misses)
   over a map of `npages` pages.  Fewer than 2^31 pages. */
int mapcache_new(uint64_t slots, uint64_t npages, struct mapcache **out,
		 struct sb_err *e);
void mapcache_free(struct mapcache *m);
/* A copy of m in its own memory (-1: none), and whether two caches hold
   the same state, every byte of it (a simulator's memo: memo.c). */
int mapcache_clone(const struct mapcache *m, struct mapcache **out);
bool mapcache_equal(const struct mapcache *a, const struct mapcache *b);

/* Slots actually used: `slots` rounded down to whole sets. */
uint64_t mapcache_slots(const struct mapcache *m);

/* Bytes the slots take. */
uint64_t mapcache_bytes(const struct mapcache *m);

/* The sets (a page's is page mod sets) and the ways of each. */
uint64_t mapcache_sets(const struct mapcache *m);
uint64_t mapcache_ways(const struct mapcache *m);

/* Set `set` to hold pages[0, n), the most recent first, each dirty as
   dirty[i] says, and nothing else: n at most the ways, each page of that
   set, no two alike.  What it held goes without a write-back and nothing
   is counted: a state drawn, not looked up (map.c). */
void mapcache_put_set(struct mapcache *m, uint64_t set, const uint64_t *pages,
		      const bool *dirty, uint32_t n);

/* mapcache_access in the page's set. */
bool mapcache_access_set(struct mapcache *m, uint64_t page, bool write, bool *dirtied);

/* Whether a lookup of page finds it at the front of its set, where the
   last lookup left it, and changes nothing there: a read, or a write of
   a page already dirty.  (page << 1 | 1 matches front exactly then;
   pages are below 2^31, so never UINT64_MAX.) */
static inline bool mapcache_at_front(const struct mapcache *m, uint64_t page, bool write)
{
	return (m->front | !write) == (page << 1 | 1);
}

/* Look page (< npages) up, loading it on a miss; a write dirties it.
   Returns true on a miss; *dirtied (may be NULL) says whether a
   write-back is owed.  A lookup that changes nothing but the count (a
   sequential stream's reads ask for one map page again and again) is
   answered here, without the set. */
static inline bool mapcache_access(struct mapcache *m, uint64_t page, bool write, bool *dirtied)
{
	if (mapcache_at_front(m, page, write)) {
		m->lookups++;
		if (dirtied)
			*dirtied = false;
		return false;
	}
	return mapcache_access_set(m, page, write, dirtied);
}

/* A lookup for mapcache_access_ops: the page (pages are fewer than
   2^31), with this bit for a write. */
#define MAPCACHE_OP_WRITE 0x80000000u

static inline uint32_t mapcache_op(uint64_t page, bool write)
{
	return (uint32_t)page | (write ? MAPCACHE_OP_WRITE : 0);
}

/* The lookups ops[0, n), in order, as n calls of mapcache_access would
   make them (the write-backs owed are in the stats only), each set asked
   of the memory ahead of its turn. */
void mapcache_access_ops(struct mapcache *m, const uint32_t *ops, size_t n);

/* Ask the memory for page's set ahead of a lookup that will need it:
   not when the lookup needs no set (mapcache_access). */
void mapcache_prefetch_set(const struct mapcache *m, uint64_t page);

static inline void mapcache_prefetch(const struct mapcache *m, uint64_t page)
{
	if (!mapcache_at_front(m, page, false))
		mapcache_prefetch_set(m, page);
}

void mapcache_stats(const struct mapcache *m, struct mapcache_stats *st);

/* The pages held, and how many of them are dirty. */
void mapcache_census(const struct mapcache *m, uint64_t *held, uint64_t *dirty);

#endif
