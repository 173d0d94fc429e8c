/*
 * One INI syntax for every file a user writes for ssdbench: job files,
 * plan files, simulator profiles, datasheets.
 *
 *   # a comment; ';' works too, at the start or after a blank
 *   [section]
 *   key = a value that may hold blanks
 *   passes=2 share=90%        several key=value words on one line
 *   sync                      a bare key (a flag)
 *   [fill] passes=2           items may follow the section on its line
 *
 * The reader knows the syntax only; what a section or key means, and which
 * are allowed, is the caller's business, so each caller keeps its own
 * messages while every file reports errors as "origin:line: why".
 */
#ifndef SSDBENCH_COMMON_INI_H
#define SSDBENCH_COMMON_INI_H

#include "common/error.h"

struct ini_entry {
	const char *section;	/* "" before any [section] */
	const char *key;	/* NULL: this line opens `section` */
	const char *value;	/* NULL for a bare key */
	const char *where;	/* "origin:line", for messages */
	int line;
};

/* Called for every section opening and every item; nonzero stops. */
typedef int (*ini_entry_fn)(void *ctx, const struct ini_entry *en,
			    struct sb_err *e);

int ini_parse(const char *text, const char *origin, ini_entry_fn fn,
	      void *ctx, struct sb_err *e);

/*
 * A whole file as NUL-terminated text for ini_parse; `what` names it in
 * messages ("plan file", "profile").  Refuses files over 1 MiB and files
 * holding NUL bytes (not text).  The caller frees *text.
 */
int ini_read_file(const char *path, const char *what, char **text,
		  struct sb_err *e);

#endif
