/*
 * The driver's agenda (agenda.h): a ready list and a timer heap over a
 * fixed set of jobs, all memory allocated up front.
 */
#include "engine/agenda.h"

#include <stdlib.h>
#include <string.h>

int agenda_init(struct agenda *a, uint32_t n)
{
	memset(a, 0, sizeof *a);
	a->n = n;
	a->ready = calloc(n ? n : 1, sizeof *a->ready);
	a->listed = calloc(n ? n : 1, sizeof *a->listed);
	a->t = calloc(n ? n : 1, sizeof *a->t);
	a->heap = calloc(n ? n : 1, sizeof *a->heap);
	a->pos = calloc(n ? n : 1, sizeof *a->pos);
	if (!a->ready || !a->listed || !a->t || !a->heap || !a->pos) {
		agenda_free(a);
		return -1;
	}
	for (uint32_t i = 0; i < n; i++) {
		a->t[i] = UINT64_MAX;
		a->pos[i] = UINT32_MAX;
	}
	agenda_mark_all(a);
	return 0;
}

void agenda_free(struct agenda *a)
{
	free(a->ready);
	free(a->listed);
	free(a->t);
	free(a->heap);
	free(a->pos);
	memset(a, 0, sizeof *a);
}

void agenda_mark(struct agenda *a, uint32_t i)
{
	if (a->listed[i])
		return;
	a->listed[i] = true;
	a->ready[a->nready++] = i;
}

void agenda_mark_all(struct agenda *a)
{
	for (uint32_t i = 0; i < a->n; i++) {
		a->ready[i] = i;
		a->listed[i] = true;
	}
	a->nready = a->n;
}

uint32_t agenda_take(struct agenda *a, uint32_t *out)
{
	uint32_t k = a->nready;
	/* Insertion sort: the list is short (a completion or two) or was
	   filled in order by agenda_mark_all. */
	for (uint32_t i = 0; i < k; i++) {
		uint32_t v = a->ready[i], j = i;
		for (; j > 0 && out[j - 1] > v; j--)
			out[j] = out[j - 1];
		out[j] = v;
		a->listed[v] = false;
	}
	a->nready = 0;
	return k;
}

static void place(struct agenda *a, uint32_t p, uint32_t job)
{
	a->heap[p] = job;
	a->pos[job] = p;
}

/* Ties go to the lower job index, so expiry order does not depend on
   the heap's history. */
static bool before(const struct agenda *a, uint32_t x, uint32_t y)
{
	return a->t[x] < a->t[y] || (a->t[x] == a->t[y] && x < y);
}

static void sift_up(struct agenda *a, uint32_t p)
{
	uint32_t job = a->heap[p];
	while (p > 0) {
		uint32_t up = (p - 1) / 2;
		if (!before(a, job, a->heap[up]))
			break;
		place(a, p, a->heap[up]);
		p = up;
	}
	place(a, p, job);
}

static void sift_down(struct agenda *a, uint32_t p)
{
	uint32_t job = a->heap[p];
	for (;;) {
		uint32_t c = 2 * p + 1;
		if (c >= a->nheap)
			break;
		if (c + 1 < a->nheap && before(a, a->heap[c + 1], a->heap[c]))
			c++;
		if (!before(a, a->heap[c], job))
			break;
		place(a, p, a->heap[c]);
		p = c;
	}
	place(a, p, job);
}

void agenda_cancel(struct agenda *a, uint32_t i)
{
	uint32_t p = a->pos[i];
	if (p == UINT32_MAX)
		return;
	a->pos[i] = UINT32_MAX;
	a->t[i] = UINT64_MAX;
	uint32_t last = a->heap[--a->nheap];
	if (p == a->nheap)
		return;
	place(a, p, last);
	sift_down(a, p);
	sift_up(a, a->pos[last]);
}

void agenda_timer(struct agenda *a, uint32_t i, uint64_t t)
{
	if (a->pos[i] == UINT32_MAX) {
		a->t[i] = t;
		place(a, a->nheap++, i);
		sift_up(a, a->nheap - 1);
		return;
	}
	uint64_t old = a->t[i];
	a->t[i] = t;
	if (t < old)
		sift_up(a, a->pos[i]);
	else
		sift_down(a, a->pos[i]);
}

uint64_t agenda_next(const struct agenda *a)
{
	return a->nheap ? a->t[a->heap[0]] : UINT64_MAX;
}

void agenda_expire(struct agenda *a, uint64_t now)
{
	while (a->nheap && a->t[a->heap[0]] <= now) {
		uint32_t i = a->heap[0];
		agenda_cancel(a, i);
		agenda_mark(a, i);
	}
}
