/*
 * A synthetic review in a results database, written through store.h the way
 * the suite writes one: every step of the methodology, with samples and
 * histograms of known shape, so that what the report draws can be checked
 * against the numbers put in.  `scale` multiplies every throughput, so a
 * device at scale 1.4 must rank above one at 1.0 in every bar.
 *
 * Known truth per device at scale s (rates in MB/s = 10^6 B/s):
 *   peak:        profile default: SEQ1M Q8T1 read 7000 s, write 6000 s;
 *                RND4K Q1T1 read 80 s, write 200 s; profile nvme:
 *                SEQ1M Q8T1 read 7100 s, write 6100 s (fx_peak_mbps), one
 *                pass each, the figures stored as the suite stores them
 *   fill pass 1: 200 samples at 5000 s, then 400 at 1500 s (100 ms each):
 *                cache 100 GB x s, mean of samples 2666.67 s, p1 1500 s
 *   fill pass 2: 20 at 5000 s, then 580 at 1500 s
 *   active range: spans 1, 4, 16, 64 GiB; IOPS 500000 s / (1 + 0.2 i)
 *   sync write:  40 s MB/s
 *   R/W ratio:   read 0/50/100 % x QD 1/2/4, two runs each with the same
 *                value (100 + read% + 20 QD) s: weighted score at 50 %
 *                = 176 s
 *   reclaim:     idles 5, 30, 120 s; the minute after writes at 5000 s for
 *                min(idle, 50) x 2 samples, then at 1500 s
 *   seq_precond: 300 samples, 2000 s
 *   rnd_precond: RND 4 KiB write, 300 samples at 20000 s IOPS with a burst
 *                to 10x every 50th sample; latency p50 8 ms (fx_hist of
 *                FX_PRECOND_N I/Os: its max is the step's maximum latency)
 *   rnd_sweeps:  mix 100 (read) and 0 (write) at QD 1, 4, 16, 64;
 *                read IOPS 20000 s QD^0.7, write 5000 s QD^0.5, latency
 *                p50 = QD / IOPS (so write QD64 is over 1 ms)
 *   tail:        read 12000 s IOPS, write 50000 s IOPS at QD1 for 30 s,
 *                every I/O in the histogram (fx_hist, p50 80 / 20 us)
 *   boot:        boot.score_iops 80000 s, pass_iops 60000
 */
#ifndef SSDBENCH_TESTS_REPORT_FIXTURE_H
#define SSDBENCH_TESTS_REPORT_FIXTURE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/hist.h"
#include "store/store.h"

#define FX_MB 1e6
#define FX_SAMPLE_NS 100000000ull
#define FX_CAPACITY 2000000000000ull

struct fx_wl {
	const char *name;
	const char *pattern;	/* "seq" / "rand" */
	int read_pct;
	uint32_t bs, qd;
	uint64_t span;
};

static inline char *fx_spec(const struct fx_wl *w)
{
	char *buf = malloc(512);
	snprintf(buf, 512, "{\"pattern\":\"%s\",\"read_pct\":%d,\"trim_pct\":0,"
		 "\"bs\":%u,\"qd\":%u,\"jobs\":1,\"span_offset\":0,"
		 "\"span_len\":%llu,\"sync\":false}", w->pattern, w->read_pct,
		 w->bs, w->qd, (unsigned long long)w->span);
	return buf;
}

/*
 * Latencies of a workload: `n` values around `p50_us`, evenly spread over
 * +-10 %, every 1000th 5x and every 100000th 30x (a tail to draw).
 * Deterministic, so a test can rebuild the same histogram.
 */
static inline void fx_hist(struct lat_hist *h, uint64_t n, double p50_us)
{
	hist_reset(h);
	for (uint64_t k = 0; k < n; k++) {
		double v = p50_us * 1000.0 * (0.9 + 0.2 * (double)(k % 997) / 997);
		if (k % 100000 == 99999)
			v *= 30;
		else if (k % 1000 == 999)
			v *= 5;
		hist_add(h, (uint64_t)v);
	}
}

/*
 * One workload: samples at the rates (MB/s) given, its totals, and
 * histograms of at most `hist_n` latencies per direction (p50 `lat_us`).
 */
static inline void fx_put(struct store *s, int64_t run, int64_t step,
			  uint32_t idx, const struct fx_wl *w, const double *mbps,
			  size_t n, double lat_us, uint64_t hist_n)
{
	struct sb_err e;
	int64_t id;
	char *spec = fx_spec(w);
	if (store_workload_begin(s, run, step, idx, w->name, spec, &id, &e))
		CHECK_FAIL("workload_begin: %s", e.msg);
	free(spec);
	struct store_totals t;
	memset(&t, 0, sizeof(t));
	for (size_t i = 0; i < n; i++) {
		struct interval_sample x;
		memset(&x, 0, sizeof(x));
		x.workload = idx;
		x.index = i;
		x.t_start_ns = i * FX_SAMPLE_NS;
		x.t_end_ns = (i + 1) * FX_SAMPLE_NS;
		uint64_t bytes = (uint64_t)llround(mbps[i] * FX_MB / 10);
		uint64_t rd = bytes * (uint64_t)w->read_pct / 100;
		uint64_t part[2] = { rd, bytes - rd };
		for (int d = 0; d < 2; d++) {
			x.dir[d].bytes = part[d];
			x.dir[d].ios = part[d] / w->bs;
			x.dir[d].lat_sum_ns = (uint64_t)(lat_us * 1000) *
					      x.dir[d].ios;
			x.dir[d].lat_p50_ns = (uint64_t)(lat_us * 1000);
			x.dir[d].lat_p99_ns = (uint64_t)(lat_us * 1500);
			t.bytes[d] += part[d];
			t.ios[d] += x.dir[d].ios;
		}
		if (store_add_sample(s, id, &x, &e))
			CHECK_FAIL("add_sample: %s", e.msg);
	}
	t.measured_ns = n * FX_SAMPLE_NS;
	struct lat_hist *h[DIR_COUNT];
	for (int d = 0; d < DIR_COUNT; d++) {
		h[d] = hist_new();
		if (d < 2 && t.ios[d])
			fx_hist(h[d], t.ios[d] < hist_n ? t.ios[d] : hist_n,
				lat_us);
	}
	if (store_workload_totals(s, id, &t, h, true, &e) ||
	    store_workload_finish(s, id, "done", "virtual", &e))
		CHECK_FAIL("workload totals: %s", e.msg);
	for (int d = 0; d < DIR_COUNT; d++)
		hist_free(h[d]);
}

static inline int64_t fx_step(struct store *s, int64_t run, int seq,
			      const char *name, const char *params)
{
	struct sb_err e;
	int64_t id;
	if (store_step_begin(s, run, seq, name, params, &id, &e))
		CHECK_FAIL("step_begin %s: %s", name, e.msg);
	return id;
}

static inline void fx_step_done(struct store *s, int64_t step)
{
	struct sb_err e;
	if (store_step_finish(s, step, "done", NULL, &e))
		CHECK_FAIL("step_finish: %s", e.msg);
}

/* A pass at `hi` MB/s for n_hi samples, then `lo` for n_lo; +-1 % ripple. */
static inline size_t fx_two_level(double *v, size_t n_hi, double hi,
				  size_t n_lo, double lo)
{
	for (size_t i = 0; i < n_hi + n_lo; i++)
		v[i] = (i < n_hi ? hi : lo) * (i % 2 ? 1.01 : 0.99);
	return n_hi + n_lo;
}

static inline double fx_rw_value(int read_pct, int qd, double sc)
{
	return (100.0 + read_pct + 20.0 * qd) * sc;
}

static inline double fx_sweep_iops(int read, int qd, double sc)
{
	return read ? 20000.0 * sc * pow(qd, 0.7) : 5000.0 * sc * pow(qd, 0.5);
}

/* Peak tests of the fixture, in the suite's order (write, then read). */
struct fx_peak {
	const char *profile, *test, *name;	/* key part, workload name part */
	const char *pattern;
	uint32_t bs, qd;
	double read, write;	/* MB/s at scale 1 */
};

static const struct fx_peak fx_peaks[] = {
	{ "default", "seq1m_q8t1", "SEQ1M-Q8T1", "seq", 1048576, 8, 7000, 6000 },
	{ "default", "rnd4k_q1t1", "RND4K-Q1T1", "rand", 4096, 1, 80, 200 },
	{ "nvme", "seq1m_q8t1", "SEQ1M-Q8T1", "seq", 1048576, 8, 7100, 6100 },
};
#define FX_NPEAK (sizeof(fx_peaks) / sizeof(fx_peaks[0]))

/* RND preconditioning: IOPS of sample k at scale 1, and how many I/Os its
   histogram holds. */
#define FX_PRECOND_N 20000ull
static inline double fx_precond_iops(int k)
{
	return k % 50 == 49 ? 200000.0 : 20000.0;
}

/* Histograms of the tail step hold every I/O (up to this many). */
#define FX_TAIL_N 10000000ull

/* A whole suite run of one device into an open store; returns its id. */
static inline int64_t fx_suite_run(struct store *s, const char *target,
				   double sc)
{
	struct sb_err e;
	int64_t run;
	struct run_begin b = {
		.kind = "suite", .target = target,
		.command_line = "ssdbench suite --preset full",
		.params_json = "{\"preset\":\"full\"}",
		.host_json = "{\"kernel\":\"6.1.0\",\"machine\":\"x86_64\","
			     "\"cpu_model\":\"Test CPU\",\"cpus\":4,"
			     "\"tool_version\":\"0.1.0\"}",
	};
	if (store_run_begin(s, &b, &run, &e))
		CHECK_FAIL("run_begin: %s", e.msg);
	char facts[256];
	snprintf(facts, sizeof(facts), "{\"path\":\"%s\",\"kind\":\"sim\","
		 "\"size\":%llu,\"logical_block\":512}", target,
		 (unsigned long long)FX_CAPACITY);
	if (store_run_target_facts(s, run, "after", facts, &e) ||
	    store_run_engine_mode(s, run, "virtual", &e))
		CHECK_FAIL("facts: %s", e.msg);

	static double v[4096];
	int seq = 1;
	int64_t st;

	st = fx_step(s, run, seq++, "purge", "{\"kind\":\"purge\"}");
	if (store_put_metric(s, run, st, 0, "purge.purge_method", 1, "format",
			     &e))
		CHECK_FAIL("metric: %s", e.msg);
	fx_step_done(s, st);

	st = fx_step(s, run, seq++, "peak", "{\"kind\":\"peak\"}");
	uint32_t pidx = 0;
	for (size_t i = 0; i < FX_NPEAK; i++) {
		const struct fx_peak *pk = &fx_peaks[i];
		for (int rd = 0; rd < 2; rd++) {
			char name[96], key[128];
			double mbps = (rd ? pk->read : pk->write) * sc;
			snprintf(name, sizeof(name), "prof=%s test=%s dir=%s "
				 "pass=1", pk->profile, pk->name,
				 rd ? "read" : "write");
			struct fx_wl w = { name, pk->pattern, rd ? 100 : 0,
					   pk->bs, pk->qd, 1ull << 30 };
			for (int k = 0; k < 10; k++)
				v[k] = mbps;
			fx_put(s, run, st, pidx++, &w, v, 10, 100, 2000);
			snprintf(key, sizeof(key), "peak.%s.%s.%s.mbps",
				 pk->profile, pk->test, rd ? "read" : "write");
			if (store_put_metric(s, run, st, 0, key, mbps, "MB/s",
					     &e))
				CHECK_FAIL("metric: %s", e.msg);
		}
	}
	fx_step_done(s, st);

	st = fx_step(s, run, seq++, "fill", "{\"kind\":\"fill\",\"passes\":\"2\"}");
	struct fx_wl fill = { "pass=1", "seq", 0, 131072, 256, 0 };
	size_t n = fx_two_level(v, 200, 5000 * sc, 400, 1500 * sc);
	fx_put(s, run, st, 0, &fill, v, n, 6000, 20000);
	fill.name = "pass=2";
	n = fx_two_level(v, 20, 5000 * sc, 580, 1500 * sc);
	fx_put(s, run, st, 1, &fill, v, n, 6000, 20000);
	fx_step_done(s, st);

	st = fx_step(s, run, seq++, "active_range",
		     "{\"kind\":\"active_range\"}");
	for (int i = 0; i < 4; i++) {
		char name[32];
		uint64_t span = (1ull << 30) << (2 * i);
		snprintf(name, sizeof(name), "span=%llu", (unsigned long long)span);
		struct fx_wl w = { name, "rand", 100, 4096, 256, span };
		double iops = 500000.0 * sc / (1 + 0.2 * i);
		for (int k = 0; k < 10; k++)
			v[k] = iops * 4096 / FX_MB;
		fx_put(s, run, st, (uint32_t)i, &w, v, 10, 500, 20000);
	}
	fx_step_done(s, st);

	st = fx_step(s, run, seq++, "sync_write", "{\"kind\":\"sync_write\"}");
	struct fx_wl sync = { "sync", "rand", 0, 4096, 1, 8ull << 30 };
	for (int k = 0; k < 50; k++)
		v[k] = 40 * sc;
	fx_put(s, run, st, 0, &sync, v, 50, 100, 20000);
	fx_step_done(s, st);

	st = fx_step(s, run, seq++, "rw_ratio", "{\"kind\":\"rw_ratio\","
		     "\"qds\":\"1,2,4\",\"weights\":\"0.80,0.15,0.05\"}");
	uint32_t idx = 0;
	for (int r = 0; r <= 100; r += 50)
		for (int qd = 1; qd <= 4; qd *= 2)
			for (int k = 0; k < 2; k++) {
				char name[48];
				snprintf(name, sizeof(name), "read=%d qd=%d run=%d",
					 r, qd, k + 1);
				struct fx_wl w = { name, "rand", r, 4096,
						   (uint32_t)qd, 8ull << 30 };
				for (int j = 0; j < 10; j++)
					v[j] = fx_rw_value(r, qd, sc);
				fx_put(s, run, st, idx++, &w, v, 10, 60, 2000);
			}
	fx_step_done(s, st);

	st = fx_step(s, run, seq++, "reclaim", "{\"kind\":\"reclaim\"}");
	static const int idles[] = { 5, 30, 120 };
	idx = 0;
	for (int i = 0; i < 3; i++) {
		char name[48];
		snprintf(name, sizeof(name), "idle=%d phase=fill", idles[i] * 1000);
		struct fx_wl w = { name, "seq", 0, 131072, 256, 0 };
		n = fx_two_level(v, 200, 5000 * sc, 200, 1500 * sc);
		fx_put(s, run, st, idx++, &w, v, n, 6000, 2000);
		snprintf(name, sizeof(name), "idle=%d phase=write",
			 idles[i] * 1000);
		size_t hi = (size_t)(idles[i] < 50 ? idles[i] : 50) * 2;
		n = fx_two_level(v, hi, 5000 * sc, 600 - hi, 1500 * sc);
		fx_put(s, run, st, idx++, &w, v, n, 6000, 2000);
	}
	fx_step_done(s, st);

	st = fx_step(s, run, seq++, "seq_precond", "{\"kind\":\"ss_precond\"}");
	struct fx_wl pre = { "precond", "seq", 0, 131072, 256, 0 };
	for (int k = 0; k < 300; k++)
		v[k] = 2000 * sc * (k % 3 ? 1.0 : 0.9);
	fx_put(s, run, st, 0, &pre, v, 300, 8000, 20000);
	/* The suite's findings for the step, as docs/suite.md names them. */
	static const char *const keys[] = {
		"seq_precond.stopped_at_steady_state", "seq_precond.steady_reached",
		"seq_precond.rule_snia", "seq_precond.steady_s",
		"seq_precond.steady_drive_writes", "seq_precond.steady_mbps",
		"seq_precond.bursts.count", "seq_precond.steady_interval_s",
		"seq_precond.steady_window_s", "seq_precond.steady_limit_pct",
	};
	const double vals[] = { 1, 1, 0, 25, 0.03, 2000 * sc, 0, 1, 30, 10 };
	for (int k = 0; k < 10; k++)
		if (store_put_metric(s, run, st, 0, keys[k], vals[k], "", &e))
			CHECK_FAIL("metric: %s", e.msg);
	fx_step_done(s, st);

	st = fx_step(s, run, seq++, "rnd_precond", "{\"kind\":\"ss_precond\"}");
	struct fx_wl rpre = { "precond", "rand", 0, 4096, 256, 0 };
	for (int k = 0; k < 300; k++)
		v[k] = fx_precond_iops(k) * sc * 4096 / FX_MB;
	fx_put(s, run, st, 0, &rpre, v, 300, 8000, FX_PRECOND_N);
	fx_step_done(s, st);

	st = fx_step(s, run, seq++, "rnd_sweeps", "{\"kind\":\"sweep\"}");
	idx = 0;
	for (int read = 1; read >= 0; read--)
		for (int qd = 1; qd <= 64; qd *= 4) {
			char name[32];
			snprintf(name, sizeof(name), "mix=%d qd=%d", read * 100, qd);
			struct fx_wl w = { name, "rand", read * 100, 4096,
					   (uint32_t)qd, 0 };
			double iops = fx_sweep_iops(read, qd, sc);
			for (int k = 0; k < 20; k++)
				v[k] = iops * 4096 / FX_MB * (k % 2 ? 1.02 : 0.98);
			fx_put(s, run, st, idx++, &w, v, 20,
			       qd / iops * 1e6, 20000);
		}
	fx_step_done(s, st);

	st = fx_step(s, run, seq++, "tail_latency", "{\"kind\":\"tail\"}");
	for (int read = 1; read >= 0; read--) {
		struct fx_wl w = { read ? "mix=100 qd=1" : "mix=0 qd=1", "rand",
				   read * 100, 4096, 1, 0 };
		for (int k = 0; k < 300; k++)
			v[k] = (read ? 12000 : 50000) * sc * 4096 / FX_MB;
		fx_put(s, run, st, (uint32_t)(1 - read), &w, v, 300,
		       read ? 80 : 20, FX_TAIL_N);
	}
	fx_step_done(s, st);

	st = fx_step(s, run, seq++, "boot", "{\"kind\":\"boot\","
		     "\"pass_iops\":\"60000\"}");
	if (store_put_metric(s, run, st, 0, "boot.score_iops", 80000 * sc,
			     "IOPS", &e) ||
	    store_put_metric(s, run, st, 0, "boot.pass", 80000 * sc >= 60000,
			     "", &e))
		CHECK_FAIL("metric: %s", e.msg);
	fx_step_done(s, st);

	if (store_run_finish(s, run, "done", NULL, &e) ||
	    store_tick(s, true, &e))
		CHECK_FAIL("run_finish: %s", e.msg);
	return run;
}

#endif
