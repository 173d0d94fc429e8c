/*
 * Where the next I/O of a job goes.  Random: uniform over the whole
 * region from the 64-bit generator, block-aligned to the region's start,
 * at any block size.  Sequential: the next block, wrapping at the end of
 * the region.  Jobs of a sequential workload each get their own slice of
 * the span, the slices tiling it (see docs/run.md); random jobs all cover
 * the span.
 */
#ifndef SSDBENCH_ENGINE_OFFSETS_H
#define SSDBENCH_ENGINE_OFFSETS_H

#include <stdint.h>

#include "common/rng.h"
#include "engine/workload.h"

struct offset_gen {
	uint64_t base;		/* first byte of the region */
	uint64_t nblocks;	/* whole blocks in the region; 0: a sequential
				   job with more jobs than blocks, idle */
	uint32_t bs;
	enum access_pattern pattern;
	uint64_t next;		/* sequential: next block index */
	struct rng rng;
};

/*
 * Sequential job `job` of `jobs` over a span of `blocks` blocks: its slice
 * [first, first + len), in blocks.  The slices tile the span exactly.
 */
void seq_slice(uint64_t blocks, uint32_t jobs, uint32_t job, uint64_t *first,
	       uint64_t *len);
/* The blocks sequential job `job` writes of `total` for the workload:
   the quotas sum to total and cover every block total / blocks times,
   the remainder at most once. */
uint64_t seq_quota_blocks(uint64_t blocks, uint32_t jobs, uint32_t job,
			  uint64_t total);

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
