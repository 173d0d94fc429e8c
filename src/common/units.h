/*
 * Parsing and printing of the quantities users type: sizes, durations, rates.
 *
 * Sizes follow fio so job options carry over: the suffixes k, m, g, t, p and
 * their KiB/KB forms are all powers of 1024 (fio's default kb_base=1024).
 * A bare number is bytes.  Durations: ns, us, ms, s, m, h; a bare number is
 * seconds, as in fio's runtime=.
 */
#ifndef SSDBENCH_COMMON_UNITS_H
#define SSDBENCH_COMMON_UNITS_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"

int parse_size(const char *s, uint64_t *out, struct sb_err *e);

/*
 * A size that may instead be a share of `whole`: "50%" gives whole/2,
 * rounded down to `align` (pass 1 for no alignment).
 */
int parse_size_or_percent(const char *s, uint64_t whole, uint64_t align,
			  uint64_t *out, bool *was_percent, struct sb_err *e);

int parse_duration_ns(const char *s, uint64_t *out_ns, struct sb_err *e);

/* Bytes per second: a size with an optional "/s" suffix ("15m", "15MiB/s"). */
int parse_rate(const char *s, uint64_t *out_bytes_per_s, struct sb_err *e);

/*
 * A count per second such as IOPS: a whole number with an optional
 * decimal suffix k (10^3), m (10^6) or g (10^9): "250k" is 250000.  Counts
 * are not sizes, so these are powers of 1000.  In [lo, hi].
 */
int parse_count(const char *what, const char *s, uint64_t lo, uint64_t hi,
		uint64_t *out, struct sb_err *e);

/* An unsigned integer in [lo, hi], with the option name in the message. */
int parse_uint_range(const char *what, const char *s, uint64_t lo, uint64_t hi,
		     uint64_t *out, struct sb_err *e);

/* "4 KiB", "1.5 GiB": for messages, always binary units. */
const char *fmt_bytes(uint64_t bytes, char *buf, unsigned len);
/* "2.00 TB", "677 GB", "20.0 GB": capacities as drives are sold, decimal
   units with three significant digits. */
const char *fmt_bytes_si(uint64_t bytes, char *buf, unsigned len);
/* "310 ns", "12.4 us", "3.21 ms", "2.0 s". */
const char *fmt_ns(uint64_t ns, char *buf, unsigned len);

#endif
