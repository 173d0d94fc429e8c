/*
 * A driver's agenda: which of its jobs may have work to do now.
 *
 * A job's job_prepare() can only submit something after one of these: a
 * completion of its own (a slot or the fsync came back), the time its
 * next arrival is due (an open loop), or its workload being told to stop.
 * The driver therefore prepares only the jobs on the ready list and keeps
 * those waiting for an arrival in a heap keyed by its time, so the cost
 * per I/O is O(log jobs) instead of a scan over every job: with 256 QD1
 * readers on one simulated drive, the scan was most of the CPU.
 *
 * Ready jobs are taken in ascending index, the order in which a scan over
 * all jobs would have prepared them, so submissions keep their order.
 */
#ifndef SSDBENCH_ENGINE_AGENDA_H
#define SSDBENCH_ENGINE_AGENDA_H

#include <stdbool.h>
#include <stdint.h>

struct agenda {
	uint32_t n;		/* jobs, indexed 0..n-1 */
	uint32_t *ready;	/* job indices, at most n */
	uint32_t nready;
	bool *listed;		/* per job: on the ready list */
	/* Timers: an indexed binary min-heap of (time, job). */
	uint64_t *t;		/* per job: its timer, UINT64_MAX none */
	uint32_t *heap;		/* job indices */
	uint32_t *pos;		/* per job: its place in heap, UINT32_MAX none */
	uint32_t nheap;
};

/* Every job starts on the ready list.  0, or -1 when out of memory. */
int agenda_init(struct agenda *a, uint32_t n);
void agenda_free(struct agenda *a);

void agenda_mark(struct agenda *a, uint32_t i);
void agenda_mark_all(struct agenda *a);
/*
 * Take the ready list, ascending, into out (room for n); it is left
 * empty.  Returns how many.
 */
uint32_t agenda_take(struct agenda *a, uint32_t *out);

/* Job i waits for time t (replacing any timer it had); cancel removes it. */
void agenda_timer(struct agenda *a, uint32_t i, uint64_t t);
void agenda_cancel(struct agenda *a, uint32_t i);
/* The earliest timer, UINT64_MAX when none. */
uint64_t agenda_next(const struct agenda *a);
/* Move every job whose timer is at or before now to the ready list. */
void agenda_expire(struct agenda *a, uint64_t now);

#endif
