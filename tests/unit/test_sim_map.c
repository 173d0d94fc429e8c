/*
 * The L2P map cache (SIMULATOR.md §8): the cache structure against traces
 * worked out by hand; through the model, the share of random lookups that
 * miss beyond the cached span (slots / pages, the expected value for
 * uniform access), what a miss costs a read (a map-page read and its
 * transfer) and a write (a write-back per page it dirties), a drive whose
 * memory holds the whole map (no misses), and the bulk path against the
 * I/O-by-I/O one with misses.  The cached spans are worked out by hand
 * from the profiles' numbers in the comments, never by the model's code.
 */
#include "check.h"
#include "sim_fixture.h"

#include <math.h>
#include <stdint.h>

#include "common/rng.h"
#include "sim/headline.h"
#include "sim/mapcache.h"
#include "sim/sim.h"

#define MIB 1048576.0
#define MAP_PAGE_LBA (4.0 * MIB)	/* 4 KiB map page / 4 B entries x 4 KiB */

/* ---- the cache structure ---- */

TEST(mapcache_lru_against_a_hand_trace)
{
	struct mapcache *m;
	struct sb_err e;
	CHECK(mapcache_new(4, 100, &m, &e) == 0);	/* one set of 4 ways */
	CHECK_EQ_U64(mapcache_slots(m), 4);
	/* page, write, miss expected, dirtied expected; the set after it,
	   most recent first (* dirty) */
	struct { uint64_t page; bool write, miss, dirtied; } t[] = {
		{ 1, false, true, false },	/* [1] */
		{ 2, false, true, false },	/* [2 1] */
		{ 3, true, true, true },	/* [3* 2 1] */
		{ 1, false, false, false },	/* [1 3* 2] */
		{ 4, false, true, false },	/* [4 1 3* 2] */
		{ 5, false, true, false },	/* [5 4 1 3*]: 2 evicted */
		{ 2, false, true, false },	/* [2 5 4 1]: 3* evicted */
		{ 1, true, false, true },	/* [1* 2 5 4] */
		{ 1, true, false, false },	/* already dirty */
		{ 3, false, true, false },	/* [3 1* 2 5]: 4 evicted */
		{ 5, true, false, true },	/* [5* 3 1* 2] */
		{ 4, false, true, false },	/* [4 5* 3 1*]: 2 evicted */
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		bool d;
		bool miss = mapcache_access(m, t[i].page, t[i].write, &d);
		if (miss != t[i].miss || d != t[i].dirtied)
			CHECK_FAIL("step %zu (page %llu): miss %d dirtied %d, by hand %d %d", i,
				   (unsigned long long)t[i].page, miss, d, t[i].miss, t[i].dirtied);
	}
	struct mapcache_stats st;
	mapcache_stats(m, &st);
	CHECK_EQ_U64(st.hits, 4);
	CHECK_EQ_U64(st.misses, 8);
	CHECK_EQ_U64(st.dirtied, 3);
	mapcache_free(m);
}

/*
 * A set put as given holds those pages in that order, dirty as given:
 * a new page evicts the last one given, the first one stays, a write to
 * a dirty one owes nothing and to a clean one a write-back.  In each
 * layout: compact (8 ways, small tags), wide of 8 ways, and 4 ways.
 */
TEST(mapcache_put_set_holds_what_it_is_given)
{
	static const struct { uint64_t slots, npages; } lay[] = {
		{ 16, 100 },	/* 2 sets of 8, tags up to 50: compact */
		{ 16, 10000 },	/* tags up to 5000: wide */
		{ 4, 100 },	/* one set of 4 ways */
	};
	for (size_t l = 0; l < sizeof lay / sizeof lay[0]; l++) {
		struct mapcache *m;
		struct sb_err e;
		CHECK(mapcache_new(lay[l].slots, lay[l].npages, &m, &e) == 0);
		uint64_t nsets = mapcache_sets(m), w = mapcache_ways(m);
		CHECK_EQ_U64(nsets * w, lay[l].slots);
		/* earlier pages of set 1 (set 0 when there is one set) */
		uint64_t set = nsets - 1;
		for (uint64_t k = 0; k < w; k++)
			mapcache_access(m, set + (20 + k) * nsets, true, NULL);
		uint64_t pages[8];
		bool dirty[8];
		for (uint64_t k = 0; k < w; k++) {
			pages[k] = set + (3 + 2 * k) * nsets;
			dirty[k] = k % 3 == 0;
		}
		mapcache_put_set(m, set, pages, dirty, (uint32_t)w);
		uint64_t held, nd;
		mapcache_census(m, &held, &nd);
		CHECK_EQ_U64(held, w);
		CHECK_EQ_U64(nd, (w + 2) / 3);
		bool d;
		/* a page held before is gone */
		CHECK(mapcache_access(m, set + 20 * nsets, false, NULL));	/* evicts pages[w-1] */
		CHECK(mapcache_access(m, pages[w - 1], false, NULL));		/* evicts pages[w-2] */
		CHECK(!mapcache_access(m, pages[0], true, &d));
		CHECK(!d);	/* given dirty */
		CHECK(!mapcache_access(m, pages[1], true, &d));
		CHECK(d);	/* given clean */
		mapcache_free(m);
	}
}

TEST(mapcache_sets_hold_a_span_that_fits_and_cycle_beyond)
{
	struct mapcache *m;
	struct sb_err e;
	/* 16 slots: 2 sets of 8, set = page mod 2 */
	CHECK(mapcache_new(16, 1000, &m, &e) == 0);
	struct mapcache_stats st;
	/* 16 contiguous pages fit: 16 misses, then 16 hits */
	for (int pass = 0; pass < 2; pass++)
		for (uint64_t p = 100; p < 116; p++)
			mapcache_access(m, p, false, NULL);
	mapcache_stats(m, &st);
	CHECK_EQ_U64(st.misses, 16);
	CHECK_EQ_U64(st.hits, 16);
	/* 18 pages in a cycle: 9 per set of 8 ways, so LRU evicts each page
	   just before it comes back: every lookup of the second and third
	   pass misses */
	for (int pass = 0; pass < 3; pass++)
		for (uint64_t p = 200; p < 218; p++)
			mapcache_access(m, p, false, NULL);
	mapcache_stats(m, &st);
	CHECK_EQ_U64(st.misses, 16 + 3 * 18);
	CHECK_EQ_U64(st.hits, 16);
	mapcache_free(m);
	/* 10 slots are one set of 8: whole sets only */
	CHECK(mapcache_new(10, 1000, &m, &e) == 0);
	CHECK_EQ_U64(mapcache_slots(m), 8);
	mapcache_free(m);
}

/*
 * The cache against a plain LRU model, lookup by lookup: each set a list
 * of pages, most recent first, each with its dirty flag, searched and
 * moved one entry at a time.  Each cache is given several page streams
 * (below), in both layouts (mapcache.c: one byte per slot when a set of 8
 * ways tells apart at most 127 pages, 32-bit slots else, and in sets of
 * fewer than 8 ways), with a power-of-two number of sets and without; and
 * mapcache_access_ops, given the same lookups, leaves a cache that
 * answers every later lookup the same, with the same counts.
 */
struct ref_lru {
	uint64_t sets, ways;
	uint64_t *page;		/* sets x ways, UINT64_MAX: empty */
	bool *dirty;
	struct mapcache_stats st;
};

/* An empty plain LRU of `slots` slots in sets of up to 8 ways, as the
   cache under test sets them. */
static struct ref_lru ref_lru_new(uint64_t slots)
{
	struct ref_lru ref = { .ways = slots < 8 ? slots : 8 };
	ref.sets = slots / ref.ways;
	ref.page = malloc(slots * sizeof *ref.page);
	ref.dirty = calloc(slots, sizeof *ref.dirty);
	for (uint64_t i = 0; i < slots; i++)
		ref.page[i] = UINT64_MAX;
	return ref;
}

static void ref_lru_free(struct ref_lru *c)
{
	free(c->page);
	free(c->dirty);
}

static bool ref_access(struct ref_lru *c, uint64_t pg, bool write, bool *dirtied)
{
	uint64_t *p = c->page + pg % c->sets * c->ways;
	bool *d = c->dirty + pg % c->sets * c->ways;
	uint64_t i = 0;
	while (i < c->ways && p[i] != pg && p[i] != UINT64_MAX)
		i++;
	bool miss = i == c->ways || p[i] != pg;
	if (i == c->ways)
		i--;
	bool was = miss ? false : d[i];
	*dirtied = write && !was;
	for (; i > 0; i--) {
		p[i] = p[i - 1];
		d[i] = d[i - 1];
	}
	p[0] = pg;
	d[0] = was || write;
	c->st.hits += !miss;
	c->st.misses += miss;
	c->st.dirtied += *dirtied;
	return miss;
}

/*
 * The page streams: uniform over the map; a hot few pages of one set
 * (hits at every way, in every order); a cycle of ways + 1 pages of one
 * set (LRU evicts each just before it returns); the map's last pages
 * (the largest tags, next to the layouts' boundary); a sequential sweep.
 */
enum stream { UNIFORM, HOT_SET, CYCLE_SET, TOP_TAGS, SWEEP, NSTREAMS };
static const char *const stream_name[] = { "uniform", "hot set", "cycle in a set",
					    "top tags", "sweep" };

static uint64_t stream_page(enum stream k, struct rng *r, uint64_t i, uint64_t npages,
			    uint64_t sets, uint64_t ways)
{
	uint64_t set = (npages - 1) % sets;	/* a set holding the largest tag */
	uint64_t in_set = (npages - 1 - set) / sets + 1;	/* its pages */
	switch (k) {
	case UNIFORM:
		return rng_below(r, npages);
	case HOT_SET: {
		uint64_t w = ways + 3 < in_set ? ways + 3 : in_set;
		return set + (in_set - 1 - rng_below(r, w)) * sets;
	}
	case CYCLE_SET:
		return set + (in_set - 1 - i % (ways + 1 < in_set ? ways + 1 : in_set)) * sets;
	case TOP_TAGS: {
		uint64_t top = 3 * sets < npages ? 3 * sets : npages;
		return npages - 1 - rng_below(r, top);
	}
	case SWEEP:
	default:
		return i % npages;
	}
}

/* Fails (and says where) when the cache and the plain LRU part. */
static void compare_with_plain_lru(uint64_t slots, uint64_t npages, enum stream k, uint64_t seed)
{
	struct mapcache *a, *b;
	struct sb_err e;
	CHECK(mapcache_new(slots, npages, &a, &e) == 0);
	CHECK(mapcache_new(slots, npages, &b, &e) == 0);
	struct ref_lru ref = ref_lru_new(slots);
	struct rng r;
	rng_seed(&r, seed);
	size_t n = (size_t)(20 * slots + 1000);
	uint32_t *ops = malloc(n * sizeof *ops);
	bool parted = false;
	for (int round = 0; round < 3 && !parted; round++) {
		for (size_t i = 0; i < n; i++) {
			uint64_t pg = stream_page(k, &r, round * n + i, npages, ref.sets, ref.ways);
			bool wr = rng_below(&r, 3) == 0, d, rd;
			ops[i] = mapcache_op(pg, wr);
			bool miss = mapcache_access(a, pg, wr, &d);
			bool rmiss = ref_access(&ref, pg, wr, &rd);
			if (miss != rmiss || d != rd) {
				CHECK_FAIL("%llu slots, %llu pages, %s: lookup %zu of page %llu: miss %d dirtied %d, plain LRU %d %d",
					   (unsigned long long)slots, (unsigned long long)npages,
					   stream_name[k], i, (unsigned long long)pg, miss, d, rmiss, rd);
				parted = true;
				break;
			}
		}
		if (parted)
			break;
		mapcache_access_ops(b, ops, n);
		struct mapcache_stats sa, sb;
		mapcache_stats(a, &sa);
		mapcache_stats(b, &sb);
		if (sa.hits != ref.st.hits || sa.misses != ref.st.misses ||
		    sa.dirtied != ref.st.dirtied || sb.hits != sa.hits ||
		    sb.misses != sa.misses || sb.dirtied != sa.dirtied)
			CHECK_FAIL("%llu slots, %llu pages, %s: hits/misses/dirtied %llu/%llu/%llu, by ops %llu/%llu/%llu, plain LRU %llu/%llu/%llu",
				   (unsigned long long)slots, (unsigned long long)npages, stream_name[k],
				   (unsigned long long)sa.hits, (unsigned long long)sa.misses,
				   (unsigned long long)sa.dirtied, (unsigned long long)sb.hits,
				   (unsigned long long)sb.misses, (unsigned long long)sb.dirtied,
				   (unsigned long long)ref.st.hits, (unsigned long long)ref.st.misses,
				   (unsigned long long)ref.st.dirtied);
	}
	/* what each cache holds, and how: the same answers as the plain LRU */
	for (uint64_t pg = 0; pg < npages && !parted; pg++) {
		bool wr = pg % 2, da, db, dr;
		bool ma = mapcache_access(a, pg, wr, &da), mb = mapcache_access(b, pg, wr, &db);
		bool mr = ref_access(&ref, pg, wr, &dr);
		if (ma != mr || mb != mr || da != dr || db != dr) {
			CHECK_FAIL("%llu slots, %llu pages, %s: page %llu after the runs: miss %d/%d dirtied %d/%d, plain LRU %d %d",
				   (unsigned long long)slots, (unsigned long long)npages, stream_name[k],
				   (unsigned long long)pg, ma, mb, da, db, mr, dr);
			break;
		}
	}
	free(ops);
	ref_lru_free(&ref);
	mapcache_free(a);
	mapcache_free(b);
}

/* slots, pages, and the layout's bytes per slot (mapcache.c) */
static const struct { uint64_t slots, npages, bytes_per_slot; } lru_cases[] = {
	{ 8, 31, 1 },			/* one set */
	{ 16, 55, 1 },			/* 2 sets */
	{ 24, 79, 1 },			/* 3 sets */
	{ 8192, 3 * 8192 + 7, 1 },
	{ 8 * 37, 3 * 8 * 37 + 7, 1 },
	{ 8 * 37, 37 * 127, 1 },	/* largest tag 127: compact */
	{ 8 * 37, 37 * 127 + 1, 4 },	/* 128: wide */
	{ 32, 4 * 127, 1 },
	{ 32, 4 * 127 + 1, 4 },
	{ 8, 300, 4 },			/* one set of 300 pages */
	{ 16, 1000, 4 },
	{ 8 * 768, 114441, 4 },		/* the rc100-480gb's: 768 sets, tags to 150 */
	{ 5, 22, 4 },			/* fewer than 8 ways: wide */
	{ 3, 16, 4 },
};

TEST(mapcache_matches_a_plain_lru_and_ops_match_single_lookups)
{
	for (size_t c = 0; c < sizeof lru_cases / sizeof lru_cases[0]; c++) {
		struct mapcache *m;
		struct sb_err e;
		CHECK(mapcache_new(lru_cases[c].slots, lru_cases[c].npages, &m, &e) == 0);
		if (mapcache_bytes(m) != lru_cases[c].bytes_per_slot * lru_cases[c].slots)
			CHECK_FAIL("%llu slots, %llu pages: %llu bytes, not %llu per slot",
				   (unsigned long long)lru_cases[c].slots,
				   (unsigned long long)lru_cases[c].npages,
				   (unsigned long long)mapcache_bytes(m),
				   (unsigned long long)lru_cases[c].bytes_per_slot);
		mapcache_free(m);
		for (int k = 0; k < NSTREAMS; k++)
			compare_with_plain_lru(lru_cases[c].slots, lru_cases[c].npages, k, 21 + c);
	}
}

/*
 * Lookups that repeat the page of the one before (a sequential stream's
 * reads ask for one map page again and again, and mapcache.h answers the
 * ones that change nothing without the set) against the plain LRU: runs
 * of one page, read or now and then written (a write of a clean page
 * does change it), between steps to the next page, jumps, and batches of
 * mapcache_access_ops (which leave their last page at the front) whose
 * pages repeat the run's or one another's, in every layout.
 */
static void compare_runs_with_plain_lru(uint64_t slots, uint64_t npages, uint64_t seed)
{
	struct mapcache *a;
	struct sb_err e;
	CHECK(mapcache_new(slots, npages, &a, &e) == 0);
	struct ref_lru ref = ref_lru_new(slots);
	struct rng r;
	rng_seed(&r, seed);
	uint64_t pg = 0, steps = 40 * slots + 4000;
	uint32_t ops[48];
	bool parted = false;
	for (uint64_t i = 0; i < steps && !parted; i++) {
		uint64_t what = rng_below(&r, 32);
		if (what == 0) {
			pg = rng_below(&r, npages);		/* a jump */
		} else if (what == 1) {
			pg = (pg + 1) % npages;			/* the next page */
		} else if (what == 2) {
			size_t n = 1 + (size_t)rng_below(&r, 48);	/* a batch */
			for (size_t j = 0; j < n; j++) {
				uint64_t q = rng_below(&r, 3);
				pg = q == 0 ? rng_below(&r, npages) : q == 1 ? (pg + 1) % npages : pg;
				bool wr = rng_below(&r, 4) == 0, rd;
				ops[j] = mapcache_op(pg, wr);
				ref_access(&ref, pg, wr, &rd);
			}
			mapcache_access_ops(a, ops, n);
		} else {
			bool wr = rng_below(&r, 8) == 0, d, rd;	/* the run goes on */
			bool miss = mapcache_access(a, pg, wr, &d);
			bool rmiss = ref_access(&ref, pg, wr, &rd);
			if (miss != rmiss || d != rd) {
				CHECK_FAIL("%llu slots, %llu pages: step %llu, page %llu (%s): miss %d dirtied %d, plain LRU %d %d",
					   (unsigned long long)slots, (unsigned long long)npages,
					   (unsigned long long)i, (unsigned long long)pg,
					   wr ? "write" : "read", miss, d, rmiss, rd);
				parted = true;
			}
		}
	}
	struct mapcache_stats sa;
	mapcache_stats(a, &sa);
	if (!parted && (sa.hits != ref.st.hits || sa.misses != ref.st.misses ||
			sa.dirtied != ref.st.dirtied))
		CHECK_FAIL("%llu slots, %llu pages: hits/misses/dirtied %llu/%llu/%llu, plain LRU %llu/%llu/%llu",
			   (unsigned long long)slots, (unsigned long long)npages,
			   (unsigned long long)sa.hits, (unsigned long long)sa.misses,
			   (unsigned long long)sa.dirtied, (unsigned long long)ref.st.hits,
			   (unsigned long long)ref.st.misses, (unsigned long long)ref.st.dirtied);
	/* what the cache holds, and how: each page looked up twice */
	for (uint64_t p = 0; p < npages && !parted; p++) {
		for (int k = 0; k < 2 && !parted; k++) {
			bool wr = (p + k) % 3 == 0, d, rd;
			bool miss = mapcache_access(a, p, wr, &d), rmiss = ref_access(&ref, p, wr, &rd);
			if (miss != rmiss || d != rd) {
				CHECK_FAIL("%llu slots, %llu pages: page %llu after the runs: miss %d dirtied %d, plain LRU %d %d",
					   (unsigned long long)slots, (unsigned long long)npages,
					   (unsigned long long)p, miss, d, rmiss, rd);
				parted = true;
			}
		}
	}
	ref_lru_free(&ref);
	mapcache_free(a);
}

TEST(mapcache_repeated_lookups_match_a_plain_lru)
{
	for (size_t c = 0; c < sizeof lru_cases / sizeof lru_cases[0]; c++)
		compare_runs_with_plain_lru(lru_cases[c].slots, lru_cases[c].npages, 77 + c);
}

/* The SN850X's: 2048 MiB / 4 KiB = 524288 slots, 65536 sets of 8, over
   4000 GB / 4 MiB = 953675 pages: at most 15 per set, 512 KiB of slots. */
TEST(mapcache_of_the_sn850x_takes_a_byte_per_slot)
{
	struct mapcache *m;
	struct sb_err e;
	CHECK(mapcache_new(524288, 953675, &m, &e) == 0);
	CHECK_EQ_U64(mapcache_bytes(m), 512 * 1024);
	mapcache_free(m);
}

TEST(mapcache_with_no_room_misses_and_writes_back_everything)
{
	struct mapcache *m;
	struct sb_err e;
	CHECK(mapcache_new(0, 10, &m, &e) == 0);
	bool d;
	CHECK(mapcache_access(m, 3, false, &d) && !d);
	CHECK(mapcache_access(m, 3, true, &d) && d);
	CHECK(mapcache_access(m, 3, true, &d) && d);
	mapcache_free(m);
}

/* ---- through the model ---- */

/* Fill sequentially, then idle until SLC is folded: reads see native data. */
static void fill_and_rest(struct sim *s)
{
	struct sim_stream st = { .write = true, .bs = 131072, .qd = 64,
				 .span_len = sim_capacity(s) / 131072 * 131072 };
	struct sb_err e;
	if (sim_run_fluid(s, &st, st.span_len, 0, 100000000ull, ignore_slice, NULL, &e))
		CHECK_FAIL("fill: %s", e.msg);
	sim_idle(s, 3600ull * 1000000000ull);
}

/* Two drives alike, filled and rested: one for a bulk stream, one for
   the same stream I/O by I/O.  false (none left open) when the profile
   does not open. */
static bool filled_pair(const char *profile, double scale, struct sim **a, struct sim **b)
{
	if (!open_pair(profile, scale, 5, a, b))
		return false;
	fill_and_rest(*a);
	fill_and_rest(*b);
	return true;
}

/* What a closed loop of I/Os saw. */
struct window {
	double iops, lat_us;		/* mean latency */
	double hits, misses, wb, host;	/* map lookups, write-backs, host bytes */
};

/* A closed loop of n random 4 KiB I/Os over [0, span) at depth qd,
   read_pct of them reads, the others writes. */
static struct window discrete_mix(struct sim *s, uint32_t read_pct, uint64_t span, uint32_t qd,
				  uint64_t n, uint64_t seed)
{
	struct rng r;
	rng_seed(&r, seed);
	struct sim_state a, b;
	sim_state(s, &a);
	struct sb_err e;
	uint64_t t0 = sim_now(s), done = 0, issued = 0;
	double lat = 0;
	while (done < n) {
		while (issued < n && issued - done < qd) {
			bool wr = read_pct == 0 || (read_pct < 100 && rng_below(&r, 100) >= read_pct);
			struct sim_io io = { wr ? SIM_WRITE : SIM_READ,
					     rng_below(&r, span / 4096) * 4096, 4096, 0, false };
			if (sim_submit(s, &io, &e)) {
				CHECK_FAIL("submit: %s", e.msg);
				return (struct window){ 0 };
			}
			issued++;
		}
		struct sim_cpl c;
		if (sim_reap(s, &c, 1, 1, UINT64_MAX) != 1)
			break;
		lat += (double)(c.t_done_ns - c.t_submit_ns);
		done++;
	}
	sim_state(s, &b);
	return (struct window){
		(double)done / ((double)(sim_now(s) - t0) * 1e-9), lat / (double)done * 1e-3,
		b.map_hits - a.map_hits, b.map_misses - a.map_misses,
		b.map_wb_bytes - a.map_wb_bytes, b.host_bytes - a.host_bytes,
	};
}

/* ... all writes or all reads. */
static struct window discrete(struct sim *s, bool write, uint64_t span, uint32_t qd,
			      uint64_t n, uint64_t seed)
{
	return discrete_mix(s, write ? 0 : 100, span, qd, n, seed);
}

/*
 * rc100-480gb at scale 0.1: hmb_mib 24 x 0.1 = 2.4 MiB of 4 KiB map pages
 * = 614 slots, in sets of 8: 76 sets, 608 pages of 4 MiB = 2432 MiB held.
 */
#define RC100_SCALE 0.1
#define RC100_HELD_PAGES 608.0

TEST(random_reads_beyond_the_cached_span_miss_its_share)
{
	struct sim *s = open_scaled("rc100-480gb", RC100_SCALE, 5);
	if (!s)
		return;
	fill_and_rest(s);
	struct sim_state st;
	sim_state(s, &st);
	CHECK_REL(st.map_cached_span, RC100_HELD_PAGES * MAP_PAGE_LBA, 1e-12);

	/* a span of 4 x 608 pages: once warm, 1 in 4 lookups hits */
	uint64_t wide = (uint64_t)(4 * RC100_HELD_PAGES * MAP_PAGE_LBA);
	discrete(s, false, wide, 1, 8 * 4 * 608, 1);	/* warm */
	struct window w = discrete(s, false, wide, 1, 20000, 2);
	CHECK_NEAR(w.hits / (w.hits + w.misses), 0.25, 0.015);
	CHECK_NEAR(w.hits + w.misses, 20000, 0);	/* one lookup per 4 KiB read */

	/* half the held span: once warm, nothing misses */
	uint64_t inside = (uint64_t)(RC100_HELD_PAGES / 2 * MAP_PAGE_LBA);
	discrete(s, false, inside, 1, 8 * 304, 3);
	struct window in = discrete(s, false, inside, 1, 20000, 4);
	CHECK_NEAR(in.misses, 0, 0);

	/* a miss costs the read a map-page read (tr_map_us 40) and its
	   transfer (4096 B at ch_gbs 0.4: 10.24 us); 3 in 4 reads pay it */
	CHECK_REL(w.lat_us - in.lat_us, 0.75 * (40 + 10.24), 0.08);
	sim_close(s);
}

TEST(random_writes_write_back_the_map_pages_they_dirty)
{
	struct sim *s = open_scaled("rc100-480gb", RC100_SCALE, 5);
	if (!s)
		return;
	fill_and_rest(s);
	/* 4 x the held pages: 3 in 4 writes miss, each dirtying a clean
	   page, whose 4 KiB write-back is as large as the write */
	uint64_t wide = (uint64_t)(4 * RC100_HELD_PAGES * MAP_PAGE_LBA);
	discrete(s, true, wide, 32, 8 * 4 * 608, 1);
	struct window w = discrete(s, true, wide, 32, 20000, 2);
	CHECK_REL(w.wb / w.host, 0.75, 0.04);
	/* inside the held span every page is dirty once warm: none owed */
	uint64_t inside = (uint64_t)(RC100_HELD_PAGES / 2 * MAP_PAGE_LBA);
	discrete(s, true, inside, 32, 8 * 304, 3);
	struct window in = discrete(s, true, inside, 32, 20000, 4);
	CHECK_NEAR(in.wb, 0, 0);
	sim_close(s);
}

TEST(a_drive_whose_memory_holds_the_whole_map_never_misses)
{
	const char *names[] = { "sn8100-2tb", "micron1300-1tb", "p4800x-375gb",
				"pm1725-3.2tb", "p1-1tb" };
	for (size_t i = 0; i < 5; i++) {
		struct sim *s = open_scaled(names[i], 0.01, 5);
		if (!s)
			return;
		fill_and_rest(s);
		discrete(s, false, sim_capacity(s), 32, 20000, 1);
		discrete(s, true, sim_capacity(s), 32, 20000, 2);
		struct sim_state st;
		sim_state(s, &st);
		if (st.map_hits + st.map_misses != 0 || st.map_wb_bytes != 0)
			CHECK_FAIL("%s: %.0f map lookups, %.0f bytes written back", names[i],
				   st.map_hits + st.map_misses, st.map_wb_bytes);
		CHECK_REL(st.map_cached_span, (double)sim_capacity(s), 1e-12);
		sim_close(s);
	}
}

struct bulk { double bytes, secs; };

static int bulk_slice(void *ctx, const struct sim_slice *sl, struct sb_err *e)
{
	(void)e;
	struct bulk *b = ctx;
	b->bytes += (double)(sl->bytes + sl->wbytes);
	b->secs += (double)(sl->t_end_ns - sl->t_start_ns) * 1e-9;
	return 0;
}

static double bulk_rate(struct sim *s, bool write, uint64_t span, uint32_t qd, uint64_t ios)
{
	struct sim_stream st = { .write = write, .random = true, .bs = 4096, .qd = qd,
				 .span_len = span, .seed = 9 };
	struct bulk b = { 0 };
	struct sb_err e;
	if (sim_run_fluid(s, &st, ios * 4096, 0, 100000000ull, bulk_slice, &b, &e))
		CHECK_FAIL("bulk: %s", e.msg);
	return b.bytes / b.secs;
}

TEST(bulk_and_io_by_io_agree_with_map_misses)
{
	uint64_t wide = (uint64_t)(4 * RC100_HELD_PAGES * MAP_PAGE_LBA);
	for (int write = 0; write < 2; write++) {
		struct sim *a, *b;
		if (!filled_pair("rc100-480gb", RC100_SCALE, &a, &b))
			return;
		/* the same history for both: a warm cache and, for writes,
		   past the SLC pool (0.6 GB) with the write buffer full; then
		   the same bytes, so the write path's regimes match */
		discrete(a, write, wide, 32, write ? 300000 : 8 * 4 * 608, 1);
		discrete(b, write, wide, 32, write ? 300000 : 8 * 4 * 608, 1);
		double fluid = bulk_rate(a, write, wide, 32, 200000);
		struct window w = discrete(b, write, wide, 32, 200000, 2);
		if (fabs(fluid / (w.iops * 4096) - 1) > 0.03)
			CHECK_FAIL("%s: bulk %.0f B/s, I/O by I/O %.0f", write ? "writes" : "reads", fluid, w.iops * 4096);
		/* and the bulk stream left its cache warm for the span */
		struct window after = discrete(a, false, wide, 1, 20000, 3);
		CHECK_NEAR(after.hits / (after.hits + after.misses), 0.25, 0.02);
		sim_close(a);
		sim_close(b);
	}
}

/*
 * A bulk read stream runs real I/Os only for its calibration, then repeats
 * their rate; the cache must end as the stream's last I/Os would leave it,
 * not holding the calibration's pages.  sn850x-4tb at scale 0.1: 204.8 MiB
 * of DRAM = 52428 slots = 6553 sets of 8 = 52424 pages held, of the
 * 400 GB drive's 95368 pages; the calibration's 65536 reads touch fewer
 * pages than that, so a second stream with the same seed (the same
 * offsets first) would hit them all if they were still there.  Once the
 * stream is warm, its share of misses is 1 - 52424 / 95368 = 0.4503.
 */
TEST(a_bulk_read_leaves_the_cache_as_its_last_reads_would)
{
	struct sim *s = open_scaled("sn850x-4tb", 0.1, 5);
	if (!s)
		return;
	fill_and_rest(s);
	uint64_t all = sim_capacity(s) / 4096 * 4096;
	bulk_rate(s, false, all, 256, 4000000);
	struct sim_state a, b;
	sim_state(s, &a);
	bulk_rate(s, false, all, 256, 200000);
	sim_state(s, &b);
	/* the second stream's real reads (its calibration) and its settling */
	double miss = (b.map_misses - a.map_misses) /
		      (b.map_hits - a.map_hits + b.map_misses - a.map_misses);
	CHECK_NEAR(miss, 1 - 52424.0 / 95368, 0.02);
	sim_close(s);
}

/* A closed loop of n random 4 KiB I/Os over [0, span), read_pct of them
   reads, at depth qd, in bulk. */
static void bulk_mix(struct sim *s, uint32_t read_pct, uint64_t span, uint32_t qd, uint64_t n)
{
	struct sim_stream st = { .random = true, .bs = 4096, .qd = qd, .span_len = span,
				 .seed = 9, .read_pct = read_pct < 100 ? read_pct : 0,
				 .write = !read_pct };
	struct sb_err e;
	if (sim_run_fluid(s, &st, n * 4096, 0, 100000000ull, ignore_slice, NULL, &e))
		CHECK_FAIL("bulk: %s", e.msg);
}

/*
 * A bulk random stream over a span the cache holds whole leaves every
 * page of it held, and dirty as the stream's writes left it: against the
 * same stream I/O by I/O, what a read and then a write over the span
 * meet (misses; write-backs, owed by the pages left clean), for writes
 * (no calibration: the stream's end alone sets the cache), a 70:30 mix
 * (all dirty) and reads (none).  The RC100 at 0.1 holds 608 pages; the
 * span is 300.
 */
TEST(a_bulk_stream_over_a_span_the_cache_holds_leaves_it_as_io_by_io)
{
	uint64_t span = (uint64_t)(300 * MAP_PAGE_LBA);
	static const uint32_t pcts[] = { 0, 70, 100 };
	for (int k = 0; k < 3; k++) {
		struct sim *a, *b;
		if (!filled_pair("rc100-480gb", RC100_SCALE, &a, &b))
			return;
		bulk_mix(a, pcts[k], span, 32, 400000);
		discrete_mix(b, pcts[k], span, 32, 400000, 3);
		struct window ra = discrete(a, false, span, 1, 20000, 4);
		struct window rb = discrete(b, false, span, 1, 20000, 4);
		CHECK(ra.misses <= 2 && rb.misses <= 2);
		struct window wa = discrete(a, true, span, 1, 4000, 5);
		struct window wb = discrete(b, true, span, 1, 4000, 5);
		/* after reads, each page a write first finds clean owes one */
		double owed = pcts[k] < 100 ? 0 : 300 * (1 - exp(-4000.0 / 300)) * 4096;
		CHECK_NEAR(wa.wb, owed, 0.02 * 300 * 4096);
		CHECK_NEAR(wb.wb, owed, 0.02 * 300 * 4096);
		sim_close(a);
		sim_close(b);
	}
}

/*
 * A bulk random stream over a span wider than the cache, long past the
 * point where the cache has forgotten what it held before, leaves it as
 * the same stream I/O by I/O does: full, and dirty where a page's stay
 * held a write.  sn850x-4tb at scale 0.1: 52424 pages held of 95368, a
 * lookup hits with 0.55; the dirty share is 1 for writes, 0 for reads
 * and for a 70:30 mix 0.49 (a stay holds a write unless all its lookups
 * are reads), where the writes' share alone would say 0.3.  Which pages
 * are held: reads over a part of the span find the held share there.
 */
TEST(a_long_bulk_stream_over_a_wider_span_leaves_the_cache_as_io_by_io)
{
	static const uint32_t pcts[] = { 0, 70, 100 };
	for (int k = 0; k < 3; k++) {
		struct sim *a, *b;
		if (!filled_pair("sn850x-4tb", 0.1, &a, &b))
			return;
		uint64_t all = sim_capacity(a) / 4096 * 4096;
		/* a write stream first: every page held dirty, so what a read
		   stream leaves must come from its own lookups */
		bulk_mix(a, 0, all, 32, 400000);
		discrete_mix(b, 0, all, 32, 400000, 2);
		bulk_mix(a, pcts[k], all, 32, 1000000);
		discrete_mix(b, pcts[k], all, 32, 1000000, 3);
		struct sim_state sa, sb;
		sim_state(a, &sa);
		sim_state(b, &sb);
		CHECK_NEAR(sa.map_held, 52424, 0.5);
		CHECK_NEAR(sb.map_held, 52424, 0.5);
		double da = sa.map_dirty / sa.map_held, db = sb.map_dirty / sb.map_held;
		if (fabs(da - db) > 0.01)
			CHECK_FAIL("%u %% reads: dirty share in bulk %.4f, I/O by I/O %.4f",
				   pcts[k], da, db);
		/* and any part of the span as likely held as another: reads
		   over its first quarter find the held share, not more */
		struct window ra = discrete(a, false, all / 4, 1, 2000, 4);
		struct window rb = discrete(b, false, all / 4, 1, 2000, 4);
		CHECK_NEAR(ra.hits / (ra.hits + ra.misses), 52424.0 / 95368, 0.04);
		CHECK_NEAR(rb.hits / (rb.hits + rb.misses), 52424.0 / 95368, 0.04);
		sim_close(a);
		sim_close(b);
	}
}

TEST(headline_states_the_cached_span)
{
	struct sim_profile p;
	struct sb_err e;
	struct sim_headline h;
	/* sn850x-4tb: 2048 MiB / 4 KiB = 524288 pages x 4 MiB = 2^41 B */
	CHECK(profile_lookup("sn850x-4tb", &p, &e) == 0);
	sim_headline(&p, &h);
	CHECK_REL(h.map_cached_gb, 2199.023255552, 1e-9);
	CHECK_REL(h.map_mib, 4000e9 / 1024 / MIB, 1e-9);	/* 4 B per 4 KiB */
	/* rc100-480gb: 24 MiB of HMB / 4 KiB = 6144 pages x 4 MiB = 24 GiB */
	CHECK(profile_lookup("rc100-480gb", &p, &e) == 0);
	sim_headline(&p, &h);
	CHECK_REL(h.map_cached_gb, 24 * 1073741824.0 / 1e9, 1e-9);
	/* the SN8100's 2 GB hold its whole 1863 MiB map */
	CHECK(profile_lookup("sn8100-2tb", &p, &e) == 0);
	sim_headline(&p, &h);
	CHECK_REL(h.map_cached_gb, 2000, 1e-12);
}

TEST(a_host_memory_buffer_needs_a_dram_less_drive)
{
	struct sim_profile p;
	struct sb_err e;
	CHECK(profile_lookup("sn850x-4tb", &p, &e) == 0);
	CHECK(profile_set(&p, "hmb_mib", "64", "test", &e) == 0);
	CHECK(profile_check(&p, "test", &e) == -1);
	CHECK(strstr(e.msg, "hmb_mib") && strstr(e.msg, "dram_mib"));
	CHECK(profile_set(&p, "dram_mib", "0", "test", &e) == 0);
	CHECK(profile_check(&p, "test", &e) == 0);
	CHECK(profile_set(&p, "map_entry_bytes", "0", "test", &e) == -1);
	CHECK(strstr(e.msg, "map_entry_bytes"));
	/* sim show names the keys, and says what an unset DRAM size means */
	static char ini[16384];
	CHECK(profile_lookup("p4800x-375gb", &p, &e) == 0);
	profile_write_ini(&p, ini, sizeof ini);
	CHECK(strstr(ini, "# dram_mib       = (not set: the whole map is held"));
	CHECK(strstr(ini, "map_page_kib"));
	CHECK(strstr(ini, "hmb_mib"));
}

CHECK_MAIN("test_sim_map")
