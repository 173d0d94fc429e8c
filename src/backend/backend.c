/*
 * Which backend serves a target spec.  A spec with a registered prefix
 * ("sim:") goes to that backend; anything else is a path for io_uring.
 */
#include "backend/backend.h"

#include <stddef.h>
#include <string.h>

struct backend_prefix {
	const char *prefix;
	const struct backend_ops *ops;
};

/* Prefixed backends. */
static const struct backend_prefix prefixed[] = {
	{ "sim:", &backend_sim },
	{ NULL, NULL },
};

const struct backend_ops *backend_for(const char *spec)
{
	if (!spec)
		return NULL;
	for (const struct backend_prefix *p = prefixed; p->prefix; p++)
		if (!strncmp(spec, p->prefix, strlen(p->prefix)))
			return p->ops;
	/* An unknown "sim:" spec must not be taken for a file named so. */
	if (!strncmp(spec, "sim:", 4))
		return NULL;
	return &backend_uring;
}
