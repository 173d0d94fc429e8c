/*
 * Building and checking plans: presets, settings, --only, the order rules
 * and the canonical text a run keeps.
 */
#include "suite/plan.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "common/units.h"
#include "suite/kinds.h"
#include "suite/presets.h"

static int ncommon(void)
{
	int n = 0;
	while (step_common_params[n].key)
		n++;
	return n;
}

/* The descriptor of a step's value i: common ones first, then the kind's. */
const struct param_desc *step_desc(const struct plan_step *st, int i)
{
	int nc = ncommon();
	return i < nc ? &step_common_params[i] : &st->kind->params[i - nc];
}

int step_nparams(const struct plan_step *st)
{
	int n = ncommon();
	while (st->kind->params[n - ncommon()].key)
		n++;
	return n;
}

static int step_index(const struct plan_step *st, const char *key)
{
	int i = param_index(step_common_params, key);
	if (i >= 0)
		return i;
	i = param_index(st->kind->params, key);
	return i < 0 ? -1 : i + ncommon();
}

const struct param_value *step_param(const struct plan_step *st,
				     const char *key)
{
	static const struct param_value absent;	/* all zero, never written */
	int i = step_index(st, key);
	if (i < 0) {
		/* Every plan_step lives in a (writable) struct plan; the note is
		   the lookup's only side effect, read back by plan_step_bug. */
		struct plan_step *w = (struct plan_step *)st;
		if (!w->unknown_key)
			w->unknown_key = key;
		return &absent;
	}
	return &st->v[i];
}

int plan_step_bug(const struct plan_step *st, struct sb_err *e)
{
	if (!st->unknown_key)
		return 0;
	return sb_errf(e, "internal error: step %s asked for parameter %s, which "
		       "a %s step does not have", st->name, st->unknown_key,
		       st->kind->name);
}

uint64_t step_u64(const struct plan_step *st, const char *key)
{
	return step_param(st, key)->u;
}

double step_double(const struct plan_step *st, const char *key)
{
	return step_param(st, key)->d;
}

bool step_enabled(const struct plan_step *st)
{
	return step_u64(st, "enabled") != 0;
}

uint64_t step_amount(const struct plan_step *st, const char *key,
		     uint64_t whole, uint64_t align)
{
	const struct param_value *v = step_param(st, key);
	uint64_t b = v->d >= 0 ? (uint64_t)((double)whole * v->d / 100.0) : v->u;
	if (align > 1)
		b -= b % align;
	return b;
}

const struct param_value *suite_param(const struct plan *p, const char *key)
{
	int i = param_index(suite_params, key);
	assert(i >= 0);
	return &p->suite[i];
}

const struct plan_step *plan_find(const struct plan *p, const char *name)
{
	for (uint32_t i = 0; i < p->nsteps; i++)
		if (!strcmp(p->steps[i].name, name))
			return &p->steps[i];
	return NULL;
}

struct plan_step *plan_find_mut(struct plan *p, const char *name)
{
	return (struct plan_step *)plan_find(p, name);
}

const char *plan_preset_names(void)
{
	static char names[128];	/* constant once built; same every call */
	if (!names[0])
		for (const struct preset *pr = presets; pr->name; pr++) {
			size_t n = strlen(names);
			snprintf(names + n, sizeof names - n, "%s%s",
				 n ? ", " : "", pr->name);
		}
	return names;
}

/* Apply "key=value key=value" words, each through `set`. */
static int apply_words(struct plan *p, const char *words, const char *step,
		       const char *origin, struct sb_err *e)
{
	char buf[2048];
	snprintf(buf, sizeof buf, "%s", words);
	char *save = NULL;
	for (char *w = strtok_r(buf, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save)) {
		if (step) {
			char *eq = strchr(w, '=');
			if (!eq)
				return sb_errf(e, "'%s' is not key=value", w);
			*eq = '\0';
			if (plan_set_kv(p, step, w, eq + 1, origin, e))
				return -1;
		} else if (plan_set(p, w, origin, e)) {
			return -1;
		}
	}
	return 0;
}

int plan_init(struct plan *p, const char *preset, struct sb_err *e)
{
	const struct preset *pr = preset_find(preset);
	if (!pr)
		return sb_errf(e, "unknown preset '%s' (presets: %s)", preset,
			       plan_preset_names());
	memset(p, 0, sizeof *p);
	snprintf(p->preset, sizeof p->preset, "%s", pr->name);
	char origin[64];
	snprintf(origin, sizeof origin, "preset %s", pr->name);
	for (const struct step_template *t = step_templates; t->name; t++) {
		if ((t->half == HALF_CSSD && !pr->cssd) ||
		    (t->half == HALF_ESSD && !pr->essd))
			continue;
		assert(p->nsteps < PLAN_STEPS_MAX);
		struct plan_step *st = &p->steps[p->nsteps++];
		snprintf(st->name, sizeof st->name, "%s", t->name);
		st->kind = step_kind_find(t->kind);
		assert(st->kind);
		/* A kind with more parameters than a step has room for would
		   write past st->v: refused, never overrun. */
		if (step_nparams(st) > PLAN_STEP_PARAMS_MAX)
			return sb_errf(e, "step kind %s has %d parameters, more than "
				       "the %d a plan step holds", t->kind,
				       step_nparams(st), PLAN_STEP_PARAMS_MAX);
		st->half = t->half;
		st->summary = t->summary;
		st->needs = t->needs;
		if (plan_set_kv(p, st->name, "enabled", "yes", origin, e) ||
		    plan_set_kv(p, st->name, "rest", "0", origin, e) ||
		    plan_set_kv(p, st->name, "monitor", "0", origin, e) ||
		    apply_words(p, t->defaults, st->name, origin, e))
			return sb_err_wrap(e, "preset %s, step %s", pr->name, t->name);
		/* Every parameter must have a default: a missing one is a bug. */
		for (int i = 0; i < step_nparams(st); i++)
			if (!st->v[i].text[0])
				return sb_errf(e, "preset %s: step %s has no default for %s",
					       pr->name, st->name, step_desc(st, i)->key);
	}
	if (apply_words(p, suite_defaults, "suite", origin, e) ||
	    apply_words(p, pr->settings, NULL, origin, e))
		return sb_err_wrap(e, "preset %s", pr->name);
	return 0;
}

/* Reorder the steps as `list` says and disable those not in it. */
static int plan_order(struct plan *p, const char *list, bool reorder,
		      struct sb_err *e)
{
	struct plan_step ordered[PLAN_STEPS_MAX];
	bool taken[PLAN_STEPS_MAX] = { false };
	uint32_t n = 0;
	char buf[PARAM_TEXT_MAX];
	snprintf(buf, sizeof buf, "%s", list);
	char *save = NULL;
	for (char *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		uint32_t i;
		for (i = 0; i < p->nsteps; i++)
			if (!strcmp(p->steps[i].name, w))
				break;
		if (i == p->nsteps) {
			char names[512] = "";
			for (uint32_t j = 0; j < p->nsteps; j++) {
				size_t m = strlen(names);
				snprintf(names + m, sizeof names - m, "%s%s",
					 j ? ", " : "", p->steps[j].name);
			}
			return sb_errf(e, "unknown step '%s' (preset %s has: %s)",
				       w, p->preset, names);
		}
		if (taken[i])
			return sb_errf(e, "step '%s' is listed twice", w);
		taken[i] = true;
		ordered[n++] = p->steps[i];
	}
	if (n == 0)
		return sb_errf(e, "no step listed");
	for (uint32_t i = 0; i < p->nsteps; i++) {
		if (taken[i])
			continue;
		if (plan_set_kv(p, p->steps[i].name, "enabled", "no", "step list", e))
			return -1;
		ordered[n++] = p->steps[i];
	}
	if (reorder)
		memcpy(p->steps, ordered, sizeof ordered[0] * p->nsteps);
	return 0;
}

int plan_only(struct plan *p, const char *list, struct sb_err *e)
{
	if (plan_order(p, list, false, e))
		return sb_err_wrap(e, "--only");
	return 0;
}

int plan_set_kv(struct plan *p, const char *step, const char *key,
		const char *value, const char *origin, struct sb_err *e)
{
	struct param_value *v;
	const struct param_desc *d;
	if (!strcmp(step, "suite")) {
		int i = param_index(suite_params, key);
		if (i < 0)
			return sb_errf(e, "[suite] has no parameter '%s' (known: interval, seed, steps, scale)",
				       key);
		d = &suite_params[i];
		v = &p->suite[i];
		if (!strcmp(key, "seed") &&
		    (!strcmp(value, "auto") || !strcmp(value, "random"))) {
			/* Resolved to a number when the run starts
			   (plan_resolve_seed), so the run records the one used. */
			memset(v, 0, sizeof *v);
			snprintf(v->text, sizeof v->text, "%s", value);
			goto record;
		}
		if (!strcmp(key, "steps")) {
			/* Step names are the choices; checked by plan_order. */
			if (plan_order(p, value, true, e))
				return sb_err_wrap(e, "steps");
			memset(v, 0, sizeof *v);
			snprintf(v->text, sizeof v->text, "%s", value);
			goto record;
		}
	} else {
		struct plan_step *st = plan_find_mut(p, step);
		if (!st) {
			bool known = false;
			char names[512] = "";
			for (const struct step_template *t = step_templates; t->name; t++) {
				known |= !strcmp(t->name, step);
				size_t m = strlen(names);
				snprintf(names + m, sizeof names - m, "%s, ", t->name);
			}
			if (known)
				return sb_errf(e, "step '%s' is not in preset %s",
					       step, p->preset);
			return sb_errf(e, "unknown step '%s' (steps: %ssuite)", step, names);
		}
		int i = step_index(st, key);
		if (i < 0) {
			char keys[512] = "";
			for (int j = 0; j < step_nparams(st); j++) {
				size_t m = strlen(keys);
				snprintf(keys + m, sizeof keys - m, "%s%s",
					 j ? ", " : "", step_desc(st, j)->key);
			}
			return sb_errf(e, "step %s has no parameter '%s' (known: %s)",
				       step, key, keys);
		}
		d = step_desc(st, i);
		v = &st->v[i];
	}
	if (param_parse(d, value, v, e))
		return sb_err_wrap(e, "%s", step);
record:
	snprintf(v->origin, sizeof v->origin, "%s", origin ? origin : "");
	v->order = ++p->nsettings;
	return 0;
}

void plan_resolve_seed(struct plan *p, bool is_sim, uint64_t entropy)
{
	struct param_value *v = &p->suite[param_index(suite_params, "seed")];
	if (v->u)
		return;
	bool fixed = is_sim && strcmp(v->text, "random");
	uint64_t x = entropy;
	v->u = fixed ? PLAN_SIM_SEED : (splitmix64(&x) % 1000000000000000000ull) | 1;
	snprintf(v->text, sizeof v->text, "%llu", (unsigned long long)v->u);
}

int plan_set(struct plan *p, const char *setting, const char *origin,
	     struct sb_err *e)
{
	char buf[512];
	snprintf(buf, sizeof buf, "%s", setting);
	char *eq = strchr(buf, '=');
	char *dot = strchr(buf, '.');
	if (!eq || !dot || dot > eq)
		return sb_errf(e, "'%s' is not STEP.KEY=VALUE (example: fill.share=25%%)",
			       setting);
	*eq = '\0';
	*dot = '\0';
	return plan_set_kv(p, buf, dot + 1, eq + 1, origin, e);
}

const char *plan_step_skip_reason(const struct plan_step *st,
				  const struct plan_target *t, char *buf,
				  unsigned len)
{
	if (!strcmp(st->kind->name, "sweep") &&
	    step_u64(st, "bs") < t->logical_block) {
		snprintf(buf, len, "its %s B blocks are below the target's %u B logical block",
			 step_param(st, "bs")->text, t->logical_block);
		return buf;
	}
	return NULL;
}

/* The value of the step set last by the user: where a problem was made. */
static const char *latest_origin(const struct plan_step *st)
{
	const struct param_value *best = &st->v[0];
	for (int i = 1; i < step_nparams(st); i++)
		if (st->v[i].order > best->order)
			best = &st->v[i];
	return best->origin;
}

static int check_values(const struct plan_step *st, const struct plan_target *t,
			struct sb_err *e)
{
	char fb[32], fs[32];
	for (int i = 0; i < step_nparams(st); i++) {
		const struct param_desc *d = step_desc(st, i);
		const struct param_value *v = &st->v[i];
		size_t kl = strlen(d->key);
		if (d->type == PT_SIZE && kl >= 2 && !strcmp(d->key + kl - 2, "bs")) {
			char why[128];
			if (i == step_index(st, "bs") &&
			    plan_step_skip_reason(st, t, why, sizeof why))
				continue;
			if (t->logical_block && v->u % t->logical_block)
				return sb_errf(e, "%s: %s=%s is not a multiple of the target's %u B logical block",
					       v->origin, d->key, v->text,
					       t->logical_block);
			if (v->u > t->size)
				return sb_errf(e, "%s: %s=%s is larger than the target (%s)",
					       v->origin, d->key, v->text,
					       fmt_bytes(t->size, fs, sizeof fs));
		}
		if (d->type == PT_AMOUNT) {
			uint64_t b = step_amount(st, d->key, t->size, 1);
			if (b > t->size)
				return sb_errf(e, "%s: %s=%s (%s) is larger than the target (%s)",
					       v->origin, d->key, v->text,
					       fmt_bytes(b, fb, sizeof fb),
					       fmt_bytes(t->size, fs, sizeof fs));
			if (b < t->logical_block || b == 0)
				return sb_errf(e, "%s: %s=%s is less than one block of the target",
					       v->origin, d->key, v->text);
		}
		if (!strcmp(d->key, "region") && v->u > t->size)
			return sb_errf(e, "%s: region=%s is larger than the target (%s)",
				       v->origin, v->text,
				       fmt_bytes(t->size, fs, sizeof fs));
	}
	if (st->kind->check && st->kind->check(st, t, e))
		return sb_err_wrap(e, "%s", latest_origin(st));
	return 0;
}

/* Steps that need another must come after it, with no erasing step between. */
static int check_order(const struct plan *p, struct sb_err *e)
{
	const char *origin = p->suite[param_index(suite_params, "steps")].origin;
	for (uint32_t i = 0; i < p->nsteps; i++) {
		const struct plan_step *st = &p->steps[i];
		if (!step_enabled(st) || !st->needs)
			continue;
		uint32_t j;
		for (j = 0; j < p->nsteps; j++)
			if (!strcmp(p->steps[j].name, st->needs))
				break;
		if (j == p->nsteps || !step_enabled(&p->steps[j]))
			continue;	/* the user ran it before, or chose not to */
		if (j > i)
			return sb_errf(e, "%s%simpossible order: %s needs %s before it, but %s comes after",
				       origin, origin[0] ? ": " : "", st->name,
				       st->needs, st->needs);
		for (uint32_t k = j + 1; k < i; k++)
			if (step_enabled(&p->steps[k]) && p->steps[k].kind->erases)
				return sb_errf(e, "%s%simpossible order: %s erases the drive between %s and %s, which needs it",
					       origin, origin[0] ? ": " : "",
					       p->steps[k].name, st->needs, st->name);
	}
	return 0;
}

int plan_check(const struct plan *p, const struct plan_target *t,
	       struct sb_err *e)
{
	uint32_t enabled = 0;
	for (uint32_t i = 0; i < p->nsteps; i++) {
		const struct plan_step *st = &p->steps[i];
		if (!step_enabled(st))
			continue;
		enabled++;
		if (check_values(st, t, e))
			return sb_err_wrap(e, "step %s", st->name);
		/* A key the checks asked for that the kind lacks: found
		   here, before anything runs. */
		if (plan_step_bug(st, e))
			return -1;
		const struct param_value *mon = step_param(st, "monitor");
		if (mon->u && !step_kind_may_monitor(st->kind))
			return sb_errf(e, "%s: monitor=%s: a %s step measures latency, and a device "
				       "query during it would disturb that; its readings are "
				       "taken before and after it (monitor= is for fill, "
				       "cssd_precond and ss_precond)", mon->origin, mon->text,
				       st->kind->name);
	}
	if (!enabled)
		return sb_errf(e, "the plan has no enabled step");
	if (p->suite[param_index(suite_params, "interval")].u < 1000000)
		return sb_errf(e, "%s: interval must be at least 1ms",
			       p->suite[param_index(suite_params, "interval")].origin);
	return check_order(p, e);
}

/* --- canonical text -------------------------------------------------------- */

/* false when out of memory (the buffer is freed and *buf is NULL) */
static bool append(char **buf, size_t *len, size_t *cap, const char *a,
		   const char *b, const char *c)
{
	if (!*buf)
		return false;
	size_t need = strlen(a) + strlen(b) + strlen(c) + 3;
	if (*len + need >= *cap) {
		*cap = (*cap + need) * 2;
		char *nb = realloc(*buf, *cap);
		if (!nb) {
			free(*buf);
			*buf = NULL;
			return false;
		}
		*buf = nb;
	}
	*len += (size_t)sprintf(*buf + *len, "%s.%s=%s\n", a, b, c);
	return true;
}

char *plan_canonical(const struct plan *p)
{
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	if (!buf)
		return NULL;
	len = (size_t)sprintf(buf, "preset=%s\n", p->preset);
	for (int i = 0; suite_params[i].key; i++)
		if (p->suite[i].text[0])
			append(&buf, &len, &cap, "suite", suite_params[i].key,
			       p->suite[i].text);
	for (uint32_t s = 0; s < p->nsteps; s++) {
		const struct plan_step *st = &p->steps[s];
		for (int i = 0; i < step_nparams(st); i++)
			append(&buf, &len, &cap, st->name, step_desc(st, i)->key,
			       st->v[i].text);
	}
	return buf;
}

int plan_from_canonical(struct plan *p, const char *text, struct sb_err *e)
{
	if (strncmp(text, "preset=", 7))
		return sb_errf(e, "stored plan does not start with preset=");
	char preset[32];
	size_t n = strcspn(text + 7, "\n");
	if (n >= sizeof preset)
		return sb_errf(e, "stored plan: preset name too long");
	memcpy(preset, text + 7, n);
	preset[n] = '\0';
	if (plan_init(p, preset, e))
		return -1;
	const char *line = text + 7 + n;
	int lineno = 1;
	while (*line) {
		if (*line == '\n') {
			line++;
			lineno++;
			continue;
		}
		size_t len = strcspn(line, "\n");
		char buf[512];
		if (len >= sizeof buf)
			return sb_errf(e, "stored plan, line %d: too long", lineno);
		memcpy(buf, line, len);
		buf[len] = '\0';
		if (plan_set(p, buf, "stored plan", e))
			return sb_err_wrap(e, "stored plan, line %d", lineno);
		line += len;
	}
	return 0;
}
