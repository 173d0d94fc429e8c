/*
 * The simulator behind the real engine: the sim backend's contract (one
 * queue, model clock, stamped completions, idle, discard) and the bulk path
 * (engine_fluid.c): exact byte counts, an unbroken interval grid, ramp and
 * time stops, hook stops, agreement with I/O-by-I/O simulation, and
 * bit-identical reruns.
 */
#include "check.h"

#include <stdlib.h>

#include "engine/engine.h"

#define MS 1000000ull
#define S_NS 1000000000ull

struct seen {
	struct interval_sample *s;
	uint32_t n, cap;
	uint64_t stop_at_index;		/* 0: never */
};

static int seen_interval(void *ctx, const struct interval_sample *smp, struct sb_err *e)
{
	(void)e;
	struct seen *s = ctx;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->s = realloc(s->s, s->cap * sizeof *s->s);
	}
	s->s[s->n++] = *smp;
	return s->stop_at_index && smp->index + 1 >= s->stop_at_index;
}

static struct engine *open_sim(const char *spec)
{
	struct engine_opts o = { .target = spec, .allow_write = true, .interval_ns = 100 * MS };
	struct engine *eng = NULL;
	struct sb_err e;
	if (engine_open(&o, &eng, &e))
		CHECK_FAIL("%s: %s", spec, e.msg);
	return eng;
}

static int run1(struct engine *eng, struct workload *w, struct seen *s,
		struct engine_result *res)
{
	struct engine_hooks h = { .ctx = s, .on_interval = seen_interval };
	struct sb_err e;
	int rc = engine_run(eng, w, 1, &h, res, &e);
	if (rc)
		CHECK_FAIL("run: %s", e.msg);
	return rc;
}

static void fill_workload(struct workload *w, uint64_t bytes)
{
	workload_defaults(w);
	w->read_pct = 0;
	w->bs = 131072;
	w->qd = 256;
	w->stop_bytes = bytes;
	w->seed = 3;
}

static uint64_t sum_bytes(const struct seen *s, enum io_dir d)
{
	uint64_t b = 0;
	for (uint32_t i = 0; i < s->n; i++)
		if (!s->s[i].ramp)
			b += s->s[i].dir[d].bytes;
	return b;
}

TEST(backend_facts_and_clock)
{
	struct engine *eng = open_sim("sim:sn8100-2tb,scale=0.001");
	if (!eng)
		return;
	const struct target_facts *f = engine_facts(eng);
	CHECK(f->is_sim);
	CHECK_EQ_STR(f->kind, "sim");
	CHECK_EQ_U64(f->size, 2000000000ull / 4096 * 4096);
	uint64_t t0 = engine_now(eng);
	engine_idle(eng, 5 * S_NS);
	CHECK_EQ_U64(engine_now(eng), t0 + 5 * S_NS);
	struct sb_err e;
	CHECK(engine_discard(eng, 0, f->size, &e) == 0);
	CHECK(engine_discard(eng, 0, f->size + 4096, &e) == -1);
	engine_close(eng);
}

TEST(bulk_fill_is_exact_and_on_the_grid)
{
	struct engine *eng = open_sim("sim:sn8100-2tb,scale=0.002");
	if (!eng)
		return;
	uint64_t size = engine_facts(eng)->size / 131072 * 131072;
	struct workload w;
	fill_workload(&w, size);
	struct seen s = { 0 };
	struct engine_result res;
	if (run1(eng, &w, &s, &res) == 0) {
		CHECK_EQ_U64(res.wl[0].bytes[DIR_WRITE], size);
		CHECK_EQ_U64(res.wl[0].ios[DIR_WRITE], size / 131072);
		CHECK_EQ_U64(sum_bytes(&s, DIR_WRITE), size);
		CHECK_EQ_U64(res.wl[0].hist[DIR_WRITE]->count, size / 131072);
		for (uint32_t i = 1; i < s.n; i++) {
			CHECK_EQ_U64(s.s[i].t_start_ns, s.s[i - 1].t_end_ns);
			CHECK_EQ_U64(s.s[i].index, i);
		}
		for (uint32_t i = 0; i + 1 < s.n; i++)
			CHECK_EQ_U64(s.s[i].t_end_ns - s.s[i].t_start_ns, 100 * MS);
		/* Little's law per interval: QD x bs / rate is the mean latency */
		const struct interval_sample *m = &s.s[s.n / 2];
		double rate = (double)m->dir[DIR_WRITE].bytes / 0.1;
		double lat = (double)m->dir[DIR_WRITE].lat_sum_ns / (double)m->dir[DIR_WRITE].ios * 1e-9;
		CHECK_REL(lat, 256.0 * 131072 / rate, 0.05);
		engine_result_free(&res);
	}
	free(s.s);
	engine_close(eng);
}

TEST(bulk_ramp_time_stop_and_hook_stop)
{
	struct engine *eng = open_sim("sim:micron1300-1tb,scale=0.01");
	if (!eng)
		return;
	struct workload w;
	workload_defaults(&w);
	w.pattern = PATTERN_RAND;
	w.read_pct = 0;
	w.qd = 32;
	w.ramp_ns = 1 * S_NS;
	w.stop_time_ns = 3 * S_NS;
	w.seed = 1;
	struct seen s = { 0 };
	struct engine_result res;
	if (run1(eng, &w, &s, &res) == 0) {
		CHECK_EQ_U64(res.wl[0].measured_ns, 3 * S_NS);
		uint32_t ramp = 0;
		for (uint32_t i = 0; i < s.n; i++)
			ramp += s.s[i].ramp;
		CHECK_EQ_U64(ramp, 10);
		CHECK_EQ_U64(s.n, 40);
		CHECK_EQ_U64(sum_bytes(&s, DIR_WRITE), res.wl[0].bytes[DIR_WRITE]);
		engine_result_free(&res);
	}
	free(s.s);
	/* A hook that says stop after 7 intervals: a steady-state detector. */
	struct seen h = { .stop_at_index = 7 };
	w.ramp_ns = 0;
	w.stop_time_ns = 0;
	if (run1(eng, &w, &h, &res) == 0) {
		CHECK(res.wl[0].stopped_by_hook);
		/* the driver waits for each interval to be collected on a
		   virtual clock: the stop lands right after the hook's answer */
		CHECK_EQ_U64(h.n, 8);
		engine_result_free(&res);
	}
	free(h.s);
	engine_close(eng);
}

/* The whole-drive fill, bulk and I/O by I/O: the same drive, the same time. */
TEST(bulk_agrees_with_per_io)
{
	double secs[2];
	const char *specs[2] = { "sim:sn8100-2tb,scale=0.005", "sim:sn8100-2tb,scale=0.005,fluid=0" };
	for (int k = 0; k < 2; k++) {
		struct engine *eng = open_sim(specs[k]);
		if (!eng)
			return;
		struct workload w;
		fill_workload(&w, engine_facts(eng)->size / 131072 * 131072);
		struct seen s = { 0 };
		struct engine_result res;
		secs[k] = 0;
		if (run1(eng, &w, &s, &res) == 0) {
			secs[k] = (double)res.wl[0].measured_ns * 1e-9;
			engine_result_free(&res);
		}
		free(s.s);
		engine_close(eng);
	}
	CHECK_REL(secs[0], secs[1], 0.03);
}

TEST(reruns_are_identical)
{
	uint64_t h[2] = { 0, 0 };
	for (int k = 0; k < 2; k++) {
		struct engine *eng = open_sim("sim:sn8100-2tb,scale=0.002,seed=9");
		if (!eng)
			return;
		struct workload w;
		fill_workload(&w, engine_facts(eng)->size / 131072 * 131072);
		struct seen s = { 0 };
		struct engine_result res;
		if (run1(eng, &w, &s, &res) == 0)
			engine_result_free(&res);
		engine_idle(eng, 30 * S_NS);
		workload_defaults(&w);
		w.pattern = PATTERN_RAND;
		w.qd = 8;	/* per I/O: below the bulk read depth */
		w.stop_time_ns = 1 * S_NS;
		w.seed = 5;
		if (run1(eng, &w, &s, &res) == 0)
			engine_result_free(&res);
		for (uint32_t i = 0; i < s.n; i++)
			for (int d = 0; d < DIR_COUNT; d++)
				h[k] = (h[k] ^ s.s[i].dir[d].bytes ^ (s.s[i].dir[d].lat_sum_ns << 3) ^
					s.s[i].dir[d].lat_p99_ns) * 0x100000001b3ull;
		free(s.s);
		engine_close(eng);
	}
	CHECK_EQ_U64(h[0], h[1]);
}

TEST(bad_targets_are_refused)
{
	const char *bad[] = { "sim:", "sim:nosuchdrive", "sim:sn8100-2tb,scale=0",
			      "sim:sn8100-2tb,units=0", "sim:sn8100-2tb,fluid=2" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct engine_opts o = { .target = bad[i], .allow_write = true };
		struct engine *eng = NULL;
		struct sb_err e;
		if (engine_open(&o, &eng, &e) == 0) {
			CHECK_FAIL("%s was accepted", bad[i]);
			engine_close(eng);
		}
	}
}

CHECK_MAIN("test_sim_engine")
