/* A simulated drive's profile (INI), then a key=value override. */
#include "fuzz_common.h"

#include "sim/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *t = fuzz_text(data, size);
	struct sim_profile *p = malloc(sizeof *p);
	struct sb_err e;
	if (t && p && !profile_parse(t, "fuzz.ini", p, &e)) {
		char *eq = strchr(t, '=');
		if (eq) {
			*eq = '\0';
			profile_set(p, t, eq + 1, "fuzz", &e);
		}
	}
	free(p);
	free(t);
	return 0;
}
