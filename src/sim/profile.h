/*
 * A drive profile: every parameter of the simulated SSD, as a user writes it
 * in an INI file ("key = value", '#' comments, optional [section] headers
 * that only group keys for the reader).  Units are the ones of SIMULATOR.md
 * §10 and appear in the key names: GB = 10^9 bytes, GB/s, µs, ms, s.
 *
 * The built-ins are compiled in as INI text (profile_builtin.c), so a
 * built-in and a user's file go through the same parser and checks.
 */
#ifndef SSDBENCH_SIM_PROFILE_H
#define SSDBENCH_SIM_PROFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"

enum sim_route {
	ROUTE_DIRECT,		/* no SLC: every write goes to native media */
	ROUTE_SLC_THEN_DIRECT,	/* SLC while there is room, then native */
	ROUTE_SLC_ONLY,		/* everything through SLC (QLC drives) */
};

#define SIM_MAX_ROUNDS 8

struct sim_round_seg {
	double fold_gb;		/* SLC bytes folded in this segment */
	double host_gbs;	/* host rate while it runs */
};

struct sim_profile {
	char name[64];
	char description[160];

	/* capacities */
	double user_gb;		/* U: user capacity */
	double phys_gb;		/* R: physical space for user data + dynamic SLC */
	int bits_per_cell;	/* m: 3 TLC, 4 QLC, 0 in-place media */

	/* interface and controller */
	double link_rd_gbs, link_wr_gbs;
	bool link_shared;	/* half-duplex (SATA) */
	int qd_cap;
	double t_fw_rd_us, t_fw_wr_us;
	int cores;
	double t_ctrl_us;	/* per read, per core */
	double wr_cap_kiops;	/* controller write command cap */
	double t_commit_us;	/* flush: after the buffer is empty */
	double wbuf_mib;	/* write buffer */
	double wbuf_release_kib;	/* buffer room comes back in these units */

	/* NAND geometry and reads */
	int units;		/* dies x planes */
	int channels;
	double ch_gbs;
	double page_kib;
	double tr_slc_us, tr_nat_us;
	double p_rr;		/* read-retry probability */
	double n_rr;		/* retry cost in tR */
	double t_susp_us;	/* program/erase suspend bound, 0 = none */
	double t_prog_us, t_bers_us;
	double tr_spread;	/* page types read at tR*(1-s .. 1+s), mean tR */
	double t_fw_cv;		/* firmware time variation (lognormal CV) */

	/* write routing and the SLC cache */
	enum sim_route route;
	double slc_static_gb, slc_dyn_max_gb, f_res_gb;
	double w_slc_gbs, w_dir_gbs;
	double f_bg_gbs, f_idle_gbs;
	double f_fg_gb, kappa_fg;
	int nrounds;
	struct sim_round_seg rounds[SIM_MAX_ROUNDS];
	double fold_rate_gbs;	/* slc_only: folding once the cache filled */
	double win_open_gb;	/* slc_only: room that reopens the window */
	double stall_rate_gbs;	/* slc_only: host rate while it is shut */
	double c_fo;		/* slowdown overwriting folded data */

	/* garbage collection */
	double rho_eff;		/* fitted over-provisioning; 0 = no GC (WA 1) */
	double p_gc_gbs, kappa_gc, beta, w_burst_gb, f_lo_gb, g_idle_gbs;

	/* the L2P map and its cache (SIMULATOR.md §8) */
	double dram_mib;	/* DRAM holding the map; < 0: not given, the
				   whole map is held (no misses) */
	double hmb_mib;		/* DRAM-less: host memory buffer for the map */
	int map_entry_bytes;	/* bytes per map entry */
	double iu_kib;		/* indirection unit: LBA bytes per entry */
	double map_page_kib;	/* what a miss loads and a write-back writes */
	double tr_map_us;	/* reading a map page; 0: tr_slc_us, or tR */

	/* variability and stalls */
	double sigma_seq, sigma_gc, tau_s;
	double journal_gib, journal_stall_ms;
	double t_idle_enter_ms;

	/* how the model runs it (not the drive): a sweep's sequential
	   mixes sampled, their gaps warped (sim/sampled.h), on the drives
	   where bench/seqmix_agree.py holds them to their acceptance */
	bool sampled_mix;
};

/* Parse INI text.  `origin` names it in messages ("sn8100-2tb", a path). */
int profile_parse(const char *text, const char *origin, struct sim_profile *p,
		  struct sb_err *e);
int profile_load_file(const char *path, struct sim_profile *p,
		      struct sb_err *e);
/* A built-in by name, or a file path. */
int profile_lookup(const char *name_or_path, struct sim_profile *p,
		   struct sb_err *e);

/* One "key=value" override, checked like a file line. */
int profile_set(struct sim_profile *p, const char *key, const char *value,
		const char *origin, struct sb_err *e);
/* Cross-key checks: capacities that add up, rounds, route needs. */
int profile_check(const struct sim_profile *p, const char *origin,
		  struct sb_err *e);

/* Shrink every capacity-proportional quantity by `scale` (0 < s <= 1). */
void profile_scale(struct sim_profile *p, double scale);

/* Built-ins: names in order, and their INI text. */
unsigned profile_builtin_count(void);
const char *profile_builtin_name(unsigned i);
const char *profile_builtin_text(const char *name);

/* Print every key with its value, as INI (sim show). */
void profile_write_ini(const struct sim_profile *p, char *buf, unsigned len);

#endif
