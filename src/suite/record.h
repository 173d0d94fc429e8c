/* A suite run's own record in runs.params_json (see record.c). */
#ifndef SSDBENCH_SUITE_RECORD_H
#define SSDBENCH_SUITE_RECORD_H

#include "suite/runner.h"

/* The JSON of a record; free() it.  NULL when out of memory. */
char *suite_record_json(const struct suite_record *r);
/* Parse what suite_record_json wrote; r->plan_text is heap (free it). */
int suite_record_parse(const char *json, struct suite_record *r,
		       struct sb_err *e);

#endif
