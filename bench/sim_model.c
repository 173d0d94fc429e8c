/*
 * Model-level acceptance and speed runs for the simulator, straight on the
 * model API (no engine): the figures of SIMULATOR.md §10 for each built-in
 * profile, and the CPU each scenario takes.  Built and run by
 * bench/sim_model.sh; `scale` shrinks capacities for quick runs.
 *
 *   sim_model PROFILE SCENARIO [scale]
 *   scenarios: fill, regain, rnd, qd, all
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/rng.h"
#include "sim/sim.h"

struct series {
	double *mbs, *gb, *t;
	size_t n, cap;
	double bytes;
};

static int collect(void *ctx, const struct sim_slice *sl, struct sb_err *e)
{
	(void)e;
	struct series *s = ctx;
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 4096;
		s->mbs = realloc(s->mbs, s->cap * sizeof *s->mbs);
		s->gb = realloc(s->gb, s->cap * sizeof *s->gb);
		s->t = realloc(s->t, s->cap * sizeof *s->t);
	}
	double dt = (double)(sl->t_end_ns - sl->t_start_ns) * 1e-9;
	s->bytes += (double)sl->bytes;
	s->mbs[s->n] = dt > 0 ? (double)sl->bytes / dt / 1e6 : 0;
	s->gb[s->n] = s->bytes / 1e9;
	s->t[s->n] = (double)sl->t_end_ns * 1e-9;
	s->n++;
	return 0;
}

static void series_free(struct series *s)
{
	free(s->mbs);
	free(s->gb);
	free(s->t);
	memset(s, 0, sizeof *s);
}

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double pct(const double *v, size_t n, double p)
{
	double *c = malloc(n * sizeof *c);
	memcpy(c, v, n * sizeof *c);
	qsort(c, n, sizeof *c, cmpd);
	double r = c[(size_t)fmin((double)n - 1, floor(p / 100.0 * (double)n))];
	free(c);
	return r;
}

static double cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static struct sim *open_sim(const char *name, double scale)
{
	struct sim_profile p;
	struct sb_err e;
	if (profile_lookup(name, &p, &e)) {
		fprintf(stderr, "%s\n", e.msg);
		exit(1);
	}
	profile_scale(&p, scale);
	struct sim *s;
	if (sim_open(&p, 1, &s, &e)) {
		fprintf(stderr, "%s\n", e.msg);
		exit(1);
	}
	return s;
}

static void run(struct sim *s, bool write, bool random, uint32_t bs, uint32_t qd,
		uint64_t bytes, uint64_t ns, struct series *out)
{
	struct sim_stream st = {
		.write = write, .random = random, .bs = bs, .qd = qd,
		.span_off = 0, .span_len = sim_capacity(s) / bs * bs, .start_off = 0,
		.seed = 7,
	};
	struct sb_err e;
	if (sim_run_fluid(s, &st, bytes, ns, 100000000ull, collect, out, &e)) {
		fprintf(stderr, "%s\n", e.msg);
		exit(1);
	}
}

/* One fill pass: cache span, stages, later phase, whole-pass figures. */
static void fill_report(const char *label, struct series *f, double scale)
{
	size_t n = f->n, i = 0;
	double first = pct(f->mbs, n < 10 ? n : 10, 50);
	while (i < n && f->mbs[i] > 0.7 * first)
		i++;
	double span = i ? f->gb[i - 1] : 0;
	printf("%s: cache %.1f GB (%.0f GB at full scale) @ %.0f MB/s", label, span,
	       span / scale, first);
	/* direct stage: median of the next samples until the first drop below 80 % */
	size_t j = i + 2 < n ? i + 2 : i;
	double dir = j < n ? f->mbs[j] : 0;
	size_t k = j;
	while (k < n && f->mbs[k] > 0.8 * dir)
		k++;
	if (k > j)
		dir = pct(f->mbs + j, k - j, 50);
	printf("; then %.0f MB/s until %.0f GB (%.0f full scale)\n", dir,
	       k < n ? f->gb[k] : f->gb[n - 1], (k < n ? f->gb[k] : f->gb[n - 1]) / scale);
	double total_t = f->t[n - 1] - (f->t[0] - 0.1);
	double sum = 0, mn = 1e18;
	for (size_t q = 0; q < n; q++) {
		sum += f->mbs[q];
		mn = fmin(mn, f->mbs[q]);
	}
	printf("  whole: true avg %.0f MB/s, sample mean %.0f, min %.0f, p1 %.0f, %.1f s\n",
	       f->bytes / total_t / 1e6, sum / (double)n, mn, pct(f->mbs, n, 1), total_t);
	if (k + 5 < n) {
		double *v = f->mbs + k;
		size_t m = n - k;
		double s2 = 0;
		for (size_t q = 0; q < m; q++)
			s2 += v[q];
		printf("  later phase: avg %.0f median %.0f p10 %.0f (%zu samples)\n",
		       s2 / (double)m, pct(v, m, 50), pct(v, m, 10), m);
		const double lv[] = { 3980, 2120, 1330, 684 };
		printf("  level shares (+-5%%):");
		for (int l = 0; l < 4; l++) {
			size_t c = 0;
			for (size_t q = 0; q < m; q++)
				c += fabs(v[q] / lv[l] - 1) < 0.05;
			printf(" %.0f:%.2f", lv[l], (double)c / (double)m);
		}
		printf("\n");
	}
	/* pass 2: rate before and after the first cache's worth */
}

static void scen_fill(const char *name, double scale)
{
	struct sim *s = open_sim(name, scale);
	uint64_t cap = sim_capacity(s);
	struct series f1 = { 0 }, f2 = { 0 };
	double c0 = cpu_s();
	run(s, true, false, 131072, 256, cap, 0, &f1);
	fill_report("fill 1", &f1, scale);
	sim_idle(s, 600ull * 1000000000ull);
	run(s, true, false, 131072, 256, cap, 0, &f2);
	fill_report("fill 2", &f2, scale);
	/* pass 2 before and after pass 1's cache span */
	double span1 = 0;
	{
		size_t i = 0;
		double first = pct(f1.mbs, 10, 50);
		while (i < f1.n && f1.mbs[i] > 0.7 * first)
			i++;
		span1 = f1.gb[i ? i - 1 : 0];
	}
	double a = 0, b = 0;
	size_t na = 0, nb = 0;
	for (size_t q = 0; q < f2.n; q++) {
		if (f2.mbs[q] > 5000)
			continue;
		if (f2.gb[q] < span1 * 0.95) { a += f2.mbs[q]; na++; }
		else if (f2.gb[q] > span1 * 1.05) { b += f2.mbs[q]; nb++; }
	}
	printf("  fill 2: %.0f MB/s before %.0f GB, %.0f after\n", na ? a / (double)na : 0,
	       span1 / scale, nb ? b / (double)nb : 0);
	printf("  cpu %.2f s for two passes of %.0f GB\n", cpu_s() - c0, (double)cap / 1e9);
	struct sb_err e;
	if (sim_check_invariants(s, &e))
		printf("  INVARIANT BROKEN: %s\n", e.msg);
	series_free(&f1);
	series_free(&f2);
	sim_close(s);
}

static void scen_regain(const char *name, double scale)
{
	const int mins[] = { 0, 1, 2, 5, 10 };
	for (size_t i = 0; i < sizeof mins / sizeof mins[0]; i++) {
		struct sim *s = open_sim(name, scale);
		struct series f = { 0 }, g = { 0 };
		run(s, true, false, 131072, 256, sim_capacity(s) / 2 / 131072 * 131072, 0, &f);
		sim_idle(s, (uint64_t)mins[i] * 60ull * 1000000000ull);
		struct sim_state st;
		sim_sync(s);
		sim_state(s, &st);
		run(s, true, false, 131072, 256, 0, 60ull * 1000000000ull, &g);
		printf("idle %2d min: SLC room %.1f GB (%.0f full scale), 1 min write %.1f GB\n",
		       mins[i], st.slc_room / 1e9, st.slc_room / 1e9 / scale, g.bytes / 1e9);
		series_free(&f);
		series_free(&g);
		sim_close(s);
	}
}

static void scen_rnd(const char *name, double scale, double dw)
{
	struct sim *s = open_sim(name, scale);
	uint64_t cap = sim_capacity(s);
	struct series f = { 0 }, r = { 0 };
	run(s, true, false, 131072, 256, cap, 0, &f);
	run(s, true, false, 131072, 256, cap, 0, &f);
	double c0 = cpu_s();
	run(s, true, true, 4096, 256, (uint64_t)(dw * (double)cap), 0, &r);
	double cpu = cpu_s() - c0;
	/* IOPS per sample */
	size_t n = r.n;
	double *iops = malloc(n * sizeof *iops);
	for (size_t q = 0; q < n; q++)
		iops[q] = r.mbs[q] * 1e6 / 4096;
	/* skip the first 10 % (transient) */
	size_t s0 = n / 10;
	double *slow = malloc(n * sizeof *slow);
	size_t ns = 0, nbs = 0;
	double sum = 0, peak = 0, last_start = -1, per_sum = 0, per_min = 1e9, per_max = 0;
	double dur_sum = 0, gb_sum = 0, cur_gb = 0, cur_len = 0;
	size_t nper = 0;
	bool in = false;
	for (size_t q = s0; q < n; q++) {
		sum += iops[q];
		if (iops[q] > 300000) {
			if (!in) {
				in = true;
				nbs++;
				if (last_start >= 0) {
					double per = r.t[q] - last_start;
					per_sum += per;
					nper++;
					per_min = fmin(per_min, per);
					per_max = fmax(per_max, per);
				}
				last_start = r.t[q];
				cur_gb = 0;
				cur_len = 0;
			}
			cur_gb += iops[q] * 4096 * 0.1 / 1e9;
			cur_len += 0.1;
			peak = fmax(peak, iops[q]);
		} else {
			if (in) {
				dur_sum += cur_len;
				gb_sum += cur_gb;
			}
			in = false;
			slow[ns++] = iops[q];
		}
	}
	printf("rnd 4k QD256, %.2f drive-writes: %zu samples, cpu %.2f s\n", dw, n, cpu);
	if (ns)
		printf("  between bursts: p5 %.1fk p50 %.1fk p95 %.1fk IOPS; overall avg %.1fk\n",
		       pct(slow, ns, 5) / 1e3, pct(slow, ns, 50) / 1e3, pct(slow, ns, 95) / 1e3,
		       sum / (double)(n - s0) / 1e3);
	if (nbs)
		printf("  bursts: %zu, peak %.0fk IOPS, %.2f s, %.2f GB each, every %.1f s (%.1f-%.1f)\n",
		       nbs, peak / 1e3, dur_sum / (double)nbs, gb_sum / (double)nbs,
		       nper ? per_sum / (double)nper : 0, per_min, per_max);
	struct sim_state st;
	sim_state(s, &st);
	printf("  WA now %.2f (oracle at rho_eff %.2f)\n", st.wa_inst,
	       sim_waf_lw(sim_profile(s)->rho_eff));
	free(iops);
	free(slow);
	series_free(&f);
	series_free(&r);
	sim_close(s);
}

/* Closed-loop discrete QD run: IOPS and mean latency. */
static void qd_point(struct sim *s, bool write, bool random, uint32_t bs, uint32_t qd,
		     uint32_t nios, double *iops, double *lat_us)
{
	uint64_t span = sim_capacity(s) / bs;
	uint64_t x = 99, seqpos = 0, done = 0, sum = 0;
	uint64_t t0 = sim_now(s);
	struct sb_err e;
	for (uint32_t i = 0; i < qd; i++) {
		uint64_t off = random ? (splitmix64(&x) % span) * bs : (seqpos++ % span) * bs;
		struct sim_io io = { write ? SIM_WRITE : SIM_READ, off, bs, 0 };
		if (sim_submit(s, &io, &e)) { fprintf(stderr, "%s\n", e.msg); exit(1); }
	}
	while (done < nios) {
		struct sim_cpl c;
		sim_reap(s, &c, 1, 1, UINT64_MAX);
		sum += c.t_done_ns - c.t_submit_ns;
		done++;
		uint64_t off = random ? (splitmix64(&x) % span) * bs : (seqpos++ % span) * bs;
		struct sim_io io = { write ? SIM_WRITE : SIM_READ, off, bs, 0 };
		if (sim_submit(s, &io, &e)) { fprintf(stderr, "%s\n", e.msg); exit(1); }
	}
	struct sim_cpl c[1024];
	while (sim_outstanding(s))
		sim_reap(s, c, 1, 1024, UINT64_MAX);
	*iops = (double)done / ((double)(sim_now(s) - t0) * 1e-9);
	*lat_us = (double)sum / (double)done / 1e3;
}

static void scen_qd(const char *name, double scale)
{
	struct sim *s = open_sim(name, scale);
	struct series f = { 0 };
	run(s, true, false, 131072, 256, sim_capacity(s), 0, &f);
	sim_idle(s, 3600ull * 1000000000ull);
	const uint32_t qds[] = { 1, 2, 4, 8, 16, 32, 64, 128, 256 };
	for (int w = 0; w < 2; w++) {
		printf("%s 4k random:", w ? "write" : "read");
		for (size_t i = 0; i < 9; i++) {
			double iops, lat;
			qd_point(s, w, true, 4096, qds[i], 40000, &iops, &lat);
			printf(" QD%u %.1fk/%.1fus", qds[i], iops / 1e3, lat);
		}
		printf("\n");
	}
	const uint32_t q2[] = { 1, 2, 4, 32 };
	for (int w = 0; w < 2; w++) {
		printf("%s 128k seq:", w ? "write" : "read");
		for (size_t i = 0; i < 4; i++) {
			double iops, lat;
			qd_point(s, w, false, 131072, q2[i], 20000, &iops, &lat);
			printf(" QD%u %.0fMB/s", q2[i], iops * 131072 / 1e6);
		}
		printf("\n");
	}
	series_free(&f);
	sim_close(s);
}

/* A partial fill (the P1's 90 %): true average and the post-cache pattern. */
static void scen_part(const char *name, double scale, double share)
{
	struct sim *s = open_sim(name, scale);
	struct series f = { 0 };
	uint64_t bytes = (uint64_t)(share * (double)sim_capacity(s)) / 131072 * 131072;
	run(s, true, false, 131072, 256, bytes, 0, &f);
	double total_t = f.t[f.n - 1] - (f.t[0] - 0.1), sum = 0, sd = 0;
	for (size_t q = 0; q < f.n; q++)
		sum += f.mbs[q];
	double mean = sum / (double)f.n;
	for (size_t q = 0; q < f.n; q++)
		sd += (f.mbs[q] - mean) * (f.mbs[q] - mean);
	sd = sqrt(sd / (double)f.n);
	size_t i = 0;
	double first = pct(f.mbs, 10, 50);
	while (i < f.n && f.mbs[i] > 0.7 * first)
		i++;
	printf("%.0f%% fill: cache %.1f GB (%.0f full scale) @ %.0f MB/s; true avg %.1f MB/s (%.1f MiB/s), sample mean %.1f, CV %.2f, %.0f s\n",
	       share * 100, i ? f.gb[i - 1] : 0, (i ? f.gb[i - 1] : 0) / scale, first,
	       f.bytes / total_t / 1e6, f.bytes / total_t / 1048576.0, mean, sd / mean, total_t);
	/* after the cache: runs of writing and of stalling */
	size_t runs = 0, stalls = 0;
	double run_len = 0, stall_len = 0, below = 0;
	bool wr = true;
	for (size_t q = i; q < f.n; q++) {
		bool w = f.mbs[q] > 50;
		if (w != wr) {
			if (w) runs++; else stalls++;
			wr = w;
		}
		if (w) run_len += 0.1; else stall_len += 0.1;
		below += f.mbs[q] < 0.5 * f.bytes / total_t / 1e6;
	}
	if (runs && stalls)
		printf("  after the cache: %zu write runs of %.2f s, %zu stalls of %.2f s; time below half the average %.0f%%\n",
		       runs, run_len / (double)runs, stalls, stall_len / (double)stalls,
		       100 * below / (double)(f.n - i));
	series_free(&f);
	sim_close(s);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: sim_model PROFILE fill|regain|rnd|qd [scale] [drive-writes]\n");
		return 2;
	}
	double scale = argc > 3 ? atof(argv[3]) : 1.0;
	const char *sc = argv[2];
	if (!strcmp(sc, "fill"))
		scen_fill(argv[1], scale);
	else if (!strcmp(sc, "regain"))
		scen_regain(argv[1], scale);
	else if (!strcmp(sc, "rnd"))
		scen_rnd(argv[1], scale, argc > 4 ? atof(argv[4]) : 2.0);
	else if (!strcmp(sc, "part"))
		scen_part(argv[1], scale, argc > 4 ? atof(argv[4]) : 0.9);
	else if (!strcmp(sc, "qd"))
		scen_qd(argv[1], scale);
	else {
		fprintf(stderr, "unknown scenario %s\n", sc);
		return 2;
	}
	return 0;
}
