#include "sim/describe.h"

#include <stdio.h>
#include <string.h>

#include "common/units.h"
#include "sim/headline.h"

void sim_model_name(const struct sim_spec *sp, char *buf, size_t len)
{
	const char *d = sp->profile.description;
	const char *colon = strchr(d, ':');
	int n = colon ? (int)(colon - d) : (int)strlen(d);
	if (n == 0) {
		d = sp->profile.name;
		n = (int)strlen(d);
	}
	if (sp->scale != 1.0)
		snprintf(buf, len, "%.*s (simulated, scale %g)", n, d, sp->scale);
	else
		snprintf(buf, len, "%.*s (simulated)", n, d);
}

void sim_describe_json(struct json_writer *w, const char *key,
		       const struct sim_spec *sp)
{
	char model[160];
	sim_model_name(sp, model, sizeof model);
	json_object_begin(w, key);
	json_string(w, "model", model);
	json_bool(w, "simulated", true);
	json_string(w, "profile", sp->profile.name);
	json_string(w, "description", sp->profile.description);
	json_double(w, "scale", sp->scale);
	if (sp->scale != 1.0) {
		/* What `scale` shrank (profile.c's capacity keys), in words,
		   for the reader of a scaled run's report. */
		char what[512];
		snprintf(what, sizeof what, "capacity-bound quantities at %g %% of "
			 "the real drive's: user capacity, physical space, static "
			 "and dynamic SLC cache, reserved free space, fold-round and "
			 "garbage-collection watermarks, fold rounds, the burst bank; "
			 "rates, latencies, queue limits and the journal-flush "
			 "interval are the real drive's, and so are its time "
			 "constants where the target does not set them", 100 * sp->scale);
		json_string(w, "scaled", what);
	}
	json_u64(w, "seed", sp->seed);
	/* The NAND the profile models (scaled with it): the report's
	   over-provisioning is raw / user - 1. */
	json_double(w, "nand_gb", sp->profile.phys_gb);
	json_object_end(w);
}

void sim_describe_print(FILE *out, const struct sim_spec *sp)
{
	char model[160], size[32];
	uint64_t bytes = (uint64_t)(sp->profile.user_gb * 1e9) / 4096 * 4096;
	sim_model_name(sp, model, sizeof model);
	fprintf(out, "  %-22s %s\n", "model", model);
	fprintf(out, "  %-22s %s\n", "profile", sp->profile.name);
	fprintf(out, "  %-22s %s\n", "description", sp->profile.description);
	fprintf(out, "  %-22s %s (%llu bytes)\n", "size",
		fmt_bytes_si(bytes, size, sizeof size), (unsigned long long)bytes);
	fprintf(out, "  %-22s %s\n", "block sizes", "512 B logical, 4096 B physical");
	fprintf(out, "  %-22s %llu\n", "seed", (unsigned long long)sp->seed);
	fprintf(out, "  %-22s %s\n", "purge methods", "sim-format (a fresh drive, as an NVMe format leaves it)");
	fprintf(out, "\n  expected headline figures (from the parameters; "
		"'ssdbench sim show %s' lists them all)\n", sp->profile.name);
	sim_headline_print(out, &sp->profile);
}

void sim_headline_print(FILE *out, const struct sim_profile *p)
{
	struct sim_headline h;
	sim_headline(p, &h);
	if (h.cache_empty_gb > 0) {
		fprintf(out, "#   SLC cache: %.0f GB on an empty drive, %.0f GB on a full one, at %.2f GB/s\n",
			h.cache_empty_gb, h.cache_full_gb, h.slc_gbs);
		fprintf(out, "#   idle regain: %.2f GB/s of cache per second of idle\n",
			h.regain_gbs);
	}
	fprintf(out, "#   sequential write to native media: %.2f GB/s\n", h.direct_gbs);
	if (p->rho_eff > 0)
		fprintf(out, "#   4 KiB random write, full drive: WA %.2f, %.1fk IOPS under GC, %.1fk average\n",
			h.wa_rand, h.rnd_write_kiops, h.rnd_write_avg_kiops);
	else
		fprintf(out, "#   4 KiB random write: no GC (in place), %.1fk IOPS\n",
			h.rnd_write_kiops);
	if (h.burst_period_s > 0)
		fprintf(out, "#   bursts: %.2f GB in %.2f s every %.1f s\n", h.burst_gb,
			h.burst_s, h.burst_period_s);
	fprintf(out, "#   4 KiB random read: QD1 %.1f us, saturates at %.0fk IOPS\n",
		h.qd1_read_us, h.rnd_read_sat_kiops);
	fprintf(out, "#   4 KiB write QD1: %.1f us; sequential read: %.2f GB/s\n",
		h.qd1_write_us, h.seq_read_gbs);
	if (h.map_mem_mib < 0)
		fprintf(out, "#   L2P map: %.0f MiB, held whole (no map-cache misses)\n", h.map_mib);
	else if (h.map_cached_gb >= p->user_gb)
		fprintf(out, "#   L2P map: %.0f MiB, held whole in %.0f MiB of %s\n", h.map_mib,
			h.map_mem_mib, p->dram_mib > 0 ? "DRAM" : "host memory");
	else
		fprintf(out, "#   L2P map: %.0f MiB; %.0f MiB of %s caches %.1f GB of the %.0f GB: random reads beyond it pay a map-page read\n",
			h.map_mib, h.map_mem_mib, p->dram_mib > 0 ? "DRAM" : "host memory (HMB)",
			h.map_cached_gb, p->user_gb);
}
