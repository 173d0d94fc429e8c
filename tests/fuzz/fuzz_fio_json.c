/* fio's --output-format=json. */
#include "fuzz_common.h"

#include "analysis/fio_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *t = fuzz_text(data, size);
	if (!t)
		return 0;
	struct sb_err e;
	struct fio_job_summary *jobs = NULL;
	size_t n = 0;
	if (!fio_json_parse(t, size, &jobs, &n, &e))
		fio_jobs_free(jobs, n);
	free(t);
	return 0;
}
