/*
 * The figures a profile should produce, worked out from its parameters
 * alone (SIMULATOR.md §4-§6 in closed form).  `sim show` prints them, and
 * the tests hold the running model to them.
 */
#ifndef SSDBENCH_SIM_HEADLINE_H
#define SSDBENCH_SIM_HEADLINE_H

#include "sim/profile.h"

struct sim_headline {
	double cache_empty_gb;	/* SLC a host can write into an empty drive */
	double cache_full_gb;	/* ... into a full one (the static pool) */
	double slc_gbs, direct_gbs;
	double regain_gbs;	/* cache regained per second of idle */
	double wa_rand;		/* 4k random writes, full drive */
	double rnd_write_kiops;	/* under GC, between bursts */
	double rnd_write_avg_kiops;	/* including bursts */
	double burst_period_s, burst_s, burst_gb;	/* 0 without bursts */
	double rnd_read_sat_kiops;	/* the smallest cap */
	double qd1_read_us;	/* 4 KiB from native media */
	double qd1_write_us;	/* 4 KiB into the buffer */
	double seq_read_gbs;	/* the link */
	double map_mib;		/* the whole L2P map */
	double map_mem_mib;	/* DRAM or HMB for it; < 0: not given (held whole) */
	double map_cached_gb;	/* LBA span the cached pages cover (user_gb: all) */
};

void sim_headline(const struct sim_profile *p, struct sim_headline *h);

#endif
