/*
 * The bulk path against I/O by I/O: random writes and random mixes, per
 * queue depth, on the built-in drives.  Each cell runs the same workload
 * twice on a drive in the same state: once on a target whose bulk path is
 * on (the workload marked as a sweep point, bulk_any_depth, as the
 * suite's QD sweeps run it), once with it off (fluid=0: every I/O
 * through the engine, the reference).  The state: a sequential fill, a
 * random 4 KiB fill of the whole drive, a 60 s rest; both I/O by I/O on
 * either target (a rate far above the drive's keeps them off the bulk
 * path), so the two runs start from the same data.  Printed per cell:
 * reads' and writes' IOPS and p99, bulk against reference in per cent.
 *
 *   bulk_agree [-s SCALE] [-t SECONDS] [-r RAMP_S] [-m MIXES] [-q QDS] [-n 1] [DRIVE ...]
 *     -n 1: the reference against itself with another workload seed, in
 *           place of the bulk path: how far one cell moves by chance
 *     MIXES, QDS: comma lists (default 0,70,50 and 1,2,4,8,16,32,64,128,256)
 *     DRIVE: built-in profile names (default: all)
 * Exit status 0; the table is the result.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "sim/profile.h"

#define S_NS 1000000000ull

struct cell {
	double iops[2];		/* read, write */
	uint64_t p99[2];
};

static struct engine *open_target(const char *spec)
{
	struct engine_opts o = { .target = spec, .allow_write = true,
				 .interval_ns = 100000000ull };
	struct engine *eng = NULL;
	struct sb_err e;
	if (engine_open(&o, &eng, &e)) {
		fprintf(stderr, "%s: %s\n", spec, e.msg);
		return NULL;
	}
	return eng;
}

static int run1(struct engine *eng, struct workload *w, struct engine_result *res)
{
	struct engine_hooks h = { 0 };
	struct sb_err e;
	if (engine_run(eng, w, 1, &h, res, &e)) {
		fprintf(stderr, "run: %s\n", e.msg);
		return -1;
	}
	return 0;
}

/* One drive-write at bs and qd, sequential or random, as fast as it goes. */
static int write_once(struct engine *eng, enum access_pattern pat, uint32_t bs, uint32_t qd,
		      uint64_t seed)
{
	uint64_t size = engine_facts(eng)->size;
	struct workload w;
	struct engine_result res;
	workload_defaults(&w);
	w.pattern = pat;
	w.read_pct = 0;
	w.bs = bs;
	w.qd = qd;
	w.stop_bytes = size / bs * bs;
	w.seed = seed;
	w.rate = 1ull << 40;
	if (run1(eng, &w, &res))
		return -1;
	engine_result_free(&res);
	return 0;
}

/* The state the suite leaves a drive in before its random sweeps. */
static int prepare(struct engine *eng)
{
	if (write_once(eng, PATTERN_SEQ, 131072, 256, 3) ||
	    write_once(eng, PATTERN_RAND, 4096, 32, 5))
		return -1;
	engine_idle(eng, 60 * S_NS);
	return 0;
}

static int cell_run(const char *spec, uint32_t mix, uint32_t qd, double secs, double ramp,
		    uint64_t seed, struct cell *out)
{
	struct engine *eng = open_target(spec);
	if (!eng)
		return -1;
	int rc = prepare(eng);
	struct workload w;
	struct engine_result res;
	workload_defaults(&w);
	w.pattern = PATTERN_RAND;
	w.read_pct = mix;
	w.bs = 4096;
	w.qd = qd;
	w.ramp_ns = (uint64_t)(ramp * 1e9);
	w.stop_time_ns = (uint64_t)(secs * 1e9);
	w.seed = seed;
	w.bulk_any_depth = true;
	if (!rc && !(rc = run1(eng, &w, &res))) {
		double t = (double)res.wl[0].measured_ns * 1e-9;
		for (int d = 0; d < 2; d++) {
			out->iops[d] = (double)res.wl[0].ios[d] / t;
			out->p99[d] = hist_percentile(res.wl[0].hist[d], 99);
		}
		engine_result_free(&res);
	}
	engine_close(eng);
	return rc;
}

static double pct(double a, double b)
{
	return b > 0 ? (a / b - 1) * 100 : 0;
}

static uint32_t parse_list(const char *s, uint32_t *v, uint32_t max)
{
	uint32_t n = 0;
	for (char *end; *s && n < max; s = *end ? end + 1 : end)
		v[n++] = (uint32_t)strtoul(s, &end, 10);
	return n;
}

int main(int argc, char **argv)
{
	double scale = 0.005, secs = 2, ramp = 0.3;
	bool noise = false;
	uint32_t mixes[8] = { 0, 70, 50 }, nmix = 3;
	uint32_t qds[16] = { 1, 2, 4, 8, 16, 32, 64, 128, 256 }, nqd = 9;
	int i = 1;
	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (!strcmp(argv[i], "-s"))
			scale = atof(argv[i + 1]);
		else if (!strcmp(argv[i], "-t"))
			secs = atof(argv[i + 1]);
		else if (!strcmp(argv[i], "-r"))
			ramp = atof(argv[i + 1]);
		else if (!strcmp(argv[i], "-m"))
			nmix = parse_list(argv[i + 1], mixes, 8);
		else if (!strcmp(argv[i], "-q"))
			nqd = parse_list(argv[i + 1], qds, 16);
		else if (!strcmp(argv[i], "-n"))
			noise = atoi(argv[i + 1]) != 0;
		else
			break;
	}
	unsigned ndrive = argc > i ? (unsigned)(argc - i) : profile_builtin_count();
	fputs("| drive | mix | QD | read IOPS ref | read % | write IOPS ref | write % "
	      "| read p99 us ref | read p99 % | write p99 us ref | write p99 % |\n", stdout);
	printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	for (unsigned k = 0; k < ndrive; k++) {
		const char *drive = argc > i ? argv[i + k] : profile_builtin_name(k);
		for (uint32_t m = 0; m < nmix; m++)
			for (uint32_t q = 0; q < nqd; q++) {
				char on[160], off[176];
				snprintf(on, sizeof on, "sim:%s,scale=%g,seed=4", drive, scale);
				snprintf(off, sizeof off, "%s,fluid=0", on);
				struct cell c[2];
				/* -n: the reference against itself, another seed
				   of the workload (the noise of one cell) */
				if (cell_run(noise ? off : on, mixes[m], qds[q], secs, ramp,
					     noise ? 18 : 17, &c[0]) ||
				    cell_run(off, mixes[m], qds[q], secs, ramp, 17, &c[1]))
					return 1;
				printf("| %s | %u:%u | %u | %.0f | %+.1f | %.0f | %+.1f | %.0f | %+.1f | %.0f | %+.1f |\n",
				       drive, mixes[m], 100 - mixes[m], qds[q],
				       c[1].iops[0], pct(c[0].iops[0], c[1].iops[0]),
				       c[1].iops[1], pct(c[0].iops[1], c[1].iops[1]),
				       c[1].p99[0] / 1e3, pct((double)c[0].p99[0], (double)c[1].p99[0]),
				       c[1].p99[1] / 1e3, pct((double)c[0].p99[1], (double)c[1].p99[1]));
				fflush(stdout);
			}
	}
	return 0;
}
