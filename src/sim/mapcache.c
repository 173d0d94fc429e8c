/*
 * The mapping cache's data structure: sets of LRU-ordered slots (see
 * mapcache.h), each set's slots kept most recent first.
 *
 * A page's set is page mod nsets, so a slot need only tell apart the
 * pages of one set: it holds the page's tag, page / nsets + 1 (0: empty),
 * with a dirty flag above it.  Two layouts, chosen once by the largest
 * tag of the map:
 *   - compact: tags up to 127, 8 ways.  A slot is a byte (dirty in its top
 *     bit), a set one 64-bit word, searched and reordered with word
 *     arithmetic.  The SN850X's 524288 slots take 512 KiB instead of
 *     2 MiB: they stay in a core's L2 cache, where the 32-bit slots spilled
 *     to the shared L3 and every random lookup waited on it;
 *   - wide: any tag, 32-bit slots (dirty in the top bit), a set of 8 ways
 *     one cache line.
 */
#include "sim/mapcache.h"

#include "sim/magicdiv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define WAYS_MAX 8u
#define DIRTY 0x80000000u

/* The compact layout: a byte per slot, the dirty flag its top bit. */
#define C_DIRTY 0x80u
#define C_TAG_MAX 0x7fu
#define BYTES(b) (0x0101010101010101ull * (b))

/* Where a page is held: its set, and its tag within the set. */
struct place {
	uint64_t set;
	uint32_t tag;		/* page / nsets + 1 */
};

static struct place place_of(const struct mapcache *m, uint64_t page)
{
	uint64_t q = m->set_shift >= 0 ? page >> m->set_shift :
		     div_by_magic(page, m->set_magic);
	return (struct place){ page - q * m->nsets, (uint32_t)q + 1 };
}

/* The largest tag a page of the map can have. */
static uint64_t tag_max(uint64_t npages, uint64_t nsets)
{
	return npages ? (npages - 1) / nsets + 1 : 0;
}

static void *alloc_sets(uint64_t bytes)
{
	/* Cache-line aligned, so a set of 8 wide ways is one line. */
	void *p = aligned_alloc(64, (bytes + 63) / 64 * 64);
	if (p)
		memset(p, 0, bytes);
	return p;
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
	m->front = UINT64_MAX;
	m->ways = slots < WAYS_MAX ? slots : WAYS_MAX;
	m->nsets = m->ways ? slots / m->ways : 0;
	m->set_shift = -1;
	if (m->nsets && !(m->nsets & (m->nsets - 1)))
		m->set_shift = __builtin_ctzll(m->nsets);
	else if (m->nsets)
		m->set_magic = magic_of(m->nsets);
	if (m->ways == WAYS_MAX && tag_max(npages, m->nsets) <= C_TAG_MAX)
		m->set8 = alloc_sets(m->nsets * sizeof *m->set8);
	else if (m->ways)
		m->slot = alloc_sets(m->nsets * m->ways * sizeof *m->slot);
	if (m->ways && !m->set8 && !m->slot) {
		free(m);
		return sb_errf(e, "sim: no memory for a map cache of %llu pages",
			       (unsigned long long)slots);
	}
	*out = m;
	return 0;
}

void mapcache_free(struct mapcache *m)
{
	if (!m)
		return;
	free(m->slot);
	free(m->set8);
	free(m);
}

/* The slots' memory: whichever layout m has (NULL: no ways). */
static const void *slots_of(const struct mapcache *m)
{
	return m->set8 ? (const void *)m->set8 : (const void *)m->slot;
}

int mapcache_clone(const struct mapcache *m, struct mapcache **out)
{
	struct mapcache *c = malloc(sizeof *c);
	if (!c)
		return -1;
	memcpy(c, m, sizeof *c);
	c->set8 = NULL;
	c->slot = NULL;
	uint64_t bytes = mapcache_bytes(m);
	void *p = slots_of(m) ? alloc_sets(bytes) : NULL;
	if (slots_of(m) && !p) {
		free(c);
		return -1;
	}
	if (p)
		memcpy(p, slots_of(m), bytes);
	if (m->set8)
		c->set8 = p;
	else
		c->slot = p;
	*out = c;
	return 0;
}

bool mapcache_equal(const struct mapcache *a, const struct mapcache *b)
{
	/* as bytes, padding and all (a copy by assignment need not keep it) */
	struct mapcache fa, fb;
	memcpy(&fa, a, sizeof fa);
	memcpy(&fb, b, sizeof fb);
	fa.set8 = fb.set8 = NULL;
	fa.slot = fb.slot = NULL;
	if (memcmp(&fa, &fb, sizeof fa) || !slots_of(a) != !slots_of(b) ||
	    !a->set8 != !b->set8)
		return false;
	return !slots_of(a) || !memcmp(slots_of(a), slots_of(b), mapcache_bytes(a));
}

uint64_t mapcache_slots(const struct mapcache *m)
{
	return m->nsets * m->ways;
}

uint64_t mapcache_bytes(const struct mapcache *m)
{
	return m->set8 ? m->nsets * sizeof *m->set8 : m->nsets * m->ways * sizeof *m->slot;
}

/* A lookup's outcome (miss, dirty and front_dirty 0 or 1), counted in
   the stats and returned as one word: bit 0 a miss, bit 1 a write-back
   owed, bit 2 the page dirty at the front of its set after. */
#define OUT_MISS 1u
#define OUT_DIRTIED 2u
#define OUT_FRONT_DIRTY 4u

static inline unsigned count(struct mapcache *m, uint32_t miss, uint32_t dirty,
			     uint32_t front_dirty)
{
	m->lookups++;
	m->misses += miss;
	m->dirtied += dirty;
	return miss | dirty << 1 | front_dirty << 2;
}

/* After a lookup of page with outcome out: page is at the front. */
static inline void remember_front(struct mapcache *m, uint64_t page, unsigned out)
{
	m->front = page << 1 | (out & OUT_FRONT_DIRTY) >> 2;
}

/* 0x80 in each byte of y that is 0, nothing elsewhere, for y with every
   byte's top bit clear (no carry crosses a byte: 0x7f + 0x7f fits). */
static inline uint64_t zero_bytes7(uint64_t y)
{
	return ~(y + BYTES(C_TAG_MAX)) & BYTES(C_DIRTY);
}

/*
 * One lookup in a compact set, without a branch (see access_wide8).  The
 * slot is the one that holds the tag, else the last: on a miss all 8
 * move, and the byte dropped is the least recent page or, in a set not
 * yet full (it fills from the front), an empty slot (0, which no tag
 * matches).  Bytes 0 to i then move to the front: the looked-up slot's
 * into byte 0, the ones before it up by one.
 */
static inline unsigned access_compact(struct mapcache *m, uint64_t *set, uint32_t tag, bool write)
{
	uint64_t v = *set;
	uint64_t hit = zero_bytes7((v & BYTES(C_TAG_MAX)) ^ BYTES(tag));
	unsigned i = (unsigned)__builtin_ctzll(hit | 1ull << 63) >> 3;
	uint32_t cur = (uint32_t)(v >> 8 * i) & 0xff;
	uint32_t miss = (cur & C_TAG_MAX) != tag;
	uint32_t b = cur ^ ((cur ^ tag) & -miss);	/* the tag alone on a miss */
	uint32_t dirty = (uint32_t)write & ~(b >> 7);
	b |= dirty << 7;
	uint64_t front = ~0ull >> (56 - 8 * i);	/* bytes 0 to i */
	*set = (v & ~front) | (((v << 8) | b) & front);
	return count(m, miss, dirty, b >> 7);
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
 * One lookup in a wide set of 8 ways: what access_wide does, without a
 * branch on where the page is or on hit or miss.  Under random lookups
 * that place is random, and the scan's and the shift's exits were
 * mispredicted at nearly every lookup.  The slot is the page's, or the
 * first empty one (a set fills from the front), or 8: the set is full.
 */
static inline unsigned access_wide8(struct mapcache *m, uint32_t *set, uint32_t key, bool write)
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
	return count(m, miss, dirty, v >> 31);
}

/* One lookup in a wide set of fewer than 8 ways, one slot at a time. */
static unsigned access_wide(struct mapcache *m, uint32_t *set, uint32_t key, bool write)
{
	uint64_t i = 0;
	while (i < m->ways && set[i] && (set[i] & ~DIRTY) != key)
		i++;
	uint32_t miss = i == m->ways || !set[i];
	if (i == m->ways)
		i = m->ways - 1;	/* evict the least recent */
	uint32_t v = miss ? key : set[i];
	uint32_t dirty = write && !(v & DIRTY);
	v |= dirty ? DIRTY : 0;
	/* Move to the front. */
	for (; i > 0; i--)
		set[i] = set[i - 1];
	set[0] = v;
	return count(m, miss, dirty, v >> 31);
}

/* The caller's part of the contract the compact tags rely on. */
static inline void check_page(const struct mapcache *m, uint64_t page)
{
#ifdef SSDBENCH_SIM_CHECKS
	if (page >= m->npages) {
		fprintf(stderr, "sim: map page %llu looked up in a map of %llu pages\n",
			(unsigned long long)page, (unsigned long long)m->npages);
		abort();
	}
#else
	(void)m;
	(void)page;
#endif
}

/* A lookup in a cache of fewer than 8 ways, or none: apart, so that its
   loop and shift do not weigh on the lookups of 8 ways. */
static __attribute__((noinline)) unsigned access_few(struct mapcache *m, uint64_t page,
						     bool write)
{
	if (!m->ways)
		return count(m, 1, write, 0);	/* nothing is held: every update is written back */
	struct place p = place_of(m, page);
	return access_wide(m, m->slot + p.set * m->ways, p.tag, write);
}

bool mapcache_access_set(struct mapcache *m, uint64_t page, bool write, bool *dirtied)
{
	check_page(m, page);
	unsigned out;
	if (m->ways != WAYS_MAX) {
		out = access_few(m, page, write);
		if (m->ways)	/* none: nothing is at any front */
			remember_front(m, page, out);
	} else {
		struct place p = place_of(m, page);
		out = m->set8 ? access_compact(m, m->set8 + p.set, p.tag, write) :
				access_wide8(m, m->slot + p.set * WAYS_MAX, p.tag, write);
		remember_front(m, page, out);
	}
	if (dirtied)
		*dirtied = out & OUT_DIRTIED;
	return out & OUT_MISS;
}

/* How far ahead of its lookup a set is asked for: the sets are scattered
   over the whole cache, and one lookup at a time would wait on the
   memory each time. */
#define AHEAD 16

static inline uint64_t op_page(uint32_t op)
{
	return op & ~MAPCACHE_OP_WRITE;
}

/* The lookups of ops[0, n) in order, in a compact cache. */
static void run_compact(struct mapcache *m, const uint32_t *ops, size_t n)
{
	unsigned out = 0;
	for (size_t i = 0; i < n && i < AHEAD; i++)
		__builtin_prefetch(m->set8 + place_of(m, op_page(ops[i])).set);
	for (size_t i = 0; i < n; i++) {
		if (i + AHEAD < n)
			__builtin_prefetch(m->set8 + place_of(m, op_page(ops[i + AHEAD])).set);
		check_page(m, op_page(ops[i]));
		struct place p = place_of(m, op_page(ops[i]));
		out = access_compact(m, m->set8 + p.set, p.tag, ops[i] & MAPCACHE_OP_WRITE);
	}
	if (n)
		remember_front(m, op_page(ops[n - 1]), out);
}

/* The lookups of ops[0, n) in order, in a wide cache of 8 ways. */
static void run_wide8(struct mapcache *m, const uint32_t *ops, size_t n)
{
	unsigned out = 0;
	for (size_t i = 0; i < n && i < AHEAD; i++)
		__builtin_prefetch(m->slot + place_of(m, op_page(ops[i])).set * WAYS_MAX);
	for (size_t i = 0; i < n; i++) {
		if (i + AHEAD < n)
			__builtin_prefetch(m->slot + place_of(m, op_page(ops[i + AHEAD])).set * WAYS_MAX);
		check_page(m, op_page(ops[i]));
		struct place p = place_of(m, op_page(ops[i]));
		out = access_wide8(m, m->slot + p.set * WAYS_MAX, p.tag, ops[i] & MAPCACHE_OP_WRITE);
	}
	if (n)
		remember_front(m, op_page(ops[n - 1]), out);
}

void mapcache_access_ops(struct mapcache *m, const uint32_t *ops, size_t n)
{
	if (m->set8) {
		run_compact(m, ops, n);
		return;
	}
	if (m->ways == WAYS_MAX) {
		run_wide8(m, ops, n);
		return;
	}
	for (size_t i = 0; i < n; i++)
		mapcache_access(m, op_page(ops[i]), ops[i] & MAPCACHE_OP_WRITE, NULL);
}

void mapcache_prefetch_set(const struct mapcache *m, uint64_t page)
{
	if (!m->ways)
		return;
	uint64_t set = place_of(m, page).set;
	if (m->set8)
		__builtin_prefetch(m->set8 + set);
	else
		__builtin_prefetch(m->slot + set * m->ways);
}

void mapcache_stats(const struct mapcache *m, struct mapcache_stats *st)
{
	*st = (struct mapcache_stats){ m->lookups - m->misses, m->misses, m->dirtied };
}

void mapcache_census(const struct mapcache *m, uint64_t *held, uint64_t *dirty)
{
	uint64_t h = 0, d = 0;
	uint32_t flag = m->set8 ? C_DIRTY : DIRTY;
	for (uint64_t set = 0; set < m->nsets; set++)
		for (uint64_t i = 0; i < m->ways; i++) {
			uint32_t v = m->set8 ? (uint32_t)(m->set8[set] >> 8 * i) & 0xff :
					       m->slot[set * m->ways + i];
			h += v != 0;
			d += (v & flag) != 0;
		}
	*held = h;
	*dirty = d;
}

void mapcache_put_set(struct mapcache *m, uint64_t set, const uint64_t *pages,
		      const bool *dirty, uint32_t n)
{
	if (m->set8) {
		uint64_t v = 0;
		for (uint32_t i = 0; i < n; i++) {
			check_page(m, pages[i]);
			uint64_t b = place_of(m, pages[i]).tag | (dirty[i] ? C_DIRTY : 0);
			v |= b << 8 * i;
		}
		m->set8[set] = v;
	} else if (m->ways) {
		uint32_t *slot = m->slot + set * m->ways;
		for (uint32_t i = 0; i < m->ways; i++) {
			if (i < n)
				check_page(m, pages[i]);
			slot[i] = i < n ? place_of(m, pages[i]).tag | (dirty[i] ? DIRTY : 0) : 0;
		}
	}
	m->front = UINT64_MAX;	/* the page last looked up may be gone */
}

uint64_t mapcache_sets(const struct mapcache *m)
{
	return m->nsets;
}

uint64_t mapcache_ways(const struct mapcache *m)
{
	return m->ways;
}
