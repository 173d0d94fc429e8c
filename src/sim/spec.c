/*
 * A simulator target spec: "PROFILE[,key=value...]", where PROFILE is a
 * built-in name or a profile file, plus an option string of the same
 * "key=value,..." form.  `seed` and `scale` are options of the run; any
 * other key overrides the profile's value (in full-scale units), so
 * "sim:sn8100-2tb,scale=0.01,w_dir_gbs=3.5" is a slower SN8100 at 1 %.
 * `fluid=0` makes every I/O go through the discrete engine (slow at full
 * scale; for checking the bulk path against it); `sampled=0` keeps the
 * bulk paths but simulates every I/O of the streams that would be sampled
 * (sim/sampled.h), for checking those against it (`sampled_mix`, the
 * profile key that samples a sweep's sequential mixes, is set as any key).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/spec.h"

static int apply_option(struct sim_spec *sp, char *kv, const char *origin,
			struct sb_err *e)
{
	char *eq = strchr(kv, '=');
	if (!eq)
		return sb_errf(e, "%s: '%s' is not key=value", origin, kv);
	*eq = 0;
	const char *k = kv, *v = eq + 1;
	if (!strcmp(k, "seed")) {
		char *end;
		errno = 0;
		unsigned long long x = strtoull(v, &end, 0);
		if (!*v || *end || errno || *v == '-')
			return sb_errf(e, "%s: seed '%s' is not a whole number", origin, v);
		sp->seed = x;
		return 0;
	}
	if (!strcmp(k, "scale")) {
		char *end;
		errno = 0;
		double x = strtod(v, &end);
		if (!*v || *end || errno || !(x > 0) || x > 1)
			return sb_errf(e, "%s: scale '%s' must be a number in (0, 1] (the share of capacity kept)",
				       origin, v);
		sp->scale = x;
		return 0;
	}
	if (!strcmp(k, "fluid")) {
		if (strcmp(v, "0") && strcmp(v, "1"))
			return sb_errf(e, "%s: fluid '%s' must be 0 (every I/O simulated) or 1",
				       origin, v);
		sp->fluid = *v == '1';
		return 0;
	}
	if (!strcmp(k, "sampled")) {
		if (strcmp(v, "0") && strcmp(v, "1"))
			return sb_errf(e, "%s: sampled '%s' must be 0 (every I/O of a sampled stream simulated) or 1",
				       origin, v);
		sp->sampled = *v == '1';
		return 0;
	}
	return profile_set(&sp->profile, k, v, origin, e);
}

static int apply_list(struct sim_spec *sp, const char *list, const char *origin,
		      struct sb_err *e)
{
	char buf[1024];
	if (strlen(list) >= sizeof buf)
		return sb_errf(e, "%s: options longer than %zu characters", origin, sizeof buf - 1);
	strcpy(buf, list);
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		if (*tok && apply_option(sp, tok, origin, e))
			return -1;
	return 0;
}

int sim_spec_parse(const char *spec, const char *options, struct sim_spec *sp,
		   struct sb_err *e)
{
	memset(sp, 0, sizeof *sp);
	sp->seed = 1;
	sp->scale = 1.0;
	sp->fluid = true;
	sp->sampled = true;
	if (!strncmp(spec, "sim:", 4))
		spec += 4;
	const char *comma = strchr(spec, ',');
	size_t nlen = comma ? (size_t)(comma - spec) : strlen(spec);
	char name[512];
	if (nlen == 0)
		return sb_errf(e, "sim: no profile named (sim:PROFILE, e.g. sim:sn8100-2tb; 'ssdbench sim list' shows them)");
	if (nlen >= sizeof name)
		return sb_errf(e, "sim: profile name longer than %zu characters", sizeof name - 1);
	memcpy(name, spec, nlen);
	name[nlen] = 0;
	if (profile_lookup(name, &sp->profile, e))
		return -1;
	if (comma && apply_list(sp, comma + 1, "sim target", e))
		return -1;
	if (options && *options && apply_list(sp, options, "sim options", e))
		return -1;
	if (profile_check(&sp->profile, "sim target", e))
		return -1;
	if (sp->scale != 1.0)
		profile_scale(&sp->profile, sp->scale);
	return 0;
}
