/*
 * Open loop (a rate, engine/arrivals.h) against hand-computed truth: a
 * device with one known stall, on a virtual clock, must show the stall in
 * response latency (from each I/O's scheduled arrival) and not in service
 * latency (from its submission); arrival processes against their
 * definitions (uniform: the rate exactly; poisson: exponential gaps, mean
 * and variance 1/rate and 1/rate^2).
 */
#include "check.h"

#include "analysis/latency.h"
#include "engine/arrivals.h"
#include "engine/engine.h"
#include "vt_backend.h"

#define MS 1000000ull
#define US 1000ull

static struct vt_state *vt_new(uint64_t size)
{
	struct vt_state *st = calloc(1, sizeof *st);
	st->size = size;
	st->lat[IO_READ] = 100 * US;
	st->lat[IO_WRITE] = 100 * US;
	st->lat[IO_TRIM] = 100 * US;
	st->lat[IO_FSYNC] = 1 * MS;
	st->now = 7 * 1000 * MS;	/* not zero: times must be relative */
	return st;
}

static int run_on(const struct backend_ops *ops, struct vt_state *st,
		  const struct workload *w, struct engine_result *res, struct sb_err *e)
{
	vt_next_state = st;
	struct engine_opts o = { .target = "vt:test", .backend = ops, .allow_write = true };
	struct engine *eng;
	if (engine_open(&o, &eng, e))
		return -1;
	int rc = engine_run(eng, w, 1, NULL, res, e);
	engine_close(eng);
	return rc;
}

/* The k-th latency (1-based) of the sorted values: a nearest-rank reference. */
static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/*
 * QD1 reads arriving every 1 ms (1000 IOPS, uniform) for 100 ms on a
 * device that serves each in 100 us, except the 11th (arrival 10 ms),
 * which takes 5.5 ms.  By hand, I/O k arrives at k ms; I/O 10 holds the
 * only slot until 15.5 ms, so I/Os 11..15 (arrivals 11..15 ms) find the
 * queue full and go one after the other as the slot frees:
 *   I/O  submitted  completed  service  response  late by
 *   10   10.0       15.5       5.5      5.5       0
 *   11   15.5       15.6       0.1      4.6       4.5
 *   12   15.6       15.7       0.1      3.7       3.6
 *   13   15.7       15.8       0.1      2.8       2.7
 *   14   15.8       15.9       0.1      1.9       1.8
 *   15   15.9       16.0       0.1      1.0       0.9
 * and I/O 16 arrives at 16.0 as the slot frees: on time.  Every other I/O
 * takes 0.1 ms either way.  A closed loop would have issued I/O 11 at
 * 15.5 and counted 0.1 ms: the stall's cost to the waiting arrivals would
 * vanish (coordinated omission).
 */
static void stall_case(const struct backend_ops *ops)
{
	struct vt_state *st = vt_new(1ull << 30);
	uint64_t svc[200];
	for (int i = 0; i < 200; i++)
		svc[i] = 100 * US;
	svc[10] = 5500 * US;
	st->svc = svc;
	st->nsvc = 200;
	struct workload w;
	workload_defaults(&w);
	w.pattern = PATTERN_RAND;
	w.qd = 1;
	w.rate_iops = 1000;
	w.stop_time_ns = 100 * MS;
	w.seed = 3;
	struct engine_result res;
	struct sb_err e;
	CHECK(run_on(ops, st, &w, &res, &e) == 0);
	const struct workload_result *r = &res.wl[0];
	CHECK_EQ_U64(r->ios[DIR_READ], 100);
	CHECK(r->response[DIR_READ] != NULL && r->lateness[DIR_READ] != NULL);
	if (!r->response[DIR_READ] || !r->lateness[DIR_READ])
		goto out;

	/* the reference, from the table above */
	uint64_t resp[100], serv[100];
	for (int k = 0; k < 100; k++)
		resp[k] = serv[k] = 100 * US;
	serv[10] = resp[10] = 5500 * US;
	static const uint64_t late_ref[] = { 4500 * US, 3600 * US, 2700 * US, 1800 * US, 900 * US };
	uint64_t late_sum = 0;
	for (int k = 11; k <= 15; k++) {
		resp[k] = late_ref[k - 11] + 100 * US;
		late_sum += late_ref[k - 11];
	}
	uint64_t resp_sum = 0, serv_sum = 0;
	for (int k = 0; k < 100; k++) {
		resp_sum += resp[k];
		serv_sum += serv[k];
	}
	qsort(resp, 100, sizeof resp[0], cmp_u64);
	qsort(serv, 100, sizeof serv[0], cmp_u64);

	const struct lat_hist *hs = r->hist[DIR_READ], *hr = r->response[DIR_READ];
	CHECK_EQ_U64(hs->count, 100);
	CHECK_EQ_U64(hr->count, 100);
	CHECK_EQ_U64(hs->sum, serv_sum);		/* 15.4 ms */
	CHECK_EQ_U64(hr->sum, resp_sum);		/* 28.9 ms */
	CHECK_EQ_U64(hs->max, 5500 * US);
	CHECK_EQ_U64(hr->max, 5500 * US);
	/* p99 = rank 99: service 0.1 ms (the stall is only its max), response
	   4.6 ms (the I/O that waited longest behind it) */
	CHECK_REL((double)hist_percentile(hs, 99), (double)serv[98], 0.0005);
	CHECK_REL((double)hist_percentile(hr, 99), (double)resp[98], 0.0005);
	CHECK_EQ_U64(serv[98], 100 * US);
	CHECK_EQ_U64(resp[98], 4600 * US);
	CHECK_REL((double)hist_percentile(hr, 95), (double)resp[94], 0.0005);

	struct lateness_summary l;
	lat_lateness(r->lateness[DIR_READ], &l);
	CHECK_EQ_U64(l.ios, 100);
	CHECK_EQ_U64(l.late, 5);
	CHECK_EQ_U64(l.max_ns, 4500 * US);
	CHECK_REL(l.late_mean_ns, (double)late_sum / 5, 1e-12);	/* 2.7 ms */
out:
	engine_result_free(&res);
	free(st);
}

TEST(stall_in_response_not_service_virtual_clock)
{
	stall_case(&vt_backend);
}

/* The same device seen as io_uring sees one: completions stamped by the
   engine, the real-time waits (timeouts at the next arrival). */
TEST(stall_in_response_not_service_real_time_path)
{
	stall_case(&vt_ring_backend);
}

/* A closed loop records no response latency: it would be the service's. */
TEST(closed_loop_has_no_response_histogram)
{
	struct vt_state *st = vt_new(1ull << 30);
	struct workload w;
	workload_defaults(&w);
	w.pattern = PATTERN_RAND;
	w.qd = 2;
	w.stop_time_ns = 10 * MS;
	struct engine_result res;
	struct sb_err e;
	CHECK(run_on(&vt_backend, st, &w, &res, &e) == 0);
	CHECK_EQ_U64(res.wl[0].ios[DIR_READ], 200);
	CHECK(res.wl[0].response[DIR_READ] == NULL);
	CHECK(res.wl[0].lateness[DIR_READ] == NULL);
	engine_result_free(&res);
	free(st);
}

/* Uniform: the rate is achieved (within 1 %), in I/Os and in bytes. */
TEST(uniform_rate_achieved)
{
	struct vt_state *st = vt_new(1ull << 30);
	struct workload w;
	workload_defaults(&w);
	w.pattern = PATTERN_RAND;
	w.qd = 16;
	w.jobs = 2;
	w.rate_iops = 50000;
	w.stop_time_ns = 1000 * MS;
	w.seed = 9;
	struct engine_result res;
	struct sb_err e;
	CHECK(run_on(&vt_backend, st, &w, &res, &e) == 0);
	double iops = (double)res.wl[0].ios[DIR_READ] * 1e9 / (double)res.wl[0].measured_ns;
	CHECK_REL(iops, 50000, 0.01);
	/* nothing waited: 16 slots, 100 us each, 25000 IOPS per job */
	struct lateness_summary l;
	lat_lateness(res.wl[0].lateness[DIR_READ], &l);
	CHECK_EQ_U64(l.late, 0);
	engine_result_free(&res);

	workload_defaults(&w);
	w.pattern = PATTERN_RAND;
	w.read_pct = 0;
	w.qd = 8;
	w.rate = 100000000;	/* 100 MB/s of 4 KiB writes */
	w.stop_time_ns = 1000 * MS;
	w.seed = 10;
	CHECK(run_on(&vt_backend, st, &w, &res, &e) == 0);
	double bps = (double)res.wl[0].bytes[DIR_WRITE] * 1e9 / (double)res.wl[0].measured_ns;
	CHECK_REL(bps, 100e6, 0.01);
	engine_result_free(&res);
	free(st);
}

/* Gaps between consecutive submissions, from the device's log. */
static size_t submit_gaps(const struct vt_state *st, double *gap, size_t max)
{
	size_t n = 0;
	for (uint64_t i = 1; i < st->nlog && n < max; i++) {
		uint64_t a = st->log[i - 1].done - st->lat[st->log[i - 1].op];
		uint64_t b = st->log[i].done - st->lat[st->log[i].op];
		gap[n++] = (double)(b - a);
	}
	return n;
}

static void mean_var(const double *x, size_t n, double *mean, double *var)
{
	double s = 0, ss = 0;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	*mean = s / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - *mean) * (x[i] - *mean);
	*var = ss / (double)(n - 1);
}

/*
 * Poisson at 10000 IOPS: exponential gaps, mean 100 us, variance
 * (100 us)^2.  With 100 000 gaps the standard error is 0.3 % of the mean
 * and 0.9 % of the variance; the tolerances are about 3 of them.  The
 * device (10 us, QD 64) never makes an arrival wait, so the submissions
 * are the arrivals.
 */
TEST(poisson_gaps_match_the_exponential)
{
	struct vt_state *st = vt_new(1ull << 30);
	st->lat[IO_READ] = 10 * US;
	struct workload w;
	workload_defaults(&w);
	w.pattern = PATTERN_RAND;
	w.qd = 64;
	w.rate_iops = 10000;
	w.rate_process = ARRIVAL_POISSON;
	w.stop_time_ns = 10000 * MS;
	w.seed = 21;
	struct engine_result res;
	struct sb_err e;
	CHECK(run_on(&vt_backend, st, &w, &res, &e) == 0);
	static double gap[VT_MAX_LOG];
	size_t n = submit_gaps(st, gap, VT_MAX_LOG);
	CHECK(n > 90000);
	double mean, var;
	mean_var(gap, n, &mean, &var);
	CHECK_REL(mean, 100e3, 0.01);
	CHECK_REL(var, 100e3 * 100e3, 0.03);
	/* memoryless: P(gap > mean) = 1/e */
	size_t above = 0;
	for (size_t i = 0; i < n; i++)
		above += gap[i] > 100e3;
	CHECK_NEAR((double)above / (double)n, exp(-1), 0.006);
	struct lateness_summary l;
	lat_lateness(res.wl[0].lateness[DIR_READ], &l);
	CHECK_EQ_U64(l.late, 0);
	engine_result_free(&res);
	free(st);
}

/* The schedule itself: a million draws, and a uniform one that never drifts. */
TEST(arrival_schedules_by_definition)
{
	struct arrivals a;
	arrivals_init(&a, ARRIVAL_POISSON, 250000, 5, 77);
	CHECK_EQ_U64(a.next_ns, 5);
	enum { N = 1000000 };
	double s = 0, ss = 0, prev = 5;
	for (int i = 0; i < N; i++) {
		arrivals_take(&a, 1);
		double g = (double)a.next_ns - prev;
		prev = (double)a.next_ns;
		s += g;
		ss += g * g;
	}
	double mean = s / N, var = ss / N - mean * mean;
	CHECK_REL(mean, 4000, 0.005);		/* 1 / 250000 s */
	CHECK_REL(var, 4000.0 * 4000.0, 0.015);

	/* uniform 3 I/Os per second: 333333333.3 ns apart, never early, and
	   after 3e6 of them exactly 1e6 s */
	arrivals_init(&a, ARRIVAL_UNIFORM, 3, 0, 1);
	arrivals_take(&a, 1);
	CHECK_EQ_U64(a.next_ns, 333333334);
	for (int i = 1; i < 3000000; i++)
		arrivals_take(&a, 1);
	CHECK_EQ_U64(a.next_ns, 1000000ull * 1000000000ull);
	/* bytes: the gap after an I/O is its size over the rate */
	arrivals_init(&a, ARRIVAL_UNIFORM, 1000000, 100, 1);
	arrivals_take(&a, 4096);
	CHECK_EQ_U64(a.next_ns, 100 + 4096000);
	arrivals_take(&a, 512);
	CHECK_EQ_U64(a.next_ns, 100 + 4608000);

	struct sb_err e;
	enum arrival_process p;
	CHECK(arrival_process_parse("poisson", &p, &e) == 0 && p == ARRIVAL_POISSON);
	CHECK(arrival_process_parse("linear", &p, &e) == 0 && p == ARRIVAL_UNIFORM);
	CHECK(arrival_process_parse("bursty", &p, &e) == -1);
}

/* Refusals: two rates, or a process without a rate. */
TEST(open_loop_refusals)
{
	struct workload w;
	struct sb_err e;
	workload_defaults(&w);
	w.rate = 1000000;
	w.rate_iops = 100;
	CHECK(workload_validate(&w, 1ull << 30, 512, &e) == -1);
	workload_defaults(&w);
	w.rate_process = ARRIVAL_POISSON;
	CHECK(workload_validate(&w, 1ull << 30, 512, &e) == -1);
	w.rate_iops = 100;
	CHECK(workload_validate(&w, 1ull << 30, 512, &e) == 0);
}

CHECK_MAIN("test_openloop")
