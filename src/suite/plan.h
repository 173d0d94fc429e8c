/*
 * A review plan: the methodology's steps in order, each with typed
 * parameters.  A plan starts from a preset and is changed by settings
 * ("fill.share=90%") from a plan file or the command line; every setting is
 * checked when it is made, and the whole plan against the target before any
 * I/O (plan_resolve).  The plan's canonical text (one "step.key=value" per
 * line) is what a run stores, so `resume` rebuilds exactly the same plan.
 */
#ifndef SSDBENCH_SUITE_PLAN_H
#define SSDBENCH_SUITE_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

enum param_type {
	PT_UINT,		/* whole number in [lo, hi] */
	PT_SIZE,		/* bytes: 4k, 128KiB, 1g */
	PT_AMOUNT,		/* bytes or a share of the target: 8GiB, 25% */
	PT_DURATION,		/* 30s, 5m, 100ms */
	PT_PERCENT,		/* 0..100 %, for tolerances and shares */
	PT_DOUBLE,		/* a number in [lo, hi]: capacity multiples */
	PT_RATE,		/* bytes per second: 15MiB/s */
	PT_BOOL,		/* yes/no, true/false, 1/0, on/off */
	PT_ENUM,		/* one of `choices` ("a|b|c") */
	PT_ENUM_LIST,		/* several of `choices`, comma separated */
	PT_UINT_LIST,		/* 1,2,4,8 */
	PT_DURATION_LIST,	/* 5s,10s,1m */
	PT_DOUBLE_LIST,		/* 0.80,0.15,0.05 */
};

#define PARAM_LIST_MAX 32
#define PARAM_TEXT_MAX 192

struct param_desc {
	const char *key;
	enum param_type type;
	double lo, hi;		/* PT_UINT, PT_DOUBLE, list items */
	const char *choices;	/* PT_ENUM, PT_ENUM_LIST */
	const char *help;	/* one line, with the unit */
};

/* A parsed value.  `text` is what was set, kept for printing and storing. */
struct param_value {
	char text[PARAM_TEXT_MAX];
	uint64_t u;		/* UINT, SIZE, DURATION (ns), RATE, BOOL; AMOUNT bytes */
	double d;		/* PERCENT, DOUBLE; AMOUNT share in % (< 0: bytes) */
	uint32_t n;		/* list length */
	uint64_t ulist[PARAM_LIST_MAX];	/* UINT_LIST, DURATION_LIST (ns) */
	double dlist[PARAM_LIST_MAX];	/* DOUBLE_LIST */
	char s[64];		/* ENUM; ENUM_LIST as given */
	char origin[64];	/* where it was set: "plan.ini:7", "--set" */
	uint32_t order;		/* when, among the plan's settings */
};

enum plan_half { HALF_CSSD, HALF_ESSD };

struct plan_step;
struct plan_target;
struct step_estimate;

/* What a kind of step is: its parameters and how it runs. */
struct step_kind {
	const char *name;	/* "fill", "sweep" ... */
	const struct param_desc *params;	/* ended by key NULL */
	bool writes;		/* writes, trims or purges the target */
	bool erases;		/* purges or discards: earlier state is gone */
	/* Extra checks of the step's values against the target. */
	int (*check)(const struct plan_step *st, const struct plan_target *t,
		     struct sb_err *e);
	void (*estimate)(const struct plan_step *st,
			 const struct plan_target *t, struct step_estimate *est);
};

/*
 * How long a step takes and what it writes.  Time-bound work is exact;
 * byte-bound work assumes the target's `assumed_rate`, so `exact` is false.
 * Steps that stop at steady state write between bytes_written and
 * bytes_written_max.
 */
struct step_estimate {
	double seconds;
	double seconds_max;	/* >= seconds: a late steady state, bisections */
	uint64_t bytes_written;
	uint64_t bytes_written_max;
	bool exact;
};

#define PLAN_STEP_PARAMS_MAX 40

struct plan_step {
	char name[32];		/* unique in the plan: "seq_precond" */
	const struct step_kind *kind;
	enum plan_half half;
	const char *summary;
	const char *needs;	/* a step that must run before, or NULL */
	/* step_common_params, then kind->params */
	struct param_value v[PLAN_STEP_PARAMS_MAX];
	/* The first key the code asked for that the kind lacks (a bug), kept
	   for plan_step_bug; NULL when none. */
	const char *unknown_key;
};

#define PLAN_STEPS_MAX 24

struct plan {
	char preset[16];
	struct plan_step steps[PLAN_STEPS_MAX];	/* methodology order */
	uint32_t nsteps;
	/* Plan-wide settings, the "suite" section. */
	struct param_value suite[8];
	uint32_t nsettings;	/* settings made so far, for `order` */
};

/*
 * The rates byte-bound estimates use.  A simulated drive gives them from
 * its profile (sim_headline): the SLC cache and its speed, the native
 * write speed after it, the 4 KiB random write rate of a full drive, the
 * cost of one O_SYNC write.  Any other target, or --assume-rate, has one
 * assumed rate for everything and no cache.
 */
struct plan_rates {
	bool from_profile;
	double cache_empty, cache_full;	/* bytes of SLC: empty, full drive */
	double cache_bps;		/* writes into the cache */
	double seq_bps;			/* sequential writes after the cache */
	double rnd_bps;			/* 4 KiB random writes, full drive */
	double sync_write_s;		/* one 4 KiB O_SYNC write, QD1; 0 unknown */
};

/* The target as far as a plan needs it. */
struct plan_target {
	uint64_t size;
	uint32_t logical_block;
	bool is_file, is_sim, is_block_device;
	uint64_t assumed_rate;	/* bytes/s for byte-bound estimates */
	struct plan_rates rates;
};

/* Every rate the assumed one, no cache: --assume-rate, or no profile. */
void plan_rates_assume(struct plan_target *t, uint64_t rate);

void plan_estimate_step(const struct plan_step *st, const struct plan_target *t,
			struct step_estimate *est);

/* Every parameter common to all steps, then the kind's own. */
extern const struct param_desc step_common_params[];
extern const struct param_desc suite_params[];

/* Build the plan of a preset: "full", "cssd", "essd", "quick". */
int plan_init(struct plan *p, const char *preset, struct sb_err *e);
/* The names of the presets, for help texts: "cssd, essd, full, quick". */
const char *plan_preset_names(void);

/*
 * One setting "step.key=value" (or "suite.key=value"); `origin` says where
 * it came from, for later messages ("--set", "plan.ini:7").
 */
/*
 * The seed a run uses.  `seed=auto` (the default) is a fixed seed on a
 * simulated drive, so two runs of a plan on the same drive are identical,
 * and one drawn from `entropy` (the clock) on a real drive; `seed=random`
 * draws one everywhere.  Afterwards the plan holds the number, so the
 * recorded plan repeats the run.
 */
#define PLAN_SIM_SEED 1
void plan_resolve_seed(struct plan *p, bool is_sim, uint64_t entropy);

int plan_set(struct plan *p, const char *setting, const char *origin,
	     struct sb_err *e);
int plan_set_kv(struct plan *p, const char *step, const char *key,
		const char *value, const char *origin, struct sb_err *e);

/* Keep only the listed steps ("fill,reclaim"); the others are disabled. */
int plan_only(struct plan *p, const char *list, struct sb_err *e);

/* Why an enabled step will be skipped on this target, or NULL. */
const char *plan_step_skip_reason(const struct plan_step *st,
				  const struct plan_target *t, char *buf,
				  unsigned len);

/*
 * A plan file: INI sections named after steps (plus [suite]), each line
 * `key=value` or several of them separated by blanks; '#' and ';' start
 * comments.  An error names the file, the line and the reason.
 */
int plan_read_file(struct plan *p, const char *path, struct sb_err *e);
int plan_read_text(struct plan *p, const char *name, const char *text,
		   struct sb_err *e);

/*
 * Check the whole plan against a target: order of the enabled steps (a
 * step that needs another must come after it), sizes that fit, block
 * sizes the target can do.  Nothing has been written when this fails.
 */
int plan_check(const struct plan *p, const struct plan_target *t,
	       struct sb_err *e);

/* Lookups.  A key the step's kind lacks is a programming error: the
   lookup answers a zero value (enabled=0, 0 bytes, empty text), notes the
   key on the step and plan_step_bug turns it into an error, which
   plan_check and the runner return. */
const struct param_value *step_param(const struct plan_step *st,
				     const char *key);
int plan_step_bug(const struct plan_step *st, struct sb_err *e);
uint64_t step_u64(const struct plan_step *st, const char *key);
double step_double(const struct plan_step *st, const char *key);
bool step_enabled(const struct plan_step *st);
/* PT_AMOUNT resolved against a size, rounded down to `align`. */
uint64_t step_amount(const struct plan_step *st, const char *key,
		     uint64_t whole, uint64_t align);
const struct param_value *suite_param(const struct plan *p, const char *key);

/* A step's parameters: step_common_params, then its kind's. */
int step_nparams(const struct plan_step *st);
const struct param_desc *step_desc(const struct plan_step *st, int i);

const struct plan_step *plan_find(const struct plan *p, const char *name);
struct plan_step *plan_find_mut(struct plan *p, const char *name);

/* Canonical text: "preset=NAME\n" then every "step.key=value\n"; NULL
   when out of memory. */
char *plan_canonical(const struct plan *p);
/* Rebuild a plan from its canonical text. */
int plan_from_canonical(struct plan *p, const char *text, struct sb_err *e);

/* Find a descriptor; index into a step's values. */
int param_index(const struct param_desc *d, const char *key);
int param_parse(const struct param_desc *d, const char *text,
		struct param_value *out, struct sb_err *e);
const char *param_type_name(enum param_type t);

#endif
