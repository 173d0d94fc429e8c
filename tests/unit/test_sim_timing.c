/*
 * The discrete engine's shortcuts against what they stand for: the
 * divisions by shifts, masks and multiplies against the hardware
 * division, the firmware-time bin of a draw by integer bounds against its
 * definition by doubles, the suspend cut's integer bound against the
 * wait it cuts, the interface slots against a scan for the one
 * that frees first, and the completion queue's order (time, then
 * submission) against an exact sort of what it returned, ties included.
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

CHECK_MAIN("test_sim_timing")
