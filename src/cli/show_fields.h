/*
 * `show RUN`'s view of the JSON documents stored with a run: readable
 * "name  value" lines, never escaped JSON.
 */
#ifndef SSDBENCH_CLI_SHOW_FIELDS_H
#define SSDBENCH_CLI_SHOW_FIELDS_H

#include <stdio.h>

/* `json` under `name`, indented by `indent` spaces; NULL or "" prints nothing. */
void show_json_fields(FILE *out, const char *name, const char *json, int indent);

#endif
