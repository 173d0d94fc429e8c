/*
 * Latency figures from histograms (common/hist.h, 0.05 % accurate):
 * percentile tables, the "nines" curve of §4.5 (x = latency, y =
 * percentile on a -log10(1 - p) scale up to 99.9999 %), a QoS table per
 * queue depth, and the datasheet check (spec vs measured, pass/fail).
 * The report draws these; it computes none of them itself.
 */
#ifndef SSDBENCH_ANALYSIS_LATENCY_H
#define SSDBENCH_ANALYSIS_LATENCY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/hist.h"

/* 50, 90, 99, 99.9, 99.99, 99.999, 99.9999: the QoS table's columns. */
#define LAT_QOS_NPS 7
extern const double lat_qos_percentiles[LAT_QOS_NPS];

#define LAT_MAX_PS 32

struct lat_summary {
	uint64_t count;
	double mean_ns;
	uint64_t min_ns, max_ns;	/* 0 when empty */
	size_t np;
	double ps[LAT_MAX_PS];		/* the percentiles asked for */
	uint64_t v_ns[LAT_MAX_PS];	/* their values */
};

/* ps ascending, np <= LAT_MAX_PS (extra ones are dropped). */
void lat_summarize(const struct lat_hist *h, const double *ps, size_t np,
		   struct lat_summary *out);

/*
 * How late an open loop's I/Os were submitted, from its lateness histogram
 * (arrival to submission, engine.h): an I/O is late when it went after its
 * arrival time at all (lateness > 0; the histogram holds values below
 * 1 us exactly, so the count is exact).  In virtual time an I/O that finds
 * a free slot goes at its arrival exactly, so late ones are those that
 * found the queue full; in real time every wake-up adds a little.
 */
struct lateness_summary {
	uint64_t ios, late;
	double late_mean_ns;		/* over the late ones; NaN when none */
	uint64_t p99_ns, max_ns;	/* over all; 0 when empty */
};
void lat_lateness(const struct lat_hist *h, struct lateness_summary *out);

/* A QoS table: one summary per histogram (one per queue depth). */
void lat_qos_table(const struct lat_hist *const *h, size_t n,
		   struct lat_summary *rows);

struct nines_pt {
	double nines;		/* -log10(1 - p/100): 2 = 99 %, 6 = 99.9999 % */
	double percentile;
	uint64_t latency_ns;
};

/*
 * The curve at every `step` nines from 0 (the median is nines 0.301) up to
 * `max_nines`, stopping where the histogram has too few samples to say
 * (1 - p) x count < 1), and ending with the maximum (as 100 %, nines =
 * log10(count)).  Returns the number of points written (<= max).
 */
size_t lat_nines_curve(const struct lat_hist *h, double max_nines,
		       double step, struct nines_pt *out, size_t max);

/*
 * One datasheet line, the one pass/fail rule of the datasheet check (the
 * report's table): a rate or IOPS passes at or above spec x (1 -
 * tolerance), a latency at or below spec x (1 + tolerance).  `pass` and
 * `margin` are filled by spec_judge; a missing measurement (NaN) or a spec
 * not above 0 neither passes nor has a margin.
 */
struct spec_check {
	const char *what;	/* "RND 4K read QD1 p99.99 latency" */
	const char *unit;
	double spec;
	double measured;
	bool higher_is_better;	/* IOPS, MB/s; false for latency */
	double tolerance;	/* share the measurement may miss by: 0.05 */
	bool pass;
	double margin;		/* measured / spec - 1, sign: + is better */
};

void spec_judge(struct spec_check *c);

#endif
