#include "suite/json_doc.h"

#include <stdio.h>
#include <stdlib.h>

char *json_doc(void (*fill)(struct json_writer *w, const void *arg),
	       const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	struct json_writer w;
	json_init(&w, f, false);
	fill(&w, arg);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	if (buf && len && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	return buf;
}
