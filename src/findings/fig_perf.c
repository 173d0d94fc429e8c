/*
 * Figures of the steps that measure a level: peak numbers, active range,
 * sync write, the QD sweeps and tail latency (with their QoS tables and
 * consistency), and the boot search.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "findings/internal.h"

int fig_peak(struct fctx *c, struct sb_err *e)
{
	(void)e;
	/* The best pass of each test. */
	for (size_t i = 0; i < c->nwl; i++) {
		char prof[16], test[32], dir[8];
		uint64_t pass;
		if (!name_word(c->wl[i].name, "prof", prof, sizeof prof) ||
		    !name_word(c->wl[i].name, "test", test, sizeof test) ||
		    !name_word(c->wl[i].name, "dir", dir, sizeof dir) ||
		    !name_u64(c->wl[i].name, "pass", &pass) || pass != 1)
			continue;
		double best = NAN, best_iops = NAN;
		for (size_t j = i; j < c->nwl; j++) {
			char p2[16], t2[32], d2[8];
			if (name_word(c->wl[j].name, "prof", p2, sizeof p2) && !strcmp(p2, prof) &&
			    name_word(c->wl[j].name, "test", t2, sizeof t2) && !strcmp(t2, test) &&
			    name_word(c->wl[j].name, "dir", d2, sizeof d2) && !strcmp(d2, dir) &&
			    !(wl_bps(&c->wl[j]) <= best)) {
				best = wl_bps(&c->wl[j]);
				best_iops = wl_iops(&c->wl[j]);
			}
		}
		for (char *q = test; *q; q++)
			*q = *q == '-' ? '_' : (char)tolower((unsigned char)*q);
		fig(c, "MB/s", best / 1e6, "%s.%s.%s.mbps", prof, test, dir);
		fig(c, "IOPS", best_iops, "%s.%s.%s.iops", prof, test, dir);
	}
	return 0;
}

/* A span that reads this much slower than the smallest is past the knee. */
#define KNEE_DROP 0.05

int fig_active_range(struct fctx *c, struct sb_err *e)
{
	(void)e;
	double first = NAN, least = NAN, knee = NAN, prev = NAN;
	for (size_t i = 0; i < c->nwl; i++) {
		uint64_t span;
		if (!name_u64(c->wl[i].name, "span", &span))
			continue;
		double gib = (double)span / (1024.0 * 1024 * 1024), iops = wl_iops(&c->wl[i]);
		fig(c, "GiB", gib, "span%zu.gib", i + 1);
		fig(c, "IOPS", iops, "span%zu.iops", i + 1);
		if (isnan(first))
			first = iops;
		if (!(iops >= least))
			least = iops;
		/* The knee: the last span before the first that falls short
		   (a mapping cache that covers less than the drive). */
		if (isnan(knee) && iops < (1 - KNEE_DROP) * first && !isnan(prev))
			knee = prev;
		prev = gib;
	}
	if (isnan(first))
		return 0;
	fig(c, "%", first > 0 ? 100 * (1 - least / first) : 0, "drop_pct");
	if (!isnan(knee))
		fig(c, "GiB", knee, "knee_gib");
	return 0;
}

int fig_sync_write(struct fctx *c, struct sb_err *e)
{
	if (c->nwl == 0)
		return 0;
	const struct workload_row *w = &c->wl[c->nwl - 1];
	fig(c, "MB/s", wl_bps(w) / 1e6, "mbps");
	fig(c, "IOPS", wl_iops(w), "iops");
	return fig_workload_latency(c, w, "all", e);
}

/*
 * How long a point was measured: its totals, or -- when a drive completed
 * nothing and the totals say 0 ns -- its measured samples, or the plan's
 * `time`.  A stall is a window like any other.
 */
static int point_window(struct fctx *c, const struct workload_row *w,
			double *ns, struct sb_err *e)
{
	*ns = (double)w->totals.measured_ns;
	if (*ns > 0)
		return 0;
	struct trace_pt *t;
	size_t n;
	if (load_trace(c, w->id, 1u << DIR_READ | 1u << DIR_WRITE, &t, &n, e))
		return -1;
	for (size_t i = 0; i < n; i++)
		*ns += (double)t[i].ns;
	free(t);
	if (*ns == 0)	/* sweep and tail steps both have a time */
		*ns = (double)step_u64(c->st, "time");
	return 0;
}

/* One measured point (a sweep's, a named workload's) under `prefix`. */
static int fig_point(struct fctx *c, const struct workload_row *w, bool iops,
		     const char *prefix, struct sb_err *e)
{
	double window_ns;
	if (point_window(c, w, &window_ns, e))
		return -1;
	const struct store_totals *t = &w->totals;
	bool stall = t->ios[DIR_READ] + t->ios[DIR_WRITE] == 0 && window_ns > 0;
	fig(c, "", stall, "%s.stall", prefix);
	if (stall) {
		/* A measurement: nothing completed in the window, so 0
		   IOPS over it and every I/O in flight waited at least
		   that long. */
		fig(c, "IOPS", 0, "%s.iops", prefix);
		fig(c, "MB/s", 0, "%s.mbps", prefix);
		fig(c, "us", window_ns / 1e3, "%s.lat_at_least_us", prefix);
		return 0;
	}
	fig(c, "IOPS", wl_iops(w), "%s.iops", prefix);
	fig(c, "MB/s", wl_bps(w) / 1e6, "%s.mbps", prefix);
	if (fig_workload_latency(c, w, prefix, e) ||
	    fig_consistency(c, w, iops, prefix, e))
		return -1;
	return 0;
}

int fig_sweep(struct fctx *c, struct sb_err *e)
{
	bool tail = !strcmp(c->st->kind->name, "tail");
	bool iops = tail || strcmp(step_param(c->st, "pattern")->s, "seq");
	for (size_t i = 0; i < c->nwl; i++) {
		uint64_t mix, qd;
		if (!name_u64(c->wl[i].name, "mix", &mix) ||
		    !name_u64(c->wl[i].name, "qd", &qd))
			continue;
		char prefix[48];
		snprintf(prefix, sizeof prefix, "mix%llu.qd%llu", (unsigned long long)mix,
			 (unsigned long long)qd);
		if (fig_point(c, &c->wl[i], iops, prefix, e))
			return -1;
	}
	return 0;
}

/* The named workloads ("profile=NAME"): each a point under its name. */
int fig_profiles(struct fctx *c, struct sb_err *e)
{
	for (size_t i = 0; i < c->nwl; i++) {
		const char *name = c->wl[i].name;
		if (strncmp(name, "profile=", 8) || !name[8])
			continue;
		if (fig_point(c, &c->wl[i], true, name + 8, e))
			return -1;
	}
	return 0;
}

int fig_boot(struct fctx *c, struct sb_err *e)
{
	(void)e;
	/* The verdicts were recorded by the runner; count the trials. */
	size_t trials = 0;
	for (size_t i = 0; i < c->nwl; i++)
		trials += strstr(c->wl[i].name, " readers") != NULL;
	return fig(c, "", (double)trials, "trials");
}
