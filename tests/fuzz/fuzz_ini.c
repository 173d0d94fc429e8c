/* INI text (plan files, profiles, job files, datasheets share it). */
#include "fuzz_common.h"

#include "common/ini.h"

static int count(void *ctx, const struct ini_entry *en, struct sb_err *e)
{
	(void)e;
	size_t *n = ctx;
	*n += strlen(en->section) + (en->key ? strlen(en->key) : 0) +
	      (en->value ? strlen(en->value) : 0) + strlen(en->where);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *t = fuzz_text(data, size);
	if (!t)
		return 0;
	struct sb_err e;
	size_t n = 0;
	ini_parse(t, "fuzz.ini", count, &n, &e);
	free(t);
	return 0;
}
