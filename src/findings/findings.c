/*
 * The figures of a suite run: which figures a step has depends on its
 * kind; this file finds the steps and their workloads, and holds what the
 * per-kind files share.
 */
#include "findings/internal.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/consistency.h"
#include "analysis/latency.h"
#include "suite/record.h"

void figures_free(struct figures *f)
{
	free(f->v);
	f->v = NULL;
	f->n = f->cap = 0;
}

int figures_add(struct figures *f, int64_t step_id, const char *unit,
		double value, const char *fmt, ...)
{
	if (f->n == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 256;
		struct figure *v = realloc(f->v, cap * sizeof *v);
		if (!v)
			return -1;
		f->v = v;
		f->cap = cap;
	}
	struct figure *g = &f->v[f->n++];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(g->key, sizeof g->key, fmt, ap);
	va_end(ap);
	snprintf(g->unit, sizeof g->unit, "%s", unit ? unit : "");
	g->value = value;
	g->step_id = step_id;
	return 0;
}

const struct figure *figures_find(const struct figures *f, const char *key)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->v[i].key, key))
			return &f->v[i];
	return NULL;
}

double run_scale(const struct fctx *c)
{
	double s = suite_param(c->p, "scale")->d;
	return s > 0 && s <= 1 ? s : 1;
}

int fig(struct fctx *c, const char *unit, double v, const char *fmt, ...)
{
	char rest[112];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(rest, sizeof rest, fmt, ap);
	va_end(ap);
	return figures_add(c->out, c->row->id, unit, v, "%s.%s", c->st->name, rest);
}

/* Find " key=" (or a leading "key=") in a workload name. */
static const char *name_value(const char *name, const char *key)
{
	size_t kl = strlen(key);
	for (const char *p = name; (p = strstr(p, key)); p += kl)
		if ((p == name || p[-1] == ' ') && p[kl] == '=')
			return p + kl + 1;
	return NULL;
}

bool name_u64(const char *name, const char *key, uint64_t *out)
{
	const char *v = name_value(name, key);
	if (!v || !isdigit((unsigned char)*v))
		return false;
	*out = strtoull(v, NULL, 10);
	return true;
}

bool name_word(const char *name, const char *key, char *buf, size_t len)
{
	const char *v = name_value(name, key);
	if (!v)
		return false;
	size_t n = strcspn(v, " ");
	if (n >= len)
		n = len - 1;
	memcpy(buf, v, n);
	buf[n] = '\0';
	return true;
}

/* The trace load_trace builds, a point per measured sample as it is read. */
struct trace_build {
	unsigned dirs;
	struct trace_pt *v;
	size_t n, cap;
};

static int add_trace_pt(void *ctx, const struct sample_counts *s, struct sb_err *e)
{
	struct trace_build *b = ctx;
	if (s->ramp || s->t_end_ns <= s->t_start_ns)
		return 0;
	if (b->n == b->cap) {
		/* doubling: a large block grows in place or is moved by
		   its pages, not copied */
		size_t cap = b->cap ? b->cap * 2 : 1024;
		struct trace_pt *v = realloc(b->v, cap * sizeof *v);
		if (!v)
			return sb_errf(e, "out of memory");
		b->v = v;
		b->cap = cap;
	}
	struct trace_pt p = { .ns = s->t_end_ns - s->t_start_ns };
	for (int d = 0; d < DIR_COUNT; d++)
		if (b->dirs & (1u << d)) {
			p.bytes += s->bytes[d];
			p.ios += s->ios[d];
		}
	b->v[b->n++] = p;
	return 0;
}

int load_trace(struct fctx *c, int64_t wid, unsigned dirs,
	       struct trace_pt **t, size_t *n, struct sb_err *e)
{
	struct trace_build b = { .dirs = dirs };
	*t = NULL;
	*n = 0;
	if (store_each_sample_counts(c->s, wid, dirs, add_trace_pt, &b, e)) {
		free(b.v);
		return -1;
	}
	if (!b.v && !(b.v = malloc(sizeof *b.v)))	/* callers free it */
		return sb_errf(e, "out of memory");
	*t = b.v;
	*n = b.n;
	return 0;
}

double wl_bps(const struct workload_row *w)
{
	if (!w->totals.measured_ns)
		return NAN;
	return (double)(w->totals.bytes[DIR_READ] + w->totals.bytes[DIR_WRITE]) *
	       1e9 / (double)w->totals.measured_ns;
}

double wl_iops(const struct workload_row *w)
{
	if (!w->totals.measured_ns)
		return NAN;
	return (double)(w->totals.ios[DIR_READ] + w->totals.ios[DIR_WRITE]) *
	       1e9 / (double)w->totals.measured_ns;
}

/* "99.99" -> "99_99": a key part may not contain the separator. */
static void pct_label(double p, char *buf, size_t len)
{
	snprintf(buf, len, "%g", p);
	for (char *q = buf; *q; q++)
		if (*q == '.')
			*q = '_';
}

int fig_workload_latency(struct fctx *c, const struct workload_row *w,
			 const char *prefix, struct sb_err *e)
{
	/* Reads and writes together: the latency a mixed workload sees. */
	struct lat_hist *all = hist_new(), *h = hist_new();
	if (!all || !h) {
		hist_free(all);
		hist_free(h);
		return sb_errf(e, "out of memory");
	}
	int rc = 0;
	for (int d = DIR_READ; d <= DIR_WRITE && !rc; d++) {
		hist_reset(h);
		rc = store_load_histogram(c->s, w->id, (enum io_dir)d, h, e);
		if (!rc)
			hist_merge(all, h);
	}
	if (!rc && all->count) {
		struct lat_summary sum;
		lat_summarize(all, lat_qos_percentiles, LAT_QOS_NPS, &sum);
		fig(c, "us", sum.mean_ns / 1e3, "%s.lat_mean_us", prefix);
		for (size_t i = 0; i < sum.np; i++) {
			char l[16];
			pct_label(sum.ps[i], l, sizeof l);
			fig(c, "us", (double)sum.v_ns[i] / 1e3, "%s.lat_p%s_us", prefix, l);
		}
		fig(c, "us", (double)sum.max_ns / 1e3, "%s.lat_max_us", prefix);
	}
	hist_free(all);
	hist_free(h);
	return rc;
}

int fig_consistency(struct fctx *c, const struct workload_row *w, bool iops,
		    const char *prefix, struct sb_err *e)
{
	struct trace_pt *t;
	size_t n;
	if (load_trace(c, w->id, 1u << DIR_READ | 1u << DIR_WRITE, &t, &n, e))
		return -1;
	/* Intel's 1 s samples (0: the analysis makes them); in a scaled
	   run 1 s of the full-size review's time */
	unsigned group = 0;
	if (run_scale(c) < 1) {
		double g = 1e9 * run_scale(c) / (double)suite_param(c->p, "interval")->u;
		group = g < 1 ? 1 : (unsigned)(g + 0.5);
	}
	struct consistency_result r;
	struct sb_err ae;
	if (n > 0 && !consistency_analyze(t, n, iops ? TRACE_IOPS : TRACE_BW, group, &r, &ae)) {
		fig(c, "%", r.fine.score, "%s.consistency_pct", prefix);
		fig(c, iops ? "IOPS" : "MB/s", r.fine.stddev / (iops ? 1 : 1e6),
		    "%s.stddev_%s", prefix, iops ? "iops" : "mbps");
		if (r.coarse.n)
			fig(c, "%", r.coarse.score, "%s.consistency_1s_pct", prefix);
	}
	free(t);
	return 0;
}

static const struct {
	const char *kind;
	int (*fn)(struct fctx *c, struct sb_err *e);
} kinds[] = {
	{ "peak", fig_peak },
	{ "fill", fig_fill },
	{ "active_range", fig_active_range },
	{ "sync_write", fig_sync_write },
	{ "rw_ratio", fig_rw_ratio },
	{ "reclaim", fig_reclaim },
	{ "ss_precond", fig_ss_precond },
	{ "sweep", fig_sweep },
	{ "tail", fig_sweep },
	{ "boot", fig_boot },
	{ "load_sweep", fig_load_sweep },
	{ "profiles", fig_profiles },
};

int findings_step(struct store *s, int64_t run_id, const struct plan *p,
		  uint64_t size, const struct step_row *row,
		  struct figures *out, struct sb_err *e)
{
	const struct plan_step *st = plan_find(p, row->name);
	if (!st)
		return sb_errf(e, "step %s is not in the run's plan", row->name);
	struct fctx c = { .s = s, .run_id = run_id, .p = p, .st = st, .row = row,
			  .size = size, .out = out };
	if (row->error && !strncmp(row->error, "skipped", 7))
		return fig(&c, "", 1, "skipped") ? sb_errf(e, "out of memory") : 0;
	int (*fn)(struct fctx *, struct sb_err *) = NULL;
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (!strcmp(kinds[i].kind, st->kind->name))
			fn = kinds[i].fn;
	if (!fn)
		return 0;	/* purge, cssd_precond: the runner's own figures */
	if (store_list_workloads(s, run_id, row->id, &c.wl, &c.nwl, e))
		return -1;
	int rc = fn(&c, e);
	store_workload_rows_free(c.wl, c.nwl);
	if (rc)
		return sb_err_wrap(e, "figures of %s", row->name);
	return 0;
}

/* The target's size from the facts recorded before the run. */
static uint64_t facts_size(const char *json)
{
	const char *p = json ? strstr(json, "\"size\":") : NULL;
	return p ? strtoull(p + 7, NULL, 10) : 0;
}

/*
 * Figures the runner recorded itself (the purge method, the boot search's
 * verdict, the trimmed bytes): they come from decisions made while
 * measuring, so they are read back rather than recomputed.
 */
static int add_runner_figures(struct store *s, int64_t run_id,
			      struct figures *out, struct sb_err *e)
{
	struct metric_row *m;
	size_t n;
	if (store_list_metrics(s, run_id, &m, &n, e))
		return -1;
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++)
		if (!figures_find(out, m[i].key) &&
		    figures_add(out, m[i].step_id, m[i].unit, m[i].value, "%s", m[i].key))
			rc = sb_errf(e, "out of memory");
	free(m);
	return rc;
}

int findings_run(struct store *s, int64_t run_id, struct figures *out,
		 struct sb_err *e)
{
	struct run_row run;
	if (store_get_run(s, run_id, &run, e))
		return -1;
	uint64_t size = facts_size(run.facts_before_json);
	struct suite_record rec;
	int rc = suite_record_parse(run.params_json, &rec, e);
	store_run_row_free(&run);
	if (rc)
		return sb_err_wrap(e, "run %lld", (long long)run_id);
	struct plan *p = malloc(sizeof *p);
	if (!p) {
		free(rec.plan_text);
		return sb_errf(e, "out of memory");
	}
	rc = plan_from_canonical(p, rec.plan_text, e);
	free(rec.plan_text);
	struct step_row *rows = NULL;
	size_t n = 0;
	if (!rc)
		rc = store_list_steps(s, run_id, &rows, &n, e);
	for (size_t i = 0; i < n && !rc; i++) {
		if (strcmp(rows[i].status, "done"))
			continue;
		/* A later done row of the same step wins. */
		bool later = false;
		for (size_t j = i + 1; j < n; j++)
			later |= !strcmp(rows[j].name, rows[i].name) &&
				 !strcmp(rows[j].status, "done");
		if (!later)
			rc = findings_step(s, run_id, p, size, &rows[i], out, e);
	}
	store_step_rows_free(rows, n);
	free(p);
	if (!rc)
		rc = add_runner_figures(s, run_id, out, e);
	return rc;
}

int findings_save(struct store *s, int64_t run_id, const struct figures *f,
		  struct sb_err *e)
{
	for (size_t i = 0; i < f->n; i++)
		if (store_put_metric(s, run_id, f->v[i].step_id, 0, f->v[i].key,
				     f->v[i].value, f->v[i].unit, e))
			return -1;
	return store_tick(s, true, e);
}

void findings_json(struct json_writer *w, const char *key,
		   const struct figures *f)
{
	json_object_begin(w, key);
	for (size_t i = 0; i < f->n; i++)
		json_double(w, f->v[i].key, f->v[i].value);
	json_object_end(w);
}

int findings_store_step(struct store *s, int64_t run_id, const struct plan *p,
			uint64_t size, const struct step_row *row,
			struct sb_err *e)
{
	struct figures f = { 0 };
	int rc = findings_step(s, run_id, p, size, row, &f, e) ||
		 findings_save(s, run_id, &f, e) ? -1 : 0;
	figures_free(&f);
	return rc;
}
