/* Shared by the store's unit tests: temp databases, deterministic samples
   and histograms, and exact comparisons. */
#ifndef SSDBENCH_TESTS_STORE_FIXTURE_H
#define SSDBENCH_TESTS_STORE_FIXTURE_H

#include <math.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "common/rng.h"
#include "store/migrate.h"
#include "store/store.h"
#include "store/store_impl.h"

static char tmpdir[64];

/* A fresh path in this run's temp directory (files removed at exit). */
static inline const char *db_path(const char *name)
{
	static char path[128];
	if (!tmpdir[0]) {
		snprintf(tmpdir, sizeof tmpdir, "/tmp/ssdbench-store.XXXXXX");
		if (!mkdtemp(tmpdir))
			abort();
	}
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	return path;
}

static inline void remove_tmpdir(void)
{
	char cmd[128];
	if (!tmpdir[0])
		return;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmpdir);
}

static inline struct store *open_new(const char *name)
{
	struct store *s = NULL;
	struct sb_err e = { 0 };
	const char *p = db_path(name);
	char side[160];
	unlink(p);
	snprintf(side, sizeof side, "%s-wal", p);
	unlink(side);
	snprintf(side, sizeof side, "%s-shm", p);
	unlink(side);
	if (store_open(p, &s, &e))
		CHECK_FAIL("store_open %s: %s", p, e.msg);
	return s;
}

static inline int64_t begin_run(struct store *s, const char *target)
{
	struct run_begin b = { .kind = "run", .target = target,
			       .command_line = "ssdbench run --target x",
			       .params_json = "{\"bs\":4096}",
			       .host_json = "{\"kernel\":\"6.1\"}" };
	struct sb_err e;
	int64_t id = 0;
	if (store_run_begin(s, &b, &id, &e))
		CHECK_FAIL("run_begin: %s", e.msg);
	return id;
}

/* A sample whose every field is a known function of (seed, index). */
static inline void make_sample(struct interval_sample *x, uint32_t wl, uint64_t i,
			uint64_t seed)
{
	struct rng r;
	rng_seed(&r, seed * 1000003u + i);
	memset(x, 0, sizeof *x);
	x->workload = wl;
	x->index = i;
	x->t_start_ns = i * 100000000u;
	x->t_end_ns = (i + 1) * 100000000u;
	x->ramp = i < 3;
	for (int d = 0; d < DIR_COUNT; d++) {
		x->dir[d].bytes = rng_next(&r) >> 20;
		x->dir[d].ios = rng_next(&r) >> 40;
		x->dir[d].lat_p50_ns = rng_next(&r) >> 44;
		x->dir[d].lat_p99_ns = rng_next(&r) >> 40;
		x->dir[d].lat_max_ns = rng_next(&r) >> 30;
		x->dir[d].lat_sum_ns = rng_next(&r); /* full 64 bits */
	}
}

static inline bool same_sample(const struct interval_sample *a,
			const struct interval_sample *b)
{
	if (a->workload != b->workload || a->index != b->index ||
	    a->t_start_ns != b->t_start_ns || a->t_end_ns != b->t_end_ns ||
	    a->ramp != b->ramp)
		return false;
	for (int d = 0; d < DIR_COUNT; d++)
		if (memcmp(&a->dir[d], &b->dir[d], sizeof a->dir[d]))
			return false;
	return true;
}

static inline bool same_hist(const struct lat_hist *a, const struct lat_hist *b)
{
	return a->count == b->count && a->sum == b->sum && a->min == b->min &&
	       a->max == b->max && a->lo == b->lo && a->hi == b->hi &&
	       !memcmp(a->buckets, b->buckets, sizeof a->buckets);
}

#endif
