/*
 * A small JSON reader for the analysis' inputs (fio's JSON output): the
 * whole document parsed into a tree of nodes in one allocation-per-node
 * pass.  Internal to src/analysis; not a general-purpose library.
 */
#ifndef SSDBENCH_ANALYSIS_JSON_TREE_H
#define SSDBENCH_ANALYSIS_JSON_TREE_H

#include <stddef.h>

#include "common/error.h"

enum jt_type { JT_NULL, JT_BOOL, JT_NUM, JT_STR, JT_ARR, JT_OBJ };

struct jt_node {
	enum jt_type type;
	char *key;		/* member name inside an object, else NULL */
	char *str;		/* JT_STR */
	double num;		/* JT_NUM, JT_BOOL (0/1) */
	struct jt_node *child;	/* first element / member */
	struct jt_node *next;	/* next sibling */
};

/* Parse text[0, len); *out is freed with jt_free.  Errors give the byte. */
int jt_parse(const char *text, size_t len, struct jt_node **out,
	     struct sb_err *e);
void jt_free(struct jt_node *n);
/* The member `key` of an object, or NULL. */
const struct jt_node *jt_get(const struct jt_node *obj, const char *key);
/* A numeric member, or `dflt` when absent or not a number. */
double jt_num(const struct jt_node *obj, const char *key, double dflt);

#endif
