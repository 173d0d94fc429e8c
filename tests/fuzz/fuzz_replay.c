/* Trace replay's readers (fio iolog v2/v3, blkparse text, blkparse -d
   binary, told apart by the file) and the scan of a whole trace. */
#include "fuzz_common.h"

#include "engine/replay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	if (fuzz_file(data, size, path))
		return 0;
	struct replay_spec s;
	memset(&s, 0, sizeof s);
	snprintf(s.path, sizeof s.path, "%s", path);
	struct sb_err e;
	(void)replay_scan(&s, &e);
	unlink(path);
	return 0;
}
