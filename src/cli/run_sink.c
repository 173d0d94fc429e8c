#include "cli/run_sink.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static int on_start(void *ctx, const struct target_facts *f, const char *mode,
		    struct sb_err *e)
{
	struct run_sink *s = ctx;
	(void)f;
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
	if (!s->st)
		return 0;
	if (store_add_sample(s->st, s->wl_id[smp->workload], smp, e) ||
	    store_tick(s->st, false, e))
		return -1;
	return 0;
}

void run_sink_totals(const struct workload_result *r, struct store_totals *t)
{
	memcpy(t->bytes, r->bytes, sizeof t->bytes);
	memcpy(t->ios, r->ios, sizeof t->ios);
	t->measured_ns = r->measured_ns;
	t->driver_stalls = r->driver_stalls;
	t->driver_stall_ns = r->driver_stall_ns;
}

static int on_checkpoint(void *ctx, uint32_t wl, const struct workload_result *r,
			 struct sb_err *e)
{
	struct run_sink *s = ctx;
	if (!s->st)
		return 0;
	struct store_totals t;
	run_sink_totals(r, &t);
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

static void on_progress(void *ctx, double f, double eta, const struct workload_result *r)
{
	struct run_sink *s = ctx;
	if (!s->progress)
		return;
	uint64_t now = wall_ns();
	if (now - s->last_progress_ns < 250000000ull)
		return;
	s->last_progress_ns = now;
	uint64_t ios = r->ios[0] + r->ios[1] + r->ios[2];
	uint64_t bytes = r->bytes[0] + r->bytes[1] + r->bytes[2];
	double secs = (double)r->measured_ns / 1e9;
	char pct[16] = "--", etas[32] = "";
	if (f >= 0)
		snprintf(pct, sizeof pct, "%5.1f%%", f * 100);
	if (eta >= 0)
		snprintf(etas, sizeof etas, "  ETA %.0fs", eta);
	fprintf(stderr, "\r%s %s%s  %.0f IOPS  %.1f MB/s   ", s->label ? s->label : "",
		pct, etas, secs > 0 ? (double)ios / secs : 0.0,
		secs > 0 ? (double)bytes / secs / 1e6 : 0.0);
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
