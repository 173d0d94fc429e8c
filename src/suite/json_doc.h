/* A JSON document written by a callback into a heap string. */
#ifndef SSDBENCH_SUITE_JSON_DOC_H
#define SSDBENCH_SUITE_JSON_DOC_H

#include "common/json.h"

/* `fill` writes one value; returns it malloc'd without a trailing newline,
   or NULL when out of memory. */
char *json_doc(void (*fill)(struct json_writer *w, const void *arg),
	       const void *arg);

#endif
