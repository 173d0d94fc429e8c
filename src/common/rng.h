/*
 * The 64-bit generator behind random offsets and data: xoshiro256**, seeded
 * through splitmix64.  64 bits matter: 512 B blocks over 16 TB are 2^35
 * offsets, beyond what a 32-bit generator (fio's default tausworthe) covers.
 */
#ifndef SSDBENCH_COMMON_RNG_H
#define SSDBENCH_COMMON_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4];
};

static inline uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * A workload's seed, drawn from x: never 0 (0 means "draw one") and below
 * 2^63, because seeds are stored and printed as JSON numbers and JSON
 * readers (jansson among them) keep integers exact only up to INT64_MAX.
 */
static inline uint64_t seed_draw(uint64_t *x)
{
	return (splitmix64(x) >> 1) | 1;
}

/* The first stride from `from` (1 <= from) on that is coprime with n: a
   walk of it from any start, modulo n, visits every index of [0, n) once
   (a scatter, a permutation drawn from its start and stride). */
static inline uint64_t coprime_stride(uint64_t from, uint64_t n)
{
	for (;; from++) {
		uint64_t a = from, b = n;
		while (b) {
			uint64_t t = a % b;
			a = b;
			b = t;
		}
		if (a == 1)
			return from;
	}
}

static inline void rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static inline uint64_t rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return result;
}

/* Uniform in [0, n) without modulo bias (Lemire's multiply-and-reject). */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
	unsigned __int128 m = (unsigned __int128)rng_next(r) * n;
	uint64_t low = (uint64_t)m;
	if (low < n) {
		uint64_t threshold = -n % n;
		while (low < threshold) {
			m = (unsigned __int128)rng_next(r) * n;
			low = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

/* A uniform 53-bit integer: the draw behind rng_unit(), for callers that
   compare it with an integer bound instead of converting it (the
   simulator's per-I/O draws). */
static inline uint64_t rng_draw53(struct rng *r)
{
	return rng_next(r) >> 11;
}

/* Uniform double in [0, 1). */
static inline double rng_unit(struct rng *r)
{
	return (double)rng_draw53(r) * 0x1.0p-53;
}

#endif
