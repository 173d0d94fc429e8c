/*
 * The mapping cache's data structure: sets of LRU-ordered slots (see
 * mapcache.h).  A slot holds page + 1 (0: empty) with the dirty flag in
 * the top bit; a set's slots are kept most recent first.
 */
#include "sim/mapcache.h"

#include <stdlib.h>
#include <string.h>

#define WAYS_MAX 8u
#define DIRTY 0x80000000u

struct mapcache {
	uint32_t *slot;
	uint64_t nsets, ways, npages;
	uint64_t set_mask;	/* nsets - 1 when a power of two, else 0 */
	struct mapcache_stats st;
};

static uint32_t *set_of(const struct mapcache *m, uint64_t page)
{
	uint64_t set = m->set_mask ? page & m->set_mask : page % m->nsets;
	return m->slot + set * m->ways;
}

int mapcache_new(uint64_t slots, uint64_t npages, struct mapcache **out,
		 struct sb_err *e)
{
	if (npages >= DIRTY - 1)
		return sb_errf(e, "sim: a map of %llu pages is too large for the map cache model",
			       (unsigned long long)npages);
	struct mapcache *m = calloc(1, sizeof *m);
	if (!m)
		return sb_errf(e, "sim: no memory for the map cache");
	m->npages = npages;
	m->ways = slots < WAYS_MAX ? slots : WAYS_MAX;
	m->nsets = m->ways ? slots / m->ways : 0;
	if (m->nsets > 1 && !(m->nsets & (m->nsets - 1)))
		m->set_mask = m->nsets - 1;
	if (m->ways) {
		/* Cache-line aligned, so a set of 8 ways is one line. */
		size_t bytes = m->nsets * m->ways * sizeof *m->slot;
		m->slot = aligned_alloc(64, (bytes + 63) / 64 * 64);
		if (m->slot)
			memset(m->slot, 0, bytes);
		if (!m->slot) {
			free(m);
			return sb_errf(e, "sim: no memory for a map cache of %llu pages",
				       (unsigned long long)slots);
		}
	}
	*out = m;
	return 0;
}

void mapcache_free(struct mapcache *m)
{
	if (!m)
		return;
	free(m->slot);
	free(m);
}

uint64_t mapcache_slots(const struct mapcache *m)
{
	return m->nsets * m->ways;
}

bool mapcache_access(struct mapcache *m, uint64_t page, bool write, bool *dirtied)
{
	if (dirtied)
		*dirtied = false;
	if (!m->ways) {
		m->st.misses++;
		if (write) {
			/* Nothing is held: every update is written back. */
			m->st.dirtied++;
			if (dirtied)
				*dirtied = true;
		}
		return true;
	}
	uint32_t *set = set_of(m, page);
	uint32_t key = (uint32_t)(page + 1);
	uint64_t i = 0;
	while (i < m->ways && set[i] && (set[i] & ~DIRTY) != key)
		i++;
	bool miss = i == m->ways || !set[i];
	uint32_t v;
	if (miss) {
		if (i == m->ways)
			i = m->ways - 1;	/* evict the least recent */
		v = key;
		m->st.misses++;
	} else {
		v = set[i];
		m->st.hits++;
	}
	if (write && !(v & DIRTY)) {
		v |= DIRTY;
		m->st.dirtied++;
		if (dirtied)
			*dirtied = true;
	}
	/* Move to the front. */
	for (; i > 0; i--)
		set[i] = set[i - 1];
	set[0] = v;
	return miss;
}

void mapcache_prefetch(const struct mapcache *m, uint64_t page)
{
	if (m->ways)
		__builtin_prefetch(set_of(m, page));
}

void mapcache_stats(const struct mapcache *m, struct mapcache_stats *st)
{
	*st = m->st;
}
