/* Findings: the figures of a suite run computed from a store filled with
   traces whose truth is known (a fill with a 10 GB cache, R/W-ratio runs
   with chosen rates), and the helpers they rest on. */
#include "check.h"

#include <unistd.h>

#include "findings/findings.h"
#include "findings/internal.h"
#include "suite/record.h"

TEST(workload_name_tokens)
{
	uint64_t v = 0;
	char w[16];
	CHECK(name_u64("read=70 qd=2 run=3", "read", &v) && v == 70);
	CHECK(name_u64("read=70 qd=2 run=3", "qd", &v) && v == 2);
	CHECK(name_u64("read=70 qd=2 run=3", "run", &v) && v == 3);
	CHECK(!name_u64("read=70 xqd=2", "qd", &v));
	CHECK(!name_u64("read=70", "qd", &v));
	CHECK(!name_u64("phase=write", "phase", &v));
	CHECK(name_word("idle=5000 phase=write", "phase", w, sizeof w));
	CHECK_EQ_STR(w, "write");
	CHECK(name_word("prof=nvme test=RND4K-Q32T16 dir=read pass=1", "test", w, sizeof w));
	CHECK_EQ_STR(w, "RND4K-Q32T16");
}

TEST(run_record_round_trip)
{
	struct suite_record r = { .file_size = 1234567, .destroy_data = true };
	snprintf(r.target, sizeof r.target, "/dev/odd \"name\"\\x");
	r.plan_text = "preset=quick\nfill.share=33%\n\tquoted=\"x\"\n";
	char *json = suite_record_json(&r);
	CHECK(json != NULL);
	struct suite_record b;
	struct sb_err e;
	CHECK(suite_record_parse(json, &b, &e) == 0);
	CHECK_EQ_STR(b.target, r.target);
	CHECK_EQ_STR(b.plan_text, r.plan_text);
	CHECK_EQ_U64(b.file_size, 1234567);
	CHECK(b.destroy_data);
	free(b.plan_text);
	free(json);
	CHECK(suite_record_parse("{\"kind\":\"run\"}", &b, &e) == -1);
	CHECK(strstr(e.msg, "not started by 'ssdbench suite'") != NULL);
	CHECK(suite_record_parse("{\"suite\":1,\"target\":\"x\"}", &b, &e) == -1);
}

/* A store with one suite run of `plan_text`, on a target of `size`. */
static struct store *make_run(const char *path, const char *plan_text,
			      uint64_t size, int64_t *run)
{
	struct store *s;
	struct sb_err e;
	unlink(path);
	if (store_open(path, &s, &e))
		return NULL;
	struct suite_record r = { .plan_text = (char *)plan_text };
	snprintf(r.target, sizeof r.target, "sim:test");
	char *json = suite_record_json(&r);
	struct run_begin b = { .kind = "suite", .target = "sim:test", .params_json = json };
	int rc = store_run_begin(s, &b, run, &e);
	free(json);
	char facts[128];
	snprintf(facts, sizeof facts, "{\"size\":%llu}", (unsigned long long)size);
	if (rc || store_run_target_facts(s, *run, "before", facts, &e)) {
		store_close(s);
		return NULL;
	}
	return s;
}

/* A workload of `n` 100 ms samples of rates[i] bytes/s (writes, reads by
   read_pct), with totals to match but `measured_ns` as given. */
static void add_workload_ns(struct store *s, int64_t run, int64_t step, uint32_t idx,
			    const char *name, const double *rates, size_t n,
			    unsigned read_pct, uint64_t measured_ns)
{
	struct sb_err e;
	int64_t wid;
	CHECK(store_workload_begin(s, run, step, idx, name, NULL, &wid, &e) == 0);
	struct store_totals t = { 0 };
	for (size_t i = 0; i < n; i++) {
		struct interval_sample smp = { .index = i, .t_start_ns = i * 100000000ull,
					       .t_end_ns = (i + 1) * 100000000ull };
		uint64_t bytes = (uint64_t)(rates[i] / 10);
		uint64_t rb = bytes * read_pct / 100, wb = bytes - rb;
		smp.dir[DIR_READ].bytes = rb;
		smp.dir[DIR_READ].ios = rb / 4096;
		smp.dir[DIR_WRITE].bytes = wb;
		smp.dir[DIR_WRITE].ios = wb / 4096;
		CHECK(store_add_sample(s, wid, &smp, &e) == 0);
		t.bytes[DIR_READ] += rb;
		t.bytes[DIR_WRITE] += wb;
		t.ios[DIR_READ] += rb / 4096;
		t.ios[DIR_WRITE] += wb / 4096;
	}
	t.measured_ns = measured_ns;
	struct lat_hist *h[DIR_COUNT] = { hist_new(), hist_new(), hist_new() };
	CHECK(store_workload_totals(s, wid, &t, h, true, &e) == 0);
	CHECK(store_workload_finish(s, wid, "done", "virtual", &e) == 0);
	for (int d = 0; d < DIR_COUNT; d++)
		hist_free(h[d]);
}

/* The same with the totals' measured time that of the samples. */
static void add_workload(struct store *s, int64_t run, int64_t step, uint32_t idx,
			 const char *name, const double *rates, size_t n,
			 unsigned read_pct)
{
	add_workload_ns(s, run, step, idx, name, rates, n, read_pct,
			n * 100000000ull);
}

TEST(fill_figures_match_the_trace)
{
	const char *db = "/tmp/ssdbench-findings-fill.db";
	int64_t run, step;
	struct sb_err e;
	struct store *s = make_run(db, "preset=full\nsuite.steps=fill\n", 100000000000ull, &run);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK(store_step_begin(s, run, 3, "fill", NULL, &step, &e) == 0);
	/* 50 s at 2 GB/s (a 100 GB cache), then 200 s at 0.5 GB/s. */
	static double rates[2500];
	for (int i = 0; i < 2500; i++)
		rates[i] = i < 500 ? 2e9 : 0.5e9;
	add_workload(s, run, step, 0, "pass=1", rates, 2500, 0);
	CHECK(store_step_finish(s, step, "done", NULL, &e) == 0);
	CHECK(store_tick(s, true, &e) == 0);
	struct figures f = { 0 };
	CHECK(findings_run(s, run, &f, &e) == 0);
	const struct figure *g = figures_find(&f, "fill.pass1.slc_cache_gb");
	CHECK(g != NULL);
	if (g)
		CHECK_REL(g->value, 100.0, 0.01);
	g = figures_find(&f, "fill.pass1.slc_speed_mbps");
	if (g)
		CHECK_REL(g->value, 2000.0, 0.01);
	g = figures_find(&f, "fill.pass1.true_avg_mbps");
	CHECK(g != NULL);
	/* 100 GB + 100 GB over 250 s. */
	if (g)
		CHECK_REL(g->value, 800.0, 1e-6);
	g = figures_find(&f, "fill.pass1.post_cache.median_mbps");
	if (g)
		CHECK_REL(g->value, 500.0, 1e-6);
	CHECK(figures_find(&f, "fill.pass2.slc_cache_gb") == NULL);
	/* Saved figures are metrics of the step, replacing earlier ones. */
	CHECK(findings_save(s, run, &f, &e) == 0);
	CHECK(findings_save(s, run, &f, &e) == 0);
	struct metric_row *m;
	size_t n;
	CHECK(store_list_metrics(s, run, &m, &n, &e) == 0);
	CHECK_EQ_U64(n, f.n);
	free(m);
	figures_free(&f);
	store_close(s);
	unlink(db);
}

TEST(rw_ratio_figures_follow_the_repetition_rule)
{
	const char *db = "/tmp/ssdbench-findings-rw.db";
	int64_t run, step;
	struct sb_err e;
	struct store *s = make_run(db,
		"preset=full\nsuite.steps=rw_ratio\nrw_ratio.read_pcts=0,50,100\n"
		"rw_ratio.qds=1,2\nrw_ratio.weights=0.75,0.25\nrw_ratio.min_runs=3\n"
		"rw_ratio.max_runs=4\nrw_ratio.rse_window=3\n", 100000000000ull, &run);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK(store_step_begin(s, run, 7, "rw_ratio", NULL, &step, &e) == 0);
	/* Each point: three runs at base, base, base (stable: median base);
	   except read=50 qd=1: 100, 200, 300, 400 MB/s (never stable, flagged,
	   median of all four by the rank rule of trace.h: the 2nd, 200). */
	uint32_t idx = 0;
	static const unsigned pcts[] = { 0, 50, 100 };
	for (int i = 0; i < 3; i++)
		for (unsigned qd = 1; qd <= 2; qd++) {
			bool wild = pcts[i] == 50 && qd == 1;
			int runs = wild ? 4 : 3;
			for (int k = 1; k <= runs; k++) {
				double r[10];
				double v = wild ? 100e6 * k : (100.0 + pcts[i] + 10 * qd) * 1e6;
				for (int j = 0; j < 10; j++)
					r[j] = v;
				char name[64];
				snprintf(name, sizeof name, "read=%u qd=%u run=%d", pcts[i], qd, k);
				add_workload(s, run, step, idx++, name, r, 10, pcts[i]);
			}
		}
	CHECK(store_step_finish(s, step, "done", NULL, &e) == 0);
	struct figures f = { 0 };
	CHECK(findings_run(s, run, &f, &e) == 0);
	const struct figure *g;
	CHECK((g = figures_find(&f, "rw_ratio.read0.qd1.mbps")) && fabs(g->value - 110) < 1e-6);
	CHECK((g = figures_find(&f, "rw_ratio.read50.qd1.mbps")) && fabs(g->value - 200) < 1e-6);
	CHECK((g = figures_find(&f, "rw_ratio.read50.qd1.flagged")) && g->value == 1);
	CHECK((g = figures_find(&f, "rw_ratio.read50.qd1.runs")) && g->value == 4);
	CHECK((g = figures_find(&f, "rw_ratio.read50.qd2.flagged")) && g->value == 0);
	/* Weighted: 0.75 * QD1 + 0.25 * QD2; score over the mixed share only. */
	CHECK((g = figures_find(&f, "rw_ratio.read50.weighted_mbps")) &&
	      fabs(g->value - (0.75 * 200 + 0.25 * 170)) < 1e-6);
	CHECK((g = figures_find(&f, "rw_ratio.score_mbps")) &&
	      fabs(g->value - (0.75 * 200 + 0.25 * 170)) < 1e-6);
	figures_free(&f);
	store_close(s);
	unlink(db);
}

/*
 * A stall is a measurement: a QLC drive that completes nothing during a
 * 1 s sweep point is stored with 0 I/Os and 0 ns measured; the point is 0
 * IOPS over its window (ten 100 ms samples), every I/O in flight waited
 * at least that second, and it says stall -- not null, not dropped.
 */
TEST(sweep_stall_is_zero_iops_over_its_window)
{
	const char *db = "/tmp/ssdbench-findings-stall.db";
	int64_t run, step;
	struct sb_err e;
	struct store *s = make_run(db, "preset=full\nsuite.steps=rnd_sweeps\n",
				   100000000000ull, &run);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK(store_step_begin(s, run, 13, "rnd_sweeps", NULL, &step, &e) == 0);
	double busy[10], none[10] = { 0 };
	for (int i = 0; i < 10; i++)
		busy[i] = 409.6e6;	/* 100k IOPS of 4 KiB */
	add_workload(s, run, step, 0, "mix=0 qd=1", busy, 10, 0);
	add_workload_ns(s, run, step, 1, "mix=0 qd=32", none, 10, 0, 0);
	CHECK(store_step_finish(s, step, "done", NULL, &e) == 0);
	struct figures f = { 0 };
	CHECK(findings_run(s, run, &f, &e) == 0);
	const struct figure *g;
	CHECK((g = figures_find(&f, "rnd_sweeps.mix0.qd1.stall")) && g->value == 0);
	CHECK((g = figures_find(&f, "rnd_sweeps.mix0.qd1.iops")) && fabs(g->value - 100000) < 1e-6);
	CHECK((g = figures_find(&f, "rnd_sweeps.mix0.qd32.stall")) && g->value == 1);
	CHECK((g = figures_find(&f, "rnd_sweeps.mix0.qd32.iops")) && g->value == 0);
	CHECK((g = figures_find(&f, "rnd_sweeps.mix0.qd32.mbps")) && g->value == 0);
	CHECK((g = figures_find(&f, "rnd_sweeps.mix0.qd32.lat_at_least_us")) && g->value == 1e6);
	figures_free(&f);
	store_close(s);
	unlink(db);
}

CHECK_MAIN("findings")
