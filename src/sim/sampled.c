/*
 * The windows of a sampled stream, the slices its gaps repeat, and its
 * held side-stream completions (sampled.h).
 */
#include "sim/sampled.h"

#include <stdlib.h>
#include <string.h>

#include "common/rng.h"

int smp_init(struct smp_window *m, uint32_t nside, bool warp, uint64_t seed)
{
	memset(m, 0, sizeof *m);
	m->gaps = seed;
	m->warp = warp;
	m->ph = SMP_REAL;
	m->left = SMP_FIRST - SMP_KEEP;
	m->nside = nside < SMP_MAX_SIDE ? nside : SMP_MAX_SIDE;
	bool oom = false;
	for (uint32_t i = 0; i < SMP_KEEP; i++) {
		oom |= !(m->t[i].lat = hist_new());
		if (warp)
			oom |= !(m->t[i].wlat = hist_new());
	}
	for (uint32_t i = 0; i < m->nside; i++)
		oom |= !(m->side[i] = hist_new());
	if (oom) {
		smp_free(m);
		return -1;
	}
	return 0;
}

void smp_free(struct smp_window *m)
{
	for (uint32_t i = 0; i < SMP_KEEP; i++) {
		hist_free(m->t[i].lat);
		hist_free(m->t[i].wlat);
	}
	for (uint32_t i = 0; i < m->nside; i++) {
		hist_free(m->side[i]);
		free(m->tab[i].cum);
		free(m->tab[i].val);
	}
	memset(m, 0, sizeof *m);
}

static int build_table(struct smp_table *t, const struct lat_hist *h)
{
	uint32_t n = 0;
	if (h->count)
		HIST_FOR_EACH_SET(h, i)
			n += h->buckets[i] != 0;
	if (n > t->cap) {
		uint64_t *c = realloc(t->cum, n * sizeof *c);
		if (c)
			t->cum = c;
		uint64_t *v = realloc(t->val, n * sizeof *v);
		if (v)
			t->val = v;
		if (!c || !v)
			return -1;
		t->cap = n;
	}
	uint64_t acc = 0;
	t->n = 0;
	if (!h->count)
		return 0;
	HIST_FOR_EACH_SET(h, i) {
		if (!h->buckets[i])
			continue;
		uint64_t v = hist_bucket_low((uint32_t)i);
		acc += h->buckets[i];
		t->cum[t->n] = acc;
		t->val[t->n++] = v < h->min ? h->min : v > h->max ? h->max : v;
	}
	return 0;
}

int smp_slice_begins(struct smp_window *m)
{
	if (m->flushing) {	/* its slices real, in no window */
		m->ph = SMP_REAL;
		return 0;
	}
	if (--m->left)
		return 0;
	switch (m->ph) {
	case SMP_REAL:
	case SMP_LEAD:		/* a window begins */
		smp_end_gap(m);
		return 0;
	case SMP_KEPT:		/* a gap, repeating it */
		m->ph = SMP_GAP_;
		uint32_t g = m->warp ? SMP_WARP_GAP : SMP_GAP;
		m->left = g / 2 + (uint32_t)(splitmix64(&m->gaps) % (g + 1));
		m->win_seen = m->seen;
		m->next_repeat = 0;
		for (uint32_t i = 0; i < m->nside; i++)
			if (build_table(&m->tab[i], m->side[i]))
				return -1;
		return 0;
	case SMP_GAP_:		/* the lead; a warped gap needs none */
		if (m->warp) {
			smp_end_gap(m);
			return 0;
		}
		m->ph = SMP_LEAD;
		m->left = 1;
		return 0;
	}
	return 0;
}

void smp_end_gap(struct smp_window *m)
{
	if (m->warp)
		m->seen = 0;	/* a warped gap follows its own window's regimes */
	m->ph = SMP_KEPT;
	m->left = SMP_KEEP;
	m->next_kept = 0;
	for (uint32_t i = 0; i < m->nside; i++)
		hist_reset(m->side[i]);
}

void smp_cut(struct smp_window *m)
{
	m->ph = SMP_REAL;
	m->left = 1;
}

bool smp_unseen(const struct smp_window *m, unsigned r)
{
	uint32_t bit = r < 32 ? 1u << r : 0;
	return m->ph == SMP_GAP_ && !(m->win_seen & bit);
}

const struct smp_slice *smp_peek(const struct smp_window *m)
{
	return &m->t[m->next_repeat % SMP_KEEP];
}

/* A gap meets a regime no window saw (smp_regime). */
void smp_regime_new(struct smp_window *m)
{
	/* the rest of this slice and the next are the lead */
	m->ph = SMP_LEAD;
	m->left = 2;
}

/* A side stream's fsync starts or ends (smp_flush). */
void smp_flush_changes(struct smp_window *m, bool on)
{
	m->flushing = on;
	if (on) {
		/* a slice partly in a gap still repeats the window; a window's
		   slice is not kept */
		m->ph = m->ph == SMP_GAP_ || m->ph == SMP_LEAD ? SMP_LEAD : SMP_REAL;
	} else if (m->ph != SMP_LEAD) {
		m->ph = SMP_REAL;	/* this slice and the next real, then a window */
	}
	m->left = 2;
}

const struct smp_slice *smp_slice_ends(struct smp_window *m, const struct smp_slice *now,
				       bool whole, struct lat_hist *const *side_lat)
{
	if (m->ph == SMP_KEPT) {
		for (uint32_t i = 0; i < m->nside; i++)
			hist_merge(m->side[i], side_lat[i]);
		if (!whole || m->next_kept >= SMP_KEEP)
			return NULL;
		struct smp_slice *t = &m->t[m->next_kept++];
		t->bytes = now->bytes;
		t->ios = now->ios;
		hist_reset(t->lat);
		hist_merge(t->lat, now->lat);
		if (t->wlat) {
			t->wbytes = now->wbytes;
			t->wios = now->wios;
			hist_reset(t->wlat);
			hist_merge(t->wlat, now->wlat);
		}
		if (m->kept < m->next_kept)
			m->kept = m->next_kept;
		return NULL;
	}
	if (m->ph == SMP_REAL || m->kept < SMP_KEEP)
		return NULL;
	return &m->t[m->next_repeat++ % SMP_KEEP];
}

uint64_t smp_side_draw(const struct smp_window *m, uint32_t i, double u)
{
	if (i >= m->nside || !m->tab[i].n)
		return 0;
	const struct smp_table *t = &m->tab[i];
	uint64_t r = (uint64_t)(u * (double)t->cum[t->n - 1]);
	uint32_t lo = 0, hi = t->n - 1;
	while (lo < hi) {	/* the first bucket whose count so far > r */
		uint32_t mid = lo + (hi - lo) / 2;
		if (t->cum[mid] > r)
			hi = mid;
		else
			lo = mid + 1;
	}
	return t->val[lo];
}

void smp_hold(struct smp_window *m, uint64_t tag, uint64_t t_done, uint64_t lat)
{
	m->nheld += !m->held[tag - 2].tag;
	m->held[tag - 2] = (struct smp_held){ t_done, lat, tag };
}

/* smp_held_next with one held at least. */
const struct smp_held *smp_held_first(const struct smp_window *m)
{
	const struct smp_held *best = NULL;
	for (uint32_t i = 0; i < m->nside; i++)
		if (m->held[i].tag && (!best || m->held[i].t_done < best->t_done))
			best = &m->held[i];
	return best;
}

struct smp_held smp_release(struct smp_window *m, const struct smp_held *h)
{
	struct smp_held x = *h;
	m->held[x.tag - 2].tag = 0;
	m->nheld--;
	return x;
}
