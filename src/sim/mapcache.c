/*
 * The mapping cache's data structure: sets of LRU-ordered slots (see
 * mapcache.h).  A slot holds page + 1 (0: empty) with the dirty flag in
 * the top bit; a set's slots are kept most recent first.
 */
#include "sim/mapcache.h"

#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define WAYS_MAX 8u
#define DIRTY 0x80000000u

struct mapcache {
	uint32_t *slot;
	uint64_t nsets, ways, npages;
	uint64_t set_mask;	/* nsets - 1 when a power of two, else 0 */
	struct mapcache_stats st;
};

static uint64_t set_index(const struct mapcache *m, uint64_t page)
{
	return m->set_mask ? page & m->set_mask : page % m->nsets;
}

static uint32_t *set_of(const struct mapcache *m, uint64_t page)
{
	return m->slot + set_index(m, page) * m->ways;
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

#ifdef __SSE2__
/* Row i: the slots a lookup found at slot i rewrites, all ones (slot 0
   takes the page, slots 1 to i the ones before them). */
static const uint32_t front_mask[8][8] __attribute__((aligned(16))) = {
	{ ~0u }, { ~0u, ~0u }, { ~0u, ~0u, ~0u }, { ~0u, ~0u, ~0u, ~0u },
	{ ~0u, ~0u, ~0u, ~0u, ~0u }, { ~0u, ~0u, ~0u, ~0u, ~0u, ~0u },
	{ ~0u, ~0u, ~0u, ~0u, ~0u, ~0u, ~0u }, { ~0u, ~0u, ~0u, ~0u, ~0u, ~0u, ~0u, ~0u },
};
#endif

/*
 * One lookup in a set of 8 ways: what mapcache_access does, without a
 * branch on where the page is or on hit or miss.  Under random lookups
 * that place is random, and the scan's and the shift's exits were
 * mispredicted at nearly every lookup.  The slot is the page's, or the
 * first empty one (a set fills from the front), or 8: the set is full.
 */
static inline bool access8(struct mapcache *m, uint32_t *set, uint32_t key, bool write,
			   bool *dirtied)
{
#ifdef __SSE2__
	__m128i lo = _mm_loadu_si128((const __m128i *)set);
	__m128i hi = _mm_loadu_si128((const __m128i *)(set + 4));
	__m128i k = _mm_set1_epi32((int)key), page = _mm_set1_epi32((int)~DIRTY);
	__m128i z = _mm_setzero_si128();
	__m128i stop_lo = _mm_or_si128(_mm_cmpeq_epi32(_mm_and_si128(lo, page), k),
				       _mm_cmpeq_epi32(lo, z));
	__m128i stop_hi = _mm_or_si128(_mm_cmpeq_epi32(_mm_and_si128(hi, page), k),
				       _mm_cmpeq_epi32(hi, z));
	unsigned stop = (unsigned)_mm_movemask_ps(_mm_castsi128_ps(stop_lo)) |
			(unsigned)_mm_movemask_ps(_mm_castsi128_ps(stop_hi)) << 4 | 0x100;
#else
	unsigned stop = 0x100;
#pragma GCC unroll 8
	for (unsigned j = 0; j < 8; j++)
		stop |= (unsigned)((set[j] & ~DIRTY) == key || set[j] == 0) << j;
#endif
	unsigned i = (unsigned)__builtin_ctz(stop);
	unsigned full = i >> 3;
	i -= full;	/* a full set evicts its least recent */
	uint32_t cur = set[i];
	uint32_t miss = full | (cur == 0);
	uint32_t keep = miss - 1;	/* all ones on a hit */
	uint32_t v = (cur & keep) | (key & ~keep);
	uint32_t dirty = (uint32_t)write & ~(v >> 31);
	v |= dirty << 31;
	m->st.misses += miss;
	m->st.hits += miss ^ 1;
	m->st.dirtied += dirty;
	*dirtied = dirty;
	/* To the front: v in slot 0, slots 1 to i take the ones before them. */
#ifdef __SSE2__
	__m128i sh_lo = _mm_or_si128(_mm_slli_si128(lo, 4), _mm_cvtsi32_si128((int)v));
	__m128i sh_hi = _mm_or_si128(_mm_slli_si128(hi, 4), _mm_srli_si128(lo, 12));
	__m128i m_lo = _mm_load_si128((const __m128i *)front_mask[i]);
	__m128i m_hi = _mm_load_si128((const __m128i *)(front_mask[i] + 4));
	_mm_storeu_si128((__m128i *)set, _mm_or_si128(_mm_and_si128(m_lo, sh_lo),
						      _mm_andnot_si128(m_lo, lo)));
	_mm_storeu_si128((__m128i *)(set + 4), _mm_or_si128(_mm_and_si128(m_hi, sh_hi),
							    _mm_andnot_si128(m_hi, hi)));
#else
	uint32_t old[8];
	memcpy(old, set, sizeof old);
#pragma GCC unroll 8
	for (unsigned j = 1; j < 8; j++) {
		uint32_t shift = -(uint32_t)(j <= i);
		set[j] = (old[j - 1] & shift) | (old[j] & ~shift);
	}
	set[0] = v;
#endif
	return miss;
}

bool mapcache_access(struct mapcache *m, uint64_t page, bool write, bool *dirtied)
{
	bool dummy;
	if (!dirtied)
		dirtied = &dummy;
	*dirtied = false;
	if (!m->ways) {
		m->st.misses++;
		if (write) {
			/* Nothing is held: every update is written back. */
			m->st.dirtied++;
			*dirtied = true;
		}
		return true;
	}
	uint32_t *set = set_of(m, page);
	uint32_t key = (uint32_t)(page + 1);
	if (m->ways == 8)
		return access8(m, set, key, write, dirtied);
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
		*dirtied = true;
	}
	/* Move to the front. */
	for (; i > 0; i--)
		set[i] = set[i - 1];
	set[0] = v;
	return miss;
}

/* How far ahead of its lookup a set is asked for: the sets are scattered
   over the whole cache, and one lookup at a time would wait on the
   memory each time. */
#define AHEAD 16

/* The lookups of ops[0, n) in order, in a cache of 8 ways. */
static void run8(struct mapcache *m, const uint32_t *ops, size_t n)
{
	for (size_t i = 0; i < n && i < AHEAD; i++)
		__builtin_prefetch(set_of(m, ops[i] & ~MAPCACHE_OP_WRITE));
	for (size_t i = 0; i < n; i++) {
		if (i + AHEAD < n)
			__builtin_prefetch(set_of(m, ops[i + AHEAD] & ~MAPCACHE_OP_WRITE));
		uint32_t page = ops[i] & ~MAPCACHE_OP_WRITE;
		bool d;
		access8(m, set_of(m, page), page + 1, ops[i] & MAPCACHE_OP_WRITE, &d);
	}
}

void mapcache_access_ops(struct mapcache *m, const uint32_t *ops, size_t n)
{
	if (m->ways == 8) {
		run8(m, ops, n);
		return;
	}
	for (size_t i = 0; i < n; i++)
		mapcache_access(m, ops[i] & ~MAPCACHE_OP_WRITE, ops[i] & MAPCACHE_OP_WRITE, NULL);
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
