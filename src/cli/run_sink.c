#include "cli/run_sink.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "suite/totals.h"

static int on_start(void *ctx, const struct target_facts *f, const char *mode,
		    struct sb_err *e)
{
	struct run_sink *s = ctx;
	s->virtual_clock = f && f->is_sim;
	if (!s->st)
		return 0;
	/* A completion batch changes what the latencies mean (docs/run.md):
	   the stored mode says so, "interrupt, batch 8". */
	char m[96];
	if (s->batch > 1)
		snprintf(m, sizeof m, "%s, batch %u", mode, s->batch);
	else
		snprintf(m, sizeof m, "%s", mode);
	if (store_run_engine_mode(s->st, s->run_id, m, e))
		return -1;
	return store_tick(s->st, true, e);
}

static int on_interval(void *ctx, const struct interval_sample *smp, struct sb_err *e)
{
	struct run_sink *s = ctx;
	if (smp->workload < RUN_SINK_MAX_WL) {
		struct run_sink_interval *l = &s->last[smp->workload];
		l->ios = l->bytes = 0;
		for (int d = 0; d < DIR_COUNT; d++) {
			l->ios += smp->dir[d].ios;
			l->bytes += smp->dir[d].bytes;
		}
		l->ns = smp->t_end_ns - smp->t_start_ns;
		l->ramp = smp->ramp;
	}
	if (!s->st)
		return 0;
	if (store_add_sample(s->st, s->wl_id[smp->workload], smp, e) ||
	    store_tick(s->st, false, e))
		return -1;
	return 0;
}

static int on_checkpoint(void *ctx, uint32_t wl, const struct workload_result *r,
			 struct sb_err *e)
{
	struct run_sink *s = ctx;
	if (!s->st)
		return 0;
	struct store_totals t;
	store_totals_of(r, &t);
	if (store_workload_totals(s->st, s->wl_id[wl], &t, r->hist, false, e))
		return -1;
	return store_tick(s->st, false, e);
}

/* The progress line's own clock: a display refresh, not a measurement. */
static uint64_t wall_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void run_sink_progress_line(const struct run_sink *s, double f, double eta,
			    char *buf, size_t len)
{
	double iops = 0, bps = 0;
	bool any = false, ramp = false;
	for (int i = 0; i < RUN_SINK_MAX_WL; i++) {
		const struct run_sink_interval *l = &s->last[i];
		if (!l->ns)
			continue;
		any = true;
		ramp |= l->ramp;
		iops += (double)l->ios * 1e9 / (double)l->ns;
		bps += (double)l->bytes * 1e9 / (double)l->ns;
	}
	char pct[16] = "--", etas[48] = "", rate[64] = "";
	if (f >= 0)
		snprintf(pct, sizeof pct, "%5.1f%%", f * 100);
	if (eta >= 0)
		snprintf(etas, sizeof etas, "  ETA %.0fs%s", eta,
			 s->virtual_clock ? " (drive's time)" : "");
	if (any)
		snprintf(rate, sizeof rate, "  %s%.0f IOPS  %.1f MB/s", ramp ? "ramp " : "",
			 iops, bps / 1e6);
	snprintf(buf, len, "%s %s%s%s", s->label ? s->label : "", pct, etas, rate);
}

static void on_progress(void *ctx, double f, double eta, const struct workload_result *r)
{
	struct run_sink *s = ctx;
	(void)r;
	if (!s->progress)
		return;
	uint64_t now = wall_ns();
	if (now - s->last_progress_ns < 250000000ull)
		return;
	s->last_progress_ns = now;
	char line[256];
	run_sink_progress_line(s, f, eta, line, sizeof line);
	fprintf(stderr, "\r\033[K%s", line);
	s->progress_shown = true;
}

void run_sink_clear(struct run_sink *s)
{
	if (s->progress_shown)
		fprintf(stderr, "\r\033[K");
	s->progress_shown = false;
}

void run_sink_hooks(struct run_sink *s, struct engine_hooks *h)
{
	memset(h, 0, sizeof *h);
	h->ctx = s;
	h->on_start = on_start;
	h->on_interval = on_interval;
	h->on_checkpoint = on_checkpoint;
	h->on_progress = on_progress;
}
