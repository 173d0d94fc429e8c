/*
 * The discrete engine's shortcuts against what they stand for: the
 * divisions by shifts, masks and multiplies against the hardware
 * division, the firmware-time bin of a draw by integer bounds against its
 * definition by doubles, the suspend cut's integer bound against the
 * wait it cuts, the interface slots against a scan for the one
 * that frees first, the completion queue's order (time, then
 * submission) against an exact sort of what it returned, ties included,
 * the one-completion reap against sim_reap's, and the read path against
 * a page-by-page reference.
 */
#include "check.h"
#include "sim_fixture.h"

#include <stdint.h>

#include "common/rng.h"
#include "sim/model.h"
#include "sim/sim.h"

TEST(divisions_by_shift_mask_and_multiply_are_exact)
{
	struct rng r;
	rng_seed(&r, 1);
	const uint64_t ds[] = { 1, 2, 3, 4, 5, 7, 16, 28, 64, 100, 256, 1000, 4096, 12288,
				16384, 1ull << 20, (1ull << 20) + 1, 0xffffffffull, 1ull << 40 };
	for (size_t i = 0; i < sizeof ds / sizeof ds[0]; i++) {
		struct divisor v = divisor_of(ds[i]);
		for (int k = 0; k < 20000; k++) {
			uint64_t x = k < 64 ? (uint64_t)k : k < 128 ? UINT64_MAX - (uint64_t)(k - 64) :
				     rng_next(&r) >> (k % 64);
			if (div_by(&v, x) != x / ds[i] || mod_by(&v, x) != x % ds[i]) {
				CHECK_FAIL("d %llu x %llu: %llu r %llu", (unsigned long long)ds[i],
					   (unsigned long long)x, (unsigned long long)div_by(&v, x),
					   (unsigned long long)mod_by(&v, x));
				break;
			}
		}
	}
	/* the page type's modulo: hashes' top 47 bits, small moduli */
	for (uint64_t d = 2; d < (1u << 17); d = d < 64 ? d + 1 : d * 3 + 1) {
		uint64_t magic = mod47_magic(d);
		for (int k = 0; k < 20000; k++) {
			uint64_t a = k < 64 ? (1ull << 47) - 1 - (uint64_t)k :
				     k < 128 ? (uint64_t)k * d - 1 : rng_next(&r) >> 17;
			if (mod47_by(a, magic, d) != a % d) {
				CHECK_FAIL("a %llu mod %llu: %llu", (unsigned long long)a,
					   (unsigned long long)d,
					   (unsigned long long)mod47_by(a, magic, d));
				break;
			}
		}
	}
}

/* Every built-in drive with firmware-time variation: the bin by bounds is
   the bin by definition at each bound, on both sides, and at random. */
TEST(firmware_bin_by_integer_bounds_is_the_defined_bin)
{
	struct rng r;
	rng_seed(&r, 2);
	int drives = 0;
	for (unsigned d = 0; d < profile_builtin_count(); d++) {
		struct sim *s = open_scaled(profile_builtin_name(d), 0.001, 1);
		if (!s)
			continue;
		if (s->p.t_fw_cv > 0)
			drives++;
		for (int i = 0; i < FW_BINS; i++) {
			uint64_t lim = s->fw_lim[i];
			for (uint64_t k = lim > 2 ? lim - 2 : 0; k <= lim + 2 && k < (1ull << 53); k++)
				if (latency_fw_bin_fast(s, k) != latency_fw_bin_of(s, k))
					CHECK_FAIL("%s k %llu: bin %d, defined %d", s->p.name,
						   (unsigned long long)k, latency_fw_bin_fast(s, k),
						   latency_fw_bin_of(s, k));
		}
		for (int j = 0; j < 200000; j++) {
			uint64_t k = rng_next(&r) >> 11;
			if (latency_fw_bin_fast(s, k) != latency_fw_bin_of(s, k)) {
				CHECK_FAIL("%s k %llu", s->p.name, (unsigned long long)k);
				break;
			}
		}
		/* the bins are all reachable from the bounds' side too */
		for (int i = 1; i < FW_BINS; i++)
			CHECK(s->fw_lim[i] >= s->fw_lim[i - 1]);
		sim_close(s);
	}
	CHECK(drives >= 5);
}

/*
 * A read that meets a program or an erase waits up to the suspend time:
 * the integer bound on the third draw from which the wait is cut must be
 * where the floating-point wait passes the suspend time, on both sides.
 */
TEST(suspend_cut_by_integer_bound_is_where_the_wait_passes_it)
{
	int drives = 0;
	for (unsigned d = 0; d < profile_builtin_count(); d++) {
		struct sim *s = open_scaled(profile_builtin_name(d), 0.001, 1);
		if (!s)
			continue;
		double susp = s->p.t_susp_us;
		for (int j = 0; j < 2; j++) {
			double op = j ? s->p.t_bers_us : s->p.t_prog_us;
			uint64_t lim = s->susp_lim[j];
			if (susp <= 0) {
				CHECK_EQ_U64(lim, 1ull << 53);
				continue;
			}
			drives += j;
			CHECK(lim > 0 && lim < (1ull << 53));
			for (uint64_t k = lim - 3; k <= lim + 3; k++) {
				double wait = (double)k * 0x1.0p-53 * op;
				if ((wait > susp) != (k >= lim))
					CHECK_FAIL("%s op %g k %llu: wait %.17g, bound %llu", s->p.name, op,
						   (unsigned long long)k, wait, (unsigned long long)lim);
			}
		}
		sim_close(s);
	}
	CHECK(drives >= 3);	/* the SN8100, PM1725 and SN850X suspend */
}

/*
 * The interface's slots (a SATA drive's 32): every I/O starts when the
 * slot that frees first frees, and holds it until its completion.  The
 * reference keeps the slots as they are and looks for the first to free
 * by a scan; the sorted ring must give every start the same.
 */
TEST(interface_slots_start_each_io_when_the_first_slot_frees)
{
	struct sim *s = open_scaled("micron1300-1tb", 0.01, 5);
	if (!s)
		return;
	CHECK_EQ_U64(s->nslots, 32);
	uint64_t ref[32] = { 0 };
	struct rng r;
	rng_seed(&r, 6);
	uint64_t now = 0;
	for (int k = 0; k < 100000; k++) {
		now += rng_below(&r, 2000);
		uint32_t first = 0;
		for (uint32_t i = 1; i < 32; i++)
			if (ref[i] < ref[first])
				first = i;
		uint64_t want = ref[first] > now ? ref[first] : now;
		uint64_t start = timing_slot(s, now);
		if (start != want) {
			CHECK_FAIL("I/O %d: start %llu, the first slot frees at %llu", k,
				   (unsigned long long)start, (unsigned long long)want);
			break;
		}
		/* completions in any order: a long one now and then */
		uint64_t done = start + 1000 + rng_below(&r, k % 7 ? 60000 : 2000000);
		ref[first] = done;
		timing_slot_done(s, done);
	}
	sim_close(s);
}

/*
 * Completions come back by time, and at equal times in the order they
 * were submitted.  Flushes on an empty buffer all complete at the same
 * instant (now + the commit time), reads between them at their own: the
 * returned sequence is compared with an exact sort of itself by (time,
 * submission), and every I/O comes back once.
 */
TEST(completions_by_time_then_submission_with_ties)
{
	struct sim *s = open_scaled("sn8100-2tb", 0.01, 3);
	if (!s)
		return;
	struct sb_err e;
	struct rng r;
	rng_seed(&r, 4);
	enum { N = 3000 };
	static struct sim_cpl got[N];
	static int seen[N];
	uint64_t submitted = 0;
	int n = 0, ties = 0;
	while (n < N) {
		/* a burst at one instant: flushes (tied) and reads (not) */
		int burst = 1 + (int)rng_below(&r, 40);
		for (int b = 0; b < burst && submitted < N; b++) {
			struct sim_io io = { .tag = submitted };
			if (rng_below(&r, 3)) {
				io.op = SIM_FLUSH;
			} else {
				io.op = SIM_READ;
				io.offset = rng_below(&r, sim_capacity(s) / 4096) * 4096;
				io.len = 4096;
			}
			if (sim_submit(s, &io, &e)) {
				CHECK_FAIL("%s", e.msg);
				sim_close(s);
				return;
			}
			submitted++;
		}
		/* take some, sometimes all, so the queue's size varies */
		int take = (int)rng_below(&r, (uint64_t)sim_outstanding(s) + 1);
		if (submitted == N)
			take = (int)sim_outstanding(s);
		for (int k = 0; k < take; k++)
			if (sim_reap(s, &got[n], 1, 1, UINT64_MAX) == 1)
				n++;
	}
	for (int i = 0; i < N; i++) {
		CHECK(got[i].tag < N && !seen[got[i].tag]);
		if (got[i].tag < N)
			seen[got[i].tag] = 1;
		if (i == 0)
			continue;
		const struct sim_cpl *a = &got[i - 1], *b = &got[i];
		ties += a->t_done_ns == b->t_done_ns;
		/* an I/O submitted before another that completes at the same
		   time or earlier came back first, and time never goes back */
		if (a->t_done_ns > b->t_done_ns ||
		    (a->t_done_ns == b->t_done_ns && a->tag > b->tag))
			CHECK_FAIL("%d: tag %llu at %llu before tag %llu at %llu", i,
				   (unsigned long long)a->tag, (unsigned long long)a->t_done_ns,
				   (unsigned long long)b->tag, (unsigned long long)b->t_done_ns);
	}
	CHECK(ties > 100);	/* the case under test did happen */
	sim_close(s);
}

/*
 * fluid.c's closed loops take one completion at a time by sim_reap_next
 * (model.h, inline): the same completions, and the same clock after each,
 * as sim_reap's one at a time without a deadline, on two drives given
 * the same I/Os (bursts of reads, writes and tied flushes, the queue
 * taken down by varying amounts, emptied, and reaped when empty).
 */
TEST(reap_next_is_sim_reap_of_one)
{
	struct sim *a = open_scaled("sn850x-4tb", 0.01, 5), *b = open_scaled("sn850x-4tb", 0.01, 5);
	if (!a || !b) {
		sim_close(a);
		sim_close(b);
		return;
	}
	struct sb_err e;
	struct rng r;
	rng_seed(&r, 6);
	uint64_t blocks = sim_capacity(a) / 131072, n = 0;
	for (uint64_t submitted = 0; submitted < 20000;) {
		int burst = 1 + (int)rng_below(&r, 40);
		for (int k = 0; k < burst; k++, submitted++) {
			uint64_t what = rng_below(&r, 8);
			struct sim_io io = { .tag = submitted, .len = 131072,
					     .offset = rng_below(&r, blocks) * 131072 };
			io.op = what == 0 ? SIM_FLUSH : what == 1 ? SIM_WRITE : SIM_READ;
			if (sim_submit(a, &io, &e) || sim_submit(b, &io, &e)) {
				CHECK_FAIL("%s", e.msg);
				submitted = UINT64_MAX - 1;
				break;
			}
		}
		uint64_t take = rng_below(&r, (uint64_t)sim_outstanding(a) + 2);	/* one past, at times */
		for (uint64_t k = 0; k < take; k++, n++) {
			struct sim_cpl ca = { 0 }, cb = { 0 };
			int ga = sim_reap(a, &ca, 1, 1, UINT64_MAX);
			bool gb = sim_reap_next(b, &cb);
			if (ga != (int)gb || ca.tag != cb.tag || ca.t_submit_ns != cb.t_submit_ns ||
			    ca.t_done_ns != cb.t_done_ns || ca.res != cb.res || sim_now(a) != sim_now(b)) {
				CHECK_FAIL("completion %llu: sim_reap %d (tag %llu, %llu-%llu ns, %d, now %llu), reap_next %d (tag %llu, %llu-%llu ns, %d, now %llu)",
					   (unsigned long long)n, ga, (unsigned long long)ca.tag,
					   (unsigned long long)ca.t_submit_ns, (unsigned long long)ca.t_done_ns,
					   ca.res, (unsigned long long)sim_now(a), gb,
					   (unsigned long long)cb.tag, (unsigned long long)cb.t_submit_ns,
					   (unsigned long long)cb.t_done_ns, cb.res,
					   (unsigned long long)sim_now(b));
				submitted = UINT64_MAX - 1;
				break;
			}
		}
	}
	CHECK(n > 15000);
	sim_close(a);
	sim_close(b);
}

/*
 * The read path as it is defined, page by page: the core that frees
 * first, the firmware bin, the map pages the read misses, then each page
 * of the read's bytes (its part of the read) in order: the chunk its
 * part starts in (unmapped: no access), the unit and page type its hash
 * picks, a retry by its draw, the map pages before the read's first page
 * read, interference by its draws (when the write path runs past the
 * start), the unit and then the channel reserved; the read link last.
 * Every draw is a rng_unit() against its probability, the types and
 * units are divisions: none of timing.c's shortcuts (a chunk's run of
 * pages at once, the draws a block at a time and the retries' ahead,
 * masks, multiplies, integer bounds, the transfers remembered).
 */
static uint64_t ref_max(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static uint64_t ref_reserve(uint64_t *free_at, uint64_t start, uint64_t service)
{
	*free_at = ref_max(start, *free_at) + service;
	return *free_at;
}

static uint64_t ref_us(double v)
{
	return (uint64_t)(v * 1000.0 + 0.5);
}

static uint64_t ref_xfer(double bytes, double gbs)
{
	return (uint64_t)(bytes / gbs + 0.5);
}

static uint64_t ref_interference(struct sim *s, double p_meet)
{
	struct rng *r = &s->rng_collide;
	if (!(rng_unit(r) < p_meet))
		return 0;
	double op = rng_unit(r) >= 0.9 ? s->p.t_bers_us : s->p.t_prog_us;
	double wait = rng_unit(r) * op, susp = s->p.t_susp_us;
	return susp > 0 && wait > susp ? ref_us(susp) : ref_us(wait);
}

static uint64_t ref_read(struct sim *s, uint64_t t, uint64_t off, uint64_t len)
{
	const struct sim_profile *p = &s->p;
	uint64_t *core = &s->core_free[0];
	for (int i = 1; i < p->cores; i++)
		if (s->core_free[i] < *core)
			core = &s->core_free[i];
	uint64_t start = ref_reserve(core, t, s->t_ctrl_ns) + s->fw_rd_ns[latency_fw_draw(s)];
	uint64_t maps = 0;
	if (s->map)
		for (uint64_t mp = off / s->map_lba; mp <= (off + len - 1) / s->map_lba; mp++) {
			uint64_t o = ref_max(off, mp * s->map_lba);
			if (chunk_tag(s, o / s->chunk) != CH_UNMAPPED && map_lookup(s, mp, false))
				maps++;
		}
	bool busy = (double)start * 1e-9 < s->wp.t;
	double p_meet = s->wp.last == RG_SLC ? 0.25 : 0.6;
	uint64_t page = (uint64_t)(p->page_kib * 1024.0), end = start;
	for (uint64_t at = off; at < off + len; ) {
		uint64_t pg = at / page, n = ref_max((pg + 1) * page, 0);
		n = (n < off + len ? n : off + len) - at;
		uint64_t c = at / s->chunk;
		enum chunk_tag tag = c < s->nchunks ? chunk_tag(s, c) : CH_UNMAPPED;
		at += n;
		if (tag == CH_UNMAPPED)
			continue;
		uint64_t z = pg, ph = splitmix64(&z);
		const struct page_ns *pt = tag == CH_SLC && p->tr_slc_us > 0 ? &s->pg_slc :
			&s->pg_nat[s->ntypes == 1 ? 0 : (ph >> 17) % (uint64_t)s->ntypes];
		uint64_t u = ph % (uint64_t)p->units, svc = pt->svc;
		uint64_t ch_ns = ref_xfer((double)n, p->ch_gbs);
		if (p->p_rr > 0 && rng_unit(&s->rng_retry) < p->p_rr)
			svc += pt->retry;
		if (maps) {
			svc += maps * s->tr_map_ns;
			ch_ns = ref_xfer((double)n + (double)(maps * s->map_page_bytes), p->ch_gbs);
			maps = 0;
		}
		uint64_t ready = start + (busy ? ref_interference(s, p_meet) : 0);
		uint64_t a = ref_reserve(&s->unit_free[u], ready, svc);
		end = ref_max(end, ref_reserve(&s->ch_free[u % (uint64_t)p->channels], a, ch_ns));
	}
	return ref_reserve(&s->link_free[0], end, ref_xfer((double)len, p->link_rd_gbs));
}

/* A drive for the read test: a built-in one, or (page_kib > 0) with its
   pages, units and channels changed (pages that straddle chunks, units
   and channels no power of two) and its retry probability. */
static struct sim *open_read_drive(const char *name, double page_kib, int units, int channels,
				   double p_rr)
{
	struct sim_profile p;
	struct sb_err e;
	struct sim *s = NULL;
	if (profile_lookup(name, &p, &e)) {
		CHECK_FAIL("%s", e.msg);
		return NULL;
	}
	profile_scale(&p, 0.001);
	if (page_kib > 0) {
		p.page_kib = page_kib;
		p.units = units;
		p.channels = channels;
	}
	if (p_rr >= 0)
		p.p_rr = p_rr;
	if (sim_open(&p, 7, &s, &e))
		CHECK_FAIL("%s", e.msg);
	return s;
}

/* Where two drives' discrete resources differ (NULL: nowhere). */
static const char *resources_differ(const struct sim *a, const struct sim *b)
{
	for (int i = 0; i < a->p.units; i++)
		if (a->unit_free[i] != b->unit_free[i])
			return "a unit";
	for (int i = 0; i < a->p.channels; i++)
		if (a->ch_free[i] != b->ch_free[i])
			return "a channel";
	for (int i = 0; i < a->p.cores; i++)
		if (a->core_free[i] != b->core_free[i])
			return "a core";
	if (a->link_free[0] != b->link_free[0])
		return "the read link";
	return NULL;
}

/* A read's offset and length: aligned or not, one page's part to many
   chunks, some running to the drive's end. */
static void read_draw(struct rng *r, uint64_t cap, uint64_t page, uint64_t chunk,
		      uint64_t *off, uint64_t *len)
{
	static const uint64_t sizes[] = { 512, 4096, 16384, 32768, 131072 };
	int kind = (int)rng_below(r, 6);
	if (kind < 4)
		*len = sizes[rng_below(r, 5)];
	else if (kind == 4)
		*len = 512 * (1 + rng_below(r, 8192));	/* up to 4 MiB: chunks, blocks */
	else
		*len = page * (1 + rng_below(r, 3 * chunk / page));
	if (*len > cap)
		*len = cap;
	switch (rng_below(r, 4)) {
	case 0:	/* aligned to the length: a stream's */
		*off = rng_below(r, cap / *len) * *len;
		break;
	case 1:	/* about a chunk's end */
		*off = (1 + rng_below(r, cap / chunk)) * chunk;
		*off = *off - 512 * rng_below(r, 2 * page / 512 + 2);
		break;
	case 2:	/* at the drive's end */
		*off = cap - *len;
		break;
	default:
		*off = rng_below(r, (cap - *len) / 512 + 1) * 512;
	}
	if (*off > cap - *len)
		*off = cap - *len;
}

/*
 * timing_read against the page-by-page reference, on two drives opened
 * alike: random reads over random chunk tags (unmapped, SLC, native,
 * folded), the write path idle or busy past the reads' starts, in SLC or
 * not; after every read the completion and every unit's, channel's,
 * core's and the link's free time must be the reference's.  Drives: map
 * caches (misses) or not, one to four page types, units and channels
 * powers of two or not, pages that straddle chunks, retries never, rare
 * (some further apart than timing.c looks ahead at once) and frequent.
 */
TEST(reads_reserve_as_page_by_page_reference)
{
	static const struct {
		const char *name;
		double page_kib;
		int units, channels;
		double p_rr;
	} drives[] = {
		{ "sn850x-4tb", 0, 0, 0, -1 },
		{ "sn8100-2tb", 0, 0, 0, 0.05 },
		{ "sn8100-2tb", 0, 0, 0, 1e-5 },	/* gaps past a look ahead */
		{ "p4800x-375gb", 0, 0, 0, -1 },
		{ "p1-1tb", 0, 0, 0, 0 },
		{ "micron1300-1tb", 0, 0, 0, 0.6 },
		{ "sn850x-4tb", 12, 28, 7, 0.01 },
		{ "pm1725-3.2tb", 4.5, 20, 5, -1 },
	};
	struct rng r;
	rng_seed(&r, 8);
	uint64_t misses = 0, busy = 0, straddle = 0;
	for (size_t d = 0; d < sizeof drives / sizeof drives[0]; d++) {
		struct sim *s = open_read_drive(drives[d].name, drives[d].page_kib, drives[d].units,
						drives[d].channels, drives[d].p_rr);
		struct sim *ref = open_read_drive(drives[d].name, drives[d].page_kib, drives[d].units,
						  drives[d].channels, drives[d].p_rr);
		if (!s || !ref) {
			sim_close(s);
			sim_close(ref);
			continue;
		}
		for (uint64_t c = 0; c < s->nchunks; c++) {
			enum chunk_tag tag = (enum chunk_tag)rng_below(&r, 4);
			chunks_set(s, c, tag);
			chunks_set(ref, c, tag);
		}
		uint64_t cap = sim_capacity(s), page = s->page_div.d, t = 0;
		straddle += s->chunk % page != 0;
		for (int k = 0; k < 20000; k++) {
			uint64_t off, len;
			read_draw(&r, cap, page, s->chunk, &off, &len);
			t += rng_below(&r, k % 3 ? 20000 : 2000000);
			/* the write path: behind the read, or past it (busy) */
			double wt = (double)t * 1e-9 + (rng_below(&r, 2) ? 1e-3 : -1e-3);
			enum regime last = rng_below(&r, 2) ? RG_SLC : RG_DIRECT;
			s->wp.t = ref->wp.t = wt;
			s->wp.last = ref->wp.last = last;
			busy += wt > (double)t * 1e-9;
			uint64_t got = timing_read(s, t, off, len), want = ref_read(ref, t, off, len);
			const char *where = resources_differ(s, ref);
			if (got != want || where) {
				CHECK_FAIL("%s read %d at %llu + %llu: done %llu, reference %llu; %s differs",
					   s->p.name, k, (unsigned long long)off, (unsigned long long)len,
					   (unsigned long long)got, (unsigned long long)want,
					   where ? where : "nothing else");
				break;
			}
		}
		struct sim_state st;
		sim_state(s, &st);
		misses += (uint64_t)st.map_misses;
		sim_close(s);
		sim_close(ref);
	}
	CHECK(misses > 1000);	/* the map pages before the first page */
	CHECK(busy > 10000);	/* interference */
	CHECK(straddle >= 2);	/* pages across chunks */
}

CHECK_MAIN("test_sim_timing")
