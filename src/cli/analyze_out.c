#include "cli/analyze_out.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/consistency.h"
#include "analysis/latency.h"

int analyze_parse_kind(const char *s, unsigned *kinds, struct sb_err *e)
{
	static const struct { const char *name; unsigned bit; } k[] = {
		{ "fill", AK_FILL }, { "steady", AK_STEADY },
		{ "consistency", AK_CONSISTENCY }, { "bursts", AK_BURSTS },
		{ "all", AK_ALL },
	};
	for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
		if (!strcmp(s, k[i].name)) {
			*kinds = k[i].bit;
			return 0;
		}
	return sb_errf(e, "unknown analysis '%s' (fill, steady, consistency, "
		       "bursts or all)", s);
}

void analyze_opts_default(struct analyze_opts *o)
{
	memset(o, 0, sizeof *o);
	o->kinds = AK_ALL;
	o->metric = -1;
	fill_params_default(&o->fill);
	ss_params_default(&o->ss);
	burst_params_default(&o->bursts);
}

/* Sequential work is judged by bandwidth, random by IOPS: the average I/O
   size tells which (64 KiB and up counts as sequential). */
static enum trace_metric pick_metric(const struct analyze_opts *o,
				     const struct trace_pt *t, size_t n)
{
	if (o->metric >= 0)
		return (enum trace_metric)o->metric;
	uint64_t bytes = 0, ios = 0;
	for (size_t i = 0; i < n; i++) {
		bytes += t[i].bytes;
		ios += t[i].ios;
	}
	return ios && bytes / ios < 65536 ? TRACE_IOPS : TRACE_BW;
}

static const char *unit_of(enum trace_metric m)
{
	return m == TRACE_BW ? "MB/s" : "IOPS";
}

/* A rate for people: MB/s (10^6) for bandwidth, IOPS as they are. */
static double shown(enum trace_metric m, double v)
{
	return m == TRACE_BW ? v / 1e6 : v;
}

static void json_stage(struct json_writer *w, const char *key,
		       const struct fill_stage *s)
{
	json_object_begin(w, key);
	json_double(w, "start_bytes", s->start_bytes);
	json_double(w, "bytes", s->bytes);
	json_double(w, "seconds", s->seconds);
	json_double(w, "mean_bps", s->mean);
	json_double(w, "median_bps", s->median);
	json_double(w, "p10_bps", s->p10);
	json_object_end(w);
}

static void emit_fill(const struct fill_result *r, struct json_writer *w)
{
	if (w) {
		json_object_begin(w, "fill");
		json_double(w, "total_bytes", r->total_bytes);
		json_double(w, "total_s", r->total_s);
		json_double(w, "true_avg_bps", r->true_avg);
		json_double(w, "mean_of_samples_bps", r->mean_of_samples);
		json_double(w, "p1_bps", r->p1);
		json_double(w, "min_bps", r->min);
		json_double(w, "max_bps", r->max);
		json_double(w, "below_half_share", r->below_half_share);
		json_bool(w, "has_cache", r->has_cache);
		json_u64(w, "cache_phases", r->cache_phases);
		if (r->has_cache) {
			json_double(w, "cache_start_bytes", r->cache_start_bytes);
			json_double(w, "cache_bytes", r->cache_bytes);
			json_double(w, "cache_bps", r->cache_speed);
			json_double(w, "cache_s", r->cache_s);
		} else {
			json_null(w, "cache_start_bytes");
			json_null(w, "cache_bytes");
			json_null(w, "cache_bps");
			json_null(w, "cache_s");
		}
		json_array_begin(w, "stages");
		for (size_t i = 0; i < r->nstages; i++)
			json_stage(w, NULL, &r->stages[i]);
		json_array_end(w);
		if (r->post.end > r->post.first)
			json_stage(w, "post_cache", &r->post);
		else
			json_null(w, "post_cache");
		json_array_begin(w, "levels");
		for (size_t i = 0; i < r->nlevels; i++) {
			json_object_begin(w, NULL);
			json_double(w, "bps", r->levels[i].rate);
			json_double(w, "time_share", r->levels[i].time_share);
			json_object_end(w);
		}
		json_array_end(w);
		json_object_end(w);
		return;
	}
	printf("  fill: %.1f GB in %.1f s; true average %.0f MB/s, mean of "
	       "samples %.0f MB/s, 1st percentile %.0f, min %.0f MB/s; "
	       "%.1f %% of the time below half the average\n",
	       r->total_bytes / 1e9, r->total_s, r->true_avg / 1e6,
	       r->mean_of_samples / 1e6, r->p1 / 1e6, r->min / 1e6,
	       100 * r->below_half_share);
	if (r->has_cache)
		printf("    SLC cache: %.1f GB at %.0f MB/s (%.1f s) from %.1f GB, "
		       "%u phase%s\n", r->cache_bytes / 1e9, r->cache_speed / 1e6,
		       r->cache_s, r->cache_start_bytes / 1e9, r->cache_phases,
		       r->cache_phases == 1 ? "" : "s");
	else
		printf("    no SLC cache (no sustained drop)\n");
	for (size_t i = 0; i < r->nstages; i++)
		printf("    stage %zu from %.1f GB: %.1f GB at %.0f MB/s "
		       "(median %.0f, p10 %.0f) for %.1f s\n", i + 1,
		       r->stages[i].start_bytes / 1e9, r->stages[i].bytes / 1e9,
		       r->stages[i].mean / 1e6, r->stages[i].median / 1e6,
		       r->stages[i].p10 / 1e6, r->stages[i].seconds);
	if (r->post.end > r->post.first && r->has_cache)
		printf("    after the cache: mean %.0f, median %.0f, p10 %.0f MB/s\n",
		       r->post.mean / 1e6, r->post.median / 1e6, r->post.p10 / 1e6);
	if (r->nlevels) {
		printf("    levels:");
		for (size_t i = 0; i < r->nlevels; i++)
			printf(" %.0f MB/s (%.0f %%)", r->levels[i].rate / 1e6,
			       100 * r->levels[i].time_share);
		printf("\n");
	}
}

static void emit_steady(const struct ss_params *p, const struct ss_result *r,
			struct json_writer *w)
{
	enum trace_metric m = p->metric;
	if (w) {
		json_object_begin(w, "steady");
		json_string(w, "rule", r->rule);
		json_string(w, "metric", r->metric);
		json_double(w, "interval_s", p->interval_s);
		json_double(w, "window_s", p->window_s);
		json_u64(w, "window_samples", r->window);
		json_bool(w, "reached", r->reached);
		json_double(w, "seconds", r->seconds);
		json_double(w, "bytes", r->bytes);
		json_double(w, "drive_writes", r->drive_writes);
		json_double(w, "value", r->value);
		/* a trace shorter than the window has no window to describe */
		double na = NAN;
		json_double(w, "slope_pct", r->at.full ? r->at.slope_pct : na);
		json_double(w, "fit_excursion_pct",
			    r->at.full ? r->at.fit_excursion_pct : na);
		json_double(w, "data_excursion_pct",
			    r->at.full ? r->at.data_excursion_pct : na);
		json_object_end(w);
		return;
	}
	printf("  steady state (%s, %s, %.0f s window of %.3g s samples): ",
	       r->rule, r->metric, p->window_s, p->interval_s);
	if (r->reached) {
		printf("reached after %.1f s, %.2f GB", r->seconds, r->bytes / 1e9);
		if (!isnan(r->drive_writes))
			printf(" (%.2f drive writes)", r->drive_writes);
		printf(", at %.0f %s\n", shown(m, r->value), unit_of(m));
	} else {
		printf("not reached in %.1f s (%.2f GB)\n", r->seconds, r->bytes / 1e9);
	}
	if (r->at.full)
		printf("    window: slope %.3f %%/sample, fit excursion %.1f %%, "
		       "data excursion %.1f %%\n", r->at.slope_pct,
		       r->at.fit_excursion_pct, r->at.data_excursion_pct);
}

static void json_view(struct json_writer *w, const char *key,
		      const struct consistency_view *v)
{
	json_object_begin(w, key);
	json_u64(w, "samples", v->n);
	json_double(w, "mean", v->mean);
	json_double(w, "p0_1", v->p01);
	json_double(w, "score_pct", v->score);
	json_double(w, "stddev", v->stddev);
	json_double(w, "cv", v->cv);
	json_object_end(w);
}

static void emit_consistency(enum trace_metric m,
			     const struct consistency_result *r,
			     struct json_writer *w)
{
	if (w) {
		json_object_begin(w, "consistency");
		json_string(w, "metric", trace_metric_name(m));
		json_u64(w, "group", r->group);
		json_view(w, "fine", &r->fine);
		json_view(w, "coarse", &r->coarse);
		json_object_end(w);
		return;
	}
	printf("  consistency (%s): %.1f %% from the slices (99.9 %% value "
	       "%.0f over mean %.0f %s, sd %.0f); %.1f %% from %u-slice "
	       "(1 s) samples\n", trace_metric_name(m), r->fine.score,
	       shown(m, r->fine.p01), shown(m, r->fine.mean), unit_of(m),
	       shown(m, r->fine.stddev), r->coarse.score, r->group);
}

static void json_bstat(struct json_writer *w, const char *key,
		       const struct burst_stat *s)
{
	json_object_begin(w, key);
	json_double(w, "min", s->min);
	json_double(w, "median", s->median);
	json_double(w, "max", s->max);
	json_object_end(w);
}

static void emit_bursts(enum trace_metric m, const struct burst_result *r,
			const double *dw, const double *at, size_t ndw,
			struct json_writer *w)
{
	if (w) {
		json_object_begin(w, "bursts");
		json_string(w, "metric", trace_metric_name(m));
		json_u64(w, "count", r->count);
		json_double(w, "base", r->base);
		json_bstat(w, "period_s", &r->period_s);
		json_bstat(w, "duration_s", &r->duration_s);
		json_bstat(w, "height", &r->height);
		json_bstat(w, "bytes", &r->bytes);
		json_array_begin(w, "level_at_drive_writes");
		for (size_t i = 0; i < ndw; i++) {
			json_object_begin(w, NULL);
			json_double(w, "drive_writes", dw[i]);
			json_double(w, "value", at[i]);
			json_object_end(w);
		}
		json_array_end(w);
		json_object_end(w);
		return;
	}
	printf("  bursts (%s): %zu above a level of %.0f %s", trace_metric_name(m),
	       r->count, shown(m, r->base), unit_of(m));
	if (r->count)
		printf("; %.0f-%.0f %s for %.2f-%.2f s, %.2f GB each",
		       shown(m, r->height.min), shown(m, r->height.max), unit_of(m),
		       r->duration_s.min, r->duration_s.max, r->bytes.median / 1e9);
	if (r->count > 1)
		printf(", every %.1f-%.1f s", r->period_s.min, r->period_s.max);
	printf("\n");
	for (size_t i = 0; i < ndw; i++)
		if (!isnan(at[i]))
			printf("    at %.1f drive writes: %.0f %s\n", dw[i],
			       shown(m, at[i]), unit_of(m));
}

static void emit_latency(const struct lat_hist *h, struct json_writer *w)
{
	struct lat_summary s;
	lat_summarize(h, lat_qos_percentiles, LAT_QOS_NPS, &s);
	if (w) {
		json_object_begin(w, "latency");
		json_u64(w, "count", s.count);
		json_double(w, "mean_ns", s.mean_ns);
		json_u64(w, "min_ns", s.min_ns);
		json_u64(w, "max_ns", s.max_ns);
		json_object_begin(w, "percentiles_ns");
		for (size_t i = 0; i < s.np; i++) {
			char key[32];
			snprintf(key, sizeof key, "p%g", s.ps[i]);
			json_u64(w, key, s.v_ns[i]);
		}
		json_object_end(w);
		json_object_end(w);
		return;
	}
	printf("  latency: %llu I/Os, mean %.1f us;", (unsigned long long)s.count,
	       s.mean_ns / 1e3);
	for (size_t i = 0; i < s.np; i++)
		printf(" p%g %.1f", s.ps[i], (double)s.v_ns[i] / 1e3);
	printf(" us; max %.1f us\n", (double)s.max_ns / 1e3);
}

int analyze_trace(const struct analyze_opts *o, const struct analyzed_trace *a,
		  struct json_writer *w, struct sb_err *e)
{
	if (trace_check(a->t, a->n, e))
		return sb_err_wrap(e, "%s", a->name);
	enum trace_metric m = pick_metric(o, a->t, a->n);
	uint64_t bytes = 0, ios = 0, ns = 0;
	for (size_t i = 0; i < a->n; i++) {
		bytes += a->t[i].bytes;
		ios += a->t[i].ios;
		ns += a->t[i].ns;
	}
	if (w) {
		json_object_begin(w, NULL);
		json_string(w, "name", a->name);
		json_string(w, "direction", a->direction);
		json_string(w, "metric", trace_metric_name(m));
		json_u64(w, "samples", a->n);
		json_u64(w, "total_bytes", bytes);
		json_u64(w, "total_ios", ios);
		json_double(w, "total_s", (double)ns / 1e9);
		json_double(w, "true_avg_bps", (double)bytes * 1e9 / (double)ns);
		json_double(w, "true_avg_iops", (double)ios * 1e9 / (double)ns);
	} else {
		printf("%s (%s): %zu samples, %llu bytes, %llu I/Os in %.1f s\n",
		       a->name, a->direction, a->n, (unsigned long long)bytes,
		       (unsigned long long)ios, (double)ns / 1e9);
	}
	int rc = 0;
	if (o->kinds & AK_FILL) {
		struct fill_result r;
		if ((rc = fill_analyze(a->t, a->n, &o->fill, &r, e)))
			goto out;
		emit_fill(&r, w);
	}
	if (o->kinds & AK_STEADY) {
		struct ss_params p = o->ss;
		struct ss_result r;
		p.metric = m;
		p.capacity_bytes = o->capacity;
		if (!o->interval_given)
			p.interval_s = trace_median_slice_s(a->t, a->n);
		if ((rc = ss_analyze(a->t, a->n, &p, &r, e)))
			goto out;
		emit_steady(&p, &r, w);
	}
	if (o->kinds & AK_CONSISTENCY) {
		struct consistency_result r;
		if ((rc = consistency_analyze(a->t, a->n, m, 0, &r, e)))
			goto out;
		emit_consistency(m, &r, w);
	}
	if (o->kinds & AK_BURSTS) {
		struct burst_result r;
		static const double dw[3] = { 0.2, 1.0, 1.5 };
		double at[3];
		size_t ndw = o->capacity ? 3 : 0;
		if ((rc = burst_analyze(a->t, a->n, m, &o->bursts, &r, NULL, e)))
			goto out;
		if (ndw && (rc = level_at_drive_writes(a->t, a->n, m, o->capacity,
						       dw, ndw, 60, at, e)))
			goto out;
		emit_bursts(m, &r, dw, at, ndw, w);
	}
	if (a->lat && a->lat->count)
		emit_latency(a->lat, w);
out:
	if (w)
		json_object_end(w);
	if (rc)
		return sb_err_wrap(e, "%s", a->name);
	return 0;
}

void analyze_print_fio_job(const struct fio_job_summary *j,
			   struct json_writer *w)
{
	static const char *const dn[3] = { "read", "write", "trim" };
	if (w) {
		json_object_begin(w, NULL);
		json_string(w, "name", j->name);
	} else {
		printf("fio job %s\n", j->name);
	}
	for (int d = 0; d < 3; d++) {
		const struct fio_dir_summary *s = &j->dir[d];
		if (!s->io_bytes && !s->total_ios)
			continue;
		if (w) {
			json_object_begin(w, dn[d]);
			json_u64(w, "io_bytes", s->io_bytes);
			json_u64(w, "total_ios", s->total_ios);
			json_u64(w, "runtime_ms", s->runtime_ms);
			json_double(w, "bw_bps", s->bw_bytes);
			json_double(w, "iops", s->iops);
			json_double(w, "clat_mean_ns", s->clat_mean_ns);
			json_u64(w, "clat_min_ns", s->clat_min_ns);
			json_u64(w, "clat_max_ns", s->clat_max_ns);
			json_object_begin(w, "clat_percentiles_ns");
			for (size_t i = 0; i < s->np; i++) {
				char key[32];
				snprintf(key, sizeof key, "p%g", s->ps[i]);
				json_u64(w, key, s->pv_ns[i]);
			}
			json_object_end(w);
			json_object_end(w);
			continue;
		}
		printf("  %s: %llu bytes, %llu I/Os in %llu ms: %.0f MB/s, %.0f IOPS, "
		       "clat mean %.1f us", dn[d], (unsigned long long)s->io_bytes,
		       (unsigned long long)s->total_ios,
		       (unsigned long long)s->runtime_ms, s->bw_bytes / 1e6, s->iops,
		       s->clat_mean_ns / 1e3);
		for (size_t i = 0; i < s->np; i++)
			if (s->ps[i] == 50 || s->ps[i] == 99 || s->ps[i] == 99.9 ||
			    s->ps[i] == 99.99)
				printf(", p%g %.1f", s->ps[i], (double)s->pv_ns[i] / 1e3);
		printf(" us\n");
	}
	if (w)
		json_object_end(w);
}
