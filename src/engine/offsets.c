#include "engine/offsets.h"

void offset_gen_init(struct offset_gen *g, const struct workload *w,
		     uint32_t job, uint64_t seed)
{
	g->bs = w->bs;
	g->pattern = w->pattern;
	g->next = 0;
	rng_seed(&g->rng, seed);
	uint64_t blocks = w->span_len / w->bs;
	if (w->pattern == PATTERN_SEQ && w->jobs > 1) {
		/* Equal slices, like fio's offset_increment=span/jobs. */
		uint64_t per = blocks / w->jobs;
		g->base = w->span_offset + (uint64_t)job * per * w->bs;
		g->nblocks = per;
	} else {
		g->base = w->span_offset;
		g->nblocks = blocks;
	}
}
