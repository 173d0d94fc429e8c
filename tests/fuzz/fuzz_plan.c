/* A plan file on a preset, then the plan's canonical text read back. */
#include "fuzz_common.h"

#include "suite/plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *t = fuzz_text(data, size);
	struct plan *p = malloc(sizeof *p);
	struct sb_err e;
	if (t && p && !plan_init(p, "full", &e) &&
	    !plan_read_text(p, "fuzz.ini", t, &e)) {
		char *c = plan_canonical(p);
		if (c && plan_from_canonical(p, c, &e))
			abort();	/* what it wrote it must read back */
		free(c);
	}
	free(p);
	free(t);
	return 0;
}
