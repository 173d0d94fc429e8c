/*
 * Plan files, fio-style INI:
 *
 *   # the reviewer's 90 % variant
 *   [fill]
 *   passes=2 share=90%
 *   [suite] interval=100ms
 *
 * A section names a step (or "suite"); a line holds one or more key=value
 * words; '#' or ';' starts a comment.  Every error says file:line: why.
 */
#include "suite/plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/ini.h"

static int plan_entry(void *ctx, const struct ini_entry *en, struct sb_err *e)
{
	struct plan *p = ctx;
	if (!en->key) {
		/* Check the name now, so an unknown step is reported here. */
		if (strcmp(en->section, "suite") && !plan_find(p, en->section) &&
		    plan_set_kv(p, en->section, "enabled", "yes", en->where, e))
			return sb_err_wrap(e, "%s", en->where);
		return 0;
	}
	if (!en->section[0])
		return sb_errf(e, "%s: '%s' comes before any [section]", en->where, en->key);
	if (!en->value)
		return sb_errf(e, "%s: [%s] '%s' is not key=value", en->where,
			       en->section, en->key);
	if (plan_set_kv(p, en->section, en->key, en->value, en->where, e))
		return sb_err_wrap(e, "%s: [%s] %s", en->where, en->section, en->key);
	return 0;
}

int plan_read_text(struct plan *p, const char *name, const char *text,
		   struct sb_err *e)
{
	return ini_parse(text, name, plan_entry, p, e);
}

int plan_read_file(struct plan *p, const char *path, struct sb_err *e)
{
	char *text;
	if (ini_read_file(path, "plan file", &text, e))
		return -1;
	int rc = plan_read_text(p, path, text, e);
	free(text);
	return rc;
}
