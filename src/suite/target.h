/*
 * Probing a target for planning: size and logical block, without opening
 * it for I/O.
 */
#ifndef SSDBENCH_SUITE_TARGET_H
#define SSDBENCH_SUITE_TARGET_H

#include <stdint.h>

#include "common/error.h"
#include "suite/plan.h"

/*
 * `spec` is a path or "sim:PROFILE".  A file that does not exist yet is
 * planned at `file_size` (0: it must exist).  assumed_rate is set to
 * 1 GiB/s; the caller may change it.
 */
int plan_target_probe(const char *spec, uint64_t file_size,
		      struct plan_target *t, struct sb_err *e);

#endif
