/*
 * Rate jitter: an Ornstein-Uhlenbeck process sampled on a fixed 10 ms
 * virtual tick, so its values depend only on the tick index and the seed,
 * never on how the harness slices time.
 */
#include <math.h>

#include "sim/model.h"

#define TICK_S 0.01

void jitter_init(struct jitter *j, double tau_s, uint64_t seed)
{
	rng_seed(&j->rng, seed ^ 0x6a697474657221ull);
	j->tick = 0;
	j->x = 0;
	j->a = exp(-TICK_S / tau_s);
	j->b = sqrt(1.0 - j->a * j->a);
}

/* A standard normal draw (Box-Muller, one value per call). */
static double normal(struct rng *r)
{
	double u1 = rng_unit(r), u2 = rng_unit(r);
	if (u1 < 1e-300)
		u1 = 1e-300;
	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

/* The process's steps up to tick k, out of line: most queries fall in
   the current tick and need no registers saved for the draws. */
static __attribute__((noinline)) double advance(struct jitter *j, uint64_t k)
{
	while (j->tick < k) {
		j->x = j->a * j->x + j->b * normal(&j->rng);
		j->tick++;
	}
	return j->x;
}

double jitter_at(struct jitter *j, double t_s)
{
	uint64_t k = t_s <= 0 ? 0 : (uint64_t)(t_s / TICK_S);
	/* Time only moves forward; an earlier query sees the current tick. */
	return j->tick < k ? advance(j, k) : j->x;
}

double jitter_tick_end(double t_s)
{
	double k = floor(t_s / TICK_S + 1e-9);
	double end = (k + 1.0) * TICK_S;
	return end > t_s ? end : t_s + TICK_S;
}
