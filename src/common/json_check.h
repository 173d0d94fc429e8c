/*
 * Checking JSON kept as text (in the database, in files) before it is
 * embedded in our output, where a broken value would break the document.
 * Apart from json.h because the check uses jansson, whose names
 * (json_string, json_null) are those of our writer.
 */
#ifndef SSDBENCH_COMMON_JSON_CHECK_H
#define SSDBENCH_COMMON_JSON_CHECK_H

#include <stdbool.h>

/* Is `text` exactly one JSON value (RFC 8259, well-formed UTF-8, nested
   at most 2048 deep), surrounding space allowed? */
bool json_valid(const char *text);

#endif
