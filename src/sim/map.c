/*
 * The L2P map cache's part in the model (SIMULATOR.md §8).  A drive whose
 * DRAM (or, DRAM-less, host memory buffer) holds less than the whole map
 * caches map pages (mapcache.c):
 *   - a read whose map page is not held first reads the page from NAND
 *     (tr_map_us and its transfer before the data: timing.c), so random reads
 *     over a span wider than the cached share slow down;
 *   - a write updates its page's entry: a page it makes dirty owes one
 *     write-back of map_page_kib, which takes write-path bandwidth like
 *     host data (wpath.c) and counts as NAND bytes.  Flushes commit the
 *     journal (t_commit_us) and leave dirty pages cached.
 * Bulk streams: a random write stream pays the expected write-backs for
 * its span (a miss per page not held), then leaves the cache as its last
 * I/Os would; bulk random reads calibrate on real I/Os once the cache is
 * warm for their span (fluid.c).  A drive whose memory holds the whole map
 * (every built-in with DRAM at 1:1000) has no cache here: no misses.
 */
#include <math.h>
#include <stdlib.h>

#include "sim/mapcache.h"
#include "sim/model.h"

int map_init(struct sim *s, struct sb_err *e)
{
	const struct sim_profile *p = &s->p;
	s->map = NULL;
	if (p->dram_mib < 0)
		return 0;	/* not given: the whole map is held */
	double entries = floor(p->map_page_kib * 1024.0 / p->map_entry_bytes);
	s->map_page_bytes = (uint64_t)(p->map_page_kib * 1024.0);
	s->map_lba = (uint64_t)(entries * p->iu_kib * 1024.0);
	uint64_t npages = (s->capacity + s->map_lba - 1) / s->map_lba;
	double mem = (p->dram_mib > 0 ? p->dram_mib : p->hmb_mib) * 1048576.0;
	uint64_t slots = (uint64_t)(mem / (double)s->map_page_bytes);
	if (slots >= npages)
		return 0;	/* it all fits */
	double tr = p->tr_map_us > 0 ? p->tr_map_us :
		    p->tr_slc_us > 0 ? p->tr_slc_us : p->tr_nat_us;
	s->tr_map_ns = (uint64_t)(tr * 1000.0 + 0.5);
	if (mapcache_new(slots, npages, &s->map, e))
		return -1;
	s->map_slots = mapcache_slots(s->map);
	return 0;
}

double map_write(struct sim *s, uint64_t off, uint64_t len)
{
	if (!s->map || !len)
		return 0;
	double before = s->wp.map_wb_bytes;
	/* By the divisor (a shift where, as on every built-in drive, a map
	   page maps 2^k bytes), and the last page once: the compiler cannot
	   keep it across the lookups' calls. */
	uint64_t last = div_by(&s->map_div, off + len - 1);
	for (uint64_t pg = div_by(&s->map_div, off); pg <= last; pg++)
		map_lookup(s, pg, true);
	/* wpath.c counts the bytes as it writes them; give them back here. */
	double owed = s->wp.map_wb_bytes - before;
	s->wp.map_wb_bytes = before;
	return owed;
}

/* Pages of a span, and the share of random lookups over it that miss. */
static uint64_t span_pages(const struct sim *s, const struct sim_stream *st)
{
	return (st->span_off + st->span_len - 1) / s->map_lba - st->span_off / s->map_lba + 1;
}

/* Share of uniform random lookups over n pages that miss, once warm. */
static double warm_miss(const struct sim *s, double n)
{
	double c = (double)s->map_slots;
	return n > c ? 1.0 - c / n : 0.0;
}

/*
 * An LRU cache under uniform lookups keeps a page while its next lookup
 * comes before the cache's characteristic time, which each one does with
 * the hit share h (Che's approximation): a page's stay in the cache holds
 * k lookups with probability h^(k-1) (1 - h), all of them reads with
 * f_r^k.  The share of stays that are reads only, (1 - h) f_r / (1 - h f_r):
 * the pages that leave (or are held) clean.
 */
static double stays_clean(double h, double f_r)
{
	return f_r >= 1.0 ? 1.0 : (1.0 - h) * f_r / (1.0 - h * f_r);
}

/*
 * A write owes a write-back when it dirties a clean page (map_lookup).  In
 * a pure write stream that is a miss: m per write.  In a mix the reads
 * load clean pages too, and a write that hits one dirties it: a stay
 * begins at each miss, m per lookup, and holds a write unless it is
 * reads only, so the dirtied pages per write are m (1 - stays_clean) /
 * f_w (= m / (1 - h f_r)).  Measured I/O by I/O (SN850X, 70:30, scale
 * 0.005): 0.73 per write where the pure-write figure m gave 0.45.
 */
double map_random_wb(const struct sim *s, const struct sim_stream *st)
{
	if (!s->map)
		return 0;
	double m = warm_miss(s, (double)span_pages(s, st));
	double f_r = st->read_pct / 100.0;
	if (f_r >= 1.0)
		return 0;
	return m * (1.0 - stays_clean(1.0 - m, f_r)) / (1.0 - f_r) *
	       (double)s->map_page_bytes / (double)st->bs;
}

void map_watch(struct sim *s, const struct sim_stream *st)
{
	if (!s->map)
		return;
	struct mapcache_stats ms;
	mapcache_stats(s->map, &ms);
	s->map_watch_miss = warm_miss(s, (double)span_pages(s, st));
	s->map_mark_hits = ms.hits;
	s->map_mark_misses = ms.misses;
	s->map_mark_ios = 0;
	s->map_warm = false;
}

/*
 * Judged over blocks of I/Os: warm once a block's lookups miss no more
 * than a warm cache's would, plus 1 %.  A span that fits leaves coupon collecting
 * for its last pages, so that is the miss share the rest still pays; a
 * span with unmapped data needs no lookups there and is warm as soon as
 * what is mapped is held.
 */
#define WARM_BLOCK 4096

bool map_cold(struct sim *s, uint64_t ios)
{
	if (!s->map || s->map_warm)
		return false;
	if (ios < s->map_mark_ios + WARM_BLOCK)
		return true;
	s->map_mark_ios = ios;
	struct mapcache_stats ms;
	mapcache_stats(s->map, &ms);
	uint64_t h = ms.hits - s->map_mark_hits, m = ms.misses - s->map_mark_misses;
	s->map_warm = (double)m <= (s->map_watch_miss + 0.01) * (double)(h + m);
	s->map_mark_hits = ms.hits;
	s->map_mark_misses = ms.misses;
	return !s->map_warm;
}

/*
 * What a stream of uniform random lookups over pages [p0, p0 + np), a
 * share w of them writes, leaves in the cache once it has run long enough
 * to forget what was there before, np being more than the cache holds.
 * LRU keeps in each set the last `ways` distinct pages looked up there,
 * and the lookups are independent and alike: so a set whose share of
 * the span is q pages holds `ways` of them, every choice of them and
 * every order alike.  A page is dirty unless its stay has been reads
 * only (stays_clean, at the set's hit share ways / q: exact here, a
 * page's lookups being apart by independent stretches of the others').
 * Two draws a slot, where four cache-fulls of lookups took eight draws
 * and four lookups a slot (the SN850X: 524288 slots).
 */
static void map_drawn(struct sim *s, uint64_t p0, uint64_t np, double w, struct rng *r)
{
	struct mapcache *m = s->map;
	uint64_t nsets = mapcache_sets(m), ways = mapcache_ways(m);
	uint64_t pages[8];
	bool dirty[8];
	if (!nsets)
		return;	/* nothing is held */
	uint64_t p0_set = p0 % nsets;
	for (uint64_t set = 0; set < nsets; set++) {
		/* the span's pages in this set: first, first + nsets, ... */
		uint64_t first = p0 + (set + nsets - p0_set) % nsets;
		uint64_t q = first < p0 + np ? (p0 + np - 1 - first) / nsets + 1 : 0;
		uint32_t k = (uint32_t)(q < ways ? q : ways);
		double clean = q ? stays_clean((double)k / (double)q, 1.0 - w) : 1.0;
		for (uint32_t i = 0; i < k; i++) {
			bool again;
			do {	/* without repeats */
				pages[i] = first + rng_below(r, q) * nsets;
				again = false;
				for (uint32_t j = 0; j < i; j++)
					again |= pages[j] == pages[i];
			} while (again);
			dirty[i] = rng_unit(r) >= clean;
		}
		mapcache_put_set(m, set, pages, dirty, k);
	}
}

void map_after_random(struct sim *s, const struct sim_stream *st, double n, double write_share)
{
	if (!s->map || n < 1)
		return;
	uint64_t p0 = st->span_off / s->map_lba, np = span_pages(s, st);
	struct rng r;
	rng_seed(&r, st->seed ^ 0x6d6170ull);
	/* Drawn a batch at a time, then looked up in order (mapcache.c asks
	   the memory for each set ahead of its lookup).  The write-backs
	   they owe are not counted: the stream paid them at its rate. */
	enum { BATCH = 1024 };
	uint32_t ops[BATCH];
	if (np <= s->map_slots && n >= 4.0 * (double)np * log((double)np + 1)) {
		/*
		 * A span the cache holds whole, which a stream this long has
		 * touched all over (a few times the coupon collector's
		 * np ln np): every page of it is held, the most recent in
		 * its set, in no order of note, and dirty if it was, or if a
		 * write of the stream hit it: 1 - (1 - w)^(n / np) of those
		 * that were clean.  One lookup each, in an order from the
		 * stream's seed (a stride prime to np from a drawn start),
		 * not the n the stream made.
		 */
		double p_w = write_share >= 1.0 ? 1.0 : 1.0 - pow(1.0 - write_share, n / (double)np);
		uint64_t stride = coprime_stride(1 + rng_below(&r, np), np), at = rng_below(&r, np);
		for (uint64_t i = 0; i < np;) {
			size_t b = 0;
			for (; b < BATCH && i < np; b++, i++) {
				bool wr = p_w >= 1.0 || rng_unit(&r) < p_w;
				ops[b] = mapcache_op(p0 + at, wr);
				at += stride;
				at = at >= np ? at - np : at;
			}
			mapcache_access_ops(s->map, ops, b);
		}
		return;
	}
	/* An LRU cache is what its most recent distinct pages made it: four
	   cache-fulls of the stream's last I/Os set it as the whole would.
	   (Two leave an earlier page in two slots of a hundred: the SN850X's
	   random reads after them came out 1 % faster at QD 4-256.)  A
	   longer stream over a span wider than the cache has forgotten what
	   was there before: its state is drawn (map_drawn). */
	double window = 4.0 * (double)s->map_slots + 64.0;
	if (n > window && np > s->map_slots) {
		map_drawn(s, p0, np, write_share, &r);
		return;
	}
	uint64_t total = (uint64_t)fmin(n, window);
	for (uint64_t i = 0; i < total;) {
		size_t b = 0;
		for (; b < BATCH && i < total; b++, i++) {
			bool wr = write_share >= 1.0 || rng_unit(&r) < write_share;
			ops[b] = mapcache_op(p0 + rng_below(&r, np), wr);
		}
		mapcache_access_ops(s->map, ops, b);
	}
}
