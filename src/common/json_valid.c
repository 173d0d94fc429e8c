/* json_valid with jansson's parser: one JSON reader for the whole tool. */
#include "common/json_check.h"

#include <jansson.h>

bool json_valid(const char *text)
{
	if (!text)
		return false;
	json_error_t err;
	json_t *v = json_loads(text, JSON_DECODE_ANY, &err);
	json_decref(v);
	return v != NULL;
}
