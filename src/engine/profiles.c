/*
 * The named workload mixes.  JESD219 and the OLTP mix are what they were
 * under `run --profile`; VDI and CDN are synthetic mixes after public
 * descriptions of those workloads (docs/run.md cites them).  None of them
 * is more than its numbers here: a profile is a workload, nothing is
 * modelled beyond pattern, read share, sizes, offsets and depth.
 */
#include "engine/profiles.h"

#include <stdio.h>
#include <string.h>

static const struct workload_profile profiles[] = {
	{
		/* JEDEC JESD219 (2010), the enterprise endurance workload:
		   random writes with its transfer-size table and 50/30/20 %
		   of the accesses to the first 5/15/80 % of the LBA space.
		   The standard sets no queue depth; 32 here. */
		"jesd219", "JEDEC JESD219 enterprise endurance workload",
		PATTERN_RAND, 0, 4096,
		"512/4:1k/1:1536/1:2k/1:2560/1:3k/1:3584/1:"
		"4k/67:8k/10:16k/7:32k/3:64k/3",
		"zoned:50/5:30/15:20/80", 32,
	},
	{
		/* the database-like mix of vendors' datasheets and reviews */
		"oltp", "OLTP-like: 8 KiB random, 70 % reads, QD8",
		PATTERN_RAND, 70, 8192, NULL, NULL, 8,
	},
	{
		/* Virtual desktops after logon: 70-80 % of the I/Os write,
		   small (typically 4 KiB) and random, because many desktops
		   share one store (the "I/O blender").  20 % reads; QD16 for
		   the many desktops behind one drive. */
		"vdi", "VDI-like: 4 KiB random, 80 % writes, QD16",
		PATTERN_RAND, 20, 4096, NULL, NULL, 16,
	},
	{
		/* A CDN or video cache: served objects are read in large
		   pieces, a few cache fills write; popularity is skewed
		   (Zipf-like), so a small hot set takes most reads. */
		"cdn", "CDN-like: 95 % reads, 128 KiB-1 MiB blocks, Zipf-skewed offsets, QD16",
		PATTERN_RAND, 95, 131072, "128k/50:256k/25:1m/25", "zipf:1.1", 16,
	},
};

#define NPROFILES (sizeof profiles / sizeof profiles[0])

const struct workload_profile *workload_profile_find(const char *name)
{
	for (size_t i = 0; i < NPROFILES; i++)
		if (!strcmp(profiles[i].name, name))
			return &profiles[i];
	return NULL;
}

const struct workload_profile *workload_profile_at(size_t i)
{
	return i < NPROFILES ? &profiles[i] : NULL;
}

const char *workload_profile_names(char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = 0;
	for (size_t i = 0; i < NPROFILES && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? ", " : "",
				      profiles[i].name);
	return buf;
}

int workload_profile_apply(const struct workload_profile *p,
			   struct workload *w, struct sb_err *e)
{
	w->pattern = p->pattern;
	w->read_pct = p->read_pct;
	w->trim_pct = 0;
	w->bs = p->bs;
	w->qd = p->qd;
	memset(w->bssplit, 0, sizeof w->bssplit);
	memset(&w->dist, 0, sizeof w->dist);
	if (p->bssplit && bs_split_parse(p->bssplit, w->bssplit, e))
		return sb_err_wrap(e, "profile %s", p->name);
	if (p->dist && access_dist_parse(p->dist, &w->dist, e))
		return sb_err_wrap(e, "profile %s", p->name);
	return 0;
}
