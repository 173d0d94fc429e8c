/*
 * The GC sampler: a scaled-down page-mapped FTL with greedy GC
 * (SIMULATOR.md §1, after pjd-nu/sssl-ftlsim's runsim_greedy).  1024
 * blocks of 256 pages stand for the drive's native space; one sampler page
 * stands for g = U / (user pages) bytes of LBA space.  Host data that
 * reaches native media becomes sampler writes at its (scaled) LBAs, so the
 * write amplification it measures follows what the host really did: a
 * sequential overwrite frees whole blocks (WA 1), uniform random writes
 * converge to the Lambert-W value within ~0.1 drive-writes, a small hot
 * span over cold data stays cheap, and trims make GC cheaper.
 */
#ifndef SSDBENCH_SIM_SAMPLER_H
#define SSDBENCH_SIM_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "common/rng.h"

struct sampler;

/* rho: over-provisioning of native space over user space. */
/* slc_bytes: the most data the SLC cache can stage before folding. */
int sampler_new(double rho, uint64_t user_bytes, double slc_bytes, uint64_t seed,
		struct sampler **out, struct sb_err *e);
void sampler_free(struct sampler *sp);
/* A copy of sp in its own memory (-1: none), and whether two samplers
   hold the same state, every byte of it (a simulator's memo: memo.c). */
int sampler_clone(const struct sampler *sp, struct sampler **out);
bool sampler_equal(const struct sampler *a, const struct sampler *b);

/*
 * `bytes` of host data: sequential data at [off, off + bytes), random data
 * anywhere in [span_off, span_off + span_len).  Data written to SLC waits
 * there (in order) until sampler_fold moves it to native blocks.
 */
void sampler_write_seq(struct sampler *sp, double off, double bytes, bool to_slc);
void sampler_write_rand(struct sampler *sp, uint64_t span_off, uint64_t span_len,
			double bytes, bool to_slc);
void sampler_fold(struct sampler *sp, double bytes);
void sampler_trim(struct sampler *sp, uint64_t off, uint64_t len);

/*
 * Write amplification GC would pay now: 1 / (1 - v), v the valid share of
 * the block greedy GC would erase next (1 when nothing is stale).
 */
double sampler_wa(struct sampler *sp);
/* The same, read from the bins every time (sampler_wa keeps its answer
   while no block changes bins): the rule, for tests. */
double sampler_wa_scan(struct sampler *sp);
/* The oracle's amplification of uniform random writes at this rho
   (sim_waf_lw), evaluated once: the write path scales by it at every
   step, and its Halley iterations near the branch point cost as much as
   the step. */
double sampler_wa_uniform(const struct sampler *sp);
/* Measured over the recent writes: all programs over host programs. */
double sampler_wa_recent(const struct sampler *sp);

#endif
