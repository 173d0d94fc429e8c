/*
 * The reviews' hand calculations (METHODOLOGY §6), against the numbers
 * worked out by hand in the reviews and here.
 */
#include "check.h"

#include <math.h>

#include "analysis/drive_calc.h"

TEST(plp_hold_up_as_the_review_computes_it)
{
	/* 8 x 270 uF at 35 V: 8 x 0.5 x 270e-6 x 1225 = 1.323 J exactly. */
	double j = plp_energy_j(8, 270e-6, 35);
	CHECK_REL(j, 1.323, 1e-12);
	/* over 25 W: 1.323 / 25 = 0.05292 s, "about 53 ms" */
	CHECK_REL(plp_holdup_s(j, 25), 0.05292, 1e-12);
	/* absent parts give no figure, never a number from nothing */
	CHECK(isnan(plp_energy_j(0, 270e-6, 35)));
	CHECK(isnan(plp_energy_j(8, NAN, 35)));
	CHECK(isnan(plp_holdup_s(j, 0)));
	CHECK(isnan(plp_holdup_s(NAN, 25)));
}

TEST(over_provisioning_and_dram_ratio)
{
	/* PM1725: 4096 GB of NAND for 3200 GB user = 28 % */
	CHECK_REL(overprovisioning(4096e9, 3200e9), 0.28, 1e-12);
	/* flat media: none */
	CHECK(overprovisioning(375e9, 375e9) == 0);
	CHECK(isnan(overprovisioning(0, 375e9)));
	/* SN8100 4TB: 4 GB of DRAM for 4 TB, "1:1000" */
	CHECK_REL(dram_ratio(4e12, 4e9), 1000, 1e-12);
	/* 2 GiB for 2 TB: 2e12 / 2147483648 = 931.32 */
	CHECK_REL(dram_ratio(2e12, 2147483648.0), 931.3225746154785, 1e-12);
	CHECK(isnan(dram_ratio(2e12, 0)));
}

TEST(iops_as_bandwidth)
{
	/* the SN8100 review: 2.3 M IOPS at 4 KiB = 9421 MB/s */
	CHECK_REL(iops_to_bps(2.3e6, 4096) / 1e6, 9420.8, 1e-12);
	CHECK(isnan(iops_to_bps(1, 0)));
}

CHECK_MAIN("drive_calc")
