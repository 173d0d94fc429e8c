/*
 * What a run records about its target, before and after: the backend's
 * facts (size, block sizes, kind) and, for a real device, everything the
 * device layer can identify (model, firmware, formats, health).
 */
#ifndef SSDBENCH_DEVICE_TARGET_JSON_H
#define SSDBENCH_DEVICE_TARGET_JSON_H

#include "backend/backend.h"
#include "common/json.h"

/* An object; a device that cannot say more is a note ("device_error"). */
void target_facts_json(struct json_writer *w, const void *target_facts);

/* The same as a heap string for store_run_target_facts(); NULL on ENOMEM. */
char *target_facts_json_string(const struct target_facts *tf);

#endif
