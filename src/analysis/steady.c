/*
 * The steady-state detector.  The window's sums are exact integers (the
 * counts are), updated in O(1) as the window slides; the rule is applied
 * to those sums by the same expression however they were obtained.
 */
#include "analysis/steady.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef __int128 i128;

/* A monotonic queue over the window: indices whose values are decreasing
   (for the max) or increasing (for the min) from front to back. */
struct mono_queue {
	uint64_t *idx;
	size_t cap, front, len;
};

struct ss_detector {
	struct ss_params p;
	size_t w;
	size_t k;		/* trace samples per detector sample */
	struct trace_pt acc;	/* the detector sample being added up */
	size_t acc_n;
	uint64_t trace_seen;	/* trace samples pushed */
	uint64_t *ring_y, *ring_ns;
	size_t head;		/* where the next sample goes */
	uint64_t seen;		/* samples pushed */
	i128 sum_y, sum_xy;	/* x = 0 for the oldest sample in the window */
	uint64_t sum_ns;	/* of the window */
	uint64_t total_bytes, total_ns;
	struct mono_queue qmax, qmin;
	struct ss_window last;
	struct ss_result res;
};

const char *ss_rule_name(enum ss_rule r)
{
	return r == SS_SNIA ? "snia" : r == SS_FIO_DEVIATION ? "fio-deviation"
							   : "fio-slope";
}

int ss_rule_parse(const char *s, enum ss_rule *out, int *metric,
		  struct sb_err *e)
{
	static const struct { const char *name; enum ss_rule rule; int metric; } k[] = {
		{ "fio-slope", SS_FIO_SLOPE, -1 }, { "slope", SS_FIO_SLOPE, -1 },
		{ "bw_slope", SS_FIO_SLOPE, TRACE_BW },
		{ "iops_slope", SS_FIO_SLOPE, TRACE_IOPS },
		{ "fio-deviation", SS_FIO_DEVIATION, -1 },
		{ "deviation", SS_FIO_DEVIATION, -1 },
		{ "bw", SS_FIO_DEVIATION, TRACE_BW },
		{ "iops", SS_FIO_DEVIATION, TRACE_IOPS },
		{ "snia", SS_SNIA, -1 },
	};
	for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
		if (!strcmp(s, k[i].name)) {
			*out = k[i].rule;
			*metric = k[i].metric;
			return 0;
		}
	return sb_errf(e, "unknown steady-state rule '%s' (fio-slope, bw_slope, "
		       "iops_slope, fio-deviation, bw, iops or snia)", s);
}

void ss_params_default(struct ss_params *p)
{
	*p = (struct ss_params){
		.rule = SS_FIO_SLOPE,
		.metric = TRACE_BW,
		.sample_s = 0.1,
		.interval_s = 1,
		.window_s = 30,
		.slope_limit_pct = 10,
		.excursion_limit_pct = 20,
	};
}

size_t ss_samples_per_interval(const struct ss_params *p)
{
	double k = p->sample_s > 0 ? round(p->interval_s / p->sample_s) : 1;
	return k >= 1 && k < 1e7 ? (size_t)k : 1;
}

double ss_limit_pct(const struct ss_params *p)
{
	return p->slope_limit_pct;
}

static void mq_push(struct mono_queue *q, const uint64_t *ring, size_t w,
		    uint64_t i, bool want_max)
{
	uint64_t v = ring[i % w];
	while (q->len) {
		uint64_t back = q->idx[(q->front + q->len - 1) % q->cap];
		uint64_t bv = ring[back % w];
		if (want_max ? bv > v : bv < v)
			break;
		q->len--;
	}
	q->idx[(q->front + q->len) % q->cap] = i;
	q->len++;
}

static void mq_expire(struct mono_queue *q, uint64_t oldest)
{
	while (q->len && q->idx[q->front] < oldest) {
		q->front = (q->front + 1) % q->cap;
		q->len--;
	}
}

int ss_new(const struct ss_params *p, struct ss_detector **out,
	   struct sb_err *e)
{
	if (!(p->interval_s > 0) || !(p->window_s > 0) || !(p->sample_s > 0))
		return sb_errf(e, "steady state: interval, sample spacing and window "
			       "must be positive");
	size_t k = ss_samples_per_interval(p);
	double interval = (double)k * p->sample_s;
	/* rounded: a measured spacing (a log's median step) jitters, and a
	   30 s window of 1.002 s samples is 30 samples, as meant */
	double wf = p->window_s / interval + 0.5;
	if (wf < 2 || wf > 1e7)
		return sb_errf(e, "steady state: a %.3g s window of %.3g s samples "
			       "is not 2 .. 10^7 samples", p->window_s, interval);
	if (!(p->slope_limit_pct > 0) ||
	    (p->rule == SS_SNIA && !(p->excursion_limit_pct > 0)))
		return sb_errf(e, "steady state: limits must be positive");
	struct ss_detector *d = calloc(1, sizeof *d);
	if (!d)
		return sb_errno(e, ENOMEM, "steady state");
	d->p = *p;
	d->w = (size_t)wf;
	d->k = k;
	d->ring_y = calloc(d->w, sizeof *d->ring_y);
	d->ring_ns = calloc(d->w, sizeof *d->ring_ns);
	d->qmax.idx = calloc(d->w + 1, sizeof(uint64_t));
	d->qmin.idx = calloc(d->w + 1, sizeof(uint64_t));
	if (!d->ring_y || !d->ring_ns || !d->qmax.idx || !d->qmin.idx) {
		ss_free(d);
		return sb_errno(e, ENOMEM, "steady state window");
	}
	d->qmax.cap = d->qmin.cap = d->w + 1;
	d->res.rule = ss_rule_name(p->rule);
	d->res.metric = trace_metric_name(p->metric);
	d->res.window = d->w;
	d->res.per_interval = k;
	d->res.interval_s = interval;
	d->res.window_s = (double)d->w * interval;
	d->res.limit_pct = ss_limit_pct(p);
	d->res.drive_writes = NAN;
	d->res.value = NAN;
	*out = d;
	return 0;
}

void ss_free(struct ss_detector *d)
{
	if (!d)
		return;
	free(d->ring_y);
	free(d->ring_ns);
	free(d->qmax.idx);
	free(d->qmin.idx);
	free(d);
}

/* The rule, on the exact sums of a full window. */
static void judge(const struct ss_detector *d, uint64_t maxv, uint64_t minv,
		  struct ss_window *o)
{
	i128 n = (i128)d->w;
	i128 sx = n * (n - 1) / 2;
	i128 sxx = (n - 1) * n * (2 * n - 1) / 6;
	i128 num = n * d->sum_xy - sx * d->sum_y;
	i128 den = n * sxx - sx * sx;
	double slope = (double)num / (double)den;
	o->full = true;
	o->mean = (double)d->sum_y / (double)d->w;
	if (d->sum_y == 0) {
		/* nothing moved: no rate to be steady at */
		o->slope_pct = o->slope_pct_fio = o->fit_excursion_pct = NAN;
		o->data_excursion_pct = o->max_deviation_pct = NAN;
		o->criterion_pct = NAN;
		o->ok = false;
		return;
	}
	o->slope_pct = 100.0 * slope / o->mean;
	/* fio: sum_y / dur in integers, so 0 below one count per sample */
	i128 trunc = d->sum_y / n;
	o->slope_pct_fio = trunc ? 100.0 * slope / (double)trunc
				 : copysign(INFINITY, slope);
	o->fit_excursion_pct = fabs(o->slope_pct) * (double)(d->w - 1);
	o->data_excursion_pct = 100.0 * (double)(maxv - minv) / o->mean;
	double dev = fmax((double)maxv - o->mean, o->mean - (double)minv);
	o->max_deviation_pct = 100.0 * dev / o->mean;
	switch (d->p.rule) {
	case SS_FIO_SLOPE:
		o->criterion_pct = o->slope_pct;
		o->ok = fabs(o->slope_pct) < d->p.slope_limit_pct;
		break;
	case SS_FIO_DEVIATION:
		o->criterion_pct = o->max_deviation_pct;
		o->ok = o->max_deviation_pct < d->p.slope_limit_pct;
		break;
	case SS_SNIA:
		o->criterion_pct = o->fit_excursion_pct;
		o->ok = o->data_excursion_pct <= d->p.excursion_limit_pct &&
			o->fit_excursion_pct <= d->p.slope_limit_pct;
		break;
	}
}

/* One detector sample (k trace samples added up). */
static bool push_sample(struct ss_detector *d, const struct trace_pt *pt)
{
	uint64_t y = trace_count(pt, d->p.metric);
	size_t w = d->w;
	if (d->seen < w) {
		d->sum_xy += (i128)d->seen * y;
		d->sum_y += y;
		d->sum_ns += pt->ns;
	} else {
		uint64_t old = d->ring_y[d->head];
		d->sum_xy = d->sum_xy - (d->sum_y - old) + (i128)(w - 1) * y;
		d->sum_y = d->sum_y - old + y;
		d->sum_ns = d->sum_ns - d->ring_ns[d->head] + pt->ns;
	}
	d->ring_y[d->head] = y;
	d->ring_ns[d->head] = pt->ns;
	d->head = (d->head + 1) % w;
	uint64_t i = d->seen++;
	d->total_bytes += pt->bytes;
	d->total_ns += pt->ns;

	/* the queues index the ring by absolute sample number mod w */
	mq_push(&d->qmax, d->ring_y, w, i, true);
	mq_push(&d->qmin, d->ring_y, w, i, false);
	uint64_t oldest = d->seen > w ? d->seen - w : 0;
	mq_expire(&d->qmax, oldest);
	mq_expire(&d->qmin, oldest);

	memset(&d->last, 0, sizeof d->last);
	if (d->seen < w)
		return false;
	judge(d, d->ring_y[d->qmax.idx[d->qmax.front] % w],
	      d->ring_y[d->qmin.idx[d->qmin.front] % w], &d->last);
	if (d->total_bytes < d->p.min_bytes)
		d->last.ok = false;
	if (d->last.ok && !d->res.reached) {
		struct ss_result *r = &d->res;
		r->reached = true;
		r->index = (size_t)(d->trace_seen - 1);
		r->seconds = (double)d->total_ns / 1e9;
		r->bytes = (double)d->total_bytes;
		if (d->p.capacity_bytes)
			r->drive_writes = r->bytes / (double)d->p.capacity_bytes;
		r->value = (double)d->sum_y * 1e9 / (double)d->sum_ns;
		r->at = d->last;
	}
	return d->last.ok;
}

bool ss_push(struct ss_detector *d, const struct trace_pt *pt)
{
	d->trace_seen++;
	d->acc.ns += pt->ns;
	d->acc.bytes += pt->bytes;
	d->acc.ios += pt->ios;
	if (++d->acc_n < d->k)
		return false;
	struct trace_pt sum = d->acc;
	d->acc = (struct trace_pt){ 0 };
	d->acc_n = 0;
	return push_sample(d, &sum);
}

void ss_pass(struct ss_detector *d, const struct trace_pt *pt)
{
	d->trace_seen++;
	d->total_bytes += pt->bytes;
	d->total_ns += pt->ns;
}

void ss_window(const struct ss_detector *d, struct ss_window *out)
{
	*out = d->last;
}

void ss_result(const struct ss_detector *d, struct ss_result *out)
{
	*out = d->res;
	if (!out->reached) {
		/* not reached: describe where the trace ended */
		out->at = d->last;
		out->seconds = (double)d->total_ns / 1e9;
		out->bytes = (double)d->total_bytes;
		if (d->p.capacity_bytes)
			out->drive_writes = out->bytes / (double)d->p.capacity_bytes;
		if (d->seen >= d->w && d->sum_ns)
			out->value = (double)d->sum_y * 1e9 / (double)d->sum_ns;
	}
}

int ss_analyze(const struct trace_pt *t, size_t n, const struct ss_params *p,
	       struct ss_result *out, struct sb_err *e)
{
	struct ss_detector *d;
	if (trace_check(t, n, e) || ss_new(p, &d, e))
		return -1;
	size_t first, end;
	trace_whole(t, n, &first, &end);
	for (size_t i = 0; i < n; i++) {
		if (i >= first && i < end)
			ss_push(d, &t[i]);
		else
			ss_pass(d, &t[i]);
	}
	ss_result(d, out);
	ss_free(d);
	return 0;
}
