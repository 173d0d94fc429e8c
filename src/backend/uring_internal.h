/*
 * Private to the io_uring backend: the target (one open file or block
 * device) and the queue (one ring, owned by the thread that created it).
 */
#ifndef SSDBENCH_BACKEND_URING_INTERNAL_H
#define SSDBENCH_BACKEND_URING_INTERNAL_H

#include <liburing.h>
#include <stdbool.h>
#include <stdint.h>

#include "backend/backend.h"

struct backend_target {
	int fd;			/* held for the session: O_EXCL on devices */
	bool write;
	struct target_facts facts;
};

/*
 * Test hooks, for the backend's unit tests only (NULL in every real
 * queue): they stand in for the kernel's answers so that refusals the
 * kernel gives rarely (a partial or refused submit) can be made on demand.
 */
struct uring_faults {
	/* Called instead of handing the queued SQEs to the kernel; returns
	   what io_uring_submit would (SQEs taken, or -errno). */
	int (*submit)(struct io_uring *ring, void *ctx);
	void *ctx;
};

struct backend_queue {
	struct io_uring ring;
	struct backend_target *t;
	int fd;			/* this queue's own descriptor (its flags) */
	bool fixed_file, fixed_bufs;
	bool sqpoll;		/* the ring has a kernel SQ thread */
	bool discard_ioctl;	/* trims by BLKDISCARD: no io_uring discard */
	/*
	 * I/Os the kernel took and has not completed.  SQEs it has not taken
	 * yet are io_uring_sq_ready(): they stay in the ring and are offered
	 * again, so a refused or partial submit forgets nothing, and a wait
	 * never waits for more than the kernel has.
	 */
	uint32_t kinflight;
	/* Completions made here (BLKDISCARD trims), handed out first. */
	struct io_cpl *local;
	uint32_t nlocal, local_cap;
	uint8_t *bufmem;
	uint32_t nbufs, buf_size;
	char mode[64];
	const struct uring_faults *faults;
};

/* Tests: refusals on demand, and trims as on a kernel without io_uring
   block discard (before 6.12). */
void uring_queue_set_faults(struct backend_queue *q, const struct uring_faults *f);
void uring_queue_use_discard_ioctl(struct backend_queue *q);
/* Whether trims on this queue go through BLKDISCARD (the probe's answer). */
bool uring_queue_discard_ioctl(const struct backend_queue *q);

int uring_open(const char *spec, const struct open_opts *o,
	       struct backend_target **out, struct target_facts *facts,
	       struct sb_err *e);
void uring_close(struct backend_target *t);
uint64_t uring_now(struct backend_target *t);
void uring_idle(struct backend_target *t, uint64_t dt_ns);
int uring_discard(struct backend_target *t, uint64_t off, uint64_t len,
		  struct sb_err *e);
int uring_flush(struct backend_target *t, struct sb_err *e);

#endif
