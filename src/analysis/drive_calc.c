#include "analysis/drive_calc.h"

#include <math.h>

double plp_energy_j(double n, double c_farad, double volts)
{
	if (!(n > 0) || !(c_farad > 0) || !(volts > 0))
		return NAN;
	return n * 0.5 * c_farad * volts * volts;
}

double plp_holdup_s(double energy_j, double power_w)
{
	if (!(energy_j > 0) || !(power_w > 0))
		return NAN;
	return energy_j / power_w;
}

double overprovisioning(double raw_bytes, double user_bytes)
{
	if (!(raw_bytes > 0) || !(user_bytes > 0))
		return NAN;
	return raw_bytes / user_bytes - 1;
}

double dram_ratio(double capacity_bytes, double dram_bytes)
{
	if (!(capacity_bytes > 0) || !(dram_bytes > 0))
		return NAN;
	return capacity_bytes / dram_bytes;
}

double iops_to_bps(double iops, double block_bytes)
{
	if (!(iops >= 0) || !(block_bytes > 0))
		return NAN;
	return iops * block_bytes;
}
