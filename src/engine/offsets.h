/*
 * Where the next I/O of a job goes.  Random: uniform over the whole
 * region from the 64-bit generator, block-aligned to the region's start,
 * at any block size.  Sequential: the next block, wrapping at the end of
 * the region.  Jobs of a sequential workload each get their own equal
 * slice of the span (see docs/run.md); random jobs all cover the span.
 */
#ifndef SSDBENCH_ENGINE_OFFSETS_H
#define SSDBENCH_ENGINE_OFFSETS_H

#include <stdint.h>

#include "common/rng.h"
#include "engine/workload.h"

struct offset_gen {
	uint64_t base;		/* first byte of the region */
	uint64_t nblocks;	/* whole blocks in the region */
	uint32_t bs;
	enum access_pattern pattern;
	uint64_t next;		/* sequential: next block index */
	struct rng rng;
};

/* Job `job` of the workload's w->jobs, seeded with `seed`. */
void offset_gen_init(struct offset_gen *g, const struct workload *w,
		     uint32_t job, uint64_t seed);

static inline uint64_t offset_next(struct offset_gen *g)
{
	uint64_t blk;
	if (g->pattern == PATTERN_RAND) {
		blk = rng_below(&g->rng, g->nblocks);
	} else {
		blk = g->next;
		if (++g->next == g->nblocks)
			g->next = 0;
	}
	return g->base + blk * g->bs;
}

#endif
