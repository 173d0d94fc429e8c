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

/* How many of below[] are set in [a, b), from a prefix count. */
static size_t count_in(const size_t *prefix, size_t a, size_t b)
{
	return prefix[b] - prefix[a];
}

static int cache_end(const struct trace_pt *t, size_t n, const double *r,
		     const struct fill_params *p, size_t *end, struct sb_err *e)
{
	*end = 0;
	double level = p->ref_speed;
	if (level <= 0) {
		/* the first samples: a median, so a slow first slice (queue
		   filling) does not set the level */
		double first[5], scratch[5];
		size_t k = n < 5 ? n : 5;
		memcpy(first, r, k * sizeof *r);
		level = stat_percentile(first, k, 50, scratch);
	}
	double thr = p->drop_frac * level;
	size_t *below = malloc((n + 1) * sizeof *below);
	if (!below)
		return sb_errno(e, ENOMEM, "fill");
	below[0] = 0;
	for (size_t i = 0; i < n; i++)
		below[i + 1] = below[i] + (r[i] < thr);

	size_t w = samples_in(t, n, p->drop_window_s);
	size_t drop = n;
	for (size_t i = 0; i < n; i++) {
		if (!(r[i] < thr))
			continue;
		size_t len = n - i < w ? n - i : w;
		if (len * 2 < w)	/* too little left to call it sustained */
			break;
		if ((double)count_in(below, i, i + len) >= p->drop_share * (double)len) {
			drop = i;
			break;
		}
	}
	if (drop < n) {
		/* Place the boundary where the fewest samples disagree with
		   "high before, low after" within a window either side. */
		size_t lo = drop > w ? drop - w : 0;
		size_t hi = drop + w < n ? drop + w : n;
		size_t best = lo, best_cost = (size_t)-1;
		for (size_t j = lo; j <= hi; j++) {
			size_t cost = count_in(below, lo, j) +
				      ((hi - j) - count_in(below, j, hi));
			if (cost < best_cost) {
				best_cost = cost;
				best = j;
			}
		}
		*end = best;
	}
	free(below);
	return 0;
}

/*
 * Bytes written into the cache, to a fraction of a slice: the slice where
 * the drop happens is part cache, part slower, and its rate says how much
 * of each (f = (rate - low) / (high - low)).  At 14 GB/s a slice is 1.4 GB,
 * more than 10 % of an 11 GB cache, so this matters for small caches.
 */
static double cache_bytes_at(const struct trace_pt *t, const double *r,
			     size_t n, size_t end, const struct fill_params *p,
			     double *scratch)
{
	uint64_t before = 0, ns = 0;
	for (size_t i = 0; i + 1 < end; i++) {
		before += t[i].bytes;
		ns += t[i].ns;
	}
	double high = p->ref_speed;
	if (end >= 2)
		high = (double)before * 1e9 / (double)ns;
	else if (high <= 0)
		high = r[0];
	size_t w = samples_in(t, n, p->drop_window_s);
	size_t a = end + 1 < n ? end + 1 : end, b = a + w < n ? a + w : n;
	double low = b > a ? stat_percentile(r + a, b - a, 50, scratch) : 0;
	double bytes = (double)before;
	for (size_t j = end - 1; j <= end && j < n; j++) {
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
	int rc = cache_end(t, n, r, p, end, e);
	if (rc == 0)
		*cache_bytes = *end ? cache_bytes_at(t, r, n, *end, p, scratch) : 0;
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

/* Stage boundaries in [from, n): writes cut sample indices, returns count. */
static size_t find_stages(const struct trace_pt *t, size_t n, size_t from,
			  const double *r, const struct fill_params *p,
			  size_t max_cuts, size_t *cuts, double *work)
{
	size_t len = n - from;
	size_t B = samples_in(t + from, len, p->stage_block_s);
	size_t nb = len / B;
	if (nb < 2)
		return 0;
	/* block true averages; a trailing partial block joins the last */
	double *bm = work;
	for (size_t k = 0; k < nb; k++) {
		size_t a = from + k * B, b = k + 1 == nb ? n : a + B;
		uint64_t bytes = 0, ns = 0;
		for (size_t i = a; i < b; i++) {
			bytes += t[i].bytes;
			ns += t[i].ns;
		}
		bm[k] = (double)bytes * 1e9 / (double)ns;
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

	size_t cend;
	if (cache_end(t, n, r, p, &cend, e)) {
		free(mem);
		return -1;
	}
	if (cend > 0) {
		out->has_cache = true;
		stage_stats(t, r, start, 0, cend, scratch, &out->stages[0]);
		out->cache_speed = out->stages[0].mean;
		out->cache_bytes = cache_bytes_at(t, r, n, cend, p, scratch);
		out->cache_s = out->stages[0].seconds;
		out->nstages = 1;
	}
	if (cend < n) {
		size_t cuts[FILL_MAX_STAGES];
		size_t nc = find_stages(t, n, cend, r, p,
					FILL_MAX_STAGES - 1 - out->nstages,
					cuts, work);
		size_t a = cend;
		for (size_t k = 0; k <= nc; k++) {
			size_t b = k < nc ? cuts[k] : n;
			stage_stats(t, r, start, a, b, scratch,
				    &out->stages[out->nstages++]);
			a = b;
		}
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
