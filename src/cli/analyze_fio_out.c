/*
 * fio's JSON summary of a job as `ssdbench analyze --fio-json` prints it,
 * and fio's steady-state verdict judged again by ssdbench's detector.
 */
#include "cli/analyze_out.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A figure for people: the number, or "absent" when the file lacks it. */
static void print_fig(const char *fmt, double v, double scale,
		      const char *absent)
{
	if (isfinite(v))
		printf(fmt, v / scale);
	else
		printf("%s absent", absent);
}

static void json_lat(struct json_writer *w, const char *pre,
		     const struct fio_lat_summary *l)
{
	char key[48];
	snprintf(key, sizeof key, "%s_mean_ns", pre);
	json_double(w, key, l->mean_ns);
	snprintf(key, sizeof key, "%s_min_ns", pre);
	json_double(w, key, l->min_ns);
	snprintf(key, sizeof key, "%s_max_ns", pre);
	json_double(w, key, l->max_ns);
	snprintf(key, sizeof key, "%s_percentiles_ns", pre);
	if (!l->np) {
		json_null(w, key);
		return;
	}
	json_object_begin(w, key);
	for (size_t i = 0; i < l->np; i++) {
		snprintf(key, sizeof key, "p%g", l->ps[i]);
		json_double(w, key, l->pv_ns[i]);
	}
	json_object_end(w);
}

static void print_lat(const char *what, const struct fio_lat_summary *l)
{
	if (!l->present)
		return;
	printf("; %s mean", what);
	print_fig(" %.1f us", l->mean_ns, 1e3, "");
	for (size_t i = 0; i < l->np; i++)
		if (l->ps[i] == 50 || l->ps[i] == 99 || l->ps[i] == 99.9 ||
		    l->ps[i] == 99.99)
			printf(", p%g %.1f us", l->ps[i], l->pv_ns[i] / 1e3);
}

/*
 * fio's steady-state window judged again by ssdbench's detector: the same
 * rule, metric, samples and limit, with the exact window mean where fio's
 * slope criterion divides by the mean truncated to an integer.
 */
struct ss_rejudge {
	struct ss_params p;
	struct ss_result r;
	bool steady;		/* ours, on fio's terms (absolute limits too) */
	double criterion;	/* ours, in fio's unit (% or absolute) */
	double criterion_fio_mean;	/* the same over fio's truncated mean */
};

static int rejudge(const struct fio_ss_summary *f, struct ss_rejudge *o,
		   struct sb_err *e)
{
	memset(o, 0, sizeof *o);
	ss_params_default(&o->p);
	o->p.rule = f->slope ? SS_FIO_SLOPE : SS_FIO_DEVIATION;
	o->p.metric = f->iops ? TRACE_IOPS : TRACE_BW;
	/* fio keeps one rate per ss_interval: duration / number of them */
	o->p.sample_s = o->p.interval_s = f->duration_s / (double)f->n;
	o->p.window_s = f->duration_s;
	/* a limit not in % is judged below on fio's absolute terms */
	o->p.slope_limit_pct = f->pct ? f->limit : 1e9;
	struct ss_detector *d;
	if (!(f->n >= 2) || ss_new(&o->p, &d, e))
		return f->n >= 2 ? -1 : sb_errf(e, "fio's window has %zu samples", f->n);
	for (size_t i = 0; i < f->n; i++) {
		struct trace_pt pt = { (uint64_t)llround(o->p.sample_s * 1e9),
				       f->bw_data[i], f->iops_data[i] };
		ss_push(d, &pt);
	}
	ss_result(d, &o->r);
	ss_free(d);
	if (!f->pct)
		o->r.limit_pct = NAN;	/* judged below on fio's absolute limit */
	const struct ss_window *wd = &o->r.at;
	double to_abs = f->pct ? 1 : wd->mean / 100;
	o->criterion = wd->criterion_pct * to_abs;
	/* fio's truncated mean enters only its % of the mean for the slope */
	o->criterion_fio_mean = f->slope && f->pct ? wd->slope_pct_fio : o->criterion;
	o->steady = wd->full && !isnan(o->criterion) && fabs(o->criterion) < f->limit;
	return 0;
}

static void print_rejudge(const struct fio_ss_summary *f, struct json_writer *w)
{
	struct ss_rejudge o;
	struct sb_err e;
	int rc = rejudge(f, &o, &e);
	const char *unit = f->pct ? "%" : f->iops ? "IOPS" : "B/s";
	/* what the exact mean changes, and whether ssdbench's reading of the
	   window reproduces fio's figure (printed with 6 decimals) */
	double diff = o.criterion - o.criterion_fio_mean;
	bool same_window = fabs(o.criterion_fio_mean - f->criterion) <=
			   1e-6 + 1e-6 * fabs(f->criterion);
	if (w) {
		json_object_begin(w, "steadystate");
		json_object_begin(w, "fio");
		json_string(w, "ss", f->ss);
		json_string(w, "rule", f->slope ? "fio-slope" : "fio-deviation");
		json_string(w, "metric", f->iops ? "iops" : "bw");
		json_double(w, "limit", f->limit);
		json_bool(w, "limit_is_pct", f->pct);
		json_double(w, "duration_s", f->duration_s);
		json_u64(w, "samples", f->n);
		json_bool(w, "attained", f->attained);
		json_double(w, "criterion", f->criterion);
		json_double(w, "mean", f->iops ? f->iops_mean : f->bw_mean);
		json_object_end(w);
		if (rc) {
			json_string(w, "error", e.msg);
		} else {
			json_object_begin(w, "ssdbench");
			analyze_json_ss_how(w, &o.p, &o.r);
			json_double(w, "limit", f->limit);
			json_bool(w, "steady", o.steady);
			json_double(w, "criterion", o.criterion);
			json_double(w, "criterion_over_fio_mean", o.criterion_fio_mean);
			json_double(w, "mean", o.r.at.mean);
			json_object_end(w);
			json_double(w, "exact_mean_difference", diff);
			json_bool(w, "reproduces_fio_criterion", same_window);
			json_bool(w, "verdicts_agree", o.steady == f->attained);
		}
		json_object_end(w);
		return;
	}
	printf("  steady state: fio ss=%s over %.0f s (%zu samples): %s, criterion %.6g %s\n",
	       f->ss, f->duration_s, f->n, f->attained ? "attained" : "not attained",
	       f->criterion, unit);
	if (rc) {
		printf("    ssdbench cannot judge fio's window again: %s\n", e.msg);
		return;
	}
	printf("    ssdbench (");
	analyze_print_ss_how(&o.p, &o.r);
	printf("): %s, criterion %.6g %s\n", o.steady ? "steady" : "not steady",
	       o.criterion, unit);
	if (f->slope && f->pct && diff != 0)
		printf("    ssdbench divides the slope by the exact mean %.6g, fio by the "
		       "mean truncated to an integer, %.0f, which gives %.6g %s: a "
		       "difference of %.3g %s\n", o.r.at.mean, floor(o.r.at.mean),
		       o.criterion_fio_mean, unit, diff, unit);
	else if (f->slope && f->pct)
		printf("    ssdbench divides the slope by the exact mean, fio by the mean "
		       "truncated to an integer: the same here (%.6g)\n", o.r.at.mean);
	printf("    %s\n", same_window ? "fio's criterion reproduced from its window data" :
	       "fio's criterion is not what its window data give");
	if (o.steady != f->attained)
		printf("    the verdicts differ\n");
}

void analyze_print_fio_job(const struct fio_job_summary *j,
			   struct json_writer *w)
{
	if (w) {
		json_object_begin(w, NULL);
		json_string(w, "name", j->name);
		json_u64(w, "document", j->document);
		json_string(w, "fio_version", j->version);
	} else {
		printf("fio job %s (document %u, %s)\n", j->name, j->document + 1,
		       j->version[0] ? j->version : "fio version absent");
	}
	for (int d = 0; d < FIO_NDIRS; d++) {
		const struct fio_dir_summary *s = &j->dir[d];
		/* a direction the job did not use: fio prints zeros */
		if (!s->present || !(s->io_bytes > 0))
			continue;
		if (w) {
			json_object_begin(w, fio_dir_names[d]);
			json_double(w, "io_bytes", s->io_bytes);
			json_double(w, "total_ios", s->total_ios);
			json_double(w, "runtime_ms", s->runtime_ms);
			json_double(w, "bw_bps", s->bw_bytes);
			json_double(w, "iops", s->iops);
			json_string(w, "units_read", s->io_kib ?
				    (s->lat_us ? "io_bytes KiB, latency us" : "io_bytes KiB") :
				    (s->lat_us ? "latency us" : "bytes, ns"));
			json_lat(w, "clat", &s->clat);
			if (s->lat.present)
				json_lat(w, "lat", &s->lat);
			json_object_end(w);
			continue;
		}
		printf("  %s: ", fio_dir_names[d]);
		print_fig("%.0f bytes", s->io_bytes, 1, "bytes");
		print_fig(", %.0f I/Os", s->total_ios, 1, ", I/O count");
		print_fig(" in %.0f ms", s->runtime_ms, 1, ", runtime");
		print_fig(": %.1f MB/s", s->bw_bytes, 1e6, "; bandwidth");
		print_fig(", %.0f IOPS", s->iops, 1, ", IOPS");
		print_lat("clat", &s->clat);
		print_lat("lat", &s->lat);
		if (s->io_kib || s->lat_us)
			printf(" (read as fio 2.x units:%s%s)", s->io_kib ? " io_bytes KiB" : "",
			       s->lat_us ? " latency us" : "");
		printf("\n");
	}
	if (j->ss.present)
		print_rejudge(&j->ss, w);
	if (w)
		json_object_end(w);
}
