/* Sizes, shares, durations, rates and ranges as users type them. */
#include "fuzz_common.h"

#include "common/units.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *t = fuzz_text(data, size);
	if (!t)
		return 0;
	struct sb_err e;
	uint64_t v;
	bool pct;
	char buf[64];
	if (!parse_size(t, &v, &e))
		fmt_bytes(v, buf, sizeof buf);
	parse_size_or_percent(t, 1ull << 40, 4096, &v, &pct, &e);
	if (!parse_duration_ns(t, &v, &e))
		fmt_ns(v, buf, sizeof buf);
	parse_rate(t, &v, &e);
	parse_uint_range("x", t, 1, 1024, &v, &e);
	free(t);
	return 0;
}
