#include "cli/analyze_out.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/consistency.h"
#include "analysis/latency.h"
#include "cli/export.h"
#include "cli/run_view.h"

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
	o->ss_metric = -1;
	fill_params_default(&o->fill);
	ss_params_default(&o->ss);
	burst_params_default(&o->bursts);
}

/* Sequential work is judged by bandwidth, random by IOPS: the average I/O
   size tells which (64 KiB and up counts as sequential).  A log that has
   only one of the two decides, and asking for the other is an error. */
static int pick_metric(int asked, const struct analyzed_trace *a,
		       enum trace_metric *out, struct sb_err *e)
{
	if (a->no_bytes || a->no_ios) {
		enum trace_metric only = a->no_bytes ? TRACE_IOPS : TRACE_BW;
		if (asked >= 0 && asked != (int)only)
			return sb_errf(e, "the log has no block sizes, so no %s: "
				       "only %s can be judged",
				       a->no_bytes ? "bytes" : "I/O count",
				       trace_metric_name(only));
		*out = only;
		return 0;
	}
	if (asked >= 0) {
		*out = (enum trace_metric)asked;
		return 0;
	}
	const struct trace_pt *t = a->t;
	size_t n = a->n;
	uint64_t bytes = 0, ios = 0;
	for (size_t i = 0; i < n; i++) {
		bytes += t[i].bytes;
		ios += t[i].ios;
	}
	*out = ios && bytes / ios < 65536 ? TRACE_IOPS : TRACE_BW;
	return 0;
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
		json_double(w, "position_avg_bps", r->position_avg);
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

void analyze_print_ss_how(const struct ss_params *p, const struct ss_result *r)
{
	printf("%s rule, %s, %.0f s window of %.3g s samples", r->rule,
	       r->metric, r->window_s, r->interval_s);
	if (r->per_interval > 1)
		printf(" (%zu trace samples each)", r->per_interval);
	if (isnan(r->limit_pct))
		printf(", fio's limit in absolute terms");
	else if (p->rule == SS_SNIA)
		printf(", fit excursion <= %.3g %%, data excursion <= %.3g %%",
		       r->limit_pct, p->excursion_limit_pct);
	else
		printf(", %s < %.3g %% of the mean",
		       p->rule == SS_FIO_SLOPE ? "|slope|" : "max |deviation|",
		       r->limit_pct);
}

static void json_ss_window(struct json_writer *w, const struct ss_window *at)
{
	/* a trace shorter than the window has no window to describe */
	double na = NAN;
	json_double(w, "criterion_pct", at->full ? at->criterion_pct : na);
	json_double(w, "slope_pct", at->full ? at->slope_pct : na);
	json_double(w, "slope_pct_fio_mean", at->full ? at->slope_pct_fio : na);
	json_double(w, "max_deviation_pct", at->full ? at->max_deviation_pct : na);
	json_double(w, "fit_excursion_pct", at->full ? at->fit_excursion_pct : na);
	json_double(w, "data_excursion_pct", at->full ? at->data_excursion_pct : na);
}

void analyze_json_ss_how(struct json_writer *w, const struct ss_params *p,
			 const struct ss_result *r)
{
	json_string(w, "rule", r->rule);
	json_string(w, "metric", r->metric);
	json_double(w, "interval_s", r->interval_s);
	json_u64(w, "samples_per_interval", r->per_interval);
	json_double(w, "window_s", r->window_s);
	json_u64(w, "window_samples", r->window);
	json_double(w, "limit_pct", r->limit_pct);
	if (p->rule == SS_SNIA)
		json_double(w, "excursion_limit_pct", p->excursion_limit_pct);
}

static void emit_steady(const struct ss_params *p, const struct ss_result *r,
			bool no_bytes, struct json_writer *w)
{
	enum trace_metric m = p->metric;
	double bytes = no_bytes ? NAN : r->bytes;
	double dw = no_bytes ? NAN : r->drive_writes;
	if (w) {
		json_object_begin(w, "steady");
		analyze_json_ss_how(w, p, r);
		json_bool(w, "reached", r->reached);
		json_double(w, "seconds", r->seconds);
		json_double(w, "bytes", bytes);
		json_double(w, "drive_writes", dw);
		json_double(w, "value", r->value);
		json_ss_window(w, &r->at);
		json_object_end(w);
		return;
	}
	printf("  steady state (");
	analyze_print_ss_how(p, r);
	printf("): ");
	printf("%s %.1f s", r->reached ? "reached after" : "not reached in", r->seconds);
	if (!isnan(bytes))
		printf(", %.2f GB", bytes / 1e9);
	if (!isnan(dw))
		printf(" (%.2f drive writes)", dw);
	if (r->reached)
		printf(", at %.0f %s", shown(m, r->value), unit_of(m));
	printf("\n");
	if (r->at.full && !isnan(r->at.criterion_pct))
		printf("    window: slope %.3f %%/sample, max deviation %.1f %%, fit "
		       "excursion %.1f %%, data excursion %.1f %%\n", r->at.slope_pct,
		       r->at.max_deviation_pct, r->at.fit_excursion_pct,
		       r->at.data_excursion_pct);
	else if (r->at.full)
		printf("    window: nothing completed in it\n");
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
	/* A score from too few samples is none, not "nan %". */
	char fine[32] = "no score", coarse[32] = "no score";
	if (isfinite(r->fine.score))
		snprintf(fine, sizeof fine, "%.1f %%", r->fine.score);
	if (isfinite(r->coarse.score))
		snprintf(coarse, sizeof coarse, "%.1f %%", r->coarse.score);
	printf("  consistency (%s): %s from the slices (99.9 %% value "
	       "%.0f over mean %.0f %s, sd %.0f); %s from %u-slice "
	       "(1 s) samples\n", trace_metric_name(m), fine,
	       shown(m, r->fine.p01), shown(m, r->fine.mean), unit_of(m),
	       shown(m, r->fine.stddev), coarse, r->group);
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
	enum trace_metric m, ssm;
	if (trace_check(a->t, a->n, e) || pick_metric(o->metric, a, &m, e) ||
	    pick_metric(o->ss_metric >= 0 ? o->ss_metric : o->metric, a, &ssm, e))
		return sb_err_wrap(e, "%s", a->name);
	if ((o->kinds & AK_FILL) && a->no_bytes && o->kinds != AK_ALL)
		return sb_errf(e, "%s: an IOPS log without block sizes holds no bytes: "
			       "no fill analysis (give the bandwidth log, or --kind "
			       "steady, consistency or bursts)", a->name);
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
		if (a->no_bytes)
			json_null(w, "total_bytes");
		else
			json_u64(w, "total_bytes", bytes);
		if (a->no_ios)
			json_null(w, "total_ios");
		else
			json_u64(w, "total_ios", ios);
		json_double(w, "total_s", (double)ns / 1e9);
		json_double(w, "true_avg_bps", a->no_bytes ? NAN : (double)bytes * 1e9 / (double)ns);
		json_double(w, "true_avg_iops", a->no_ios ? NAN : (double)ios * 1e9 / (double)ns);
		/* the workload's, every direction: which figures below come
		   from I/Os simulated one by one, which extrapolated */
		if (a->from)
			export_json_provenance(w, a->from);
	} else {
		printf("%s (%s): %zu samples, ", a->name, a->direction, a->n);
		if (a->no_bytes)
			printf("bytes absent (no block sizes), ");
		else
			printf("%llu bytes, ", (unsigned long long)bytes);
		if (a->no_ios)
			printf("I/O count absent (no block sizes)");
		else
			printf("%llu I/Os", (unsigned long long)ios);
		printf(" in %.1f s\n", (double)ns / 1e9);
		if (a->from) {
			char from[192];
			run_view_provenance(a->from, from, sizeof from);
			printf("  the workload's I/Os: %s\n", from);
		}
	}
	int rc = 0;
	if ((o->kinds & AK_FILL) && a->no_bytes) {
		if (w)
			json_null(w, "fill");
		else
			printf("  fill: absent (an IOPS log without block sizes holds no bytes)\n");
	} else if (o->kinds & AK_FILL) {
		struct fill_result r;
		if ((rc = fill_analyze(a->t, a->n, &o->fill, &r, e)))
			goto out;
		emit_fill(&r, w);
	}
	if (o->kinds & AK_STEADY) {
		struct ss_params p = o->ss;
		struct ss_result r;
		p.metric = ssm;
		p.capacity_bytes = o->capacity;
		p.sample_s = trace_median_slice_s(a->t, a->n);
		if ((rc = ss_analyze(a->t, a->n, &p, &r, e)))
			goto out;
		emit_steady(&p, &r, a->no_bytes, w);
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
