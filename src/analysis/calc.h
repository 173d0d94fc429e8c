/*
 * The small calculations the reviews do by hand (METHODOLOGY §6).
 * SI units throughout: bytes, seconds, farads, volts, watts.
 */
#ifndef SSDBENCH_ANALYSIS_CALC_H
#define SSDBENCH_ANALYSIS_CALC_H

/* 2.3 M IOPS at 4 KiB = 9.42e9 B/s (9421 MB/s). */
double calc_iops_to_bps(double iops, double block_bytes);
double calc_bps_to_iops(double bytes_per_s, double block_bytes);

/* Energy in n capacitors of C at V: n x C V^2 / 2 (8 x 270 uF at 35 V =
   1.323 J). */
double calc_plp_energy_j(unsigned n, double farads, double volts);
/* That energy over the drive's power draw: 1.323 J / 25 W = 52.9 ms. */
double calc_plp_holdup_s(unsigned n, double farads, double volts,
			 double watts);

/* raw / user - 1 (a share: 0.07 for 7 %). */
double calc_overprovisioning(double raw_bytes, double user_bytes);
/* NAND per DRAM byte: 1000 for the classic 1:1000. */
double calc_dram_ratio(double nand_bytes, double dram_bytes);
/* DRAM a flat map needs: one `entry_bytes` entry per indirection unit. */
double calc_dram_needed(double nand_bytes, double iu_bytes,
			double entry_bytes);

#endif
