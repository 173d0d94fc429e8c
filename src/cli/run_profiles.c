#include "cli/run_profiles.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

static const struct run_profile profiles[] = {
	{
		/* JEDEC JESD219 (2010), the enterprise endurance workload:
		   random writes with its transfer-size table and 50/30/20 %
		   of the accesses to the first 5/15/80 % of the LBA space.
		   The standard sets no queue depth; 32 here. */
		"jesd219", "JEDEC JESD219 enterprise endurance workload",
		{ { "rw", "randwrite" },
		  { "bssplit", "512/4:1k/1:1536/1:2k/1:2560/1:3k/1:3584/1:"
			       "4k/67:8k/10:16k/7:32k/3:64k/3" },
		  { "random_distribution", "zoned:50/5:30/15:20/80" },
		  { "qd", "32" } },
	},
	{
		/* the database-like mix of vendors' datasheets and reviews */
		"oltp", "OLTP-like: 8 KiB random, 70 % reads, QD8",
		{ { "rw", "randrw" }, { "rwmixread", "70" }, { "bs", "8k" },
		  { "qd", "8" } },
	},
};

const struct run_profile *run_profile_find(const char *name)
{
	for (size_t i = 0; i < sizeof profiles / sizeof profiles[0]; i++)
		if (!strcmp(profiles[i].name, name))
			return &profiles[i];
	return NULL;
}

const char *run_profile_names(char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = 0;
	for (size_t i = 0; i < sizeof profiles / sizeof profiles[0] && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? ", " : "",
				      profiles[i].name);
	return buf;
}
