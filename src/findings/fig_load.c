/*
 * Figures of load_sweep (suite/step_load_sweep.c): per read share the
 * closed loop's maximum, per load level its target and achieved IOPS, its
 * response-latency percentiles (from each I/O's scheduled arrival: what a
 * user of the drive waits at that load), the service p99.99 beside them,
 * and how many I/Os started late; and the finding, the first level whose
 * response p99.99 exceeds the step's limit, or that none does.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/latency.h"
#include "findings/internal.h"

/* The response percentiles of the curve, and their key parts. */
static const double curve_ps[] = { 50, 99, 99.9, 99.99 };
static const char *const curve_keys[] = { "50", "99", "99_9", "99_99" };
#define NCURVE 4

/* A workload's reads and writes of one kind merged into h. */
static int load_merged(struct fctx *c, const struct workload_row *w, enum hist_kind kind,
		       struct lat_hist *h, struct lat_hist *scratch, struct sb_err *e)
{
	hist_reset(h);
	for (int d = DIR_READ; d <= DIR_WRITE; d++) {
		if (store_load_histogram_kind(c->s, w->id, (enum io_dir)d, kind, scratch, e))
			return -1;
		hist_merge(h, scratch);
	}
	return 0;
}

/* The target rate of a level, from its stored spec. */
static double spec_rate_iops(const struct workload_row *w)
{
	const char *p = w->spec_json ? strstr(w->spec_json, "\"rate_iops\":") : NULL;
	return p ? strtod(p + 12, NULL) : NAN;
}

struct crossing {
	bool crossed;
	double load_pct, iops, last_ok_iops;
};

static int fig_level(struct fctx *c, const struct workload_row *w, uint64_t mix,
		     uint64_t load, struct lat_hist *const h[2], struct crossing *x,
		     struct sb_err *e)
{
	char pre[48];
	snprintf(pre, sizeof pre, "mix%llu.load%llu", (unsigned long long)mix,
		 (unsigned long long)load);
	double iops = wl_iops(w);
	fig(c, "IOPS", spec_rate_iops(w), "%s.target_iops", pre);
	fig(c, "IOPS", iops, "%s.iops", pre);
	if (load_merged(c, w, HIST_RESPONSE, h[0], h[1], e))
		return -1;
	if (!h[0]->count)
		return 0;	/* nothing completed, or not an open loop */
	uint64_t v[NCURVE];
	hist_percentiles(h[0], curve_ps, NCURVE, v);
	for (int k = 0; k < NCURVE; k++)
		fig(c, "us", (double)v[k] / 1e3, "%s.resp_p%s_us", pre, curve_keys[k]);
	fig(c, "us", (double)h[0]->max / 1e3, "%s.resp_max_us", pre);
	double limit_ns = (double)step_u64(c->st, "limit");
	if (!x->crossed && (double)v[NCURVE - 1] > limit_ns) {
		x->crossed = true;
		x->load_pct = (double)load;
		x->iops = iops;
	} else if (!x->crossed && !(iops <= x->last_ok_iops)) {
		x->last_ok_iops = iops;
	}
	if (load_merged(c, w, HIST_SERVICE, h[0], h[1], e))
		return -1;
	fig(c, "us", (double)hist_percentile(h[0], 99.99) / 1e3, "%s.svc_p99_99_us", pre);
	if (load_merged(c, w, HIST_LATENESS, h[0], h[1], e))
		return -1;
	struct lateness_summary l;
	lat_lateness(h[0], &l);
	fig(c, "share", l.ios ? (double)l.late / (double)l.ios : NAN, "%s.late_share", pre);
	fig(c, "us", l.late_mean_ns / 1e3, "%s.late_mean_us", pre);
	fig(c, "us", (double)l.max_ns / 1e3, "%s.late_max_us", pre);
	return 0;
}

int fig_load_sweep(struct fctx *c, struct sb_err *e)
{
	struct lat_hist *h[2] = { hist_new(), hist_new() };
	int rc = 0;
	if (!h[0] || !h[1])
		rc = sb_errf(e, "out of memory");
	const struct param_value *mixes = step_param(c->st, "mixes");
	for (uint32_t m = 0; !rc && m < mixes->n; m++) {
		uint64_t mix = mixes->ulist[m], wm, load;
		char phase[8];
		struct crossing x = { .last_ok_iops = NAN };
		bool any = false;
		for (size_t i = 0; !rc && i < c->nwl; i++) {
			const struct workload_row *w = &c->wl[i];
			if (!name_u64(w->name, "mix", &wm) || wm != mix)
				continue;
			if (name_word(w->name, "phase", phase, sizeof phase) && !strcmp(phase, "max"))
				fig(c, "IOPS", wl_iops(w), "mix%llu.max_iops", (unsigned long long)mix);
			else if (name_u64(w->name, "load", &load)) {
				any = true;
				rc = fig_level(c, w, mix, load, h, &x, e);
			}
		}
		if (rc || !any)
			continue;
		/* The finding: the first level over the limit, or none. */
		fig(c, "us", (double)step_u64(c->st, "limit") / 1e3, "mix%llu.limit_us",
		    (unsigned long long)mix);
		fig(c, "", x.crossed, "mix%llu.limit_crossed", (unsigned long long)mix);
		fig(c, "%", x.crossed ? x.load_pct : NAN, "mix%llu.limit_crossed_load_pct",
		    (unsigned long long)mix);
		fig(c, "IOPS", x.crossed ? x.iops : NAN, "mix%llu.limit_crossed_iops",
		    (unsigned long long)mix);
		fig(c, "IOPS", x.last_ok_iops, "mix%llu.limit_ok_iops", (unsigned long long)mix);
	}
	hist_free(h[0]);
	hist_free(h[1]);
	return rc;
}
