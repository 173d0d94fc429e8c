#include "sim/headline.h"

#include <math.h>
#include <string.h>

#include "sim/sim.h"

void sim_headline(const struct sim_profile *p, struct sim_headline *h)
{
	memset(h, 0, sizeof *h);
	double m = p->bits_per_cell;
	if (p->route != ROUTE_DIRECT) {
		h->cache_empty_gb = p->slc_static_gb +
			fmax(0, fmin(p->slc_dyn_max_gb, (p->phys_gb - p->f_res_gb) / m));
		h->cache_full_gb = p->slc_static_gb +
			fmax(0, fmin(p->slc_dyn_max_gb,
				     (p->phys_gb - p->user_gb - p->f_res_gb) / m));
		h->slc_gbs = p->w_slc_gbs;
		h->regain_gbs = (m - 1) / m * p->f_idle_gbs;
	}
	h->direct_gbs = p->w_dir_gbs;
	h->wa_rand = p->rho_eff > 0 ? sim_waf_lw(p->rho_eff) : 1.0;
	double bs = 4096;
	double gc_gbs = p->rho_eff > 0 ?
		p->p_gc_gbs / (1 + (1 + p->beta) * p->kappa_gc * (h->wa_rand - 1)) :
		p->w_dir_gbs;
	double cap_w = p->wr_cap_kiops * 1e3 * bs / 1e9;
	gc_gbs = fmin(gc_gbs, fmin(cap_w, p->link_wr_gbs));
	h->rnd_write_kiops = gc_gbs * 1e9 / bs / 1e3;
	h->rnd_write_avg_kiops = h->rnd_write_kiops;
	if (p->rho_eff > 0 && p->beta > 0 && p->w_burst_gb > 0) {
		double burst_gbs = fmin(p->w_dir_gbs, fmin(cap_w, p->link_wr_gbs));
		double bank_s = p->w_burst_gb / (p->beta * gc_gbs);
		h->burst_s = p->w_burst_gb / burst_gbs;
		h->burst_period_s = bank_s + h->burst_s;
		h->burst_gb = p->w_burst_gb;
		h->rnd_write_avg_kiops = (gc_gbs * bank_s + p->w_burst_gb) /
					 h->burst_period_s * 1e9 / bs / 1e3;
	}
	double tr = p->tr_nat_us;
	double sat = fmin(p->cores / p->t_ctrl_us * 1e6,
			  fmin(tr > 0 ? p->units / tr * 1e6 : INFINITY,
			       p->link_rd_gbs * 1e9 / bs));
	h->rnd_read_sat_kiops = sat / 1e3;
	h->qd1_read_us = p->t_ctrl_us + p->t_fw_rd_us + tr +
			 bs / (p->ch_gbs * 1e3) + bs / (p->link_rd_gbs * 1e3);
	h->qd1_write_us = p->cores / (p->wr_cap_kiops * 1e3) * 1e6 + p->t_fw_wr_us +
			  bs / (p->link_wr_gbs * 1e3);
	h->seq_read_gbs = p->link_rd_gbs;
	/* The map: an entry per indirection unit; a cache holds whole pages. */
	double lba_per_page = floor(p->map_page_kib * 1024 / p->map_entry_bytes) *
			      p->iu_kib * 1024;
	h->map_mib = p->user_gb * 1e9 / (p->iu_kib * 1024) * p->map_entry_bytes / 1048576;
	h->map_mem_mib = p->dram_mib < 0 ? -1 : p->dram_mib > 0 ? p->dram_mib : p->hmb_mib;
	h->map_cached_gb = p->user_gb;
	if (h->map_mem_mib >= 0)
		h->map_cached_gb = fmin(p->user_gb, floor(h->map_mem_mib * 1048576 /
						(p->map_page_kib * 1024)) * lba_per_page / 1e9);
}
