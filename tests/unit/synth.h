/*
 * Synthetic traces with known truth for the analysis tests (and the
 * benchmark): a piecewise-constant rate, sliced into ~100 ms samples whose
 * lengths jitter, with multiplicative AR(1) noise (an Ornstein-Uhlenbeck
 * jitter sampled every slice, like the simulator's).  Every slice's bytes
 * are the integral of the rate over it, times the noise.
 */
#ifndef SSDBENCH_TESTS_SYNTH_H
#define SSDBENCH_TESTS_SYNTH_H

#include <math.h>
#include <stdlib.h>

#include "analysis/trace.h"
#include "common/rng.h"

struct synth_seg {
	double rate;	/* per second: bytes (or I/Os when bs > 0) */
	double secs;	/* a segment lasts this long ... */
	double amount;	/* ... or until this much is done (when > 0): the
			   noise changes its length, not its size */
	double sigma;	/* its own noise; < 0: the trace's */
};

struct synth {
	struct synth_seg *segs;
	size_t nsegs, cap;
};

static inline void synth_add(struct synth *s, double rate, double secs)
{
	if (s->nsegs == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->segs = realloc(s->segs, s->cap * sizeof *s->segs);
	}
	s->segs[s->nsegs++] = (struct synth_seg){ rate, secs, 0, -1 };
}

/* Add a segment that writes `bytes` at `rate`. */
static inline void synth_add_bytes(struct synth *s, double rate, double bytes)
{
	synth_add(s, rate, bytes / rate);
	s->segs[s->nsegs - 1].amount = bytes;
}

static inline double synth_gauss(struct rng *r)
{
	double u = rng_unit(r), v = rng_unit(r);
	return sqrt(-2 * log(u + 1e-300)) * cos(2 * M_PI * v);
}

/*
 * Slice the segments: dt seconds +- jitter (a share), noise sd `sigma`
 * with AR(1) coefficient `phi`.  When bs > 0 the rate is in I/Os per second
 * and bytes = ios x bs; else the rate is bytes per second and ios = bytes /
 * 4096.  Returns the trace (malloc'd), its length in *n.
 */
static inline struct trace_pt *synth_trace(const struct synth *s, double dt,
					   double jitter, double sigma,
					   double phi, uint64_t seed,
					   uint64_t bs, size_t *n)
{
	struct rng r;
	rng_seed(&r, seed);
	double total = 0;
	for (size_t i = 0; i < s->nsegs; i++)
		total += s->segs[i].secs;
	size_t cap = (size_t)(3 * total / (dt * (1 - jitter))) + 2, k = 0;
	struct trace_pt *t = malloc(cap * sizeof *t);
	size_t seg = 0;
	double left = 0, z = 0;	/* what is left of the segment: s or amount */
	if (s->nsegs)
		left = s->segs[0].amount > 0 ? s->segs[0].amount : s->segs[0].secs;
	while (seg < s->nsegs && k < cap) {
		double len = dt * (1 + jitter * (2 * rng_unit(&r) - 1));
		z = phi * z + sqrt(1 - phi * phi) * synth_gauss(&r);
		double want = len, amount = 0;
		while (want > 0 && seg < s->nsegs) {
			const struct synth_seg *g = &s->segs[seg];
			double f = 1 + (g->sigma >= 0 ? g->sigma : sigma) * z;
			f = f < 0.01 ? 0.01 : f;
			double rate = g->rate * f, take;
			if (g->amount > 0) {
				take = want < left / rate ? want : left / rate;
				left -= take * rate;
			} else {
				take = want < left ? want : left;
				left -= take;
			}
			amount += take * rate;
			want -= take;
			if (left <= 1e-9 && ++seg < s->nsegs)
				left = s->segs[seg].amount > 0 ? s->segs[seg].amount
							       : s->segs[seg].secs;
		}
		len -= want;	/* the last slice stops with the trace */
		if (len <= 1e-9)
			break;
		t[k].ns = (uint64_t)(len * 1e9) ? (uint64_t)(len * 1e9) : 1;
		if (bs) {
			t[k].ios = (uint64_t)llround(amount);
			t[k].bytes = t[k].ios * bs;
		} else {
			t[k].bytes = (uint64_t)llround(amount);
			t[k].ios = t[k].bytes / 4096;
		}
		k++;
	}
	*n = k;
	return t;
}

#endif
