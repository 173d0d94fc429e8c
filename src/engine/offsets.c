#include "engine/offsets.h"

void seq_slice(uint64_t blocks, uint32_t jobs, uint32_t job, uint64_t *first,
	       uint64_t *len)
{
	/* The first blocks % jobs jobs take one block more: the slices tile
	   the span without a gap or an overlap, and jobs beyond the block
	   count get none. */
	uint64_t per = blocks / jobs, rem = blocks % jobs;
	*first = (uint64_t)job * per + (job < rem ? job : rem);
	*len = per + (job < rem);
}

uint64_t seq_quota_blocks(uint64_t blocks, uint32_t jobs, uint32_t job,
			  uint64_t total)
{
	uint64_t first, len;
	seq_slice(blocks, jobs, job, &first, &len);
	/* Whole passes over its slice, then its share of a partial pass,
	   dealt like the slices: at most its slice, so no block of a pass
	   is written twice. */
	uint64_t passes = total / blocks, rest = total % blocks;
	return passes * len + rest / jobs + (job < rest % jobs);
}

void offset_gen_init(struct offset_gen *g, const struct workload *w,
		     uint32_t job, uint64_t seed)
{
	g->bs = w->bs;
	g->pattern = w->pattern;
	g->next = 0;
	rng_seed(&g->rng, seed);
	uint64_t blocks = w->span_len / w->bs;
	if (w->pattern == PATTERN_SEQ) {
		uint64_t first;
		seq_slice(blocks, w->jobs, job, &first, &g->nblocks);
		g->base = w->span_offset + first * w->bs;
	} else {
		g->base = w->span_offset;
		g->nblocks = blocks;
	}
}
