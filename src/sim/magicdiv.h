/*
 * a / d by a multiply, for a divisor fixed at open that is not a power of
 * two, where a hardware division at every use would cost more than the
 * rest of the step: q = floor(a ceil(2^64 / d) / 2^64) is floor(a / d)
 * exactly when a d < 2^64 (the error a (ceil(2^64 / d) - 2^64 / d) / 2^64
 * < a / 2^64 < 1 / d, less than a / d's distance to the next integer).
 */
#ifndef SSDBENCH_SIM_MAGICDIV_H
#define SSDBENCH_SIM_MAGICDIV_H

#include <stdint.h>

/* The multiplier for d >= 2: ceil(2^64 / d). */
static inline uint64_t magic_of(uint64_t d)
{
	return UINT64_MAX / d + 1;
}

/* floor(a / d) for magic = magic_of(d) and a d < 2^64. */
static inline uint64_t div_by_magic(uint64_t a, uint64_t magic)
{
	return (uint64_t)(((unsigned __int128)a * magic) >> 64);
}

#endif
