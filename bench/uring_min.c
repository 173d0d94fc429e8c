/*
 * The smallest io_uring loop that does what ssdbench measures: O_DIRECT,
 * registered file and fixed buffers, SINGLE_ISSUER|DEFER_TASKRUN, one
 * io_uring_enter per batch that submits (and posts ready completions), a
 * second one only when fewer than the batch are ready, no wait timeout,
 * and a latency per I/O (submit to reap, one clock read per batch) into a
 * histogram.  It has no
 * sampler, no threads, no database: it is this machine's limit for an
 * engine that measures every I/O, and ssdbench is compared against it.
 *
 * build: cc -O2 -o uring_min uring_min.c -luring
 * usage: uring_min [-d qd] [-b bs] [-t secs] [-r ramp] [-c wait_nr] [-w] [-s]
 *                  [-S] [-j] [-T] [-f flags] path
 *        -w random writes (default random reads), -s sequential
 *        -S before each write, a unique 64-bit stamp in every 512 B of the
 *           buffer, as ssdbench does (and fio's default scramble_buffers):
 *           data work that an engine which defeats deduplication must do
 *        variants for A/B runs (bench/README.md):
 *        -j submit and wait in one enter (io_uring_submit_and_wait)
 *        -T every wait with a 1 s timeout (a kernel timer armed per wait)
 *        -f ring setup flags (default SINGLE_ISSUER|DEFER_TASKRUN, 0x3000)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t xs_state = 88172645463325252ull;
static uint64_t xs(void)
{
	xs_state ^= xs_state << 13;
	xs_state ^= xs_state >> 7;
	xs_state ^= xs_state << 17;
	return xs_state;
}

/* log-linear, 1024 sub-buckets per octave, as ssdbench's */
#define SUB 1024
/* ssdbench's stamp: splitmix64's finalizer over a counter, once per 512 B */
static uint64_t stamp_count;
static void stamp_buf(uint8_t *b, int len)
{
	for (int i = 0; i < len; i += 512) {
		uint64_t z = 0x5eed0000ull ^ stamp_count++;
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		z ^= z >> 31;
		memcpy(b + i, &z, sizeof z);
	}
}

static uint64_t hist[64 * SUB];
static unsigned hidx(uint64_t v)
{
	if (v < SUB)
		return (unsigned)v;
	int e = 63 - __builtin_clzll(v);
	return (unsigned)(e - 9) * SUB + (unsigned)((v >> (e - 10)) & (SUB - 1));
}

int main(int argc, char **argv)
{
	int qd = 32, bs = 4096, secs = 5, ramp = 1, waitnr = 1, wr = 0, seq = 0, stamp = 0, c;
	int joined = 0, timed = 0;
	unsigned setup = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
	while ((c = getopt(argc, argv, "d:b:t:r:c:wsSjTf:")) != -1) {
		switch (c) {
		case 'd': qd = atoi(optarg); break;
		case 'b': bs = atoi(optarg); break;
		case 't': secs = atoi(optarg); break;
		case 'r': ramp = atoi(optarg); break;
		case 'c': waitnr = atoi(optarg); break;
		case 'w': wr = 1; break;
		case 's': seq = 1; break;
		case 'S': stamp = 1; break;
		case 'j': joined = 1; break;
		case 'T': timed = 1; break;
		case 'f': setup = (unsigned)strtoul(optarg, NULL, 0); break;
		default: return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: %s [-d qd] [-b bs] [-t s] [-r s] [-c n] [-w] [-s] [-S] [-j] [-T] [-f flags] path\n", argv[0]);
		return 2;
	}
	int fd = open(argv[optind], (wr ? O_RDWR : O_RDONLY) | O_DIRECT);
	if (fd < 0) {
		perror("open");
		return 1;
	}
	struct stat st;
	fstat(fd, &st);
	uint64_t size = (uint64_t)st.st_size;
	if (S_ISBLK(st.st_mode) && ioctl(fd, BLKGETSIZE64, &size)) {
		perror("BLKGETSIZE64");
		return 1;
	}
	uint64_t nblk = size / (uint64_t)bs, next = 0;

	struct io_uring ring;
	struct io_uring_params p;
	memset(&p, 0, sizeof p);
	p.flags = setup;
	if (io_uring_queue_init_params((unsigned)qd, &ring, &p)) {
		memset(&p, 0, sizeof p);
		if (io_uring_queue_init_params((unsigned)qd, &ring, &p)) {
			perror("io_uring");
			return 1;
		}
	}
	uint8_t *buf;
	if (posix_memalign((void **)&buf, 4096, (size_t)qd * (size_t)bs))
		return 1;
	for (size_t i = 0; i < (size_t)qd * (size_t)bs; i++)
		buf[i] = (uint8_t)xs();
	struct iovec *iov = calloc((size_t)qd, sizeof *iov);
	for (int i = 0; i < qd; i++) {
		iov[i].iov_base = buf + (size_t)i * (size_t)bs;
		iov[i].iov_len = (size_t)bs;
	}
	if (io_uring_register_buffers(&ring, iov, (unsigned)qd) ||
	    io_uring_register_files(&ring, &fd, 1)) {
		fprintf(stderr, "register failed\n");
		return 1;
	}
	uint64_t *sub = calloc((size_t)qd, sizeof *sub);

	uint64_t t = now_ns(), start = t + (uint64_t)ramp * 1000000000ull;
	uint64_t end = start + (uint64_t)secs * 1000000000ull, ios = 0, t0 = start;
	for (int i = 0; i < qd; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
		uint64_t off = (seq ? next++ % nblk : xs() % nblk) * (uint64_t)bs;
		if (wr && stamp)
			stamp_buf(iov[i].iov_base, bs);
		if (wr)
			io_uring_prep_write_fixed(sqe, 0, iov[i].iov_base, (unsigned)bs, off, i);
		else
			io_uring_prep_read_fixed(sqe, 0, iov[i].iov_base, (unsigned)bs, off, i);
		sqe->flags |= IOSQE_FIXED_FILE;
		sqe->user_data = (uint64_t)i;
		sub[i] = t;
	}
	for (;;) {
		struct io_uring_cqe *cqe;
		struct __kernel_timespec ts = { 1, 0 };
		int r;
		if (joined && timed)
			r = io_uring_submit_and_wait_timeout(&ring, &cqe, (unsigned)waitnr, &ts, NULL);
		else if (joined)
			r = io_uring_submit_and_wait(&ring, (unsigned)waitnr);
		else
			r = io_uring_submit_and_get_events(&ring);
		if (!joined && r >= 0 && io_uring_cq_ready(&ring) < (unsigned)waitnr)
			r = timed ? io_uring_wait_cqes(&ring, &cqe, (unsigned)waitnr, &ts, NULL)
				  : io_uring_wait_cqe_nr(&ring, &cqe, (unsigned)waitnr);
		if (r == -ETIME)
			r = 0;
		if (r < 0) {
			fprintf(stderr, "submit: %s\n", strerror(-r));
			return 1;
		}
		t = now_ns();
		unsigned head, n = 0;
		io_uring_for_each_cqe(&ring, head, cqe) {
			n++;
			if (cqe->res != bs) {
				fprintf(stderr, "I/O error %d\n", cqe->res);
				return 1;
			}
			int i = (int)cqe->user_data;
			if (t >= start && t < end) {
				ios++;
				hist[hidx(t - sub[i])]++;
			}
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
			uint64_t off = (seq ? next++ % nblk : xs() % nblk) * (uint64_t)bs;
			if (wr && stamp)
				stamp_buf(iov[i].iov_base, bs);
			if (wr)
				io_uring_prep_write_fixed(sqe, 0, iov[i].iov_base, (unsigned)bs, off, i);
			else
				io_uring_prep_read_fixed(sqe, 0, iov[i].iov_base, (unsigned)bs, off, i);
			sqe->flags |= IOSQE_FIXED_FILE;
			sqe->user_data = (uint64_t)i;
			sub[i] = t;
		}
		io_uring_cq_advance(&ring, n);
		if (t >= end)
			break;
	}
	double el = (double)(end - t0) / 1e9;
	printf("{\"ios\":%llu,\"secs\":%.3f,\"iops\":%.0f}\n", (unsigned long long)ios, el,
	       (double)ios / el);
	return 0;
}
