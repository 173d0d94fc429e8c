/* --set STEP.KEY=VALUE and --only, as typed on the command line. */
#include "fuzz_common.h"

#include "suite/plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *t = fuzz_text(data, size);
	struct plan *p = malloc(sizeof *p);
	struct sb_err e;
	if (t && p && !plan_init(p, "quick", &e)) {
		/* one setting a line; a line starting with '!' is --only */
		for (char *line = strtok(t, "\n"); line; line = strtok(NULL, "\n")) {
			if (line[0] == '!')
				plan_only(p, line + 1, &e);
			else
				plan_set(p, line, "--set", &e);
		}
	}
	free(p);
	free(t);
	return 0;
}
