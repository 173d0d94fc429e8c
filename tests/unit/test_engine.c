/*
 * The engine against known truth: a virtual-time backend with fixed
 * service times (exact IOPS and latencies), the offset generator against
 * its definition, workload validation's refusals, and a real file through
 * io_uring read back block by block.
 */
#include "check.h"

#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/rank.h"
#include "common/rng.h"
#include "engine/agenda.h"
#include "engine/engine.h"
#include "engine/offsets.h"
#include "vt_backend.h"

#define MS 1000000ull
#define US 1000ull

/* Everything the hooks saw. */
struct seen {
	struct interval_sample s[4096];
	uint32_t n;
	uint64_t stop_after_index;	/* on_interval returns 1 there; 0 = never */
	uint32_t checkpoints;
	bool started;
	char mode[64];
};

static int seen_start(void *ctx, const struct target_facts *f, const char *mode, struct sb_err *e)
{
	(void)f; (void)e;
	struct seen *s = ctx;
	s->started = true;
	snprintf(s->mode, sizeof s->mode, "%s", mode);
	return 0;
}

static int seen_interval(void *ctx, const struct interval_sample *smp, struct sb_err *e)
{
	(void)e;
	struct seen *s = ctx;
	if (s->n < 4096)
		s->s[s->n++] = *smp;
	return s->stop_after_index && smp->index == s->stop_after_index;
}

static int seen_checkpoint(void *ctx, uint32_t wl, const struct workload_result *r, struct sb_err *e)
{
	(void)wl; (void)r; (void)e;
	((struct seen *)ctx)->checkpoints++;
	return 0;
}

static struct engine_hooks hooks_for(struct seen *s)
{
	struct engine_hooks h = { .ctx = s, .on_start = seen_start, .on_interval = seen_interval,
				  .on_checkpoint = seen_checkpoint };
	return h;
}

static struct vt_state *vt_new(uint64_t size)
{
	struct vt_state *st = calloc(1, sizeof *st);
	st->size = size;
	st->lat[IO_READ] = 100 * US;
	st->lat[IO_WRITE] = 200 * US;
	st->lat[IO_TRIM] = 50 * US;
	st->lat[IO_FSYNC] = 1 * MS;
	st->now = 5 * 1000 * MS;	/* not zero: times must be relative */
	return st;
}

static int vt_run_on(const struct backend_ops *ops, uint32_t batch, struct vt_state *st,
		     const struct workload *w, uint32_t n, struct seen *seen,
		     struct engine_result *res, struct sb_err *e)
{
	vt_next_state = st;
	struct engine_opts o = { .target = "vt:test", .backend = ops, .allow_write = true,
				 .batch = batch };
	struct engine *eng;
	if (engine_open(&o, &eng, e))
		return -1;
	struct engine_hooks h = hooks_for(seen);
	int rc = engine_run(eng, w, n, &h, res, e);
	engine_close(eng);
	return rc;
}

static int vt_run(struct vt_state *st, const struct workload *w, uint32_t n,
		  struct seen *seen, struct engine_result *res, struct sb_err *e)
{
	return vt_run_on(&vt_backend, 0, st, w, n, seen, res, e);
}

/* Sum of the samples of workload wl that are not ramp. */
static void sum_samples(const struct seen *s, uint32_t wl, uint64_t *bytes, uint64_t *ios)
{
	for (int d = 0; d < DIR_COUNT; d++)
		bytes[d] = ios[d] = 0;
	for (uint32_t i = 0; i < s->n; i++) {
		if (s->s[i].workload != wl || s->s[i].ramp)
			continue;
		for (int d = 0; d < DIR_COUNT; d++) {
			bytes[d] += s->s[i].dir[d].bytes;
			ios[d] += s->s[i].dir[d].ios;
		}
	}
}

TEST(vt_qd1_read_is_exact)
{
	struct vt_state *st = vt_new(1ull << 30);
	struct workload w;
	workload_defaults(&w);
	w.pattern = PATTERN_RAND;
	w.stop_time_ns = 1000 * MS;
	w.seed = 1;
	struct seen *seen = calloc(1, sizeof *seen);
	struct engine_result res;
	struct sb_err e;
	CHECK(vt_run(st, &w, 1, seen, &res, &e) == 0);
	const struct workload_result *r = &res.wl[0];
	/* 1 s at 100 us per I/O: 10000 I/Os, the last completing at 1 s. */
	CHECK_EQ_U64(r->ios[DIR_READ], 10000);
	CHECK_EQ_U64(r->bytes[DIR_READ], 10000 * 4096);
	CHECK_EQ_U64(r->measured_ns, 1000 * MS);
	CHECK_EQ_U64(r->hist[DIR_READ]->count, r->ios[DIR_READ]);
	CHECK_EQ_U64(hist_percentile(r->hist[DIR_READ], 50), 100 * US);
	CHECK_EQ_U64(hist_percentile(r->hist[DIR_READ], 99.9999), 100 * US);
	CHECK_EQ_U64(r->ios[DIR_WRITE], 0);
	CHECK(seen->started);
	CHECK_EQ_STR(res.mode, "virtual");
	CHECK_EQ_STR(seen->mode, "virtual");
	/* Ten 100 ms intervals of 1000 I/Os each. */
	CHECK_EQ_U64(seen->n, 10);
	for (uint32_t i = 0; i < seen->n; i++) {
		CHECK_EQ_U64(seen->s[i].index, i);
		CHECK_EQ_U64(seen->s[i].t_start_ns, i * 100 * MS);
		CHECK_EQ_U64(seen->s[i].dir[DIR_READ].ios, 1000);
		CHECK_EQ_U64(seen->s[i].dir[DIR_READ].lat_p50_ns, 100 * US);
		CHECK_EQ_U64(seen->s[i].dir[DIR_READ].lat_max_ns, 100 * US);
		CHECK(!seen->s[i].ramp);
	}
	uint64_t b[DIR_COUNT], n[DIR_COUNT];
	sum_samples(seen, 0, b, n);
	CHECK_EQ_U64(b[DIR_READ], r->bytes[DIR_READ]);
	CHECK_EQ_U64(n[DIR_READ], r->ios[DIR_READ]);
	CHECK(seen->checkpoints >= 1);
	engine_result_free(&res);
	free(seen);
	free(st);
}

TEST(vt_qd32_and_ramp)
{
	struct vt_state *st = vt_new(1ull << 30);
	struct workload w;
	workload_defaults(&w);
	w.pattern = PATTERN_RAND;
	w.qd = 32;
	w.read_pct = 0;
	w.stop_time_ns = 500 * MS;
	w.ramp_ns = 250 * MS;	/* rounded up to 300 ms: whole intervals */
	w.seed = 2;
	struct seen *seen = calloc(1, sizeof *seen);
	struct engine_result res;
	struct sb_err e;
	CHECK(vt_run(st, &w, 1, seen, &res, &e) == 0);
	const struct workload_result *r = &res.wl[0];
	/* 32 in flight at 200 us: 160000 IOPS; 0.5 s measured = 80000. */
	CHECK_EQ_U64(r->ios[DIR_WRITE], 80000);
	CHECK_EQ_U64(r->measured_ns, 500 * MS);
	CHECK_EQ_U64(st->max_inflight, 32);
	uint32_t ramps = 0;
	for (uint32_t i = 0; i < seen->n; i++)
		ramps += seen->s[i].ramp;
	CHECK_EQ_U64(ramps, 3);
	CHECK_EQ_U64(seen->n, 8);
	uint64_t b[DIR_COUNT], n[DIR_COUNT];
	sum_samples(seen, 0, b, n);
	CHECK_EQ_U64(n[DIR_WRITE], r->ios[DIR_WRITE]);
	CHECK_EQ_U64(r->hist[DIR_WRITE]->count, r->ios[DIR_WRITE]);
	engine_result_free(&res);
	free(seen);
	free(st);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/*
 * QD32 on a device whose completions carry no time (as io_uring's), with
 * a known service time per I/O: 20 us to 2 ms, one in 500 of 5 ms.  With
 * the default settings the measured p50, p99 and max are the truth (an
 * exact sort of the service times, nearest rank counted) within the
 * histogram's resolution.  Waiting for several completions per reap, the
 * old default at QD32, stamps the first of each batch late.
 */
TEST(ring_qd32_default_latencies_are_the_service_times)
{
	enum { N = 20000 };
	uint64_t *svc = malloc(N * sizeof *svc), *sorted = malloc(N * sizeof *sorted);
	uint64_t x = 99;
	for (uint32_t i = 0; i < N; i++) {
		uint64_t r = splitmix64(&x);
		svc[i] = r % 500 == 0 ? 5 * MS : 20 * US + r % (1980 * US);
		sorted[i] = svc[i];
	}
	qsort(sorted, N, sizeof *sorted, cmp_u64);
	struct vt_state *st = vt_new(1ull << 30);
	st->svc = svc;
	st->nsvc = N;
	struct workload w;
	workload_defaults(&w);
	w.pattern = PATTERN_RAND;
	w.qd = 32;
	w.stop_bytes = (uint64_t)N * w.bs;	/* every I/O measured, each once */
	w.seed = 4;
	struct seen *seen = calloc(1, sizeof *seen);
	struct engine_result res;
	struct sb_err e;
	CHECK(vt_run_on(&vt_ring_backend, 0, st, &w, 1, seen, &res, &e) == 0);
	const struct lat_hist *h = res.wl[0].hist[DIR_READ];
	CHECK_EQ_U64(st->submitted, N);
	CHECK_EQ_U64(h->count, N);
	CHECK_EQ_U64(res.batch, 1);
	/* Nearest rank: ceil(p/100 * N) for N = 20000. */
	CHECK_REL((double)hist_percentile(h, 50), (double)sorted[N / 2 - 1], 1.0 / 1024);
	CHECK_REL((double)hist_percentile(h, 99), (double)sorted[N / 100 * 99 - 1], 1.0 / 1024);
	CHECK_EQ_U64(h->max, sorted[N - 1]);
	CHECK_EQ_U64(h->min, sorted[0]);
	engine_result_free(&res);

	/* An explicit batch is recorded, and it only ever lengthens what is
	   measured (stamps wait for the batch), never shortens it. */
	st->submitted = st->nlog = st->nfly = 0;
	memset(seen, 0, sizeof *seen);
	CHECK(vt_run_on(&vt_ring_backend, 8, st, &w, 1, seen, &res, &e) == 0);
	h = res.wl[0].hist[DIR_READ];
	CHECK_EQ_U64(res.batch, 8);
	CHECK_EQ_U64(h->count, N);
	CHECK(h->min >= sorted[0]);
	CHECK(hist_percentile(h, 50) > sorted[N / 2 - 1]);
	CHECK(h->max >= sorted[N - 1]);
	engine_result_free(&res);
	free(seen);
	free(st);
	free(svc);
	free(sorted);
}

TEST(vt_bytes_stop_is_exact_offsets_aligned_data_unique)
{
	struct vt_state *st = vt_new(64ull << 20);
	struct workload w;
	workload_defaults(&w);
	w.pattern = PATTERN_RAND;
	w.read_pct = 0;
	w.bs = 12288;		/* not a power of two: alignment is to bs */
	w.qd = 8;
	w.jobs = 3;
	w.span_offset = 1 << 20;
	w.span_len = 32 << 20;
	w.stop_bytes = 12288ull * 1000 + 5;	/* rounded down to whole blocks */
	w.seed = 3;
	struct seen *seen = calloc(1, sizeof *seen);
	struct engine_result res;
	struct sb_err e;
	CHECK(vt_run(st, &w, 1, seen, &res, &e) == 0);
	CHECK_EQ_U64(res.wl[0].bytes[DIR_WRITE], 12288ull * 1000);
	CHECK_EQ_U64(res.wl[0].ios[DIR_WRITE], 1000);
	CHECK_EQ_U64(st->nlog, 1000);
	for (uint64_t i = 0; i < st->nlog; i++) {
		const struct vt_io *io = &st->log[i];
		CHECK(io->offset >= (1u << 20));
		CHECK(io->offset + io->len <= (1u << 20) + (32u << 20));
		CHECK((io->offset - (1u << 20)) % 12288 == 0);
	}
	/* First stamps of all writes differ (each block carries its own). */
	qsort(st->stamps, st->nlog, sizeof st->stamps[0], cmp_u64);
	for (uint64_t i = 1; i < st->nlog; i++)
		CHECK(st->stamps[i] != st->stamps[i - 1]);
	engine_result_free(&res);
	free(seen);
	free(st);
}

TEST(vt_two_workloads_rate_limit_and_mix)
{
	struct vt_state *st = vt_new(1ull << 30);
	struct workload w[2];
	workload_defaults(&w[0]);
	w[0].pattern = PATTERN_RAND;
	w[0].qd = 4;
	w[0].stop_time_ns = 1000 * MS;
	w[0].seed = 4;
	workload_defaults(&w[1]);
	w[1].pattern = PATTERN_SEQ;
	w[1].read_pct = 0;
	w[1].trim_pct = 25;
	w[1].bs = 128 << 10;
	w[1].qd = 2;
	w[1].rate = 5 << 20;	/* 5 MiB/s */
	w[1].stop_time_ns = 1000 * MS;
	w[1].seed = 5;
	struct seen *seen = calloc(1, sizeof *seen);
	struct engine_result res;
	struct sb_err e;
	CHECK(vt_run(st, w, 2, seen, &res, &e) == 0);
	/* The reader is not slowed by the background stream (virtual device
	   with unlimited parallelism): 4 / 100 us = 40000 per second. */
	CHECK_EQ_U64(res.wl[0].ios[DIR_READ], 40000);
	/* 5 MiB/s for 1 s, within one block of the bucket. */
	uint64_t bg = res.wl[1].bytes[DIR_WRITE] + res.wl[1].bytes[DIR_TRIM];
	CHECK(bg >= (5u << 20) - (128u << 10) && bg <= (5u << 20) + (128u << 10));
	/* About a quarter trims (40 I/Os: loose). */
	CHECK(res.wl[1].ios[DIR_TRIM] >= 3 && res.wl[1].ios[DIR_TRIM] <= 20);
	uint32_t per[2] = { 0, 0 };
	for (uint32_t i = 0; i < seen->n; i++)
		per[seen->s[i].workload]++;
	CHECK_EQ_U64(per[0], 10);
	CHECK_EQ_U64(per[1], 10);
	engine_result_free(&res);
	free(seen);
	free(st);
}

/*
 * The boot search's shape on one single-queue driver: 256 QD1 readers, a
 * rate-limited writer with fsyncs and a rate-limited trimmer.  Every
 * reader must run its exact closed loop (the driver prepares only the jobs
 * that can have work, so a job it forgets would show here), and the three
 * workloads must share one interval grid.
 */
TEST(vt_many_jobs_exact_counts_one_grid)
{
	enum { READERS = 256 };
	struct vt_state *st = vt_new(1ull << 30);
	struct workload w[3];
	workload_defaults(&w[0]);
	w[0].pattern = PATTERN_RAND;
	w[0].bs = 32768;
	w[0].jobs = READERS;
	w[0].seed = 11;
	workload_defaults(&w[1]);
	w[1].pattern = PATTERN_RAND;
	w[1].read_pct = 0;
	w[1].bs = 128 << 10;
	w[1].rate = 15 << 20;
	w[1].fsync_every = 1 << 20;	/* every 8 writes */
	w[1].seed = 12;
	workload_defaults(&w[2]);
	w[2].pattern = PATTERN_RAND;
	w[2].trim_pct = 100;
	w[2].bs = 128 << 10;
	w[2].rate = 5 << 20;
	w[2].seed = 13;
	for (int i = 0; i < 3; i++)
		w[i].stop_time_ns = 1000 * MS;
	struct seen *seen = calloc(1, sizeof *seen);
	struct engine_result res;
	struct sb_err e;
	CHECK(vt_run(st, w, 3, seen, &res, &e) == 0);
	/* Each reader: 1 s at 100 us per I/O, exactly 10000 I/Os. */
	const struct workload_result *r = &res.wl[0];
	CHECK_EQ_U64(r->ios[DIR_READ], READERS * 10000ull);
	CHECK_EQ_U64(st->by_op[IO_READ], READERS * 10000ull);
	CHECK_EQ_U64(r->hist[DIR_READ]->count, r->ios[DIR_READ]);
	CHECK_EQ_U64(r->hist[DIR_READ]->max, 100 * US);
	CHECK_EQ_U64(r->measured_ns, 1000 * MS);
	/* Never more in flight than the queues: 256 + 1 + 1. */
	CHECK(st->max_inflight <= READERS + 2);
	/* 15 MiB/s and 5 MiB/s for 1 s, within one block of the bucket. */
	uint64_t wb = res.wl[1].bytes[DIR_WRITE], tb = res.wl[2].bytes[DIR_TRIM];
	CHECK(wb >= (15u << 20) - (128u << 10) && wb <= (15u << 20) + (128u << 10));
	CHECK(tb >= (5u << 20) - (128u << 10) && tb <= (5u << 20) + (128u << 10));
	/* An fsync after every 8 writes (the last 8 may be cut by the stop). */
	uint64_t writes = st->by_op[IO_WRITE];
	CHECK(st->by_op[IO_FSYNC] == writes / 8 || st->by_op[IO_FSYNC] + 1 == writes / 8);
	CHECK_EQ_U64(res.wl[1].ios[DIR_READ] + res.wl[2].ios[DIR_READ], 0);
	/* One grid: ten 100 ms intervals per workload, the readers' each
	   holding 100 ms of every reader. */
	uint32_t per[3] = { 0, 0, 0 };
	for (uint32_t i = 0; i < seen->n; i++) {
		const struct interval_sample *smp = &seen->s[i];
		CHECK(smp->workload < 3);
		if (smp->workload >= 3)
			continue;
		CHECK_EQ_U64(smp->index, per[smp->workload]);
		CHECK_EQ_U64(smp->t_start_ns, smp->index * 100 * MS);
		if (smp->workload == 0) {
			CHECK_EQ_U64(smp->dir[DIR_READ].ios, READERS * 1000ull);
			CHECK_EQ_U64(smp->dir[DIR_READ].lat_p50_ns, 100 * US);
		}
		per[smp->workload]++;
	}
	for (int i = 0; i < 3; i++)
		CHECK_EQ_U64(per[i], 10);
	uint64_t b[DIR_COUNT], n[DIR_COUNT];
	sum_samples(seen, 0, b, n);
	CHECK_EQ_U64(n[DIR_READ], r->ios[DIR_READ]);
	sum_samples(seen, 1, b, n);
	CHECK_EQ_U64(b[DIR_WRITE], wb);
	engine_result_free(&res);
	free(seen);
	free(st);
}

/*
 * The bulk path's intervals against a backend whose slices are known: the
 * engine merges each slice into its job's interval buffer, hands the
 * buffer to the collector, and goes on with the buffer's histograms when
 * the collector has taken it (engine.c: next_buffer), so every interval's
 * histogram must be only its own slices' whatever buffer it sits in.
 * Slice k (two to an interval) holds 40 + k % 23 values of the exact
 * region (below 1024 ns: a percentile is the ranked value itself) and, in
 * an interval's first slice, one far above (another word of nz and of
 * nzw, the interval's max); 35 intervals, past the ring of 16 twice.
 */
static uint32_t fluid_slice_values(uint64_t k, uint64_t *v)
{
	uint32_t n = 40 + (uint32_t)(k % 23);
	for (uint32_t i = 0; i < n; i++)
		v[i] = 1 + (k * 131 + i * 17) % 1000;
	if (k % 2 == 0)
		v[n++] = 1000000 + k * 4096;
	return n;
}

static int vt_run_fluid(struct backend_queue *q, const struct fluid_stream *fs,
			uint64_t max_bytes, uint64_t max_ns, uint64_t slice_ns,
			fluid_slice_fn fn, void *ctx, struct sb_err *e)
{
	(void)max_bytes;
	struct vt_state *s = q->st;
	struct lat_hist *h = hist_new();
	uint64_t t0 = s->now, half = slice_ns / 2, v[64];
	int rc = 0;
	for (uint64_t k = 0; !rc && (k + 1) * half <= max_ns; k++) {
		hist_reset(h);
		uint32_t n = fluid_slice_values(k, v);
		for (uint32_t i = 0; i < n; i++)
			hist_add(h, v[i]);
		struct fluid_slice sl = { .t_start_ns = t0 + k * half, .t_end_ns = t0 + (k + 1) * half,
					  .ios = n, .bytes = n * fs->bs, .lat = h, .way = IO_WAY_BULK };
		s->now = sl.t_end_ns;
		rc = fn(ctx, &sl, e);
	}
	hist_free(h);
	return rc < 0 ? -1 : 0;
}

TEST(vt_fluid_intervals_hold_their_own_slices)
{
	struct vt_state *st = vt_new(1ull << 30);
	struct backend_ops ops = vt_backend;
	ops.run_fluid = vt_run_fluid;
	struct workload w;
	workload_defaults(&w);
	w.pattern = PATTERN_RAND;
	w.read_pct = 0;
	w.qd = 32;
	w.stop_time_ns = 3500 * MS;
	w.seed = 3;
	struct seen *seen = calloc(1, sizeof *seen);
	struct engine_result res;
	struct sb_err e;
	CHECK(vt_run_on(&ops, 0, st, &w, 1, seen, &res, &e) == 0);
	CHECK(res.wl[0].way == IO_WAY_BULK);	/* through run_fluid */
	CHECK_EQ_U64(seen->n, 35);
	struct lat_hist *all = hist_new();
	uint64_t v[128];
	for (uint32_t i = 0; i < seen->n; i++) {
		const struct interval_dir *x = &seen->s[i].dir[DIR_WRITE];
		uint32_t n = fluid_slice_values(2 * i, v);
		n += fluid_slice_values(2 * i + 1, v + n);
		uint64_t sum = 0;
		for (uint32_t k = 0; k < n; k++) {
			sum += v[k];
			hist_add(all, v[k]);
		}
		qsort(v, n, sizeof *v, cmp_u64);
		CHECK_EQ_U64(seen->s[i].index, i);
		CHECK_EQ_U64(x->ios, n);
		CHECK_EQ_U64(x->lat_sum_ns, sum);
		CHECK_EQ_U64(x->lat_max_ns, v[n - 1]);
		CHECK_EQ_U64(x->lat_p50_ns, v[percentile_rank(50, n) - 1]);
		CHECK_EQ_U64(x->lat_p99_ns, v[percentile_rank(99, n) - 1]);
	}
	const struct lat_hist *h = res.wl[0].hist[DIR_WRITE];
	CHECK_EQ_U64(h->count, all->count);
	CHECK_EQ_U64(h->sum, all->sum);
	CHECK_EQ_U64(h->max, all->max);
	CHECK(memcmp(h->buckets, all->buckets, sizeof h->buckets) == 0);
	hist_free(all);
	engine_result_free(&res);
	free(seen);
	free(st);
}

/* The driver's agenda against a plain array doing the same by brute force. */
TEST(agenda_matches_brute_force)
{
	enum { N = 97 };
	struct agenda a;
	CHECK(agenda_init(&a, N) == 0);
	uint32_t out[N];
	/* Everyone starts ready, ascending. */
	CHECK_EQ_U64(agenda_take(&a, out), N);
	for (uint32_t i = 0; i < N; i++)
		CHECK_EQ_U64(out[i], i);
	CHECK_EQ_U64(agenda_take(&a, out), 0);
	uint64_t ref[N];	/* timer per job, UINT64_MAX none */
	for (uint32_t i = 0; i < N; i++)
		ref[i] = UINT64_MAX;
	uint64_t x = 42, now = 0;
	for (int step = 0; step < 20000; step++) {
		uint64_t r = splitmix64(&x);
		uint32_t i = (uint32_t)(r % N);
		switch ((r >> 32) % 4) {
		case 0:
		case 1:	/* set or move a timer; ties on purpose */
			ref[i] = now + (r >> 40) % 64;
			agenda_timer(&a, i, ref[i]);
			break;
		case 2:
			ref[i] = UINT64_MAX;
			agenda_cancel(&a, i);
			break;
		default: {	/* time passes: due jobs become ready, ascending */
			now += (r >> 40) % 16;
			uint64_t next = UINT64_MAX;
			for (uint32_t k = 0; k < N; k++)
				if (ref[k] < next)
					next = ref[k];
			CHECK_EQ_U64(agenda_next(&a), next);
			agenda_expire(&a, now);
			uint32_t got = agenda_take(&a, out), want = 0;
			for (uint32_t k = 0; k < N; k++) {
				if (ref[k] > now)
					continue;
				ref[k] = UINT64_MAX;
				CHECK(want < got && out[want] == k);
				want++;
			}
			CHECK_EQ_U64(got, want);
		}
		}
	}
	/* Marks are taken once each, ascending, whatever their order. */
	agenda_mark(&a, 5);
	agenda_mark(&a, 2);
	agenda_mark(&a, 5);
	agenda_mark(&a, 90);
	CHECK_EQ_U64(agenda_take(&a, out), 3);
	CHECK(out[0] == 2 && out[1] == 5 && out[2] == 90);
	agenda_free(&a);
}

TEST(vt_hook_stops_a_workload)
{
	struct vt_state *st = vt_new(1ull << 30);
	struct workload w;
	workload_defaults(&w);
	w.pattern = PATTERN_RAND;
	w.qd = 2;
	w.seed = 6;		/* no stop: runs until the hook says so */
	w.stop_bytes = 0;
	struct seen *seen = calloc(1, sizeof *seen);
	seen->stop_after_index = 4;
	struct engine_result res;
	struct sb_err e;
	CHECK(vt_run(st, &w, 1, seen, &res, &e) == 0);
	CHECK(res.wl[0].stopped_by_hook);
	/* On a virtual clock the driver waits for each interval to be
	   collected, so the stop is exact: intervals 0-4, then the one in
	   which the I/Os in flight drain. */
	CHECK_EQ_U64(seen->n, 6);
	uint64_t b[DIR_COUNT], n[DIR_COUNT];
	sum_samples(seen, 0, b, n);
	CHECK_EQ_U64(n[DIR_READ], res.wl[0].ios[DIR_READ]);
	engine_result_free(&res);
	free(seen);
	free(st);
}

TEST(vt_io_error_stops_with_what_was_measured)
{
	struct vt_state *st = vt_new(1ull << 30);
	st->fail_after = 5000;
	struct workload w;
	workload_defaults(&w);
	w.pattern = PATTERN_RAND;
	w.qd = 1;
	w.stop_time_ns = 10000 * MS;
	w.seed = 7;
	struct seen *seen = calloc(1, sizeof *seen);
	struct engine_result res;
	struct sb_err e;
	CHECK(vt_run(st, &w, 1, seen, &res, &e) == -1);
	CHECK(strstr(e.msg, "read of 4096 bytes at offset") != NULL);
	CHECK(strstr(e.msg, "Input/output error") != NULL);
	CHECK_EQ_U64(res.wl[0].ios[DIR_READ], 4999);
	uint64_t b[DIR_COUNT], n[DIR_COUNT];
	sum_samples(seen, 0, b, n);
	CHECK_EQ_U64(n[DIR_READ], 4999);
	engine_result_free(&res);
	free(seen);
	free(st);
}

/* One session, two runs and a rest between: one device, one clock. */
TEST(vt_session_keeps_one_clock)
{
	struct vt_state *st = vt_new(1ull << 30);
	vt_next_state = st;
	struct engine_opts o = { .target = "vt:test", .backend = &vt_backend, .allow_write = true };
	struct engine *eng;
	struct sb_err e;
	CHECK(engine_open(&o, &eng, &e) == 0);
	struct workload w;
	workload_defaults(&w);
	w.read_pct = 0;
	w.bs = 1 << 20;
	w.stop_bytes = 100 << 20;	/* 100 writes at 200 us: 20 ms */
	w.seed = 8;
	struct engine_result r1, r2;
	CHECK(engine_run(eng, &w, 1, NULL, &r1, &e) == 0);
	uint64_t t = engine_now(eng);
	CHECK_EQ_U64(t, r1.wl[0].finished_ns);
	engine_idle(eng, 600 * 1000 * MS);	/* ten minutes of rest */
	CHECK_EQ_U64(engine_now(eng), t + 600 * 1000 * MS);
	CHECK(engine_run(eng, &w, 1, NULL, &r2, &e) == 0);
	CHECK_EQ_U64(r2.wl[0].started_ns, t + 600 * 1000 * MS);
	CHECK_EQ_U64(r1.wl[0].measured_ns, 20 * MS);
	CHECK_EQ_U64(r2.wl[0].measured_ns, 20 * MS);
	CHECK_EQ_U64(r2.wl[0].bytes[DIR_WRITE], 100 << 20);
	CHECK(engine_discard(eng, 0, 1 << 20, &e) == 0);
	engine_result_free(&r1);
	engine_result_free(&r2);
	engine_close(eng);
	free(st);
}

TEST(vt_trim_refused_without_discard)
{
	struct vt_state *st = vt_new(1ull << 30);
	st->no_discard = true;
	struct workload w;
	workload_defaults(&w);
	w.trim_pct = 100;
	w.read_pct = 0;
	w.stop_bytes = 1 << 20;
	struct seen *seen = calloc(1, sizeof *seen);
	struct engine_result res;
	struct sb_err e;
	CHECK(vt_run(st, &w, 1, seen, &res, &e) == -1);
	CHECK(strstr(e.msg, "does not support discard") != NULL);
	CHECK_EQ_U64(st->submitted, 0);
	engine_result_free(&res);
	free(seen);
	free(st);
}

TEST(offsets_random_cover_span_aligned)
{
	struct workload w;
	workload_defaults(&w);
	w.pattern = PATTERN_RAND;
	w.bs = 3 * 512;
	w.span_offset = 4096;
	w.span_len = 64 * 1536 + 100;	/* 64 whole blocks and a tail */
	struct offset_gen g;
	offset_gen_init(&g, &w, 0, 99);
	bool hit[64] = { false };
	for (int i = 0; i < 20000; i++) {
		uint64_t off = offset_next(&g);
		CHECK(off >= 4096 && off + w.bs <= 4096 + w.span_len);
		CHECK((off - 4096) % w.bs == 0);
		hit[(off - 4096) / w.bs] = true;
	}
	for (int i = 0; i < 64; i++)
		CHECK(hit[i]);
}

TEST(offsets_random_reach_beyond_32_bits)
{
	/* 512 B blocks over 16 TiB: 2^35 offsets, past a 32-bit generator. */
	struct workload w;
	workload_defaults(&w);
	w.pattern = PATTERN_RAND;
	w.bs = 512;
	w.span_len = 16ull << 40;
	struct offset_gen g;
	offset_gen_init(&g, &w, 0, 5);
	uint64_t hi = 0;
	for (int i = 0; i < 1000; i++) {
		uint64_t off = offset_next(&g);
		CHECK(off % 512 == 0 && off < w.span_len);
		if (off > hi)
			hi = off;
	}
	CHECK(hi > (15ull << 40));
}

TEST(offsets_sequential_slices_and_wrap)
{
	struct workload w;
	workload_defaults(&w);
	w.bs = 4096;
	w.jobs = 3;
	w.span_offset = 8192;
	w.span_len = 10 * 4096;	/* 10 blocks / 3 jobs: 4, 3, 3 */
	static const uint64_t first[3] = { 0, 4, 7 }, len[3] = { 4, 3, 3 };
	struct offset_gen g[3];
	for (uint32_t j = 0; j < 3; j++)
		offset_gen_init(&g[j], &w, j, 1);
	for (uint32_t j = 0; j < 3; j++)
		for (uint64_t k = 0; k < 9; k++)
			CHECK_EQ_U64(offset_next(&g[j]), 8192 + (first[j] + k % len[j]) * 4096);
}

/*
 * A sequential pass (stop_bytes = passes x span) with several jobs, counted
 * block by block from the backend's log of what was actually submitted:
 * every whole block of the span is written `passes` times, nothing outside
 * it, and the result reports exactly the bytes written.  Spans with odd
 * block counts, a tail smaller than a block, jobs that do not divide the
 * blocks, and more jobs than blocks.
 */
static void check_seq_pass(struct vt_state *st, uint64_t blocks, uint32_t bs,
			   uint32_t tail, uint32_t jobs, uint32_t qd, uint32_t passes)
{
	uint64_t span_off = 3 * 4096;
	struct workload w;
	workload_defaults(&w);
	w.pattern = PATTERN_SEQ;
	w.read_pct = 0;
	w.bs = bs;
	w.qd = qd;
	w.jobs = jobs;
	w.span_offset = span_off;
	w.span_len = blocks * bs + tail;
	w.stop_bytes = passes * w.span_len;
	w.seed = 5;
	st->nlog = 0;
	st->nfly = 0;
	struct seen *seen = calloc(1, sizeof *seen);
	struct engine_result res;
	struct sb_err e;
	int rc = vt_run(st, &w, 1, seen, &res, &e);
	if (rc) {
		CHECK_FAIL("blocks %" PRIu64 " bs %u jobs %u: %s", blocks, bs, jobs, e.msg);
		engine_result_free(&res);
		free(seen);
		return;
	}
	uint32_t *count = calloc(blocks, sizeof *count);
	uint64_t outside = 0;
	for (uint64_t i = 0; i < st->nlog; i++) {
		const struct vt_io *io = &st->log[i];
		if (io->op != IO_WRITE || io->offset < span_off ||
		    io->offset + io->len > span_off + blocks * bs ||
		    (io->offset - span_off) % bs || io->len != bs) {
			outside++;
			continue;
		}
		count[(io->offset - span_off) / bs]++;
	}
	uint64_t wrong = 0, first_wrong = 0;
	for (uint64_t b = 0; b < blocks; b++)
		if (count[b] != passes && !wrong++)
			first_wrong = b;
	if (wrong || outside)
		CHECK_FAIL("blocks %" PRIu64 " bs %u tail %u jobs %u qd %u passes %u: "
			   "%" PRIu64 " blocks not written %u times (first %" PRIu64
			   ", written %u), %" PRIu64 " writes outside",
			   blocks, bs, tail, jobs, qd, passes, wrong, passes, first_wrong,
			   wrong ? count[first_wrong] : 0, outside);
	CHECK_EQ_U64(res.wl[0].bytes[DIR_WRITE], passes * blocks * bs);
	CHECK_EQ_U64(res.wl[0].ios[DIR_WRITE], passes * blocks);
	uint64_t sb[DIR_COUNT], sn[DIR_COUNT];
	sum_samples(seen, 0, sb, sn);
	CHECK_EQ_U64(sb[DIR_WRITE], passes * blocks * bs);
	free(count);
	engine_result_free(&res);
	free(seen);
}

TEST(vt_sequential_jobs_write_every_block_exactly_once)
{
	struct vt_state *st = vt_new(1ull << 30);
	/* The case: 40 KiB of 4 KiB blocks, 3 jobs. */
	check_seq_pass(st, 10, 4096, 0, 3, 1, 1);
	static const uint64_t blocks[] = { 1, 2, 3, 7, 10, 31, 64, 97, 1001 };
	static const uint32_t jobs[] = { 1, 2, 3, 4, 5, 8, 13, 64 };
	static const uint32_t bss[] = { 512, 4096, 12288, 131072 };
	for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++)
		for (size_t j = 0; j < sizeof jobs / sizeof jobs[0]; j++)
			for (size_t k = 0; k < sizeof bss / sizeof bss[0]; k++) {
				uint32_t qd = (uint32_t)(1 + (b + j + k) % 4 * 5);
				uint32_t tail = (b + k) % 2 ? bss[k] / 2 : 0;
				check_seq_pass(st, blocks[b], bss[k], tail, jobs[j], qd, 1);
			}
	/* Two passes: every block twice. */
	check_seq_pass(st, 10, 4096, 0, 3, 4, 2);
	check_seq_pass(st, 97, 4096, 512, 8, 2, 2);
	free(st);
}

TEST(validate_refuses_with_reasons)
{
	struct workload w;
	struct sb_err e;
	workload_defaults(&w);
	w.bs = 256;
	CHECK(workload_validate(&w, 1 << 30, 512, &e) == -1 && strstr(e.msg, "out of range"));
	workload_defaults(&w);
	w.bs = 128u << 20;
	CHECK(workload_validate(&w, 1ull << 34, 512, &e) == -1 && strstr(e.msg, "64 MiB"));
	workload_defaults(&w);
	w.bs = 6144;
	CHECK(workload_validate(&w, 1 << 30, 4096, &e) == -1 && strstr(e.msg, "logical block size (4096 B)"));
	workload_defaults(&w);
	w.qd = 0;
	CHECK(workload_validate(&w, 1 << 30, 512, &e) == -1 && strstr(e.msg, "queue depth"));
	workload_defaults(&w);
	w.qd = 1025;
	CHECK(workload_validate(&w, 1 << 30, 512, &e) == -1 && strstr(e.msg, "1 to 1024"));
	workload_defaults(&w);
	w.span_offset = 1 << 20;
	w.span_len = 1 << 30;
	CHECK(workload_validate(&w, 1 << 30, 512, &e) == -1 && strstr(e.msg, "beyond the target"));
	workload_defaults(&w);
	w.span_offset = 100;
	CHECK(workload_validate(&w, 1 << 30, 512, &e) == -1 && strstr(e.msg, "span offset"));
	workload_defaults(&w);
	w.stop_bytes = 100;
	CHECK(workload_validate(&w, 1 << 30, 512, &e) == -1 && strstr(e.msg, "smaller than one block"));
	workload_defaults(&w);
	w.span_offset = 1 << 20;
	CHECK(workload_validate(&w, 1 << 30, 512, &e) == 0);
	CHECK_EQ_U64(w.span_len, (1u << 30) - (1u << 20));
}

/* io_uring on a real file: every written block carries a unique stamp. */
TEST(uring_file_write_then_read_back)
{
	char path[] = "/tmp/ssdbench-unit-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	unlink(path);
	struct engine_opts o = { .target = path, .file_size = 4 << 20, .allow_write = true };
	struct engine *eng;
	struct sb_err e;
	/* A machine without io_uring, or /tmp without O_DIRECT (tmpfs on old
	   kernels), cannot run this: a skip, counted as one.  Anything else
	   that stops the engine from opening is a failure. */
	struct io_uring ring;
	int rc = io_uring_queue_init(4, &ring, 0);
	if (rc < 0)
		SKIP("no io_uring here: %s", strerror(-rc));
	io_uring_queue_exit(&ring);
	fd = open(path, O_RDWR | O_CREAT | O_DIRECT, 0600);
	if (fd < 0 && errno == EINVAL)
		SKIP("no O_DIRECT on /tmp");
	CHECK(fd >= 0);
	close(fd);
	unlink(path);
	if (engine_open(&o, &eng, &e)) {
		CHECK_FAIL("engine_open: %s", e.msg);
		return;
	}
	struct workload w;
	workload_defaults(&w);
	w.read_pct = 0;
	w.qd = 8;
	w.jobs = 2;
	w.bs = 16384;
	w.stop_bytes = 4 << 20;
	w.seed = 11;
	struct engine_result res;
	CHECK(engine_run(eng, &w, 1, NULL, &res, &e) == 0);
	CHECK_EQ_U64(res.wl[0].bytes[DIR_WRITE], 4 << 20);
	CHECK_EQ_U64(res.wl[0].hist[DIR_WRITE]->count, 256);
	CHECK(strncmp(res.mode, "interrupt", 9) == 0);
	engine_result_free(&res);
	engine_close(eng);

	/* Two jobs, sequential: each wrote its own half once, so every
	   512-byte block of the file holds a different stamp. */
	FILE *f = fopen(path, "rb");
	CHECK(f != NULL);
	uint64_t *stamps = malloc(8192 * sizeof *stamps);
	uint8_t blk[512];
	size_t n = 0;
	while (f && fread(blk, 1, 512, f) == 512 && n < 8192)
		memcpy(&stamps[n++], blk, 8);
	if (f)
		fclose(f);
	CHECK_EQ_U64(n, 8192);
	qsort(stamps, n, sizeof *stamps, cmp_u64);
	for (size_t i = 1; i < n; i++)
		CHECK(stamps[i] != stamps[i - 1]);
	free(stamps);
	unlink(path);
}

CHECK_MAIN("engine")
