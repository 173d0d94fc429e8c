/*
 * Where a chunk's data is, when writes cover only part of it.  A chunk of
 * LBA space (1 MiB and up) keeps its data by class; sparse random writes
 * leave most of a chunk where it was.  Reads must find each page where
 * it is (SLC, native, nowhere), and an overwrite must invalidate the
 * class it hits.
 *
 * The reference is the test's own map of the 4 KiB pages it wrote: which
 * of a region's pages went to SLC since its data was folded.  The
 * latencies of the pure classes are measured on the same drive, on
 * regions that hold one class only.  And the counts the class densities
 * divide by against a count of the map itself.
 */
#include "check.h"
#include "sim_fixture.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "sim/model.h"
#include "sim/sim.h"

#define GiB (1024ull * 1024 * 1024)
#define PAGE 4096ull
#define MS 1000000ull

/* A region of the drive, and which of its pages the test wrote. */
struct region {
	uint64_t off, len;
	uint8_t *written;	/* one byte per 4 KiB page */
};

static bool region_init(struct region *r, uint64_t off, uint64_t len)
{
	r->off = off;
	r->len = len;
	r->written = calloc(len / PAGE, 1);
	if (!r->written)
		CHECK_FAIL("out of memory");
	return r->written != NULL;
}

static double region_share_written(const struct region *r)
{
	uint64_t n = r->len / PAGE, w = 0;
	for (uint64_t i = 0; i < n; i++)
		w += r->written[i];
	return (double)w / (double)n;
}

/* Wait for every I/O in flight. */
static void drain(struct sim *s)
{
	struct sim_cpl c[64];
	while (sim_outstanding(s))
		sim_reap(s, c, 1, 64, UINT64_MAX);
}

/* Sequential writes of bs over [off, off + len) at depth qd. */
static void write_seq(struct sim *s, uint64_t off, uint64_t len, uint32_t bs, uint32_t qd)
{
	struct sb_err e;
	for (uint64_t o = off; o < off + len; o += bs) {
		if (sim_outstanding(s) >= qd) {
			struct sim_cpl c;
			sim_reap(s, &c, 1, 1, UINT64_MAX);
		}
		struct sim_io io = { SIM_WRITE, o, bs, 0, false };
		if (sim_submit(s, &io, &e)) {
			CHECK_FAIL("%s", e.msg);
			return;
		}
	}
	drain(s);
}

/* n random 4 KiB writes inside r at depth 32; the pages are marked in
   r's map.  Returns the bytes that overwrote pages not written before
   (the data there when the writes began). */
static double write_random(struct sim *s, struct region *r, uint64_t n, uint64_t seed)
{
	struct rng g;
	rng_seed(&g, seed);
	struct sb_err e;
	uint64_t pages = r->len / PAGE;
	double fresh = 0;
	for (uint64_t i = 0; i < n; i++) {
		if (sim_outstanding(s) >= 32) {
			struct sim_cpl c;
			sim_reap(s, &c, 1, 1, UINT64_MAX);
		}
		uint64_t p = rng_below(&g, pages);
		if (!r->written[p])
			fresh += PAGE;
		r->written[p] = 1;
		struct sim_io io = { SIM_WRITE, r->off + p * PAGE, PAGE, 0, false };
		if (sim_submit(s, &io, &e)) {
			CHECK_FAIL("%s", e.msg);
			break;
		}
	}
	drain(s);
	return fresh;
}

/* Mean latency in us of n QD1 random 4 KiB reads inside [off, off + len). */
static double read_mean_us(struct sim *s, uint64_t off, uint64_t len, uint32_t n, uint64_t seed)
{
	struct rng g;
	rng_seed(&g, seed);
	struct sb_err e;
	double sum = 0;
	for (uint32_t i = 0; i < n; i++) {
		struct sim_io io = { SIM_READ, off + rng_below(&g, len / PAGE) * PAGE, PAGE, 0, false };
		if (sim_submit(s, &io, &e)) {
			CHECK_FAIL("%s", e.msg);
			return 0;
		}
		struct sim_cpl c;
		sim_reap(s, &c, 1, 1, UINT64_MAX);
		sum += (double)(c.t_done_ns - c.t_submit_ns);
	}
	return sum / n / 1e3;
}

/* A short rest: the write buffer drains, but the drive does not turn
   idle long enough to fold (t_idle_enter_ms is 50 on every built-in). */
static void settle(struct sim *s)
{
	sim_flush(s);
	sim_idle(s, 20 * MS);
}

/*
 * An SN850X, scaled: region A written sequentially and folded (native),
 * region B written sequentially and left in SLC, region C never written.
 * Their QD1 read latencies are the pure classes'.
 */
struct drive {
	struct sim *s;
	struct region a;
	uint64_t b_off, c_off, len;
	double l_nat, l_slc, l_unm;
};

static bool drive_open(struct drive *d)
{
	memset(d, 0, sizeof *d);
	d->s = open_scaled("sn850x-4tb", 0.005, 3);
	if (!d->s)
		return false;
	d->len = GiB;
	d->b_off = 4 * GiB;
	d->c_off = 8 * GiB;
	if (!region_init(&d->a, 0, d->len))
		return false;
	write_seq(d->s, d->a.off, d->len, 131072, 32);
	sim_idle(d->s, 20000 * MS);	/* all of it folded */
	struct sim_state st;
	sim_state(d->s, &st);
	CHECK(st.slc_static + st.slc_dyn < 1e6);
	write_seq(d->s, d->b_off, d->len / 4, 131072, 32);
	settle(d->s);
	sim_state(d->s, &st);
	CHECK(st.slc_static + st.slc_dyn > 0.99 * (double)(d->len / 4));
	d->l_nat = read_mean_us(d->s, d->a.off, d->len, 20000, 5);
	d->l_slc = read_mean_us(d->s, d->b_off, d->len / 4, 20000, 6);
	d->l_unm = read_mean_us(d->s, d->c_off, d->len, 20000, 7);
	/* the classes' reads differ, or nothing below could tell them */
	CHECK(d->l_slc < 0.75 * d->l_nat);
	CHECK(d->l_unm < 0.75 * d->l_slc);
	return true;
}

static void drive_close(struct drive *d)
{
	sim_close(d->s);
	free(d->a.written);
}

/*
 * Random 4 KiB writes over a third of a folded region's pages go to SLC;
 * a read finds its page in SLC with the share of pages written, native
 * otherwise.  (A chunk tagged by its last write alone reads every page
 * of every chunk a write touched at SLC speed.)
 */
TEST(reads_after_sparse_writes_find_each_page_where_it_is)
{
	struct drive d;
	if (!drive_open(&d)) {
		drive_close(&d);
		return;
	}
	write_random(d.s, &d.a, d.len / PAGE * 2 / 5, 11);
	settle(d.s);
	double x = region_share_written(&d.a);
	CHECK(x > 0.3 && x < 0.36);
	double want = (1 - x) * d.l_nat + x * d.l_slc;
	double got = read_mean_us(d.s, d.a.off, d.len, 40000, 12);
	/* within a tenth of what SLC saves */
	if (!(fabs(got - want) < 0.1 * (d.l_nat - d.l_slc)))
		CHECK_FAIL("reads %.2f us, want %.2f (native %.2f, SLC %.2f, %.1f %% written)",
			   got, want, d.l_nat, d.l_slc, 100 * x);

	/* Folded, it all reads native again. */
	sim_idle(d.s, 20000 * MS);
	got = read_mean_us(d.s, d.a.off, d.len, 20000, 13);
	if (!(fabs(got - d.l_nat) < 0.03 * d.l_nat))
		CHECK_FAIL("after folding %.2f us, native %.2f", got, d.l_nat);
	drive_close(&d);
}

/* Sparse writes into space never written: the pages not written hold
   nothing and read without a NAND access. */
TEST(sparse_writes_into_unwritten_space_leave_the_rest_unmapped)
{
	struct drive d;
	if (!drive_open(&d)) {
		drive_close(&d);
		return;
	}
	struct region c;
	if (!region_init(&c, d.c_off, d.len)) {
		drive_close(&d);
		return;
	}
	write_random(d.s, &c, d.len / PAGE / 5, 21);
	settle(d.s);
	double x = region_share_written(&c);
	CHECK(x > 0.15 && x < 0.2);
	double want = (1 - x) * d.l_unm + x * d.l_slc;
	double got = read_mean_us(d.s, c.off, c.len, 40000, 22);
	if (!(fabs(got - want) < 0.1 * (d.l_slc - d.l_unm)))
		CHECK_FAIL("reads %.2f us, want %.2f (unmapped %.2f, SLC %.2f, %.1f %% written)",
			   got, want, d.l_unm, d.l_slc, 100 * x);
	free(c.written);
	drive_close(&d);
}

/*
 * What overwrites invalidate: random writes over a region whose pages
 * are partly in SLC (written by the test since the fold) and partly
 * native.  Each write of a page not written before invalidates native
 * data, one of a page written before SLC data (still in SLC: nothing is
 * folded meanwhile).  The test's page map counts both.
 */
TEST(overwrites_invalidate_the_class_they_hit)
{
	struct drive d;
	if (!drive_open(&d)) {
		drive_close(&d);
		return;
	}
	write_random(d.s, &d.a, d.len / PAGE / 4, 31);
	settle(d.s);
	struct sim_state before, after;
	sim_state(d.s, &before);
	uint64_t n = d.len / PAGE / 4;
	double fresh = write_random(d.s, &d.a, n, 32);
	settle(d.s);
	sim_state(d.s, &after);
	CHECK(strcmp(after.regime, "slc") == 0 || strcmp(after.regime, "idle") == 0);
	CHECK_REL(after.fold_bytes - before.fold_bytes + 1, 1, 1e-6);	/* nothing folded */
	double nat_inv = before.native_valid - after.native_valid;
	double slc_inv = (double)n * PAGE - ((after.slc_static + after.slc_dyn) -
					     (before.slc_static + before.slc_dyn));
	CHECK_REL(nat_inv, fresh, 0.05);
	CHECK_REL(slc_inv, (double)n * PAGE - fresh, 0.05);
	drive_close(&d);
}

/* The chunk counts the densities divide by against a count of the map
   itself, through writes of every size, trims, folds and bulk streams. */
TEST(chunk_counts_follow_the_map)
{
	struct sim *s = open_scaled("sn850x-4tb", 0.002, 9);
	if (!s)
		return;
	struct rng g;
	rng_seed(&g, 41);
	struct sb_err e;
	uint64_t cap = sim_capacity(s);
	for (int round = 0; round < 6; round++) {
		for (int i = 0; i < 20000; i++) {
			static const uint64_t sizes[] = { 4096, 65536, 131072, 1048576, 3 << 20 };
			uint64_t len = sizes[rng_below(&g, 5)];
			uint64_t off = rng_below(&g, (cap - len) / 4096) * 4096;
			uint8_t op = rng_below(&g, 10) ? SIM_WRITE : SIM_TRIM;
			struct sim_io io = { op, off, len, 0, false };
			if (sim_outstanding(s) >= 16) {
				struct sim_cpl c;
				sim_reap(s, &c, 1, 1, UINT64_MAX);
			}
			if (sim_submit(s, &io, &e)) {
				CHECK_FAIL("%s", e.msg);
				break;
			}
		}
		drain(s);
		sim_idle(s, (uint64_t)round * 300 * MS);
		uint64_t ntag[4] = { 0 }, nminor[4] = { 0 }, eq[4] = { 0 }, mixed = 0;
		for (uint64_t c = 0; c < s->nchunks; c++) {
			struct chunk_mix x = chunks_mix(s, c);
			ntag[x.major]++;
			eq[x.major] += CHUNK_ONE - x.q;
			if (x.q) {
				CHECK(x.minor != x.major);
				nminor[x.minor]++;
				eq[x.minor] += x.q;
				mixed++;
			}
		}
		for (int i = 0; i < 4; i++) {
			CHECK_EQ_U64(ntag[i], s->ntag[i]);
			CHECK_EQ_U64(nminor[i], s->nminor[i]);
			CHECK_EQ_U64(eq[i], s->eq[i]);
		}
		CHECK(mixed > 0);
		if (sim_check_invariants(s, &e))
			CHECK_FAIL("%s", e.msg);
	}
	sim_close(s);
}

/* Chunks by the class that holds most of each. */
static void classes(const struct sim *s, uint64_t n[4])
{
	n[0] = n[1] = n[2] = n[3] = 0;
	for (uint64_t c = 0; c < s->nchunks; c++)
		n[chunk_tag(s, c)]++;
}

/*
 * A bulk sequential write steps over many chunks at once and tags them by
 * where its bytes went: across the end of the SLC cache (the SN8100's
 * first fill: 677 GB into SLC, the rest direct, folding as it goes) the
 * chunks of each class must be those the same fill I/O by I/O leaves,
 * give or take the chunk a route changed in, and the SLC ones hold what
 * the write path holds in SLC (native and folded data apart: what went
 * direct and what SLC folded); at 40 % of the fill (the cache full at
 * 34 %), 70 % and at its end.
 */
TEST(a_bulk_fill_tags_its_chunks_as_one_io_at_a_time)
{
	struct sim *a, *b;
	if (!open_pair("sn8100-2tb", 0.01, 7, &a, &b))
		return;
	uint64_t cap = sim_capacity(a) / 131072 * 131072;
	const double at[] = { 0, 0.4, 0.7, 1 };
	for (int k = 0; k < 3; k++) {
		uint64_t from = (uint64_t)(cap * at[k]) / 131072 * 131072;
		uint64_t to = (uint64_t)(cap * at[k + 1]) / 131072 * 131072;
		struct sim_stream st = { .write = true, .bs = 131072, .qd = 256, .span_len = cap,
					 .start_off = from };
		struct sb_err e;
		if (sim_run_fluid(a, &st, to - from, 0, 100000000ull, ignore_slice, NULL, &e))
			CHECK_FAIL("bulk fill: %s", e.msg);
		write_seq(b, from, to - from, 131072, 256);
		uint64_t na[4], nb[4];
		classes(a, na);
		classes(b, nb);
		CHECK(nb[CH_SLC] > 100 && nb[CH_NATIVE] + nb[CH_FOLDED] > 1000);
		for (int i = 0; i < 4; i++)
			if (!(na[i] + 3 >= nb[i] && na[i] <= nb[i] + 3))
				CHECK_FAIL("at %.0f %% of the fill, class %d: %llu chunks in bulk, %llu I/O by I/O",
					   100 * at[k + 1], i, (unsigned long long)na[i],
					   (unsigned long long)nb[i]);
		struct sim_state sa;
		sim_state(a, &sa);
		CHECK_NEAR((double)na[1] * (double)a->chunk, sa.slc_static + sa.slc_dyn,
			   3.0 * (double)a->chunk);
	}
	sim_close(a);
	sim_close(b);
}

CHECK_MAIN("test_sim_chunks")
