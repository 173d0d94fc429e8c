#include "analysis/calc.h"

double calc_iops_to_bps(double iops, double block_bytes)
{
	return iops * block_bytes;
}

double calc_bps_to_iops(double bytes_per_s, double block_bytes)
{
	return bytes_per_s / block_bytes;
}

double calc_plp_energy_j(unsigned n, double farads, double volts)
{
	return (double)n * 0.5 * farads * volts * volts;
}

double calc_plp_holdup_s(unsigned n, double farads, double volts,
			 double watts)
{
	return calc_plp_energy_j(n, farads, volts) / watts;
}

double calc_overprovisioning(double raw_bytes, double user_bytes)
{
	return raw_bytes / user_bytes - 1.0;
}

double calc_dram_ratio(double nand_bytes, double dram_bytes)
{
	return nand_bytes / dram_bytes;
}

double calc_dram_needed(double nand_bytes, double iu_bytes, double entry_bytes)
{
	return nand_bytes / iu_bytes * entry_bytes;
}
