/*
 * A bulk write stream's latency body (latency.c latency_add_body,
 * wlat_add) against its rule written out bin by bin: every bin's carry
 * takes count x prob, gives its whole I/Os in bin order while any are
 * left to give, and what rounding leaves takes the median bin.  The fast
 * path raises all carries in a vector loop, visits only the bins that
 * reached 1 and holds the I/Os back while the latencies repeat: after a
 * flush, its carries and histogram must be the rule's bit for bit, over
 * random counts, carries and latencies on every built-in drive.
 */
#include "check.h"
#include "sim_fixture.h"

#include <stdint.h>
#include <string.h>

#include "common/hist.h"
#include "common/rng.h"
#include "sim/model.h"
#include "sim/sim.h"

/* What the rule exercised: a clamp (a bin with more whole I/Os than were
   left to give) and a remainder for the median bin. */
struct seen {
	uint64_t clamps, remainders, calls;
};

/* The rule, one bin at a time. */
static void ref_body(const struct sim *s, double *carry, struct lat_hist *h, uint64_t count,
		     double base, double t_fw, struct seen *seen)
{
	if (!count)
		return;
	if (s->p.t_fw_cv <= 0 || t_fw <= 0) {
		hist_add_n(h, s_to_ns(base + t_fw), count);
		return;
	}
	seen->calls++;
	uint64_t given = 0;
	for (int i = 0; i < FW_BINS; i++) {
		carry[i] += (double)count * s->fw_prob[i];
		uint64_t k = (uint64_t)carry[i];
		if (k > count - given) {
			k = count - given;
			seen->clamps++;
		}
		carry[i] -= (double)k;
		hist_add_n(h, s_to_ns(base + t_fw * s->fw_bin[i]), k);
		given += k;
	}
	if (given < count) {
		seen->remainders++;
		hist_add_n(h, s_to_ns(base + t_fw * s->fw_bin[FW_BINS / 2]), count - given);
	}
}

/* wlat_add's release-unit split around the rule. */
struct ref_wlat {
	double excess, waits, carry[FW_BINS];
};

static void ref_add(const struct sim *s, struct ref_wlat *wl, struct lat_hist *h, uint64_t n,
		    double lat, double l_w0, double t_fw, double bs, double qd, struct seen *seen)
{
	double unit = s->p.wbuf_release_kib * 1024.0;
	if (!n)
		return;
	if (unit <= 0 || qd * bs >= unit || lat <= l_w0 * (1 + 1e-9)) {
		ref_body(s, wl->carry, h, n, lat - t_fw, t_fw, seen);
		return;
	}
	wl->excess += (double)n * (lat - l_w0);
	wl->waits += (double)n * bs / unit * qd;
	uint64_t k = (uint64_t)wl->waits;
	if (k > n)
		k = n;
	ref_body(s, wl->carry, h, n - k, l_w0 - t_fw, t_fw, seen);
	if (k) {
		double each = wl->excess / wl->waits;
		ref_body(s, wl->carry, h, k, l_w0 - t_fw + each, t_fw, seen);
		wl->excess -= each * (double)k;
		wl->waits -= (double)k;
	}
}

static bool same_hist(const struct lat_hist *a, const struct lat_hist *b)
{
	return a->count == b->count && a->sum == b->sum && a->min == b->min &&
	       a->max == b->max && a->lo == b->lo && a->hi == b->hi &&
	       !memcmp(a->nz, b->nz, sizeof a->nz) &&
	       !memcmp(a->buckets, b->buckets, sizeof a->buckets);
}

/* Mostly a step's few I/Os, now and then none, many or very many. */
static uint64_t draw_count(struct rng *r)
{
	uint64_t x = rng_below(r, 100);
	if (x < 5)
		return 0;
	if (x < 80)
		return 1 + rng_below(r, 16);
	if (x < 95)
		return 1 + rng_below(r, 5000);
	return 1 + (rng_next(r) >> (64 - 40));
}

TEST(bulk_body_is_the_rule_bin_by_bin)
{
	struct rng r;
	rng_seed(&r, 13);
	struct lat_hist *ha = hist_new(), *hb = hist_new();
	struct seen seen = { 0 };
	int drives = 0;
	CHECK(ha && hb);
	for (unsigned d = 0; ha && hb && d < profile_builtin_count(); d++) {
		struct sim *s = open_scaled(profile_builtin_name(d), 0.001, 1);
		if (!s)
			continue;
		drives += s->p.t_fw_cv > 0;
		for (int run = 0; run < 40; run++) {
			struct wlat fast = { 0 };
			double carry[FW_BINS];
			/* random carries to start from, as a long stream leaves
			   them (below 1, or above where a clamp held them) */
			double top = run % 4 == 0 ? 0 : run % 4 == 1 ? 1 : 4;
			for (int i = 0; i < FW_BINS; i++)
				carry[i] = fast.bin_carry[i] = top * rng_unit(&r);
			hist_reset(ha);
			hist_reset(hb);
			double base = 1e-5 * (1 + rng_unit(&r)), base2 = base;
			double t_fw = run % 8 == 7 ? 0 : 1e-6 * (1 + 20 * rng_unit(&r));
			for (int step = 0; step < 400; step++) {
				uint64_t n = draw_count(&r);
				/* latencies repeat for stretches, as a bulk
				   stream's do, and change now and then */
				if (rng_below(&r, 10) == 0)
					base = 1e-5 * (1 + rng_unit(&r));
				if (rng_below(&r, 10) == 0)
					base2 = 1e-5 * (1 + rng_unit(&r));
				if (rng_below(&r, 50) == 0)
					t_fw = 1e-6 * (1 + 20 * rng_unit(&r));
				/* now and then carries all below 1 again, where
				   a step's few I/Os leave a remainder */
				if (rng_below(&r, 10) == 0)
					for (int i = 0; i < FW_BINS; i++)
						carry[i] = fast.bin_carry[i] = rng_unit(&r);
				/* and alternate, as a buffer-bound stream's
				   writes that waited and did not */
				double b = rng_below(&r, 3) ? base : base2;
				latency_add_body(s, &fast, hb, n, b, t_fw);
				ref_body(s, carry, ha, n, b, t_fw, &seen);
				if (rng_below(&r, 20) == 0 || step == 399) {
					wlat_flush(s, &fast);
					if (!same_hist(ha, hb) ||
					    memcmp(carry, fast.bin_carry, sizeof carry)) {
						CHECK_FAIL("%s run %d step %d: count %llu vs %llu, sum %llu vs %llu",
							   s->p.name, run, step,
							   (unsigned long long)hb->count,
							   (unsigned long long)ha->count,
							   (unsigned long long)hb->sum,
							   (unsigned long long)ha->sum);
						run = 40;
						break;
					}
				}
			}
		}
		sim_close(s);
	}
	hist_free(ha);
	hist_free(hb);
	CHECK(drives >= 5);
	/* the rule's two edges were both taken, many times */
	CHECK(seen.clamps > 1000);
	CHECK(seen.remainders > 1000);
	printf("  %llu bodies: %llu clamped, %llu with a remainder\n",
	       (unsigned long long)seen.calls, (unsigned long long)seen.clamps,
	       (unsigned long long)seen.remainders);
}

/* wlat_add's two bodies of one step (the writes that waited for a release
   unit and those that did not) alternate latencies: what it holds back
   goes to the right one. */
TEST(bulk_write_latencies_are_the_rule_through_release_units)
{
	struct rng r;
	rng_seed(&r, 14);
	struct lat_hist *ha = hist_new(), *hb = hist_new();
	struct seen seen = { 0 };
	uint64_t split = 0;
	CHECK(ha && hb);
	for (unsigned d = 0; ha && hb && d < profile_builtin_count(); d++) {
		struct sim *s = open_scaled(profile_builtin_name(d), 0.001, 1);
		if (!s)
			continue;
		double unit = s->p.wbuf_release_kib * 1024.0;
		double t_fw = s->p.t_fw_wr_us * 1e-6, l_w0 = 2e-5 + t_fw, bs = 131072;
		struct wlat fast = { 0 };
		struct ref_wlat ref = { 0 };
		hist_reset(ha);
		hist_reset(hb);
		for (int step = 0; step < 20000; step++) {
			uint64_t n = draw_count(&r);
			double qd = (double)(1 + rng_below(&r, 64));
			double lat = rng_below(&r, 4) ? l_w0 * (1 + 3 * rng_unit(&r)) : l_w0;
			if (unit > 0 && qd * bs < unit && lat > l_w0 * (1 + 1e-9))
				split++;
			wlat_add(s, &fast, hb, n, lat, l_w0, t_fw, bs, qd);
			ref_add(s, &ref, ha, n, lat, l_w0, t_fw, bs, qd, &seen);
		}
		wlat_flush(s, &fast);
		if (!same_hist(ha, hb) || memcmp(ref.carry, fast.bin_carry, sizeof ref.carry) ||
		    memcmp(&ref.excess, &fast.excess, sizeof ref.excess) ||
		    memcmp(&ref.waits, &fast.waits, sizeof ref.waits))
			CHECK_FAIL("%s: count %llu vs %llu, sum %llu vs %llu", s->p.name,
				   (unsigned long long)hb->count, (unsigned long long)ha->count,
				   (unsigned long long)hb->sum, (unsigned long long)ha->sum);
		sim_close(s);
	}
	hist_free(ha);
	hist_free(hb);
	CHECK(split > 10000);
	CHECK(seen.calls > 100000);
}

CHECK_MAIN("test_sim_wlat")
