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

struct backend_queue {
	struct io_uring ring;
	struct backend_target *t;
	int fd;			/* this queue's own descriptor (its flags) */
	bool fixed_file, fixed_bufs;
	uint32_t pending;	/* SQEs queued, not yet entered */
	uint8_t *bufmem;
	uint32_t nbufs, buf_size;
	char mode[64];
};

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
