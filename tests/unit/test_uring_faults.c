/*
 * The io_uring backend when the kernel says "not now": a submit taken only
 * in part, or refused with -EAGAIN / -EBUSY / -EINTR.  The kernel's answer
 * is replaced through the queue's test hook (uring_faults); the I/O itself
 * is real, on a file (and a loop device for the discard fallback).  Every
 * request must come back, with the right data, and no wait may block for
 * I/O the kernel never got: a watchdog turns a hang into a failure.
 */
#include "check.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "backend/uring_internal.h"

#define FILE_SIZE (1u << 20)
#define BS 4096u

static void on_hang(int sig)
{
	(void)sig;
	static const char msg[] = "  FAIL: a wait blocked for I/O the kernel never got\n";
	if (write(2, msg, sizeof msg - 1) < 0)
		_exit(2);
	_exit(1);
}

struct hook {
	unsigned calls;
	unsigned take_first;	/* partial: the first call takes this many */
	int refuse[4];		/* the first calls answer these, 0 = end */
};

/*
 * The kernel takes only `take_first` SQEs: liburing hands the kernel the
 * SQEs up to sqe_tail, so hiding the rest for one call is a partial
 * submit; they stay prepared in the ring for the next call.
 */
static int faulty_submit(struct io_uring *ring, void *ctx)
{
	struct hook *h = ctx;
	unsigned call = h->calls++;
	if (call < 4 && h->refuse[call])
		return h->refuse[call];
	if (call == 0 && h->take_first) {
		unsigned ready = io_uring_sq_ready(ring);
		unsigned hold = ready > h->take_first ? ready - h->take_first : 0;
		ring->sq.sqe_tail -= hold;
		int r = io_uring_submit_and_get_events(ring);
		ring->sq.sqe_tail += hold;
		return r;
	}
	return io_uring_submit_and_get_events(ring);
}

/* A file whose block i is filled with the byte i. */
static int make_file(char *path)
{
	int fd = mkstemp(path);
	if (fd < 0)
		return -1;
	uint8_t blk[BS];
	for (uint32_t i = 0; i < FILE_SIZE / BS; i++) {
		memset(blk, (int)(i & 0xff), BS);
		if (pwrite(fd, blk, BS, (off_t)i * BS) != BS)
			return -1;
	}
	fsync(fd);
	close(fd);
	return 0;
}

struct rig {
	char path[64];
	struct backend_target *t;
	struct backend_queue *q;
	struct target_facts f;
};

static bool rig_open(struct rig *g, const char *path, uint32_t depth)
{
	struct sb_err e;
	struct open_opts oo = { .write = true };
	if (backend_uring.open(path, &oo, &g->t, &g->f, &e)) {
		fprintf(stderr, "  skipped: %s\n", e.msg);
		return false;
	}
	struct queue_opts qo = { .depth = depth, .nbufs = 16, .buf_size = BS };
	if (backend_uring.queue_create(g->t, &qo, &g->q, &e)) {
		CHECK_FAIL("queue: %s", e.msg);
		backend_uring.close(g->t);
		return false;
	}
	return true;
}

static void rig_close(struct rig *g)
{
	backend_uring.queue_destroy(g->q);
	backend_uring.close(g->t);
}

/* Read blocks 0..n-1 into buffers 0..n-1 and collect every completion. */
static uint32_t read_all(struct rig *g, uint32_t n, uint32_t min, uint64_t wait_ns)
{
	struct io_req r[64] = { { 0 } };
	struct io_cpl c[64];
	struct sb_err e;
	for (uint32_t i = 0; i < n; i++)
		r[i] = (struct io_req){ .offset = (uint64_t)i * BS, .len = BS, .op = IO_READ,
					.buf = i, .user_data = i };
	uint32_t queued = 0;
	int acc = backend_uring.submit(g->q, r, n, &e);
	CHECK(acc >= 0);
	queued = acc > 0 ? (uint32_t)acc : 0;
	uint32_t got = 0;
	bool seen[64] = { false };
	for (int round = 0; round < 200 && got < n; round++) {
		if (queued < n) {
			acc = backend_uring.submit(g->q, r + queued, n - queued, &e);
			CHECK(acc >= 0);
			queued += acc > 0 ? (uint32_t)acc : 0;
		}
		uint64_t deadline = wait_ns ? backend_uring.now(g->t) + wait_ns : UINT64_MAX;
		int k = backend_uring.reap(g->q, c, min < n - got ? min : n - got, 64, deadline, &e);
		if (k < 0) {
			CHECK_FAIL("reap: %s", e.msg);
			break;
		}
		for (int i = 0; i < k; i++) {
			uint32_t b = (uint32_t)c[i].user_data;
			CHECK(b < n && !seen[b]);
			CHECK_EQ_U64((uint64_t)c[i].res, BS);
			if (b < n)
				seen[b] = true;
			const uint8_t *buf = backend_uring.queue_buffer(g->q, b);
			CHECK(buf && buf[0] == (b & 0xff) && buf[BS - 1] == (b & 0xff));
		}
		got += (uint32_t)k;
	}
	return got;
}

/*
 * Read n blocks through a queue of `depth` entries whose kernel answers as
 * the hook says; every block must come back once, with its data.
 */
static void read_through_hook(struct hook *h, uint32_t depth, uint32_t n, uint32_t min,
			      uint64_t wait_ns)
{
	alarm(20);
	struct rig g = { .path = "/tmp/ssdbench-uring-XXXXXX" };
	CHECK(make_file(g.path) == 0);
	if (rig_open(&g, g.path, depth)) {
		struct uring_faults f = { .submit = faulty_submit, .ctx = h };
		uring_queue_set_faults(g.q, &f);
		CHECK_EQ_U64(read_all(&g, n, min, wait_ns), n);
		rig_close(&g);
	}
	unlink(g.path);
	alarm(0);
}

TEST(partial_submit_forgets_nothing)
{
	/* Wait for all 12 at once: the kernel has only 3 of them after the
	   first call, the other 9 must still be offered to it. */
	struct hook h = { .take_first = 3 };
	read_through_hook(&h, 16, 12, 12, 2000000000ull);
	CHECK(h.calls >= 2);
}

TEST(refused_submit_is_offered_again_and_never_hangs)
{
	/* No deadline: a wait for I/O that was refused would block forever. */
	struct hook h = { .refuse = { -EAGAIN, -EBUSY, -EINTR } };
	read_through_hook(&h, 16, 8, 8, 0);
	CHECK(h.calls >= 4);
}

/* The SQ ring full and the kernel refusing: submit takes what fits. */
TEST(full_ring_refused_returns_what_was_queued)
{
	/* 8 requests on a 4-entry ring: the first submit can queue only 4. */
	struct hook h = { .refuse = { -EAGAIN, -EAGAIN } };
	read_through_hook(&h, 4, 8, 1, 0);
}

/* A loop device over a fresh file; returns its fd and path, or -1. */
static int loop_attach(const char *file, char *dev, size_t n)
{
	int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return -1;
	int nr = ioctl(ctl, LOOP_CTL_GET_FREE);
	close(ctl);
	if (nr < 0)
		return -1;
	snprintf(dev, n, "/dev/loop%d", nr);
	int lfd = open(dev, O_RDWR | O_CLOEXEC);
	int ffd = open(file, O_RDWR | O_CLOEXEC);
	if (lfd < 0 || ffd < 0 || ioctl(lfd, LOOP_SET_FD, ffd)) {
		if (lfd >= 0)
			close(lfd);
		if (ffd >= 0)
			close(ffd);
		return -1;
	}
	close(ffd);
	return lfd;
}

/* Trim blocks [8, 24) of the device and read the whole device back. */
static void trim_and_check(struct rig *g, const char *dev)
{
	struct sb_err e;
	struct io_req r = { .offset = 8 * BS, .len = 16 * BS, .op = IO_TRIM, .user_data = 7 };
	CHECK_EQ_U64((uint64_t)backend_uring.submit(g->q, &r, 1, &e), 1);
	struct io_cpl c[4];
	int k = backend_uring.reap(g->q, c, 1, 4, backend_uring.now(g->t) + 5000000000ull, &e);
	CHECK_EQ_U64((uint64_t)k, 1);
	if (k == 1) {
		CHECK_EQ_U64(c[0].user_data, 7);
		CHECK_EQ_U64((uint64_t)c[0].res, 0);
	}
	int fd = open(dev, O_RDONLY | O_DIRECT | O_CLOEXEC);
	void *buf = NULL;
	CHECK(fd >= 0 && !posix_memalign(&buf, 4096, BS));
	for (uint32_t b = 0; fd >= 0 && buf && b < 32; b++) {
		CHECK(pread(fd, buf, BS, (off_t)b * BS) == BS);
		uint8_t want = b >= 8 && b < 24 ? 0 : (uint8_t)b;
		const uint8_t *p = buf;
		if (p[0] != want || p[BS - 1] != want)
			CHECK_FAIL("block %u holds %u, expected %u", b, p[0], want);
	}
	free(buf);
	if (fd >= 0)
		close(fd);
}

/*
 * Trims on a block device: through io_uring where the kernel has the
 * command (the probe asks it), by BLKDISCARD otherwise, as on Debian 12's
 * 6.1.  Both must discard exactly the range asked for.
 */
TEST(trim_by_blkdiscard_when_forced_and_by_the_probe)
{
	alarm(30);
	for (int forced = 0; forced < 2; forced++) {
		char path[] = "/tmp/ssdbench-uring-XXXXXX", dev[32];
		CHECK(make_file(path) == 0);
		int lfd = loop_attach(path, dev, sizeof dev);
		if (lfd < 0) {
			fprintf(stderr, "  skipped: no loop device (%s)\n", strerror(errno));
			unlink(path);
			return;
		}
		struct rig g;
		if (rig_open(&g, dev, 8)) {
			if (forced)
				uring_queue_use_discard_ioctl(g.q);
			trim_and_check(&g, dev);
			rig_close(&g);
		}
		ioctl(lfd, LOOP_CLR_FD, 0);
		close(lfd);
		unlink(path);
	}
	alarm(0);
}

__attribute__((constructor)) static void watchdog(void)
{
	signal(SIGALRM, on_hang);
}

CHECK_MAIN("uring_faults")
