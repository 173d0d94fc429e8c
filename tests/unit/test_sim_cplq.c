/*
 * The completion queue (sim/cplq.h: a FIFO of in-order completions beside
 * a heap of the others) against a plain reference: every entry it holds
 * in an unsorted list, the next one found by a scan for the least
 * (time, submission).  Pushes and pops interleave; keys come in order,
 * out of order and tied, so both halves and the ties between them are
 * crossed; every pop must be the reference's.
 */
#include "check.h"

#include <stdint.h>

#include "common/rng.h"
#include "sim/cplq.h"

struct ref {
	uint64_t t[4096], seq[4096];
	int n;
};

/* The reference's next: the least time, then the least submission. */
static int ref_next(const struct ref *r)
{
	int best = 0;
	for (int i = 1; i < r->n; i++)
		if (r->t[i] < r->t[best] || (r->t[i] == r->t[best] && r->seq[i] < r->seq[best]))
			best = i;
	return best;
}

/* One run: `mode` picks how keys are drawn (0: mostly rising with
   late ones, 1: few distinct values, 2: all equal, 3: uniform). */
static int run(uint64_t seed, int mode, int steps, int *fifo_seen, int *heap_seen, int *cross_ties)
{
	struct cplq q = { 0 };
	struct ref r = { .n = 0 };
	struct rng g;
	rng_seed(&g, seed);
	uint64_t seq = 0, clock = 1000;
	int bad = 0;
	for (int step = 0; step < steps && !bad; step++) {
		bool push = r.n == 0 || (r.n < 4000 && rng_below(&g, 100) < 55);
		if (push) {
			uint64_t t;
			switch (mode) {
			case 0:
				clock += rng_below(&g, 4);	/* ties on the rise too */
				t = rng_below(&g, 10) ? clock : clock - rng_below(&g, 50);
				break;
			case 1:
				t = 100 + rng_below(&g, 5);
				break;
			case 2:
				t = 7;
				break;
			default:
				t = rng_below(&g, 1000000);
			}
			struct cpl_ent x = { seq, seq * 3 + 1, t / 2, (int32_t)(seq & 0xffff) };
			uint32_t heap_before = q.nheap;
			if (cplq_push(&q, t, x)) {
				CHECK_FAIL("no memory");
				bad = 1;
				break;
			}
			if (q.nheap > heap_before)
				++*heap_seen;
			else
				++*fifo_seen;
			r.t[r.n] = t;
			r.seq[r.n] = seq;
			r.n++;
			seq++;
		} else {
			int i = ref_next(&r);
			if (q.fifo_n && q.nheap && q.fifo_t[q.fifo_head] == q.heap_t[0])
				++*cross_ties;
			uint64_t t = cplq_min_t(&q);
			struct cpl_ent x = cplq_pop(&q);
			if (t != r.t[i] || x.seq != r.seq[i] || x.tag != r.seq[i] * 3 + 1 ||
			    x.res != (int32_t)(r.seq[i] & 0xffff)) {
				CHECK_FAIL("seed %llu mode %d step %d: popped seq %llu at %llu, want seq %llu at %llu",
					   (unsigned long long)seed, mode, step,
					   (unsigned long long)x.seq, (unsigned long long)t,
					   (unsigned long long)r.seq[i], (unsigned long long)r.t[i]);
				bad = 1;
			}
			r.t[i] = r.t[r.n - 1];
			r.seq[i] = r.seq[r.n - 1];
			r.n--;
		}
		if (cplq_len(&q) != (uint32_t)r.n) {
			CHECK_FAIL("length %u, want %d", cplq_len(&q), r.n);
			bad = 1;
		}
	}
	cplq_free(&q);
	return bad;
}

TEST(completion_queue_pops_by_time_then_submission_as_a_scan_does)
{
	int fifo = 0, heap = 0, ties = 0;
	for (int mode = 0; mode < 4; mode++)
		for (uint64_t seed = 1; seed <= 6; seed++)
			if (run(seed * 77 + (uint64_t)mode, mode, 20000, &fifo, &heap, &ties))
				return;
	/* both halves held entries, and their heads tied often */
	CHECK(fifo > 10000);
	CHECK(heap > 10000);
	CHECK(ties > 1000);
}

/* A shift moves every key and submission time alike: the order stays,
   and the latest key comes back. */
TEST(completion_queue_shift_keeps_the_order)
{
	struct cplq q = { 0 };
	const uint64_t ts[] = { 50, 60, 60, 20, 70, 10, 80 };
	for (uint64_t i = 0; i < 7; i++)
		CHECK(!cplq_push(&q, ts[i], (struct cpl_ent){ i, i, ts[i] / 2, 0 }));
	CHECK(q.fifo_n && q.nheap);	/* both halves */
	CHECK(cplq_shift(&q, 1000, 0) == 1080);
	CHECK(cplq_shift(&q, 0, 5000) == 5000);
	const uint64_t want[] = { 5, 3, 0, 1, 2, 4, 6 };
	for (int i = 0; i < 7; i++) {
		uint64_t t = cplq_min_t(&q);
		struct cpl_ent x = cplq_pop(&q);
		CHECK(x.seq == want[i]);
		CHECK(t == ts[want[i]] + 1000);
		CHECK(x.t_submit == ts[want[i]] / 2 + 1000);
	}
	CHECK(cplq_len(&q) == 0);
	cplq_free(&q);
}

CHECK_MAIN("test_sim_cplq")
