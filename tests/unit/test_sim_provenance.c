/*
 * Where a simulated drive's I/Os come from (common/sample.h enum io_way):
 * the simulator's slices say how many of their I/Os were simulated one by
 * one, and the engine hands that up per workload.  Each count is checked
 * against a reference computed another way: an exact stream's simulated
 * count is its reported count; a bulk read's is its calibration window,
 * known from the stream's depth (SIMULATOR.md, fluid.c: 2 x QD warm-up,
 * 65536 measured, the QD - 1 then in flight drained); a bulk write
 * simulates none; a sampled stream's extrapolated reads are the reads
 * the sampler says it repeated; through the engine I/O by I/O every I/O
 * is simulated; a ramp's I/Os are neither reported nor counted.
 */
#include "check.h"
#include "boot_fixture.h"
#include "sim_fixture.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "sim/sim.h"

#define SLICE 100000000ull	/* 100 ms */
#define S_NS 1000000000ull

/* The calibration window of a bulk read at depth qd (within the queue's
   cap, on a stream no map cache makes warm up longer: sequential). */
static uint64_t cal_window(uint64_t qd)
{
	uint64_t measured = 65536 > 8 * qd ? 65536 : 8 * qd;
	return 2 * qd + measured + (qd - 1);
}

/* What the slices said. */
struct sums {
	uint64_t ios, sim, side_ios[2], side_sim[2];
	enum sim_way way;
	uint32_t nslices;
};

static int on_slice(void *ctx, const struct sim_slice *sl, struct sb_err *e)
{
	(void)e;
	struct sums *a = ctx;
	a->ios += sl->ios + sl->wios;
	a->sim += sl->sim_ios;
	for (int i = 0; i < 2; i++) {
		a->side_ios[i] += sl->side[i].ios;
		a->side_sim[i] += sl->side[i].sim_ios;
	}
	/* one way for the stream, and never more simulated than reported */
	CHECK(!a->nslices++ || sl->way == a->way);
	a->way = sl->way;
	CHECK(sl->sim_ios <= sl->ios + sl->wios);
	return 0;
}

static bool run_stream(struct sim *s, const struct sim_stream *st, uint64_t ns, struct sums *a)
{
	struct sb_err e;
	memset(a, 0, sizeof *a);
	if (sim_run_fluid(s, st, 0, ns, SLICE, on_slice, a, &e)) {
		CHECK_FAIL("%s", e.msg);
		return false;
	}
	return true;
}

TEST(exact_stream_simulates_every_io)
{
	struct sim *s = open_scaled("sn8100-2tb", 0.002, 3);
	if (!s)
		return;
	uint64_t cap = sim_capacity(s) / 4096 * 4096;
	/* a low-depth read and a sequential mix: the engine's two exact cases */
	struct sim_stream st[2] = {
		{ .random = true, .bs = 4096, .qd = 4, .span_len = cap, .seed = 5, .exact = true },
		{ .bs = 4096, .qd = 8, .span_len = cap, .seed = 6, .read_pct = 70, .exact = true },
	};
	for (int i = 0; i < 2; i++) {
		struct sums a;
		if (!run_stream(s, &st[i], S_NS / 2, &a))
			break;
		CHECK(a.way == SIM_WAY_EXACT);
		CHECK(a.ios > 10000);
		CHECK_EQ_U64(a.sim, a.ios);
	}
	sim_close(s);
}

TEST(bulk_read_simulates_its_calibration_window)
{
	struct sim *s = open_scaled("sn8100-2tb", 0.002, 3);
	if (!s)
		return;
	uint64_t cap = sim_capacity(s) / 131072 * 131072;
	static const uint32_t qds[] = { 16, 32, 128 };
	for (size_t i = 0; i < sizeof qds / sizeof qds[0]; i++) {
		struct sim_stream st = { .bs = 4096, .qd = qds[i], .span_len = cap, .seed = 7 };
		struct sums a;
		if (!run_stream(s, &st, 2 * S_NS, &a))
			break;
		CHECK(a.way == SIM_WAY_BULK);
		CHECK_EQ_U64(a.sim, cal_window(qds[i]));
		/* the rest extrapolated: most of two seconds' reads */
		CHECK(a.ios > 4 * a.sim);
	}
	sim_close(s);
}

TEST(bulk_write_simulates_none)
{
	struct sim *s = open_scaled("sn8100-2tb", 0.002, 3);
	if (!s)
		return;
	uint64_t cap = sim_capacity(s) / 131072 * 131072;
	struct sim_stream st = { .write = true, .random = true, .bs = 4096, .qd = 32,
				 .span_len = cap, .seed = 8 };
	struct sums a;
	if (run_stream(s, &st, S_NS / 2, &a)) {
		CHECK(a.way == SIM_WAY_BULK);
		CHECK(a.ios > 0);
		CHECK_EQ_U64(a.sim, 0);
	}
	sim_close(s);
}

/* Readers beside a writer and a trimmer, sampled: the reads not simulated
   are exactly those the sampler repeated (sim_state.repeated_reads); the
   side streams' I/Os are all simulated. */
TEST(sampled_stream_counts_its_repeats)
{
	struct sim *s = open_scaled("sn8100-2tb", 0.005, 3);
	if (!s)
		return;
	uint64_t cap = sim_capacity(s) / 131072 * 131072;
	struct sim_side side[2] = {
		{ .op = SIM_WRITE, .bs = 131072, .span_len = cap, .rate = 50u << 20,
		  .flush_every = 100u << 20, .seed = 5 },
		{ .op = SIM_TRIM, .bs = 131072, .span_len = cap, .rate = 5u << 20, .seed = 6 },
	};
	struct sim_stream st = { .random = true, .bs = 32768, .qd = 32, .span_len = cap,
				 .seed = 7, .side = side, .nside = 2, .sampled = true };
	struct sim_state s0, s1;
	sim_state(s, &s0);
	struct sums a;
	if (run_stream(s, &st, 6 * S_NS, &a)) {
		sim_state(s, &s1);
		CHECK(a.way == SIM_WAY_SAMPLED);
		uint64_t repeated = (uint64_t)(s1.repeated_reads - s0.repeated_reads);
		CHECK(repeated > a.ios / 4);
		CHECK_EQ_U64(a.ios - a.sim, repeated);
		for (int i = 0; i < 2; i++) {
			CHECK(a.side_ios[i] > 0);
			CHECK_EQ_U64(a.side_sim[i], a.side_ios[i]);
		}
	}
	/* the same stream not sampled: every read simulated */
	st.sampled = false;
	if (run_stream(s, &st, 2 * S_NS, &a)) {
		CHECK(a.way == SIM_WAY_EXACT);
		CHECK_EQ_U64(a.sim, a.ios);
	}
	sim_close(s);
}

/* Slices on an unbroken grid, none with more I/Os than a drive ten times
   faster could complete in it (a count that wrapped below zero is huge). */
struct grid {
	uint64_t t_prev, bad, broken, n, ios;
};

static int on_grid(void *ctx, const struct sim_slice *sl, struct sb_err *e)
{
	(void)e;
	struct grid *g = ctx;
	uint64_t len = sl->t_end_ns - sl->t_start_ns, most = len / 10 + 1000;
	g->bad += sl->ios + sl->wios > most || sl->t_end_ns < sl->t_start_ns;
	g->broken += g->n++ && sl->t_start_ns != g->t_prev;
	g->t_prev = sl->t_end_ns;
	g->ios += sl->ios + sl->wios;
	return 0;
}

/*
 * A bulk read's calibration ends with a drain of the I/Os in flight; the
 * drain may pass a slice's end.  Its slices must still be closed in time:
 * otherwise the extrapolation began behind the clock, and a stream at QD
 * 256 reported one slice of -(every I/O so far) reads (seen in the
 * SN850X's full-scaled suite at 10 ms intervals; here at short slices,
 * where a drain crosses one often).  Reads and a random mix; the reads'
 * total against the same stream exact, every I/O simulated (within 3 %).
 */
TEST(calibration_drain_keeps_the_slices)
{
	for (uint64_t us = 100; us <= 1000; us += 100) {
		uint64_t exact_ios = 0;
		for (int mix = -1; mix < 2; mix++) {
			struct sim *s = open_scaled("sn850x-4tb", 0.01, 3);
			if (!s)
				return;
			uint64_t cap = sim_capacity(s) / 4096 * 4096;
			struct sim_stream st = { .random = true, .bs = 4096, .qd = 256,
						 .span_len = cap, .seed = 7,
						 .read_pct = mix > 0 ? 70 : 0, .exact = mix < 0 };
			struct grid g = { 0 };
			struct sb_err e;
			if (sim_run_fluid(s, &st, 0, 300000000ull, us * 1000, on_grid, &g, &e))
				CHECK_FAIL("%s", e.msg);
			if (g.bad || g.broken)
				CHECK_FAIL("%llu us slices, %s: %llu slices with an impossible "
					   "count, %llu off the grid", (unsigned long long)us,
					   mix > 0 ? "mix" : mix ? "exact reads" : "reads", (unsigned long long)g.bad,
					   (unsigned long long)g.broken);
			if (mix < 0)
				exact_ios = g.ios;
			else if (!mix)
				CHECK_REL((double)g.ios, (double)exact_ios, 0.03);
			sim_close(s);
		}
	}
}

/* --- through the engine ------------------------------------------------ */

static struct engine *open_sim(const char *spec)
{
	struct engine_opts o = { .target = spec, .allow_write = true, .interval_ns = SLICE };
	struct engine *eng = NULL;
	struct sb_err e;
	if (engine_open(&o, &eng, &e))
		CHECK_FAIL("%s: %s", spec, e.msg);
	return eng;
}

static uint64_t reported(const struct workload_result *r)
{
	return r->ios[DIR_READ] + r->ios[DIR_WRITE] + r->ios[DIR_TRIM];
}

static bool run_wl(const char *spec, struct workload *w, uint32_t n, struct engine_result *res)
{
	struct engine *eng = open_sim(spec);
	if (!eng)
		return false;
	struct engine_hooks h = { 0 };
	struct sb_err e;
	bool ok = engine_run(eng, w, n, &h, res, &e) == 0;
	if (!ok)
		CHECK_FAIL("run: %s", e.msg);
	engine_close(eng);
	return ok;
}

static void read_workload(struct workload *w, bool random, uint32_t qd)
{
	workload_defaults(w);
	w->pattern = random ? PATTERN_RAND : PATTERN_SEQ;
	w->read_pct = 100;
	w->qd = qd;
	w->stop_time_ns = 2 * S_NS;
	w->seed = 9;
}

TEST(engine_reports_each_way)
{
	struct workload w;
	struct engine_result res;
	/* bulk, after a ramp: the measured part's calibration window only */
	read_workload(&w, false, 32);
	w.ramp_ns = S_NS;
	if (run_wl("sim:sn8100-2tb,scale=0.002", &w, 1, &res)) {
		CHECK(res.wl[0].way == IO_WAY_BULK && res.wl[0].simulated);
		CHECK_EQ_U64(res.wl[0].ios_simulated, cal_window(32));
		CHECK(reported(&res.wl[0]) > 4 * res.wl[0].ios_simulated);
		engine_result_free(&res);
	}
	/* exact: a random read below QD 16 */
	read_workload(&w, true, 4);
	if (run_wl("sim:sn8100-2tb,scale=0.002", &w, 1, &res)) {
		CHECK(res.wl[0].way == IO_WAY_EXACT);
		CHECK(reported(&res.wl[0]) > 0);
		CHECK_EQ_U64(res.wl[0].ios_simulated, reported(&res.wl[0]));
		CHECK_EQ_U64(res.wl[0].ios_simulated, res.wl[0].hist[DIR_READ]->count);
		engine_result_free(&res);
	}
	/* the engine I/O by I/O (bulk streams off): every I/O simulated */
	read_workload(&w, true, 32);
	if (run_wl("sim:sn8100-2tb,scale=0.002,fluid=0", &w, 1, &res)) {
		CHECK(res.wl[0].way == IO_WAY_ENGINE && res.wl[0].simulated);
		CHECK(reported(&res.wl[0]) > 0);
		CHECK_EQ_U64(res.wl[0].ios_simulated, reported(&res.wl[0]));
		engine_result_free(&res);
	}
	/* a bulk write: none simulated */
	read_workload(&w, true, 32);
	w.read_pct = 0;
	w.stop_time_ns = S_NS / 2;
	if (run_wl("sim:sn8100-2tb,scale=0.002", &w, 1, &res)) {
		CHECK(res.wl[0].way == IO_WAY_BULK);
		CHECK(reported(&res.wl[0]) > 0);
		CHECK_EQ_U64(res.wl[0].ios_simulated, 0);
		engine_result_free(&res);
	}
}

/* A boot trial's three workloads, sampled: the readers' extrapolated
   reads are the repeats; the writer's and trimmer's all simulated. */
TEST(engine_reports_a_sampled_trial)
{
	struct workload w[3];
	boot_trial_workloads(w, 32, true, 6);
	struct engine_result res;
	if (!run_wl("sim:sn8100-2tb,scale=0.005,seed=4", w, 3, &res))
		return;
	for (int i = 0; i < 3; i++)
		CHECK(res.wl[i].way == IO_WAY_SAMPLED && res.wl[i].simulated);
	CHECK(res.wl[0].ios_simulated > 0);
	CHECK(res.wl[0].ios_simulated < reported(&res.wl[0]));
	for (int i = 1; i < 3; i++) {
		CHECK(reported(&res.wl[i]) > 0);
		CHECK_EQ_U64(res.wl[i].ios_simulated, reported(&res.wl[i]));
	}
	engine_result_free(&res);
}

CHECK_MAIN("test_sim_provenance")
