/* A fio-style job file through `run --job FILE`'s option parser. */
#include "fuzz_common.h"

#include "cli/run_options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	if (fuzz_file(data, size, path))
		return 0;
	struct run_options *o = calloc(1, sizeof *o);
	struct sb_err e;
	char *argv[] = { "run", "--job", path, "--target", "sim:p1-1tb", NULL };
	if (o && !run_options_parse(5, argv, o, &e))
		run_options_resolve(o, 1ull << 40, &e);
	free(o);
	unlink(path);
	return 0;
}
