/*
 * The completion queue's slow parts (cplq.h): the heap, the FIFO's
 * growth, the shift of every key.
 */
#include <stdlib.h>

#include "sim/cplq.h"

void cplq_free(struct cplq *q)
{
	free(q->fifo_t);
	free(q->fifo);
	free(q->heap_t);
	free(q->heap);
}

/* The ring's capacity stays a power of two (256, doubling). */
int cplq_fifo_grow(struct cplq *q)
{
	uint32_t ncap = q->fifo_cap ? q->fifo_cap * 2 : 256;
	uint64_t *t = malloc(sizeof *t * ncap);
	struct cpl_ent *x = malloc(sizeof *x * ncap);
	if (!t || !x) {
		free(t);
		free(x);
		return -1;
	}
	for (uint32_t i = 0; i < q->fifo_n; i++) {
		uint32_t j = (q->fifo_head + i) & (q->fifo_cap - 1);
		t[i] = q->fifo_t[j];
		x[i] = q->fifo[j];
	}
	free(q->fifo_t);
	free(q->fifo);
	q->fifo_t = t;
	q->fifo = x;
	q->fifo_cap = ncap;
	q->fifo_head = 0;
	return 0;
}

/*
 * The heap is ordered by time; the sifts compare times only, in an array
 * of their own (a child's two keys share a cache line), without branches
 * (which child is the lesser is as good as random); a pop moves the hole
 * down to a leaf and the last entry up from there (it belongs near the
 * bottom: half the comparisons of a sift from the top).  Equal times are
 * rare: a pop that finds one beside the least gives the least time's
 * first submitted I/O the top first.  A 4-ary heap was slower, and so
 * was a radix heap.
 */
static void heap_up(struct cplq *q, uint32_t i, uint64_t t, struct cpl_ent x)
{
	uint64_t *k = q->heap_t;
	while (i > 0) {
		uint32_t up = (i - 1) / 2;
		if (t >= k[up])
			break;
		k[i] = k[up];
		q->heap[i] = q->heap[up];
		i = up;
	}
	k[i] = t;
	q->heap[i] = x;
}

int cplq_heap_push(struct cplq *q, uint64_t t, struct cpl_ent x)
{
	if (q->nheap == q->heap_cap) {
		uint32_t ncap = q->heap_cap ? q->heap_cap * 2 : 256;
		uint64_t *k = realloc(q->heap_t, sizeof *k * ncap);
		if (!k)
			return -1;
		q->heap_t = k;
		struct cpl_ent *n = realloc(q->heap, sizeof *n * ncap);
		if (!n)
			return -1;
		q->heap = n;
		q->heap_cap = ncap;
	}
	heap_up(q, q->nheap++, t, x);
	return 0;
}

/*
 * The entries at the least time form a subtree at the top (a parent's
 * time is never later): the first submitted of them trades places with
 * the top (equal keys, so the heap stays one).  A depth-first walk that
 * keeps the right children still to visit: at most one per level.
 */
void cplq_heap_first_of_ties(struct cplq *q)
{
	const uint64_t *k = q->heap_t;
	uint64_t t = k[0];
	uint32_t n = q->nheap, best = 0, i = 0, sp = 0, stack[32];
	for (;;) {
		if (q->heap[i].seq < q->heap[best].seq)
			best = i;
		uint32_t l = 2 * i + 1, r = l + 1;
		bool gl = l < n && k[l] == t, gr = r < n && k[r] == t;
		if (gl && gr)
			stack[sp++] = r;
		if (gl)
			i = l;
		else if (gr)
			i = r;
		else if (sp)
			i = stack[--sp];
		else
			break;
	}
	struct cpl_ent top = q->heap[0];
	q->heap[0] = q->heap[best];
	q->heap[best] = top;
}

int cplq_evict_tail(struct cplq *q)
{
	uint32_t i = (q->fifo_head + q->fifo_n - 1) & (q->fifo_cap - 1);
	if (cplq_heap_push(q, q->fifo_t[i], q->fifo[i]))
		return -1;
	q->fifo_n--;
	return 0;
}

struct cpl_ent cplq_heap_pop(struct cplq *q)
{
	uint64_t *k = q->heap_t;
	struct cpl_ent *h = q->heap;
	uint32_t n = q->nheap - 1, i = 0;
	if ((n >= 1 && k[1] == k[0]) || (n >= 2 && k[2] == k[0]))
		cplq_heap_first_of_ties(q);
	struct cpl_ent top = h[0];
	q->nheap = n;
	if (!n)
		return top;
	/* The entries stand in [0, n]; the last, k[n], is to be placed. */
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c + 1 >= n) {
			if (c + 1 == n) {	/* one child: the last entry */
				k[i] = k[c];
				h[i] = h[c];
				i = c;
			}
			break;
		}
		c += k[c + 1] < k[c];
		k[i] = k[c];
		h[i] = h[c];
		i = c;
	}
	heap_up(q, i, k[n], h[n]);
	return top;
}

uint64_t cplq_shift(struct cplq *q, uint64_t dt, uint64_t floor)
{
	uint64_t last = floor;
	for (uint32_t i = 0; i < q->nheap; i++) {
		q->heap_t[i] += dt;	/* the order stays: every key moves alike */
		q->heap[i].t_submit += dt;
		if (q->heap_t[i] > last)
			last = q->heap_t[i];
	}
	for (uint32_t i = 0; i < q->fifo_n; i++) {
		uint32_t j = (q->fifo_head + i) & (q->fifo_cap - 1);
		q->fifo_t[j] += dt;
		q->fifo[j].t_submit += dt;
		if (q->fifo_t[j] > last)
			last = q->fifo_t[j];
	}
	return last;
}
