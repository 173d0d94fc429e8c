#include "analysis/rate_min.h"

#include <math.h>

void rate_min_init(struct rate_min_check *c, double min_bps, uint64_t cycle_ns,
		   uint64_t settle_ns)
{
	*c = (struct rate_min_check){
		.min_bps = min_bps,
		.cycle_ns = cycle_ns,
		.settle_ns = settle_ns,
		.lowest_bps = NAN,
	};
}

void rate_min_feed(struct rate_min_check *c, uint64_t t_end_ns, uint64_t bytes)
{
	c->bytes += bytes;
	if (!(c->min_bps > 0) || c->cycle_ns == 0 || t_end_ns < c->settle_ns)
		return;
	if (c->based) {
		uint64_t spent = t_end_ns - c->base_ns;
		if (spent < c->cycle_ns)
			return;
		double bps = (double)(c->bytes - c->base_bytes) * 1e9 / (double)spent;
		c->windows++;
		if (!(bps >= c->lowest_bps))	/* also the first (NAN) */
			c->lowest_bps = bps;
		if (bps < c->min_bps)
			c->failed = true;
	}
	c->based = true;
	c->base_ns = t_end_ns;
	c->base_bytes = c->bytes;
}
