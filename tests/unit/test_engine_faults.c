/*
 * The engine when the I/O path misbehaves (fault_backend.h): partial and
 * refused submits, -EAGAIN completions, short reads and writes, an error at
 * a given offset, slow completions, and a collector that falls behind.
 * The reference is the RAM disk the writes landed in: a sequential pass
 * over the span must leave every 512-byte unit written once, each with a
 * stamp of its own (a remainder written from the wrong place in its buffer
 * would repeat a stamp), and the byte counts must be the span's.
 */
#include "check.h"

#include <unistd.h>

#include "engine/engine.h"
#include "fault_backend.h"

#define KIB 1024ull
#define MIB (1024ull * 1024)
#define US 1000ull
#define MS 1000000ull

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

struct seen {
	uint32_t intervals;
	uint64_t ios_during_slow;	/* I/Os of intervals handed over while a hook slept */
	uint64_t slow_at, slow_ns;	/* on_interval: sleep slow_ns at interval slow_at */
	uint64_t every_ns;		/* on_interval: sleep this long every time */
	bool sleeping_done;
	uint64_t last_index;
};

static int seen_interval(void *ctx, const struct interval_sample *s, struct sb_err *e)
{
	(void)e;
	struct seen *v = ctx;
	v->intervals++;
	v->last_index = s->index;
	if (v->sleeping_done && s->index > v->slow_at && s->index <= v->slow_at + 8)
		v->ios_during_slow += s->dir[DIR_WRITE].ios + s->dir[DIR_READ].ios;
	if (v->slow_ns && s->index == v->slow_at) {
		usleep((useconds_t)(v->slow_ns / 1000));
		v->sleeping_done = true;
	}
	if (v->every_ns)
		usleep((useconds_t)(v->every_ns / 1000));
	return 0;
}

static int run_every(struct fb_state *st, struct workload *w, struct seen *v,
		     uint64_t interval_ns, struct engine_result *res, struct sb_err *e)
{
	fb_next_state = st;
	struct engine_opts o = { .target = "fault", .backend = &fault_backend,
				 .allow_write = true, .interval_ns = interval_ns };
	struct engine *eng;
	if (engine_open(&o, &eng, e))
		return -2;
	struct engine_hooks h = { .ctx = v, .on_interval = seen_interval };
	int rc = engine_run(eng, w, 1, &h, res, e);
	engine_close(eng);
	return rc;
}

static int run_on(struct fb_state *st, struct workload *w, struct seen *v,
		  struct engine_result *res, struct sb_err *e)
{
	return run_every(st, w, v, 0, res, e);
}

/* A run that must succeed; says why when it did not. */
static void run_must_pass(struct fb_state *st, struct workload *w, struct engine_result *res)
{
	struct seen v = { 0 };
	struct sb_err e;
	int rc = run_on(st, w, &v, res, &e);
	if (rc)
		CHECK_FAIL("the run failed: %s", e.msg);
}

static void seq_write(struct workload *w, uint64_t span, uint32_t bs, uint32_t qd)
{
	workload_defaults(w);
	w->pattern = PATTERN_SEQ;
	w->read_pct = 0;
	w->bs = bs;
	w->qd = qd;
	w->span_len = span;
	w->stop_bytes = span;
	w->seed = 7;
}

/* Every 512-byte unit of [0, span) written, each with a stamp of its own. */
static void check_disk_written_once(const struct fb_state *st, uint64_t span)
{
	uint64_t n = span / 512;
	uint64_t *stamps = malloc(n * sizeof *stamps);
	for (uint64_t i = 0; i < n; i++)
		memcpy(&stamps[i], st->disk + i * 512, 8);
	qsort(stamps, n, sizeof *stamps, cmp_u64);
	uint64_t zero = 0, dup = 0;
	for (uint64_t i = 0; i < n; i++) {
		zero += stamps[i] == 0;
		dup += i && stamps[i] == stamps[i - 1];
	}
	CHECK_EQ_U64(zero, 0);
	CHECK_EQ_U64(dup, 0);
	free(stamps);
}

static void check_exact(const struct engine_result *res, uint64_t span, uint32_t bs)
{
	CHECK_EQ_U64(res->wl[0].bytes[DIR_WRITE], span);
	CHECK_EQ_U64(res->wl[0].ios[DIR_WRITE], span / bs);
	CHECK_EQ_U64(res->wl[0].hist[DIR_WRITE]->count, span / bs);
}

TEST(partial_and_refused_submits_lose_no_io)
{
	struct fb_state *st = fb_new(2 * MIB, 50 * US);
	st->accept_max = 3;
	st->refuse_first = 5;
	struct workload w;
	seq_write(&w, 1 * MIB, 4096, 16);
	struct engine_result res;
	run_must_pass(st, &w, &res);
	check_exact(&res, 1 * MIB, 4096);
	check_disk_written_once(st, 1 * MIB);
	CHECK_EQ_U64(st->refused, 5);
	CHECK_EQ_U64(st->accepted, 256);
	CHECK_EQ_U64(st->inflight_at_destroy, 0);
	engine_result_free(&res);
	fb_free(st);
}

TEST(eagain_completions_are_retried)
{
	struct fb_state *st = fb_new(2 * MIB, 50 * US);
	st->eagain_every = 7;
	struct workload w;
	seq_write(&w, 1 * MIB, 4096, 8);
	struct engine_result res;
	run_must_pass(st, &w, &res);
	CHECK(st->eagains > 0);
	check_exact(&res, 1 * MIB, 4096);
	check_disk_written_once(st, 1 * MIB);
	engine_result_free(&res);
	fb_free(st);
}

TEST(short_writes_and_reads_are_finished)
{
	struct fb_state *st = fb_new(2 * MIB, 50 * US);
	st->short_every = 3;
	struct workload w;
	seq_write(&w, 1 * MIB, 16 * 1024, 8);
	struct engine_result res;
	run_must_pass(st, &w, &res);
	CHECK(st->shorts > 0);
	CHECK_EQ_U64(st->bad_resubmits, 0);
	check_exact(&res, 1 * MIB, 16 * 1024);
	check_disk_written_once(st, 1 * MIB);
	engine_result_free(&res);

	/* Reads: each counts once, with its whole length. */
	uint64_t shorts = st->shorts;
	w.read_pct = 100;
	run_must_pass(st, &w, &res);
	CHECK(st->shorts > shorts);
	CHECK_EQ_U64(res.wl[0].bytes[DIR_READ], 1 * MIB);
	CHECK_EQ_U64(res.wl[0].ios[DIR_READ], 64);
	engine_result_free(&res);
	fb_free(st);
}

/* An I/O error: the run stops with the offset and errno, and keeps what it measured. */
TEST(error_at_offset_stops_cleanly_with_offset_and_errno)
{
	struct fb_state *st = fb_new(8 * MIB, 200 * US);
	st->fail_offset = 3 * MIB;
	struct workload w;
	seq_write(&w, 8 * MIB, 4096, 8);
	struct seen v = { 0 };
	struct engine_result res;
	struct sb_err e;
	CHECK(run_on(st, &w, &v, &res, &e) == -1);
	CHECK(strstr(e.msg, "offset 3145728") != NULL);
	CHECK(strstr(e.msg, strerror(EIO)) != NULL);
	/* Everything below the failed block completed and was counted. */
	CHECK(res.wl[0].bytes[DIR_WRITE] >= 3 * MIB);
	CHECK(v.intervals > 0);
	CHECK_EQ_U64(st->inflight_at_destroy, 0);
	engine_result_free(&res);
	fb_free(st);
}

/*
 * A submit that fails while a slow I/O is in flight: the queue and its
 * buffers may go only once that I/O is back, and its completion counts.
 */
TEST(no_buffer_freed_while_in_flight)
{
	struct fb_state *st = fb_new(2 * MIB, 50 * US);
	st->slow_offset = 64 * KIB;
	st->slow_ns = 300 * MS;
	st->fail_offset = 96 * KIB;
	st->fail_at_submit = true;
	struct workload w;
	seq_write(&w, 1 * MIB, 4096, 8);
	struct seen v = { 0 };
	struct engine_result res;
	struct sb_err e;
	CHECK(run_on(st, &w, &v, &res, &e) == -1);
	CHECK(strstr(e.msg, "offset 98304") != NULL);
	CHECK_EQ_U64(st->inflight_at_destroy, 0);
	/* The slow write came back and counts: blocks 0 .. 95 KiB. */
	CHECK_EQ_U64(res.wl[0].bytes[DIR_WRITE], 96 * KIB);
	engine_result_free(&res);
	fb_free(st);
}

/* Random 4 KiB reads at QD4 for `ms`, measured from the start. */
static void rand_read(struct workload *w, uint64_t ms)
{
	workload_defaults(w);
	w->pattern = PATTERN_RAND;
	w->read_pct = 100;
	w->qd = 4;
	w->stop_time_ns = ms * MS;
	w->ramp_ns = 0;
}

/*
 * A collector that stops for a second (a slow commit or a WAL checkpoint
 * of the store): the I/O goes on meanwhile, its intervals wait in the
 * ring, and nothing stalls.
 */
TEST(one_slow_commit_does_not_stop_io)
{
	struct fb_state *st = fb_new(64 * MIB, 100 * US);
	struct workload w;
	rand_read(&w, 2500);
	struct seen v = { .slow_at = 3, .slow_ns = 1000 * MS };
	struct engine_result res;
	struct sb_err e;
	CHECK(run_on(st, &w, &v, &res, &e) == 0);
	/* The 8 intervals after the slow one ran while the hook slept. */
	CHECK(v.ios_during_slow > 8 * 100);
	CHECK_EQ_U64(res.wl[0].driver_stalls, 0);
	CHECK_EQ_U64(res.wl[0].driver_stall_ns, 0);
	engine_result_free(&res);
	fb_free(st);
}

/*
 * A collector slower than the intervals come (40 ms per 20 ms interval):
 * the ring fills and the driver has to wait.  Those waits are counted,
 * with their length, and the run still ends with every I/O counted.
 */
TEST(persistently_slow_collector_stalls_are_counted)
{
	struct fb_state *st = fb_new(64 * MIB, 100 * US);
	struct workload w;
	rand_read(&w, 1500);
	struct seen v = { .every_ns = 40 * MS };
	struct engine_result res;
	struct sb_err e;
	uint64_t t0 = fb_clock();
	CHECK(run_every(st, &w, &v, 20 * MS, &res, &e) == 0);
	uint64_t wall = fb_clock() - t0;
	CHECK(res.wl[0].driver_stalls > 0);
	CHECK(res.wl[0].driver_stall_ns > 0);
	CHECK(res.wl[0].driver_stall_ns < wall);
	/* Every I/O the backend completed is in the totals. */
	CHECK_EQ_U64(res.wl[0].ios[DIR_READ], st->completions);
	engine_result_free(&res);
	fb_free(st);
}

CHECK_MAIN("engine_faults")
