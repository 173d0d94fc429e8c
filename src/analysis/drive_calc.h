/*
 * The small calculations the reviews do by hand (METHODOLOGY §6), from
 * datasheet and device facts: the energy a power-loss-protection bank
 * stores and how long it holds the drive up, over-provisioning, the DRAM
 * to capacity ratio, and IOPS as bytes per second.  Pure arithmetic in SI
 * units (farads, volts, joules, watts, seconds, bytes); NaN in, NaN out.
 */
#ifndef SSDBENCH_ANALYSIS_DRIVE_CALC_H
#define SSDBENCH_ANALYSIS_DRIVE_CALC_H

/* n capacitors of c farads charged to v volts store n * 1/2 * C * V^2
   joules (8 x 270 uF at 35 V = 1.323 J). */
double plp_energy_j(double n, double c_farad, double volts);

/* Seconds that `energy_j` holds a drive drawing `power_w` (1.323 J at
   25 W = 52.9 ms); NaN unless both are positive. */
double plp_holdup_s(double energy_j, double power_w);

/* Over-provisioning: raw / user - 1 (4096 GB raw for 3200 GB user =
   0.28); NaN unless both are positive. */
double overprovisioning(double raw_bytes, double user_bytes);

/* Capacity bytes per DRAM byte: 1000 reads "1:1000" (the rule of thumb
   for a 4 KiB indirection unit: 4 bytes of map per 4 KiB). */
double dram_ratio(double capacity_bytes, double dram_bytes);

/* IOPS at a block size as bytes per second (2.3 M IOPS at 4 KiB =
   9421 MB/s). */
double iops_to_bps(double iops, double block_bytes);

#endif
