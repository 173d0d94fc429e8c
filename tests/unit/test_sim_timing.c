/*
 * The discrete engine's shortcuts against what they stand for: the
 * divisions by shifts, masks and multiplies against the hardware
 * division, the firmware-time bin of a draw by integer bounds against its
 * definition by doubles, the interference draw's integer bounds against
 * the outcome its doubles define, the interface slots against a scan for the one
 * that frees first, the completion queue's order (time, then
 * submission) against an exact sort of what it returned, ties included,
 * the one-completion reap against sim_reap's, and the read path against
 * a page-by-page reference.
 */
#include "check.h"
#include "sim_fixture.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

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
 * A page read's interference by its one draw, as defined in doubles: it
 * meets an op below the meeting share p; its place x in the share
 * (k x (2^-53 / p)) says a program (the first 0.9 of it) or an erase and
 * how far in; a wait past the suspend time is cut to it.  0: none, 1: a
 * wait, 2: a cut wait.
 */
static double meet_wait_defined(const struct sim *s, uint64_t k, double p)
{
	double x = (double)k * (0x1.0p-53 / p);
	return x < 0.9 ? x * (s->p.t_prog_us / 0.9) : (x - 0.9) * (s->p.t_bers_us / (1.0 - 0.9));
}

static int meet_defined(const struct sim *s, uint64_t k, double p)
{
	if (!((double)k * 0x1.0p-53 < p))
		return 0;
	double wait = meet_wait_defined(s, k, p);
	return s->p.t_susp_us > 0 && wait > s->p.t_susp_us ? 2 : 1;
}

/* The same by the integer bounds timing.c answers from. */
static int meet_by_bounds(const struct meet_lims *m, uint64_t k)
{
	if (k >= m->meet)
		return 0;
	return k >= (k < m->prog ? m->prog_cut : m->erase_cut) ? 2 : 1;
}

/*
 * The interference draw's integer bounds (none, a wait, one cut to the
 * suspend time) against the definition in doubles, on both sides of
 * every bound and at random, in SLC and not, on every built-in drive.
 */
TEST(interference_by_integer_bounds_is_the_defined_outcome)
{
	static const double share[2] = { 0.25, 0.6 };
	struct rng r;
	rng_seed(&r, 3);
	int drives = 0;
	for (unsigned d = 0; d < profile_builtin_count(); d++) {
		struct sim *s = open_scaled(profile_builtin_name(d), 0.001, 1);
		if (!s)
			continue;
		drives += s->p.t_susp_us > 0;
		for (int g = 0; g < 2; g++) {
			const struct meet_lims *m = &s->meet[g];
			CHECK(m->prog_cut <= m->prog && m->prog <= m->erase_cut &&
			      m->erase_cut <= m->meet);
			uint64_t lims[] = { m->meet, m->prog, m->prog_cut, m->erase_cut };
			for (int i = 0; i < 4; i++)
				for (uint64_t k = lims[i] > 3 ? lims[i] - 3 : 0;
				     k <= lims[i] + 3 && k < (1ull << 53); k++)
					if (meet_by_bounds(m, k) != meet_defined(s, k, share[g]))
						CHECK_FAIL("%s %s k %llu: %d, defined %d", s->p.name,
							   g ? "native" : "SLC", (unsigned long long)k,
							   meet_by_bounds(m, k), meet_defined(s, k, share[g]));
			for (int j = 0; j < 200000; j++) {
				uint64_t k = rng_next(&r) >> 11;
				if (meet_by_bounds(m, k) != meet_defined(s, k, share[g])) {
					CHECK_FAIL("%s k %llu", s->p.name, (unsigned long long)k);
					break;
				}
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
	struct sim *a, *b;
	if (!open_pair("sn850x-4tb", 0.01, 5, &a, &b))
		return;
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
 * picks, a retry when the page ends a gap (counted page by page), the map
 * pages before the read's first page read, interference by its draw (when
 * the write path runs past the start), the unit and then the channel
 * reserved; the read link last.  Every draw is a rng_unit() in doubles,
 * the types and units are divisions: none of timing.c's shortcuts (a
 * chunk's run of pages at once, the draws a block at a time, a block's
 * pages skipped to its retry, masks, multiplies, integer bounds, the
 * transfers remembered).
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
	uint64_t k = rng_draw53(&s->rng_collide);
	if (!meet_defined(s, k, p_meet))
		return 0;
	double wait = meet_wait_defined(s, k, p_meet), susp = s->p.t_susp_us;
	return susp > 0 && wait > susp ? ref_us(susp) : ref_us(wait);
}

/* The pages before the next retry: geometric, log(U) / log(1 - p_rr)
   rounded down for U uniform in (0, 1]. */
static uint64_t ref_retry_gap(struct sim *s)
{
	double u = 1.0 - rng_unit(&s->rng_retry);
	return (uint64_t)floor(log(u) / log(1.0 - s->p.p_rr));
}

/* A page read retries when it is the one after the gap's pages.  The
   first gap is drawn when the drive opens (the reference starts from
   it); the reference counts and draws the others itself. */
static bool ref_retries(struct sim *s, uint64_t *left)
{
	if (!(s->p.p_rr > 0))
		return false;
	if ((*left)--)
		return false;
	*left = ref_retry_gap(s);
	return true;
}

static uint64_t ref_read(struct sim *s, uint64_t *rr, uint64_t t, uint64_t off,
			 uint64_t len)
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
			struct chunk_mix x = chunks_mix(s, o / s->chunk);
			bool mapped = x.major != CH_UNMAPPED || (x.q && x.minor != CH_UNMAPPED);
			if (mapped && map_lookup(s, mp, false))
				maps++;
		}
	bool busy = (double)start * 1e-9 < s->wp.t;
	double p_meet = s->wp.last == RG_SLC ? 0.25 : 0.6;
	uint64_t page = (uint64_t)(p->page_kib * 1024.0), end = start;
	for (uint64_t at = off; at < off + len; ) {
		uint64_t pg = at / page, n = ref_max((pg + 1) * page, 0);
		n = (n < off + len ? n : off + len) - at;
		uint64_t c = at / s->chunk;
		uint64_t z = pg, ph = splitmix64(&z);
		/* a chunk of two classes: the page in the minor one when its
		   hash's top 5 bits fall below the minor share */
		struct chunk_mix x = { CH_UNMAPPED, CH_UNMAPPED, 0 };
		if (c < s->nchunks)
			x = chunks_mix(s, c);
		enum chunk_tag tag = x.q && (ph >> 59) < x.q ? x.minor : x.major;
		at += n;
		if (tag == CH_UNMAPPED)
			continue;
		const struct page_ns *pt = tag == CH_SLC && p->tr_slc_us > 0 ? &s->pg_slc :
			&s->pg_nat[s->ntypes == 1 ? 0 : (ph >> 17) % (uint64_t)s->ntypes];
		uint64_t u = ph % (uint64_t)p->units, svc = pt->svc;
		uint64_t ch_ns = ref_xfer((double)n, p->ch_gbs);
		if (ref_retries(s, rr))
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

/*
 * A drive whose page reads all take one time, no firmware variation and
 * the map held, so a lone read's latency is that time plus what its page
 * drew (a retry, a wait behind a program or erase) and nothing else.
 */
static struct sim *open_law_drive(const char *name, double p_rr)
{
	struct sim_profile p;
	if (!scaled_profile(name, 0.001, &p))
		return NULL;
	p.t_fw_cv = 0;
	p.p_rr = p_rr;
	struct sim *s = open_profile(&p, 11);
	if (!s)
		return NULL;
	CHECK(!s->map && s->p.tr_slc_us > 0);
	for (uint64_t c = 0; c < s->nchunks; c++)
		chunks_set(s, c, CH_SLC);
	return s;
}

/* n lone one-page reads, far apart, the write path busy past them
   (busy) or idle: each read's latency less the least of them. */
static void lone_reads(struct sim *s, bool busy, uint64_t n, uint64_t *extra)
{
	uint64_t page = s->page_div.d, pages = sim_capacity(s) / page, t = 0, least = UINT64_MAX;
	s->wp.last = RG_DIRECT;
	for (uint64_t i = 0; i < n; i++) {
		t += 20000000;	/* 20 ms: past any wait of the one before */
		s->wp.t = (double)t * 1e-9 + (busy ? 1.0 : -1.0);
		extra[i] = timing_read(s, t, (i * 7919 % pages) * page, page) - t;
		if (extra[i] < least)
			least = extra[i];
	}
	for (uint64_t i = 0; i < n; i++)
		extra[i] -= least;
}

/* |got - want| within z standard errors of a count of n Bernoulli(p). */
static bool binomial_near(uint64_t got, uint64_t n, double p, double z)
{
	double want = (double)n * p;
	return fabs((double)got - want) <= z * sqrt(want * (1.0 - p)) + 1.0;
}

/*
 * Read retries against their law, not against timing.c's way of drawing
 * them: every page retries with p_rr, on its own.  Checked: the share of
 * pages that retry, the share of retries right after a retry (p_rr again:
 * no memory), and the gaps between retries against the geometric law, at
 * a frequent and at a rare p_rr.
 */
TEST(retries_follow_their_law_page_by_page)
{
	static const double ps[] = { 0.2, 1e-3 };
	static const uint64_t ns[] = { 200000, 1000000 };
	for (int j = 0; j < 2; j++) {
		struct sim *s = open_law_drive("sn8100-2tb", ps[j]);
		if (!s)
			return;
		uint64_t n = ns[j], *x = malloc(n * sizeof *x);
		if (!x) {
			CHECK_FAIL("no memory for %llu reads", (unsigned long long)n);
			sim_close(s);
			return;
		}
		lone_reads(s, false, n, x);
		uint64_t retried = 0, after = 0, pairs = 0, gap = 0, gaps[6] = { 0 }, ngaps = 0;
		bool last = false, seen = false;
		for (uint64_t i = 0; i < n; i++) {
			bool r = x[i] != 0;
			if (r && x[i] != s->pg_slc.retry)
				CHECK_FAIL("read %llu: %llu ns more than the least, not a retry's %llu",
					   (unsigned long long)i, (unsigned long long)x[i],
					   (unsigned long long)s->pg_slc.retry);
			retried += r;
			if (last) {
				pairs++;
				after += r;
			}
			if (r) {
				if (seen) {
					gaps[gap < 5 ? gap : 5]++;
					ngaps++;
				}
				seen = true;
				gap = 0;
			} else {
				gap++;
			}
			last = r;
		}
		double p = ps[j];
		CHECK(binomial_near(retried, n, p, 5));
		CHECK(binomial_near(after, pairs, p, 5));
		/* P(gap = g) = (1 - p)^g p; the last bin all of g >= 5 */
		for (int g = 0; g <= 5; g++) {
			double pg = g < 5 ? pow(1 - p, g) * p : pow(1 - p, 5);
			if (!binomial_near(gaps[g], ngaps, pg, 5))
				CHECK_FAIL("p_rr %g: %llu of %llu gaps of %d%s, the law's %.1f", p,
					   (unsigned long long)gaps[g], (unsigned long long)ngaps, g,
					   g < 5 ? "" : " or more", (double)ngaps * pg);
		}
		free(x);
		sim_close(s);
	}
}

/*
 * Waits behind programs and erases against their law: a page read meets
 * one with 0.6 (the write path past SLC), a program 9 times in 10, at a
 * uniform point of it; the suspend cuts a wait to t_susp_us.  Checked on
 * the SN8100 (suspend): the shares of no wait, a cut one and a shorter
 * one, and the shorter ones' mean (half the suspend time); on the Micron
 * (no suspend): the mean and the spread of the waits.
 */
TEST(interference_follows_its_law)
{
	const uint64_t n = 400000;
	uint64_t *x = malloc(n * sizeof *x);
	if (!x) {
		CHECK_FAIL("no memory for %llu reads", (unsigned long long)n);
		return;
	}
	struct sim *s = open_law_drive("sn8100-2tb", 0);
	if (s) {
		lone_reads(s, true, n, x);
		double tp = s->p.t_prog_us, tb = s->p.t_bers_us, su = s->p.t_susp_us;
		uint64_t cut_ns = (uint64_t)(su * 1000.0 + 0.5), none = 0, cut = 0, shorter = 0;
		double sum = 0;
		for (uint64_t i = 0; i < n; i++) {
			if (!x[i])
				none++;
			else if (x[i] == cut_ns)
				cut++;
			else if (x[i] < cut_ns) {
				shorter++;
				sum += (double)x[i] * 1e-3;
			} else {
				CHECK_FAIL("read %llu waited %llu ns, past the suspend time",
					   (unsigned long long)i, (unsigned long long)x[i]);
			}
		}
		double p_short = 0.6 * (0.9 * su / tp + 0.1 * su / tb);
		CHECK(binomial_near(none, n, 0.4, 5));
		CHECK(binomial_near(cut, n, 0.6 - p_short, 5));
		CHECK(binomial_near(shorter, n, p_short, 5));
		/* uniform on [0, su): mean su / 2, sd su / sqrt(12) */
		double mean = sum / (double)shorter;
		CHECK(fabs(mean - su / 2) <= 5 * su / sqrt(12.0 * (double)shorter));
		sim_close(s);
	}
	s = open_law_drive("micron1300-1tb", 0);
	if (s) {
		CHECK(s->p.t_susp_us <= 0);
		lone_reads(s, true, n, x);
		double tp = s->p.t_prog_us, tb = s->p.t_bers_us;
		uint64_t met = 0;
		double sum = 0, sq = 0;
		for (uint64_t i = 0; i < n; i++)
			if (x[i]) {
				met++;
				sum += (double)x[i] * 1e-3;
				sq += (double)x[i] * 1e-3 * (double)x[i] * 1e-3;
			}
		/* a program's wait w.p. 0.9, an erase's w.p. 0.1, each uniform */
		double m1 = 0.9 * tp / 2 + 0.1 * tb / 2;
		double m2 = 0.9 * tp * tp / 3 + 0.1 * tb * tb / 3, sd = sqrt(m2 - m1 * m1);
		double mean = sum / (double)met, var = sq / (double)met - mean * mean;
		CHECK(binomial_near(met, n, 0.6, 5));
		if (fabs(mean - m1) > 5 * sd / sqrt((double)met))
			CHECK_FAIL("mean wait %.1f us, the law's %.1f", mean, m1);
		if (fabs(sqrt(var) - sd) > 0.02 * sd)
			CHECK_FAIL("the waits' sd %.1f us, the law's %.1f", sqrt(var), sd);
		sim_close(s);
	}
	free(x);
}

/* A drive for the read test: a built-in one, or (page_kib > 0) with its
   pages, units and channels changed (pages that straddle chunks, units
   and channels no power of two) and its retry probability. */
static struct sim *open_read_drive(const char *name, double page_kib, int units, int channels,
				   double p_rr)
{
	struct sim_profile p;
	if (!scaled_profile(name, 0.001, &p))
		return NULL;
	if (page_kib > 0) {
		p.page_kib = page_kib;
		p.units = units;
		p.channels = channels;
	}
	if (p_rr >= 0)
		p.p_rr = p_rr;
	return open_profile(&p, 7);
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
 * alike: random reads over random chunk classes (unmapped, SLC, native,
 * folded, one or two in a chunk at any share), the write path idle or busy past the reads' starts, in SLC or
 * not; after every read the completion and every unit's, channel's,
 * core's and the link's free time must be the reference's.  Drives: map
 * caches (misses) or not, one to four page types, units and channels
 * powers of two or not, pages that straddle chunks, retries never, rare
 * (gaps of many reads) and frequent (several in a block of pages).
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
		{ "sn8100-2tb", 0, 0, 0, 1e-5 },	/* gaps of many reads */
		{ "p4800x-375gb", 0, 0, 0, -1 },
		{ "p1-1tb", 0, 0, 0, 0 },
		{ "micron1300-1tb", 0, 0, 0, 0.6 },
		{ "sn850x-4tb", 12, 28, 7, 0.01 },
		{ "pm1725-3.2tb", 4.5, 20, 5, -1 },
	};
	struct rng r;
	rng_seed(&r, 8);
	uint64_t misses = 0, busy = 0, straddle = 0, mixed = 0;
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
			/* one class, or two at any share */
			struct chunk_mix x = { (enum chunk_tag)rng_below(&r, 4),
					       (enum chunk_tag)rng_below(&r, 4), 0 };
			if (rng_below(&r, 2))
				x.q = 1 + (uint32_t)rng_below(&r, CHUNK_Q_MAX);
			chunks_set_mix(s, c, x);
			chunks_set_mix(ref, c, x);
			mixed += chunk_mixed(s, c);
		}
		uint64_t cap = sim_capacity(s), page = s->page_div.d, t = 0;
		uint64_t rr = ref->retry_left;
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
			uint64_t got = timing_read(s, t, off, len), want = ref_read(ref, &rr, t, off, len);
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
	CHECK(mixed > 1000);	/* chunks of two classes */
}

CHECK_MAIN("test_sim_timing")
