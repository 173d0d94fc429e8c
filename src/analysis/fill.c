/*
 * Fill Drive analysis: cache, stages, levels and the whole-pass figures.
 * See fill.h for the rules; the comments here say how they are computed.
 */
#include "analysis/fill.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void fill_params_default(struct fill_params *p)
{
	*p = (struct fill_params){
		.drop_frac = 0.70,
		.drop_window_s = 5,
		.drop_share = 0.80,
		.window_share = 0.005,
		.ref_speed = 0,
		.stage_block_s = 5,
		.stage_min_blocks = 3,
		.stage_min_change = 0.025,
		.stage_min_t = 6,
		.level_bandwidth = 0.03,
		.level_min_share = 0.03,
	};
}

static int check_params(const struct fill_params *p, struct sb_err *e)
{
	if (!(p->drop_frac > 0 && p->drop_frac < 1))
		return sb_errf(e, "fill: drop fraction %g is not in (0, 1)", p->drop_frac);
	if (!(p->drop_share > 0 && p->drop_share <= 1))
		return sb_errf(e, "fill: drop share %g is not in (0, 1]", p->drop_share);
	if (!(p->drop_window_s > 0) || !(p->stage_block_s > 0))
		return sb_errf(e, "fill: windows must be positive");
	if (!(p->window_share > 0 && p->window_share <= 1))
		return sb_errf(e, "fill: window share %g is not in (0, 1]", p->window_share);
	if (!(p->level_bandwidth > 0) || p->level_min_share < 0 ||
	    p->stage_min_change < 0 || p->stage_min_t < 0 || p->ref_speed < 0)
		return sb_errf(e, "fill: negative or zero parameter");
	return 0;
}

/* Samples in `seconds`, from the mean slice length; at least 1. */
static size_t samples_in(const struct trace_pt *t, size_t n, double seconds)
{
	double k = floor(seconds / trace_mean_slice_s(t, n) + 0.5);
	return k < 1 ? 1 : (size_t)k;
}

/*
 * A window of `seconds`, but at most `window_share` of the pass (and at
 * least `floor_samples`): 5 s is 0.5 % of a 2 TB pass at 2 GB/s, and the
 * whole of a 2 % scaled drive's cache.  Windows so scale with the drive.
 */
static size_t window_samples(const struct trace_pt *t, size_t n, double seconds,
			     const struct fill_params *p, size_t floor_samples)
{
	size_t w = samples_in(t, n, seconds);
	double share = floor(p->window_share * (double)n);
	size_t cap = share < (double)floor_samples ? floor_samples : (size_t)share;
	return w < cap ? w : cap;
}

/* A drop is judged over at least this many samples: one slow slice is a
   dip, not the end of a cache. */
#define DROP_MIN_SAMPLES 5

/* How many of below[] are set in [a, b), from a prefix count. */
static size_t count_in(const size_t *prefix, size_t a, size_t b)
{
	return prefix[b] - prefix[a];
}

/*
 * The first sustained change at or after `from` across thr: to below it
 * (rising false) or to at or above it (rising true).  Sustained: at least
 * drop_share of the window from there is on the new side.  *at is the
 * boundary, placed where the fewest samples disagree with "old side
 * before, new side after" within a window either side; n when none.
 */
static int sustained_change(const struct trace_pt *t, size_t n, const double *r,
			    const struct fill_params *p, size_t from, double thr,
			    bool rising, size_t *at, struct sb_err *e)
{
	*at = n;
	size_t *after = malloc((n + 1) * sizeof *after);
	if (!after)
		return sb_errno(e, ENOMEM, "fill");
	after[0] = 0;
	for (size_t i = 0; i < n; i++)
		after[i + 1] = after[i] + (rising ? r[i] >= thr : r[i] < thr);

	size_t w = window_samples(t, n, p->drop_window_s, p, DROP_MIN_SAMPLES);
	size_t change = n;
	for (size_t i = from; i < n; i++) {
		if (count_in(after, i, i + 1) == 0)
			continue;
		size_t len = n - i < w ? n - i : w;
		if (len * 2 < w)	/* too little left to call it sustained */
			break;
		if ((double)count_in(after, i, i + len) >= p->drop_share * (double)len) {
			change = i;
			break;
		}
	}
	if (change < n) {
		size_t lo = change > from + w ? change - w : from;
		size_t hi = change + w < n ? change + w : n;
		size_t best = lo, best_cost = (size_t)-1;
		for (size_t j = lo; j <= hi; j++) {
			size_t cost = count_in(after, lo, j) +
				      ((hi - j) - count_in(after, j, hi));
			if (cost < best_cost) {
				best_cost = cost;
				best = j;
			}
		}
		*at = best;
	}
	free(after);
	return 0;
}

/*
 * The first sustained drop below drop_frac x `level` at or after `from`:
 * *end is the first sample after the fast stretch, 0 when there is none.
 */
static int cache_end(const struct trace_pt *t, size_t n, const double *r,
		     const struct fill_params *p, size_t from, double level,
		     size_t *end, struct sb_err *e)
{
	size_t at;
	if (sustained_change(t, n, r, p, from, p->drop_frac * level, false, &at, e))
		return -1;
	*end = at < n ? at : 0;
	return 0;
}

/*
 * Bytes written into the cache, to a fraction of a slice: the slice where
 * the drop happens is part cache, part slower, and its rate says how much
 * of each (f = (rate - low) / (high - low)).  At 14 GB/s a slice is 1.4 GB,
 * more than 10 % of an 11 GB cache, so this matters for small caches.
 */
static double cache_bytes_at(const struct trace_pt *t, const double *r,
			     size_t n, size_t from, size_t end,
			     const struct fill_params *p, double *scratch)
{
	uint64_t before = 0, ns = 0;
	for (size_t i = from; i + 1 < end; i++) {
		before += t[i].bytes;
		ns += t[i].ns;
	}
	double high = p->ref_speed;
	if (end >= from + 2)
		high = (double)before * 1e9 / (double)ns;
	else if (high <= 0)
		high = r[from];
	size_t w = window_samples(t, n, p->drop_window_s, p, DROP_MIN_SAMPLES);
	size_t a = end + 1 < n ? end + 1 : end, b = a + w < n ? a + w : n;
	double low = b > a ? stat_percentile(r + a, b - a, 50, scratch) : 0;
	double bytes = (double)before;
	for (size_t j = end > from ? end - 1 : from; j <= end && j < n; j++) {
		double f = high > low ? (r[j] - low) / (high - low) : 1;
		f = f < 0 ? 0 : f > 1 ? 1 : f;
		bytes += f * high * (double)t[j].ns / 1e9;
	}
	return bytes;
}

int fill_find_cache(const struct trace_pt *t, size_t n,
		    const struct fill_params *p, size_t *end,
		    double *cache_bytes, struct sb_err *e)
{
	if (trace_check(t, n, e) || check_params(p, e))
		return -1;
	double *r = malloc(2 * n * sizeof *r);
	if (!r)
		return sb_errno(e, ENOMEM, "fill");
	double *scratch = r + n;
	trace_rates(t, n, TRACE_BW, r);
	double level = p->ref_speed;
	if (level <= 0) {
		/* the first samples: a median, so a slow first slice (queue
		   filling) does not set the level */
		size_t k = n < 5 ? n : 5;
		level = stat_percentile(r, k, 50, scratch);
	}
	int rc = cache_end(t, n, r, p, 0, level, end, e);
	if (rc == 0)
		*cache_bytes = *end ? cache_bytes_at(t, r, n, 0, *end, p, scratch) : 0;
	free(r);
	return rc;
}

/* --- stages -------------------------------------------------------------- */

struct seg_ctx {
	const double *bm;	/* block means */
	size_t nb;
	const struct fill_params *p;
	size_t cuts[FILL_MAX_STAGES];	/* block indices */
	size_t ncuts, max_cuts;
};

static void mean_var(const double *v, size_t a, size_t b, double *m, double *ss)
{
	double s = 0;
	for (size_t i = a; i < b; i++)
		s += v[i];
	*m = s / (double)(b - a);
	*ss = 0;
	for (size_t i = a; i < b; i++)
		*ss += (v[i] - *m) * (v[i] - *m);
}

/* Binary segmentation of block means [a, b): the cut that most reduces
   the squared error, kept if it is large and significant. */
static void segment(struct seg_ctx *c, size_t a, size_t b)
{
	size_t minb = c->p->stage_min_blocks ? c->p->stage_min_blocks : 1;
	if (b - a < 2 * minb || c->ncuts >= c->max_cuts)
		return;
	double s = 0, best_gain = -1;
	size_t best = 0;
	for (size_t i = a; i < b; i++)
		s += c->bm[i];
	double left = 0;
	for (size_t k = a + 1; k < b; k++) {
		left += c->bm[k - 1];
		size_t n1 = k - a, n2 = b - k;
		if (n1 < minb || n2 < minb)
			continue;
		double m1 = left / (double)n1, m2 = (s - left) / (double)n2;
		double gain = (double)n1 * (double)n2 / (double)(n1 + n2) *
			      (m1 - m2) * (m1 - m2);
		if (gain > best_gain) {
			best_gain = gain;
			best = k;
		}
	}
	if (best_gain < 0)
		return;
	double m1, m2, ss1, ss2;
	mean_var(c->bm, a, best, &m1, &ss1);
	mean_var(c->bm, best, b, &m2, &ss2);
	size_t n1 = best - a, n2 = b - best;
	double lo = m1 < m2 ? m1 : m2, diff = fabs(m1 - m2);
	if (!(lo > 0) || diff / lo < c->p->stage_min_change)
		return;
	double dof = (double)(n1 + n2) - 2;
	double se = dof > 0 ? sqrt((ss1 + ss2) / dof *
				   (1.0 / (double)n1 + 1.0 / (double)n2)) : 0;
	/* a flat synthetic trace has se 0: any real step is significant */
	if (se > 0 && diff / se < c->p->stage_min_t)
		return;
	c->cuts[c->ncuts++] = best;
	segment(c, a, best);
	segment(c, best, b);
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

/* Move a cut to the sample that best splits [a, b) into two flat parts,
   searching only within `reach` samples of it. */
static size_t refine_cut(const double *pre, const double *pre2, size_t a,
			 size_t b, size_t cut, size_t reach)
{
	size_t lo = cut > a + reach ? cut - reach : a + 1;
	size_t hi = cut + reach < b ? cut + reach : b - 1;
	if (lo > hi)		/* no room between the neighbours: keep it */
		return cut;
	size_t best = lo;
	double best_sse = INFINITY;
	for (size_t j = lo; j <= hi; j++) {
		double n1 = (double)(j - a), n2 = (double)(b - j);
		double s1 = pre[j] - pre[a], s2 = pre[b] - pre[j];
		double sse = (pre2[j] - pre2[a]) - s1 * s1 / n1 +
			     (pre2[b] - pre2[j]) - s2 * s2 / n2;
		if (sse < best_sse) {
			best_sse = sse;
			best = j;
		}
	}
	return best;
}

/* The true average of slices [a, b): their bytes over their time, B/s. */
static double true_avg(const struct trace_pt *t, size_t a, size_t b)
{
	uint64_t bytes = 0, ns = 0;
	for (size_t i = a; i < b; i++) {
		bytes += t[i].bytes;
		ns += t[i].ns;
	}
	return (double)bytes * 1e9 / (double)ns;
}

static void stage_stats(const struct trace_pt *t, const double *r,
			const double *start_bytes, size_t a, size_t b,
			double *scratch, struct fill_stage *s)
{
	uint64_t bytes = 0, ns = 0;
	for (size_t i = a; i < b; i++) {
		bytes += t[i].bytes;
		ns += t[i].ns;
	}
	s->first = a;
	s->end = b;
	s->start_bytes = start_bytes[a];
	s->bytes = (double)bytes;
	s->seconds = (double)ns / 1e9;
	s->mean = ns ? (double)bytes * 1e9 / (double)ns : NAN;
	double ps[2] = { 10, 50 }, out[2];
	stat_percentiles(r + a, b - a, ps, 2, out, scratch);
	s->p10 = out[0];
	s->median = out[1];
}

/* Stage boundaries in [from, n) in blocks of B samples: writes cut sample
   indices, returns count. */
static size_t find_stages(const struct trace_pt *t, size_t n, size_t from,
			  size_t B, const double *r, const struct fill_params *p,
			  size_t max_cuts, size_t *cuts, double *work)
{
	size_t len = n - from;
	size_t nb = len / B;
	if (nb < 2)
		return 0;
	/* block true averages; a trailing partial block joins the last */
	double *bm = work;
	for (size_t k = 0; k < nb; k++) {
		size_t a = from + k * B, b = k + 1 == nb ? n : a + B;
		bm[k] = true_avg(t, a, b);
	}
	struct seg_ctx c = { bm, nb, p, { 0 }, 0, max_cuts };
	segment(&c, 0, nb);
	if (!c.ncuts)
		return 0;
	qsort(c.cuts, c.ncuts, sizeof c.cuts[0], cmp_size);

	/* prefix sums of rates for the sample-level refinement */
	double *pre = work + nb, *pre2 = pre + len + 1;
	pre[0] = pre2[0] = 0;
	for (size_t i = 0; i < len; i++) {
		pre[i + 1] = pre[i] + r[from + i];
		pre2[i + 1] = pre2[i] + r[from + i] * r[from + i];
	}
	for (size_t k = 0; k < c.ncuts; k++) {
		size_t a = k ? cuts[k - 1] - from : 0;
		size_t b = k + 1 < c.ncuts ? c.cuts[k + 1] * B : len;
		cuts[k] = from + refine_cut(pre, pre2, a, b, c.cuts[k] * B, 2 * B);
	}
	return c.ncuts;
}

/* Stages of [a, b) appended to out->stages (at least one when a < b). */
static void add_stages(const struct trace_pt *t, size_t n, size_t a, size_t b,
		       size_t B, const double *r, const double *start,
		       const struct fill_params *p, double *scratch,
		       double *work, struct fill_result *out)
{
	(void)n;
	if (a >= b || out->nstages >= FILL_MAX_STAGES)
		return;
	size_t room = FILL_MAX_STAGES - 1 - out->nstages;
	size_t cuts[FILL_MAX_STAGES];
	size_t nc = room ? find_stages(t, b, a, B, r, p, room, cuts, work) : 0;
	for (size_t k = 0; k <= nc; k++) {
		size_t e = k < nc ? cuts[k] : b;
		stage_stats(t, r, start, a, e, scratch, &out->stages[out->nstages++]);
		a = e;
	}
}

/*
 * A fast run shorter than a stage.  Stages are at least stage_min_blocks
 * blocks long (15 s of a full-size pass), and a cache can be shorter: the
 * static SLC of a full drive, 11 GB at 14 GB/s, is 0.8 s.  Inside a stage
 * it only lifts the stage's mean, and whether that lift makes a cut
 * depends on the noise of the blocks around it.  So each stage is also
 * read at the resolution of a drop: a level held for DROP_MIN_SAMPLES
 * samples (their median) at 1/drop_frac x the stage's mean or more, that a
 * sustained drop ends inside the stage, is a run of its own -- when the
 * pass holds that speed nowhere else.  A level that recurs (a folding
 * round at 3.98 GB/s between slower ones, over and over) is part of an
 * alternation the stage rightly averages, not a phase.
 *
 * held[j] is the median of r[j, j + m); pre[j] and suf[j] the largest
 * held level of the windows j' <= j and j' >= j.  `bound` (ns + 1 stage
 * boundaries, room for `cap`) gets the runs' boundaries added in order.
 */
struct held_levels {
	size_t m, nw;			/* window, windows (n - m + 1) */
	double *held, *pre, *suf;
};

static int held_levels_make(const double *r, size_t n, size_t m,
			    struct held_levels *h, struct sb_err *e)
{
	*h = (struct held_levels){ .m = m, .nw = n >= m ? n - m + 1 : 0 };
	if (!h->nw)
		return 0;	/* too short to hold a level: no window */
	if (!(h->held = malloc(3 * h->nw * sizeof *h->held)))
		return sb_errno(e, ENOMEM, "fill");
	h->pre = h->held + h->nw;
	h->suf = h->pre + h->nw;
	double w[DROP_MIN_SAMPLES], scratch[DROP_MIN_SAMPLES];
	for (size_t j = 0; j < h->nw; j++) {
		memcpy(w, r + j, m * sizeof *w);
		h->held[j] = stat_percentile(w, m, 50, scratch);
		h->pre[j] = j && h->pre[j - 1] > h->held[j] ? h->pre[j - 1] : h->held[j];
	}
	for (size_t j = h->nw; j-- > 0;)
		h->suf[j] = j + 1 < h->nw && h->suf[j + 1] > h->held[j] ?
			    h->suf[j + 1] : h->held[j];
	return 0;
}

/* The fastest level held by a window outside [a, b) (no sample in it). */
static double held_outside(const struct held_levels *h, size_t a, size_t b)
{
	double v = 0;
	if (a >= h->m)
		v = h->pre[a - h->m];
	if (b < h->nw && h->suf[b] > v)
		v = h->suf[b];
	return v;
}

static int split_short_runs(const struct trace_pt *t, size_t n, const double *r,
			    const struct fill_params *p, size_t *bound, size_t *ns,
			    size_t cap, struct sb_err *e)
{
	struct held_levels h;
	if (held_levels_make(r, n, DROP_MIN_SAMPLES, &h, e))
		return -1;
	int rc = 0;
	for (size_t k = 0; k < *ns && *ns + 2 <= cap; k++) {
		size_t a = bound[k], b = bound[k + 1];
		double mean = true_avg(t, a, b);
		for (size_t i = a; i + h.m <= b; i++) {
			double level = h.held[i];
			if (level * p->drop_frac < mean)
				continue;
			size_t start = i, end;
			while (r[start] < p->drop_frac * level)
				start++;
			if ((rc = cache_end(t, n, r, p, start, level, &end, e)))
				goto out;
			if (end <= start || end >= b)
				break;		/* no drop inside the stage */
			if (held_outside(&h, start, end) >= p->drop_frac * level) {
				i = end - 1;	/* recurs: look past it */
				continue;
			}
			/* [a, start) [start, end) [end, b) */
			size_t add = (start > a) + 1;
			memmove(bound + k + 1 + add, bound + k + 1,
				(*ns - k) * sizeof *bound);
			if (start > a)
				bound[k + 1] = start;
			bound[k + add] = end;
			*ns += add;
			k += add - 1;	/* on to [end, b) */
			break;
		}
	}
out:
	free(h.held);
	return rc;
}

/*
 * The cache: the fast phase wherever it is.  The pass is cut into stages
 * (as after a cache); the cache level is the fastest stage's true
 * average, and the cache is the first run of stages within drop_frac of
 * it that a sustained drop ends -- so a cache that starts late (a drive
 * still folding the last pass writes slowly first) is found where it is,
 * and a fast run that lasts to the end of the pass is no cache.  Its start
 * is that stage cut; its end is placed by cache_end at the first
 * sustained drop below drop_frac x the run's own average.  *phases is 1
 * when there is a cache (fill_analyze counts its returns).
 */
static int fast_phase(const struct trace_pt *t, size_t n, const double *r,
		      const struct fill_params *p, size_t B, double *work,
		      size_t *cstart, size_t *cend, unsigned *phases,
		      struct sb_err *e)
{
	*cstart = *cend = 0;
	*phases = 0;
	/* the stages, then the short runs split out of them */
	enum { CAP = 2 * FILL_MAX_STAGES + 1 };
	size_t cuts[FILL_MAX_STAGES + 1], bound[CAP + 1];
	size_t nc = find_stages(t, n, 0, B, r, p, FILL_MAX_STAGES, cuts, work);
	size_t ns = nc + 1;
	bound[0] = 0;
	for (size_t k = 0; k < nc; k++)
		bound[k + 1] = cuts[k];
	bound[ns] = n;
	if (split_short_runs(t, n, r, p, bound, &ns, CAP, e))
		return -1;
	double mean[CAP], top = 0;
	for (size_t k = 0; k < ns; k++) {
		mean[k] = true_avg(t, bound[k], bound[k + 1]);
		top = mean[k] > top ? mean[k] : top;
	}
	size_t first_run = ns;
	for (size_t k = 0; k < ns && first_run == ns; k++) {
		bool fast = mean[k] >= p->drop_frac * top;
		bool run_starts = fast && (k == 0 || mean[k - 1] < p->drop_frac * top);
		if (!run_starts)
			continue;
		size_t j = k;
		while (j + 1 < ns && mean[j + 1] >= p->drop_frac * top)
			j++;
		if (j + 1 < ns)		/* fast to the end: nothing drops */
			first_run = k;
	}
	if (first_run == ns)
		return 0;
	/* the run's own level, from its stages */
	size_t j = first_run;
	while (j < ns && mean[j] >= p->drop_frac * top)
		j++;
	double level = true_avg(t, bound[first_run], bound[j]);
	size_t end;
	if (cache_end(t, n, r, p, bound[first_run], level, &end, e))
		return -1;
	if (end <= bound[first_run])
		return 0;
	*cstart = bound[first_run];
	*cend = end;
	*phases = 1;
	return 0;
}

int fill_analyze(const struct trace_pt *t, size_t n,
		 const struct fill_params *p, struct fill_result *out,
		 struct sb_err *e)
{
	memset(out, 0, sizeof *out);
	if (trace_check(t, n, e) || check_params(p, e))
		return -1;
	/* r, scratch, start bytes, and the stage work area (blocks + two
	   prefix arrays) */
	double *mem = malloc((6 * n + 4) * sizeof *mem);
	if (!mem)
		return sb_errno(e, ENOMEM, "fill: %zu samples", n);
	double *r = mem, *scratch = r + n, *start = scratch + n,
	       *work = start + n + 1;
	trace_rates(t, n, TRACE_BW, r);

	uint64_t bytes = 0, ns = 0;
	for (size_t i = 0; i < n; i++) {
		start[i] = (double)bytes;
		bytes += t[i].bytes;
		ns += t[i].ns;
	}
	start[n] = (double)bytes;
	out->n = n;
	out->total_bytes = (double)bytes;
	out->total_s = (double)ns / 1e9;
	out->true_avg = (double)bytes * 1e9 / (double)ns;
	/* statistics of samples from whole slices only (trace_whole) */
	size_t wa, wb;
	trace_whole(t, n, &wa, &wb);
	out->mean_of_samples = stat_mean(r + wa, wb - wa);
	out->min = stat_min(r + wa, wb - wa);
	out->max = stat_max(r + wa, wb - wa);
	out->p1 = stat_percentile(r + wa, wb - wa, 1, scratch);
	uint64_t slow_ns = 0;
	for (size_t i = 0; i < n; i++)
		if (r[i] < 0.5 * out->true_avg)
			slow_ns += t[i].ns;
	out->below_half_share = (double)slow_ns / (double)ns;
	double weighted = 0;
	for (size_t i = 0; i < n; i++)
		weighted += r[i] * (double)t[i].bytes;
	out->position_avg = bytes ? weighted / (double)bytes : 0;

	size_t B = window_samples(t, n, p->stage_block_s, p, 1);
	size_t cstart, cend;
	if (fast_phase(t, n, r, p, B, work, &cstart, &cend, &out->cache_phases, e)) {
		free(mem);
		return -1;
	}
	if (cend > 0)
		add_stages(t, n, 0, cstart, B, r, start, p, scratch, work, out);
	if (cend > 0) {
		out->has_cache = true;
		out->cache_stage = out->nstages;
		struct fill_stage *c = &out->stages[out->nstages++];
		stage_stats(t, r, start, cstart, cend, scratch, c);
		/* the slice the drop cuts is part cache, part slower: on a
		   small drive's ten-slice cache it would pull the speed 3 %
		   down, so the speed comes from the slices before it */
		out->cache_speed = c->mean;
		if (cend - cstart >= 3) {
			uint64_t cb = 0, cns = 0;
			for (size_t i = cstart; i + 1 < cend; i++) {
				cb += t[i].bytes;
				cns += t[i].ns;
			}
			out->cache_speed = (double)cb * 1e9 / (double)cns;
		}
		out->cache_start_bytes = c->start_bytes;
		out->cache_bytes = cache_bytes_at(t, r, n, cstart, cend, p, scratch);
		out->cache_s = c->seconds;
	}
	if (cend < n) {
		/* The cache may come back: each sustained rise to drop_frac x
		   the cache speed that a sustained drop ends is one more phase,
		   and a stage of its own between slower ones. */
		size_t a = cend;
		while (out->has_cache && out->nstages + 2 < FILL_MAX_STAGES) {
			size_t rise, drop;
			if (sustained_change(t, n, r, p, a, p->drop_frac * out->cache_speed,
					     true, &rise, e) ||
			    (rise < n && cache_end(t, n, r, p, rise, out->cache_speed,
						   &drop, e))) {
				free(mem);
				return -1;
			}
			if (rise >= n || drop <= rise)
				break;
			add_stages(t, n, a, rise, B, r, start, p, scratch, work, out);
			stage_stats(t, r, start, rise, drop, scratch,
				    &out->stages[out->nstages++]);
			out->cache_phases++;
			a = drop;
		}
		add_stages(t, n, a, n, B, r, start, p, scratch, work, out);
		stage_stats(t, r, start, cend, n, scratch, &out->post);
		double *w = scratch;
		for (size_t i = cend; i < n; i++)
			w[i - cend] = (double)t[i].ns;
		out->nlevels = fill_levels(r + cend, w, n - cend,
					   p->level_bandwidth,
					   p->level_min_share, out->levels,
					   FILL_MAX_LEVELS);
	}
	free(mem);
	return 0;
}
