/*
 * Spreading a bulk stream's I/Os over a latency shape (sim/spread.h):
 * the shape taken apart once and the memo of the last two spreads add,
 * bucket for bucket and bit for bit, what spread adds to a fresh
 * histogram, over shapes sparse and dense, with set-but-emptied buckets,
 * a minimum inside its bucket and the exact region; and spread itself
 * gives exactly n I/Os, each bucket its share to within one.
 */
#include "check.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/hist.h"
#include "common/rng.h"
#include "sim/spread.h"

static void make_shape(struct lat_hist *h, struct rng *r, int kind)
{
	hist_reset(h);
	int n = 1 + (int)rng_below(r, kind == 0 ? 5 : 20000);
	for (int i = 0; i < n; i++) {
		uint64_t v;
		switch (kind) {
		case 0:	/* a handful */
			v = 5000 + rng_below(r, 100000);
			break;
		case 1:	/* dense */
			v = 20000 + rng_below(r, 40000);
			break;
		case 2:	/* sparse over many powers of two */
			v = 100 + (rng_below(r, 1000) << rng_below(r, 24));
			break;
		default:	/* the exact region and a far tail */
			v = rng_below(r, 4) ? rng_below(r, 1024) : 1000000 + rng_below(r, 1000000);
		}
		hist_add_n(h, v, 1 + rng_below(r, 4));
	}
	if (kind == 1) {
		/* stale bits: a bucket marked but zero */
		uint32_t i = hist_index(20000);
		h->count -= h->buckets[i];
		h->sum -= h->buckets[i] * hist_bucket_low(i);
		h->buckets[i] = 0;
	}
}

static void check_same(const struct lat_hist *a, const struct lat_hist *b, const char *what,
		       int round, uint64_t n)
{
	if (memcmp(a, b, sizeof *a))
		CHECK_FAIL("%s, round %d, n %llu: not what spread gives", what, round,
			   (unsigned long long)n);
}

TEST(spread_shaped_and_again_add_what_spread_adds)
{
	struct rng r;
	rng_seed(&r, 77);
	struct lat_hist *shape = hist_new(), *want = hist_new(), *got = hist_new(),
			*memo_got = hist_new();
	for (int round = 0; round < 60; round++) {
		make_shape(shape, &r, round % 4);
		struct spread_shape prep;
		spread_shape_init(&prep, shape);
		CHECK(prep.shape == shape);
		struct spread_memo memo = { 0 };
		hist_reset(want);
		hist_reset(got);
		hist_reset(memo_got);
		/* slice after slice into one histogram, as a stream's slice:
		   counts that repeat (the memo's) and ones that do not */
		uint64_t base = rng_below(&r, 100000);
		for (int slice = 0; slice < 12; slice++) {
			uint64_t n = slice % 3 == 2 ? rng_below(&r, 1000000) : base + (uint64_t)(slice & 1);
			if (slice == 5)
				n = 0;
			spread(want, shape, n);
			spread_shaped(got, &prep, shape, n);
			spread_again(&memo, memo_got, shape, n);
			check_same(got, want, "spread_shaped", round, n);
			check_same(memo_got, want, "spread_again", round, n);
		}
		spread_memo_free(&memo);
		spread_shape_free(&prep);
	}
	hist_free(shape);
	hist_free(want);
	hist_free(got);
	hist_free(memo_got);
}

TEST(spread_gives_n_ios_in_proportion)
{
	struct rng r;
	rng_seed(&r, 78);
	struct lat_hist *shape = hist_new(), *h = hist_new();
	for (int round = 0; round < 40; round++) {
		make_shape(shape, &r, round % 4);
		uint64_t n = rng_below(&r, 10000000);
		hist_reset(h);
		spread(h, shape, n);
		CHECK_EQ_U64(h->count, n);
		double over = 0;
		HIST_FOR_EACH_SET(shape, i) {
			double share = (double)n * (double)shape->buckets[i] / (double)shape->count;
			double d = (double)h->buckets[i] - share;
			if (d > over)
				over = d;
			if (-d > over)
				over = -d;
		}
		CHECK(over <= 1.0 + 1e-6 * (double)n / (double)shape->count);
	}
	hist_free(shape);
	hist_free(h);
}

CHECK_MAIN("test_sim_spread")
