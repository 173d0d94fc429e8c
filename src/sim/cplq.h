/*
 * The discrete engine's completion queue: the I/Os in flight, taken back
 * by completion time and, among equal times, the first submitted first.
 * (time, submission) is unique, so the order is the same whatever the
 * layout.
 *
 * Most completions come in the order their I/Os were submitted (a read's
 * completion is its reservation of the one read link, and each is later
 * than the one before), so the queue is two: a FIFO of the entries that
 * complete no earlier than the last one it holds, in submission order
 * (so sorted by time, then submission), and a heap of the others.  A
 * push is then nearly always an append and a pop nearly always a take
 * from the FIFO's head; the least of the two heads is the next.
 */
#ifndef SSDBENCH_SIM_CPLQ_H
#define SSDBENCH_SIM_CPLQ_H

#include <stdbool.h>
#include <stdint.h>

/* A queued I/O; its completion time is its key, kept apart. */
struct cpl_ent {
	uint64_t seq, tag, t_submit;	/* seq: submission order, unique */
	int32_t res;
};

struct cplq {
	/* the FIFO: a ring, its capacity a power of two */
	uint64_t *fifo_t;	/* times (the keys) ... */
	struct cpl_ent *fifo;	/* ... and what each is */
	uint32_t fifo_head, fifo_n, fifo_cap;
	/* the heap: keys in an array of their own (sim's comparisons touch
	   only them) */
	uint64_t *heap_t;
	struct cpl_ent *heap;
	uint32_t nheap, heap_cap;
};

void cplq_free(struct cplq *q);
int cplq_heap_push(struct cplq *q, uint64_t t, struct cpl_ent x);	/* -1: no memory */
int cplq_fifo_grow(struct cplq *q);					/* -1: no memory */
/* The heap's least entry (by time, then submission) out. */
struct cpl_ent cplq_heap_pop(struct cplq *q);
/* Every key and submission time dt later (the order stays); the latest
   key after, or `floor` when that is later. */
uint64_t cplq_shift(struct cplq *q, uint64_t dt, uint64_t floor);

static inline uint32_t cplq_len(const struct cplq *q)
{
	return q->fifo_n + q->nheap;
}

/* Puts the first submitted of the heap's entries at its least time on top. */
void cplq_heap_first_of_ties(struct cplq *q);
/* The FIFO's last entry into the heap; -1: no memory. */
int cplq_evict_tail(struct cplq *q);

/* The most FIFO entries a push moves to the heap (cplq_push). */
#define CPLQ_EVICT 4

/*
 * Where t goes: after the FIFO's last entry when not earlier (it was
 * submitted later).  When only the last few (at most CPLQ_EVICT) are
 * later than t, they are the ones out of order (writes that wait for
 * buffer room complete after the reads behind them): they move to the
 * heap, t goes after the rest.  Else t goes to the heap.  -1: no memory.
 */
static inline int cplq_push(struct cplq *q, uint64_t t, struct cpl_ent x)
{
	uint32_t mask = q->fifo_cap - 1, last = q->fifo_head + q->fifo_n - 1;
	if (q->fifo_n && t < q->fifo_t[last & mask]) {
		uint32_t k = 1;
		while (k < q->fifo_n && k <= CPLQ_EVICT && t < q->fifo_t[(last - k) & mask])
			k++;
		if (k > CPLQ_EVICT)
			return cplq_heap_push(q, t, x);
		for (; k > 0; k--)
			if (cplq_evict_tail(q))
				return -1;
	}
	if (q->fifo_n == q->fifo_cap) {
		if (cplq_fifo_grow(q))
			return -1;
		mask = q->fifo_cap - 1;
	}
	uint32_t i = (q->fifo_head + q->fifo_n) & mask;
	q->fifo_t[i] = t;
	q->fifo[i] = x;
	q->fifo_n++;
	return 0;
}

/* Whether the next entry is the FIFO's head (the queue is not empty):
   the earlier of the two heads, at equal times the first submitted. */
static inline bool cplq_fifo_next(struct cplq *q)
{
	if (!q->nheap)
		return true;
	if (!q->fifo_n)
		return false;
	uint64_t tf = q->fifo_t[q->fifo_head], th = q->heap_t[0];
	if (tf != th)
		return tf < th;
	cplq_heap_first_of_ties(q);
	return q->fifo[q->fifo_head].seq < q->heap[0].seq;
}

/* The next completion's time (the queue is not empty). */
static inline uint64_t cplq_min_t(const struct cplq *q)
{
	uint64_t tf = q->fifo_n ? q->fifo_t[q->fifo_head] : UINT64_MAX;
	uint64_t th = q->nheap ? q->heap_t[0] : UINT64_MAX;
	return tf < th ? tf : th;
}

/* The next completion out (the queue is not empty). */
static inline struct cpl_ent cplq_pop(struct cplq *q)
{
	if (!cplq_fifo_next(q))
		return cplq_heap_pop(q);
	struct cpl_ent x = q->fifo[q->fifo_head];
	q->fifo_head = (q->fifo_head + 1) & (q->fifo_cap - 1);
	q->fifo_n--;
	return x;
}

#endif
