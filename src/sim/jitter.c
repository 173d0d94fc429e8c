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
	j->win_lo = 1;
	j->win_hi = 0;
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

/* The tick whose value jitter_at gives at t_s (the process's own). */
static uint64_t tick_of(double t_s)
{
	return t_s <= 0 ? 0 : (uint64_t)(t_s / TICK_S);
}

/* The tick jitter_tick_end places t_s in: a hair past tick_of, so a time
   that rounding left just short of a tick's end is in the next tick. */
static double end_tick_of(double t_s)
{
	return floor(t_s / TICK_S + 1e-9);
}

double jitter_at(struct jitter *j, double t_s)
{
	uint64_t k = tick_of(t_s);
	/* Time only moves forward; an earlier query sees the current tick. */
	return j->tick < k ? advance(j, k) : j->x;
}

double jitter_tick_end(double t_s)
{
	double k = end_tick_of(t_s);
	double end = (k + 1.0) * TICK_S;
	return end > t_s ? end : t_s + TICK_S;
}

/*
 * The window from t_s, whose answers were x and end: up to a time h a
 * hair short of the tick's end, when h has the same two ticks.  Both
 * tick_of and end_tick_of are monotone in t (a division, an addition
 * and a floor or truncation, each rounding monotonically), so every time
 * between t_s and h has them too, and so x (no advance) and end (end > h).
 * The hair (1e-8 of a tick, and 1e-14 of the time for the division's
 * rounding) only makes h likely to pass; the checks make it right.
 */
static void set_window(struct jitter *j, double t_s, double end)
{
	double k = end_tick_of(t_s);
	j->win_lo = 1;
	j->win_hi = 0;
	if (!(end > t_s) || end != (k + 1.0) * TICK_S)
		return;	/* past the tick's end: jitter_tick_end's fallback */
	double h = (k + 1.0 - 1e-8 - (k + 1.0) * 1e-14) * TICK_S;
	if (h >= t_s && h < end && end_tick_of(h) == k && tick_of(h) <= j->tick) {
		j->win_lo = t_s;
		j->win_hi = h;
		j->win_end = end;
	}
}

double jitter_tick_slow(struct jitter *j, double t_s, double *end)
{
	double x = jitter_at(j, t_s);
	*end = jitter_tick_end(t_s);
	set_window(j, t_s, *end);
	return x;
}
