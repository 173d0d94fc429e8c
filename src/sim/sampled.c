/*
 * The windows of a sampled exact stream, what its gaps draw from, and its
 * virtual reads in flight (sampled.h).
 */
#include "sim/sampled.h"

#include <stdlib.h>
#include <string.h>

int smp_init(struct smp_window *m, uint32_t nside)
{
	memset(m, 0, sizeof *m);
	m->ph = SMP_REAL;
	m->left = SMP_FIRST - SMP_KEEP;
	m->nkinds = 2 + (nside < SMP_MAX_SIDE ? nside : SMP_MAX_SIDE);
	bool oom = false;
	for (uint32_t i = 0; i < m->nkinds; i++)
		oom |= !(m->win[i] = hist_new());
	if (oom) {
		smp_free(m);
		return -1;
	}
	return 0;
}

void smp_free(struct smp_window *m)
{
	for (uint32_t i = 0; i < m->nkinds; i++) {
		hist_free(m->win[i]);
		free(m->tab[i].cum);
		free(m->tab[i].val);
	}
	free(m->vq);
	memset(m, 0, sizeof *m);
}

/* The table of h: each non-empty bucket's low end (inside the exact
   extremes: it falls in the same bucket again) and the count so far. */
static int build_table(struct smp_table *t, const struct lat_hist *h)
{
	uint32_t n = 0;
	for (uint32_t i = h->lo; i <= h->hi && h->count; i++)
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
	for (uint32_t i = h->lo; i <= h->hi && h->count; i++) {
		if (!h->buckets[i])
			continue;
		uint64_t v = hist_bucket_low(i);
		acc += h->buckets[i];
		t->cum[t->n] = acc;
		t->val[t->n++] = v < h->min ? h->min : v > h->max ? h->max : v;
	}
	return 0;
}

int smp_slice_begins(struct smp_window *m)
{
	if (--m->left)
		return 0;
	switch (m->ph) {
	case SMP_REAL:		/* a window begins */
		m->ph = SMP_KEPT;
		m->left = SMP_KEEP;
		m->seen = 0;
		for (uint32_t i = 0; i < m->nkinds; i++)
			hist_reset(m->win[i]);
		return 0;
	case SMP_KEPT:		/* a gap, drawing from it */
		m->ph = SMP_GAP_;
		m->left = SMP_GAP;
		m->win_seen = m->seen;
		for (uint32_t i = 0; i < m->nkinds; i++)
			if (build_table(&m->tab[i], m->win[i]))
				return -1;
		return 0;
	case SMP_GAP_:		/* the lead */
		m->ph = SMP_REAL;
		m->left = 1;
		return 0;
	}
	return 0;
}

void smp_regime(struct smp_window *m, unsigned r)
{
	uint32_t bit = r < 32 ? 1u << r : 0;
	if (m->ph == SMP_KEPT)
		m->seen |= bit;
	else if (m->ph == SMP_GAP_ && !(m->win_seen & bit)) {
		/* the rest of this slice and the next are the lead */
		m->ph = SMP_REAL;
		m->left = 2;
	}
}

void smp_measured(struct smp_window *m, uint64_t tag, uint64_t lat)
{
	if (tag < m->nkinds)
		hist_add(m->win[tag], lat);
}

bool smp_can_draw(const struct smp_window *m, uint64_t tag)
{
	return tag < m->nkinds && m->tab[tag].n > 0;
}

uint64_t smp_draw(const struct smp_window *m, uint64_t tag, double u)
{
	if (!smp_can_draw(m, tag))
		return 0;
	const struct smp_table *t = &m->tab[tag];
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

int smp_vpush(struct smp_window *m, uint64_t t_done, uint64_t lat, uint64_t tag)
{
	if (m->nv == m->vcap) {
		uint32_t cap = m->vcap ? 2 * m->vcap : 64;
		struct smp_vread *q = realloc(m->vq, cap * sizeof *q);
		if (!q)
			return -1;
		m->vq = q;
		m->vcap = cap;
	}
	uint32_t i = m->nv++;
	while (i && m->vq[(i - 1) / 2].t_done > t_done) {
		m->vq[i] = m->vq[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	m->vq[i] = (struct smp_vread){ t_done, lat, tag };
	return 0;
}

const struct smp_vread *smp_vtop(const struct smp_window *m)
{
	return m->nv ? &m->vq[0] : NULL;
}

struct smp_vread smp_vpop(struct smp_window *m)
{
	struct smp_vread top = m->vq[0], last = m->vq[--m->nv];
	uint32_t i = 0;
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= m->nv)
			break;
		if (c + 1 < m->nv && m->vq[c + 1].t_done < m->vq[c].t_done)
			c++;
		if (m->vq[c].t_done >= last.t_done)
			break;
		m->vq[i] = m->vq[c];
		i = c;
	}
	if (m->nv)
		m->vq[i] = last;
	return top;
}
