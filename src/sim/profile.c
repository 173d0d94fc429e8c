/*
 * Profile parsing and checks.  One table describes every key: where it
 * lives, its type, its allowed range, whether a profile must give it, and
 * whether it shrinks with the `scale` option.  The parser, the checks, the
 * scaler and `sim show` all walk that table, so a new key is one line.
 */
#include "sim/profile.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/ini.h"

enum key_type { K_DOUBLE, K_INT, K_BOOL, K_ROUTE, K_STR, K_ROUNDS };

/* When a profile must give the key. */
enum key_need {
	NEED_ALWAYS,
	NEED_SLC,	/* route is not direct */
	NEED_SLC_ONLY,	/* route slc_only */
	NEED_GC,	/* rho_eff > 0 */
	NEED_NONE,	/* has a default */
};

struct key_desc {
	const char *key;
	enum key_type type;
	size_t off;
	double lo, hi;		/* inclusive range for numbers */
	enum key_need need;
	bool scales;		/* a capacity: shrinks with `scale` */
	double dflt;		/* for NEED_NONE and unneeded keys */
	const char *help;
	const char *unset;	/* sim show's words for a key left unset */
};

#define D(k, lo, hi, need, sc, dflt, help) \
	{ #k, K_DOUBLE, offsetof(struct sim_profile, k), lo, hi, need, sc, dflt, help, NULL }
#define I(k, lo, hi, need, dflt, help) \
	{ #k, K_INT, offsetof(struct sim_profile, k), lo, hi, need, false, dflt, help, NULL }

static const struct key_desc keys[] = {
	{ "name", K_STR, offsetof(struct sim_profile, name), 0, 0, NEED_ALWAYS, false, 0, "profile name", NULL },
	{ "description", K_STR, offsetof(struct sim_profile, description), 0, 0, NEED_NONE, false, 0, "one line for people", NULL },
	D(user_gb, 0.001, 1e6, NEED_ALWAYS, true, 0, "user capacity U, GB"),
	D(phys_gb, 0, 1e6, NEED_ALWAYS, true, 0, "physical space R for user data and dynamic SLC, GB (0 for in-place media)"),
	I(bits_per_cell, 0, 4, NEED_ALWAYS, 0, "m: 3 TLC, 4 QLC, 0 in-place media"),
	D(link_rd_gbs, 0.001, 1000, NEED_ALWAYS, false, 0, "read link, GB/s"),
	D(link_wr_gbs, 0.001, 1000, NEED_ALWAYS, false, 0, "write link, GB/s"),
	{ "link_shared", K_BOOL, offsetof(struct sim_profile, link_shared), 0, 1, NEED_NONE, false, 0, "half-duplex link (SATA): yes/no", NULL },
	I(qd_cap, 1, 65535, NEED_ALWAYS, 0, "deepest queue the interface accepts"),
	D(t_fw_rd_us, 0, 1e5, NEED_ALWAYS, false, 0, "firmware time per read, us"),
	D(t_fw_wr_us, 0, 1e5, NEED_ALWAYS, false, 0, "firmware time per write, us"),
	I(cores, 1, 256, NEED_ALWAYS, 0, "controller cores"),
	D(t_ctrl_us, 0.001, 1e5, NEED_ALWAYS, false, 0, "core time per read command, us"),
	D(wr_cap_kiops, 0.001, 1e5, NEED_ALWAYS, false, 0, "controller write command cap, kIOPS"),
	D(t_commit_us, 0, 1e6, NEED_NONE, false, 20, "flush: commit after the buffer drains, us"),
	D(wbuf_mib, 0.0625, 65536, NEED_NONE, false, 64, "write buffer, MiB"),
	D(wbuf_release_kib, 0, 1048576, NEED_NONE, false, 0, "a full write buffer gets room back in units this large (a program or GC unit), so a write that finds it full waits for a whole unit: the write tail; KiB, 0 = room comes back continuously"),
	I(units, 1, 65536, NEED_ALWAYS, 0, "NAND units (dies x planes)"),
	I(channels, 1, 1024, NEED_ALWAYS, 0, "NAND channels"),
	D(ch_gbs, 0.001, 1000, NEED_ALWAYS, false, 0, "bandwidth per channel, GB/s"),
	D(page_kib, 0.5, 1024, NEED_NONE, false, 16, "NAND page read per unit visit, KiB"),
	D(tr_slc_us, 0, 1e5, NEED_NONE, false, 0, "page read from SLC, us (0: as native)"),
	D(tr_nat_us, 0, 1e5, NEED_ALWAYS, false, 0, "page read from native media, us"),
	D(p_rr, 0, 1, NEED_NONE, false, 0, "read-retry probability per page"),
	D(n_rr, 0, 100, NEED_NONE, false, 2, "cost of a retry, in page reads"),
	D(t_susp_us, 0, 1e6, NEED_NONE, false, 0, "program/erase suspend bounds a read's wait to this, us (0 = no suspend)"),
	D(t_prog_us, 0, 1e6, NEED_NONE, false, 0, "native page program, us"),
	D(t_bers_us, 0, 1e6, NEED_NONE, false, 0, "block erase, us"),
	D(tr_spread, 0, 0.9, NEED_NONE, false, 0, "page types (LSB/CSB/MSB, QLC's four) of native media read at tR x (1-s) .. tR x (1+s), evenly spaced, mean tR"),
	D(t_fw_cv, 0, 2, NEED_NONE, false, 0, "controller and firmware service-time variation: coefficient of variation of a mean-1 lognormal factor on t_fw_rd_us and t_fw_wr_us"),
	{ "route", K_ROUTE, offsetof(struct sim_profile, route), 0, 0, NEED_ALWAYS, false, 0, "write routing: direct, slc_then_direct, slc_only", NULL },
	D(slc_static_gb, 0, 1e6, NEED_SLC, true, 0, "static SLC pool, GB"),
	D(slc_dyn_max_gb, 0, 1e6, NEED_SLC, true, 0, "largest dynamic SLC cache, GB"),
	D(f_res_gb, 0, 1e6, NEED_SLC, true, 0, "free space the dynamic cache never takes, GB"),
	D(w_slc_gbs, 0.001, 1000, NEED_SLC, false, 0, "host rate into SLC, GB/s"),
	D(w_dir_gbs, 0.001, 1000, NEED_ALWAYS, false, 0, "host rate straight to native media, GB/s"),
	D(f_bg_gbs, 0, 1000, NEED_SLC, false, 0, "background folding while the host writes native, GB/s"),
	D(f_idle_gbs, 0, 1000, NEED_SLC, false, 0, "folding when idle, GB/s"),
	D(f_fg_gb, 0, 1e6, NEED_NONE, true, 0, "free space that starts a foreground fold round, GB"),
	D(kappa_fg, 0.01, 100, NEED_NONE, false, 1, "cost of a foreground fold byte relative to a host byte"),
	{ "rounds", K_ROUNDS, offsetof(struct sim_profile, rounds), 0, 0, NEED_NONE, true, 0, "fold round profile: GB@GB/s, ...", NULL },
	D(fold_rate_gbs, 0, 1000, NEED_SLC_ONLY, false, 0, "slc_only: folding once the cache has filled, GB/s"),
	D(win_open_gb, 0, 1e6, NEED_SLC_ONLY, true, 0, "slc_only: SLC room that reopens the write window, GB"),
	D(stall_rate_gbs, 0, 1000, NEED_NONE, false, 0, "slc_only: host rate while the window is shut, GB/s"),
	D(c_fo, 1, 100, NEED_NONE, false, 1, "slowdown when overwriting folded data"),
	D(rho_eff, 0, 100, NEED_ALWAYS, false, 0, "effective over-provisioning for GC (0 = no GC, WA 1)"),
	D(p_gc_gbs, 0.001, 1000, NEED_GC, false, 0, "path rate under GC, GB/s"),
	D(kappa_gc, 0, 100, NEED_GC, false, 1, "cost of a GC copy relative to a host write"),
	D(beta, 0, 100, NEED_NONE, false, 0, "over-reclaim share banked for bursts"),
	D(w_burst_gb, 0, 1e6, NEED_NONE, true, 0, "banked free space spent in one burst, GB"),
	D(f_lo_gb, 0, 1e6, NEED_NONE, true, 0, "free space that starts foreground GC, GB (0: half of R-U)"),
	D(g_idle_gbs, 0, 1000, NEED_NONE, false, 1, "idle GC reclaim, GB/s"),
	{ "dram_mib", K_DOUBLE, offsetof(struct sim_profile, dram_mib), 0, 1e7, NEED_NONE, true, -1,
	  "DRAM that holds the L2P map, MiB (0: DRAM-less); a map larger than it is cached",
	  "the whole map is held, no map-cache misses" },
	D(hmb_mib, 0, 1e6, NEED_NONE, true, 0, "DRAM-less drives (dram_mib 0): host memory buffer that caches the map, MiB"),
	I(map_entry_bytes, 1, 16, NEED_NONE, 4, "bytes per L2P map entry"),
	D(iu_kib, 0.5, 1024, NEED_NONE, false, 4, "indirection unit: LBA bytes one map entry maps, KiB"),
	D(map_page_kib, 0.5, 1024, NEED_NONE, false, 4, "map page: what a map-cache miss reads and a dirtied page writes back, KiB"),
	D(tr_map_us, 0, 1e5, NEED_NONE, false, 0, "reading a map page from NAND, us (0: tr_slc_us, or tr_nat_us without it)"),
	D(sigma_seq, 0, 1, NEED_NONE, false, 0, "rate jitter (relative sd) outside GC"),
	D(sigma_gc, 0, 1, NEED_NONE, false, 0, "rate jitter (relative sd) under GC"),
	D(tau_s, 0.001, 1e4, NEED_NONE, false, 0.45, "jitter correlation time, s"),
	D(journal_gib, 0, 1e6, NEED_NONE, false, 0, "host bytes between journal flushes, GiB (0 = none)"),
	D(journal_stall_ms, 0, 1e6, NEED_NONE, false, 0, "journal flush stall, ms"),
	D(t_idle_enter_ms, 0, 1e6, NEED_NONE, false, 50, "quiet time before background idle work, ms"),
	{ "sampled_mix", K_BOOL, offsetof(struct sim_profile, sampled_mix), 0, 1, NEED_NONE, false, 0,
	  "sample a sweep's sequential read/write mixes (windows, the gaps warped): yes/no", NULL },
};
#define NKEYS (sizeof keys / sizeof keys[0])

static const struct key_desc *find_key(const char *k)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (!strcmp(keys[i].key, k))
			return &keys[i];
	return NULL;
}

static const char *route_name(enum sim_route r)
{
	return r == ROUTE_DIRECT ? "direct" :
	       r == ROUTE_SLC_ONLY ? "slc_only" : "slc_then_direct";
}

static int parse_double(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || errno || !isfinite(v))
		return -1;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return -1;
	*out = v;
	return 0;
}

/* "3.6@2.12, 4.6@1.33" */
static int parse_rounds(struct sim_profile *p, const char *v, const char *origin,
			struct sb_err *e)
{
	int n = 0;
	const char *s = v;
	while (*s) {
		while (isspace((unsigned char)*s) || *s == ',')
			s++;
		if (!*s)
			break;
		if (n == SIM_MAX_ROUNDS)
			return sb_errf(e, "%s: key 'rounds': more than %d segments",
				       origin, SIM_MAX_ROUNDS);
		char *end;
		double x = strtod(s, &end);
		if (end == s || *end != '@')
			return sb_errf(e, "%s: key 'rounds': segment %d is not GB@GB/s",
				       origin, n + 1);
		s = end + 1;
		double l = strtod(s, &end);
		if (end == s)
			return sb_errf(e, "%s: key 'rounds': segment %d has no rate",
				       origin, n + 1);
		if (!(x > 0) || !(l >= 0))
			return sb_errf(e, "%s: key 'rounds': segment %d needs GB > 0 and a rate >= 0",
				       origin, n + 1);
		p->rounds[n].fold_gb = x;
		p->rounds[n].host_gbs = l;
		n++;
		s = end;
	}
	if (n == 0)
		return sb_errf(e, "%s: key 'rounds': no segment", origin);
	p->nrounds = n;
	return 0;
}

static int set_key(struct sim_profile *p, const struct key_desc *k,
		   const char *v, const char *origin, struct sb_err *e)
{
	char *field = (char *)p + k->off;
	double d;
	switch (k->type) {
	case K_STR: {
		size_t cap = k->off == offsetof(struct sim_profile, name) ?
			     sizeof p->name : sizeof p->description;
		if (strlen(v) >= cap)
			return sb_errf(e, "%s: key '%s': longer than %zu characters",
				       origin, k->key, cap - 1);
		memcpy(field, v, strlen(v) + 1);
		return 0;
	}
	case K_BOOL:
		if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "1"))
			*(bool *)field = true;
		else if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "0"))
			*(bool *)field = false;
		else
			return sb_errf(e, "%s: key '%s': '%s' is not yes or no",
				       origin, k->key, v);
		return 0;
	case K_ROUTE:
		if (!strcmp(v, "direct"))
			p->route = ROUTE_DIRECT;
		else if (!strcmp(v, "slc_then_direct"))
			p->route = ROUTE_SLC_THEN_DIRECT;
		else if (!strcmp(v, "slc_only"))
			p->route = ROUTE_SLC_ONLY;
		else
			return sb_errf(e, "%s: key 'route': '%s' is not direct, slc_then_direct or slc_only",
				       origin, v);
		return 0;
	case K_ROUNDS:
		return parse_rounds(p, v, origin, e);
	case K_DOUBLE:
	case K_INT:
		if (parse_double(v, &d))
			return sb_errf(e, "%s: key '%s': '%s' is not a number",
				       origin, k->key, v);
		if (d < k->lo || d > k->hi)
			return sb_errf(e, "%s: key '%s': %s is outside %g..%g (%s)",
				       origin, k->key, v, k->lo, k->hi, k->help);
		if (k->type == K_INT) {
			if (d != floor(d))
				return sb_errf(e, "%s: key '%s': %s is not a whole number",
					       origin, k->key, v);
			*(int *)field = (int)d;
		} else {
			*(double *)field = d;
		}
		return 0;
	}
	return sb_errf(e, "%s: key '%s': unknown type", origin, k->key);
}

static int unknown_key(const char *where, const char *key, struct sb_err *e);

int profile_set(struct sim_profile *p, const char *key, const char *value,
		const char *origin, struct sb_err *e)
{
	const struct key_desc *k = find_key(key);
	if (!k)
		return unknown_key(origin, key, e);
	return set_key(p, k, value, origin, e);
}

static void set_defaults(struct sim_profile *p)
{
	memset(p, 0, sizeof *p);
	for (size_t i = 0; i < NKEYS; i++) {
		char *field = (char *)p + keys[i].off;
		if (keys[i].type == K_DOUBLE)
			*(double *)field = keys[i].dflt;
		else if (keys[i].type == K_INT)
			*(int *)field = (int)keys[i].dflt;
	}
}

static bool key_needed(const struct key_desc *k, const struct sim_profile *p)
{
	switch (k->need) {
	case NEED_ALWAYS: return true;
	case NEED_SLC: return p->route != ROUTE_DIRECT;
	case NEED_SLC_ONLY: return p->route == ROUTE_SLC_ONLY;
	case NEED_GC: return p->rho_eff > 0;
	case NEED_NONE: return false;
	}
	return false;
}

/* When a key with no default is needed, for `sim show`. */
static const char *need_text(enum key_need n)
{
	switch (n) {
	case NEED_SLC: return "needed only by the SLC routes";
	case NEED_SLC_ONLY: return "needed only by route slc_only";
	case NEED_GC: return "needed only with GC, rho_eff > 0";
	case NEED_ALWAYS:
	case NEED_NONE: break;
	}
	return "optional";
}

struct profile_reader {
	struct sim_profile *p;
	int line[NKEYS];	/* where each key was given; 0: not given */
};

/* Edit distance, for "did you mean"; keys are short. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 63 || lb > 63)
		return SIZE_MAX;
	size_t row[64];
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

static int unknown_key(const char *where, const char *key, struct sb_err *e)
{
	const char *best = NULL;
	size_t bd = SIZE_MAX;
	for (size_t i = 0; i < NKEYS; i++) {
		size_t d = edit_distance(key, keys[i].key);
		if (d < bd) {
			bd = d;
			best = keys[i].key;
		}
	}
	/* A suggestion only when it is plausibly a typo. */
	if (best && bd <= 1 + strlen(key) / 4)
		return sb_errf(e, "%s: unknown key '%s' (did you mean '%s'? 'ssdbench sim show' lists every key)",
			       where, key, best);
	return sb_errf(e, "%s: unknown key '%s' ('ssdbench sim show' lists every key)", where, key);
}

/* Sections are allowed for readability and carry no meaning. */
static int profile_entry(void *ctx, const struct ini_entry *en, struct sb_err *e)
{
	struct profile_reader *r = ctx;
	if (!en->key)
		return 0;
	if (!en->value)
		return sb_errf(e, "%s: expected 'key = value', got '%s'", en->where, en->key);
	const struct key_desc *k = find_key(en->key);
	if (!k)
		return unknown_key(en->where, en->key, e);
	size_t idx = (size_t)(k - keys);
	if (r->line[idx])
		return sb_errf(e, "%s: key '%s' given twice (first on line %d)", en->where,
			       en->key, r->line[idx]);
	r->line[idx] = en->line > 0 ? en->line : 1;
	return set_key(r->p, k, en->value, en->where, e);
}

/* Where a cross-key check points: the file, and the line of each key. */
struct check_ctx {
	const char *origin;
	const int *line;	/* per entry of keys[]; NULL or 0: not known */
	struct sb_err *e;
};

static int key_err(const struct check_ctx *c, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int key_err(const struct check_ctx *c, const char *key, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	const struct key_desc *k = find_key(key);
	int line = c->line && k ? c->line[k - keys] : 0;
	if (line > 0)
		return sb_errf(c->e, "%s:%d: key '%s': %s", c->origin, line, key, msg);
	return sb_errf(c->e, "%s: key '%s': %s", c->origin, key, msg);
}

/*
 * Physical space while SLC holds data: each dynamic SLC byte costs m
 * native bytes, so with the whole dynamic cache full and the rest of the
 * drive's data native, free space is R - U - (m-1)·S_dyn_max.  Where that
 * is negative the drive only works if folding gives space back faster
 * than the host takes it in every regime that runs at low free space;
 * the write path has no regime for running out (wpath.c choose()), so a
 * profile that cannot is refused here, naming the key to change.
 */
static int check_space(const struct sim_profile *p, const struct check_ctx *c)
{
	double m = p->bits_per_cell;
	double worst = p->phys_gb - p->user_gb - (m - 1) * p->slc_dyn_max_gb;
	if (p->route == ROUTE_SLC_ONLY) {
		/* Window shut: the host writes native at stall_rate while
		   folding frees m-1 bytes per byte. */
		if (p->stall_rate_gbs > (m - 1) * p->fold_rate_gbs)
			return key_err(c, "stall_rate_gbs",
				       "%g GB/s of host writes while the window is shut take more physical space than folding at fold_rate_gbs %g GB/s gives back (%g GB/s at %d bits per cell); lower it to at most %g",
				       p->stall_rate_gbs, p->fold_rate_gbs,
				       (m - 1) * p->fold_rate_gbs, p->bits_per_cell,
				       (m - 1) * p->fold_rate_gbs);
		return 0;
	}
	if (p->route != ROUTE_SLC_THEN_DIRECT || worst >= 0)
		return 0;
	if (p->nrounds == 0 || p->f_fg_gb <= 0) {
		/* No foreground rounds: background folding alone must keep up
		   with direct writes. */
		if ((m - 1) * p->f_bg_gbs < p->w_dir_gbs)
			return key_err(c, "f_bg_gbs",
				       "with a full cache the drive needs %g GB more physical space than it has (phys_gb %g, user_gb %g, slc_dyn_max_gb %g at %d bits per cell), and background folding at %g GB/s frees %g GB/s, less than direct writes take (w_dir_gbs %g); raise it to at least %g or give fold rounds (f_fg_gb, rounds)",
				       -worst, p->phys_gb, p->user_gb, p->slc_dyn_max_gb,
				       p->bits_per_cell, p->f_bg_gbs, (m - 1) * p->f_bg_gbs,
				       p->w_dir_gbs, p->w_dir_gbs / (m - 1));
		return 0;
	}
	/* Rounds start at f_fg and run back to back while free space stays
	   below it: a round must give space back overall, and never dip
	   below zero on the way. */
	double net = 0, low = 0;
	for (int i = 0; i < p->nrounds; i++) {
		const struct sim_round_seg *sg = &p->rounds[i];
		double fold = (p->w_dir_gbs - sg->host_gbs) / p->kappa_fg;
		double secs = sg->fold_gb / fold;
		net += (m - 1) * sg->fold_gb - sg->host_gbs * secs;
		low = net < low ? net : low;
	}
	if (net <= 0)
		return key_err(c, "rounds",
			       "a fold round takes %g GB more physical space than it gives back (host writes outrun folding at kappa_fg %g), so the drive runs out of space once the cache is full; lower the segments' host rates or kappa_fg",
			       -net, p->kappa_fg);
	if (p->f_fg_gb + low < 0)
		return key_err(c, "f_fg_gb",
			       "a fold round dips %g GB below where it starts, more than the %g GB of free space that starts it; raise f_fg_gb to at least %g",
			       -low, p->f_fg_gb, -low);
	return 0;
}

static int check_profile(const struct sim_profile *p, const struct check_ctx *c)
{
	double U = p->user_gb, R = p->phys_gb, m = p->bits_per_cell;
	if (p->hmb_mib > 0 && p->dram_mib != 0)
		return key_err(c, "hmb_mib", "a host memory buffer caches the map of a DRAM-less drive; with DRAM (dram_mib %s) the map lives there: set dram_mib = 0 or drop hmb_mib",
			       p->dram_mib < 0 ? "not set" : "> 0");
	if (p->wbuf_release_kib > p->wbuf_mib * 1024)
		return key_err(c, "wbuf_release_kib", "%g KiB is more than the whole write buffer (wbuf_mib %g)",
			       p->wbuf_release_kib, p->wbuf_mib);
	if (p->bits_per_cell == 0) {
		if (p->route != ROUTE_DIRECT)
			return key_err(c, "route", "in-place media (bits_per_cell 0) has no SLC cache; use direct");
		if (p->rho_eff > 0)
			return key_err(c, "rho_eff", "in-place media (bits_per_cell 0) does no GC; use 0");
		return 0;
	}
	if ((p->bits_per_cell == 1 || p->bits_per_cell == 2) && p->route != ROUTE_DIRECT)
		return key_err(c, "bits_per_cell", "an SLC cache needs TLC (3) or QLC (4) media");
	if (R < U)
		return key_err(c, "phys_gb", "%g GB of physical space cannot hold %g GB of user data",
			       R, U);
	if (p->route != ROUTE_DIRECT) {
		if (p->slc_static_gb + p->slc_dyn_max_gb <= 0)
			return key_err(c, "slc_dyn_max_gb", "an SLC route needs a cache (static + dynamic > 0)");
		if (m * p->slc_dyn_max_gb + p->f_res_gb > R)
			return key_err(c, "slc_dyn_max_gb", "%g GB of SLC at %d bits per cell plus f_res_gb %g GB exceed phys_gb %g GB",
				       p->slc_dyn_max_gb, p->bits_per_cell, p->f_res_gb, R);
		if (p->slc_static_gb + p->slc_dyn_max_gb > U)
			return key_err(c, "slc_dyn_max_gb", "the cache (%g GB) is larger than the drive (%g GB)",
				       p->slc_static_gb + p->slc_dyn_max_gb, U);
	}
	if (p->route == ROUTE_SLC_THEN_DIRECT) {
		if (p->f_fg_gb > 0 && p->nrounds == 0)
			return key_err(c, "rounds", "missing: f_fg_gb %g GB starts fold rounds, so they need a profile",
				       p->f_fg_gb);
		for (int i = 0; i < p->nrounds; i++)
			if (p->rounds[i].host_gbs >= p->w_dir_gbs)
				return key_err(c, "rounds", "segment %d runs the host at %g GB/s, not below w_dir_gbs %g: it would fold nothing",
					       i + 1, p->rounds[i].host_gbs, p->w_dir_gbs);
	}
	if (p->route == ROUTE_SLC_ONLY) {
		if (p->win_open_gb > p->slc_static_gb + p->slc_dyn_max_gb)
			return key_err(c, "win_open_gb", "larger than the cache");
	}
	if (p->rho_eff <= 0)
		return key_err(c, "rho_eff", "NAND media (bits_per_cell %d) needs GC, so rho_eff > 0",
			       p->bits_per_cell);
	if (p->route == ROUTE_SLC_ONLY && p->fold_rate_gbs <= 0)
		return key_err(c, "fold_rate_gbs", "slc_only needs folding while the host writes, or a full cache never reopens");
	if (R - U <= 0)
		return key_err(c, "rho_eff", "GC needs phys_gb above user_gb");
	if (p->f_lo_gb + p->w_burst_gb > R - U)
		return key_err(c, "w_burst_gb", "f_lo_gb + w_burst_gb (%g GB) exceed the spare space phys_gb - user_gb (%g GB)",
			       p->f_lo_gb + p->w_burst_gb, R - U);
	return check_space(p, c);
}

int profile_check(const struct sim_profile *p, const char *origin, struct sb_err *e)
{
	struct check_ctx c = { origin, NULL, e };
	return check_profile(p, &c);
}

int profile_parse(const char *text, const char *origin, struct sim_profile *p,
		  struct sb_err *e)
{
	struct profile_reader r = { .p = p };
	set_defaults(p);
	if (ini_parse(text, origin, profile_entry, &r, e))
		return -1;
	if (!r.line[find_key("route") - keys])
		return sb_errf(e, "%s: missing key 'route': how the drive routes writes, one of direct (no SLC cache), slc_then_direct (SLC while there is room, then native), slc_only (every write through SLC)",
			       origin);
	for (size_t i = 0; i < NKEYS; i++)
		if (!r.line[i] && key_needed(&keys[i], p))
			return sb_errf(e, "%s: missing key '%s' (%s), needed for route %s",
				       origin, keys[i].key, keys[i].help, route_name(p->route));
	struct check_ctx c = { origin, r.line, e };
	return check_profile(p, &c);
}

void profile_scale(struct sim_profile *p, double scale)
{
	for (size_t i = 0; i < NKEYS; i++) {
		if (!keys[i].scales)
			continue;
		double *v = (double *)((char *)p + keys[i].off);
		if (keys[i].type == K_DOUBLE && *v > 0)	/* < 0: not set */
			*v *= scale;
	}
	for (int i = 0; i < p->nrounds; i++)
		p->rounds[i].fold_gb *= scale;
}

int profile_load_file(const char *path, struct sim_profile *p, struct sb_err *e)
{
	char *text;
	if (ini_read_file(path, "profile", &text, e))
		return -1;
	int rc = *text ? profile_parse(text, path, p, e)
		       : sb_errf(e, "profile %s: empty file", path);
	free(text);
	return rc;
}

int profile_lookup(const char *name_or_path, struct sim_profile *p, struct sb_err *e)
{
	const char *text = profile_builtin_text(name_or_path);
	if (text)
		return profile_parse(text, name_or_path, p, e);
	if (strchr(name_or_path, '/') || strstr(name_or_path, ".ini"))
		return profile_load_file(name_or_path, p, e);
	char names[256] = "";
	for (unsigned i = 0; i < profile_builtin_count(); i++) {
		if (i)
			strncat(names, ", ", sizeof names - strlen(names) - 1);
		strncat(names, profile_builtin_name(i), sizeof names - strlen(names) - 1);
	}
	return sb_errf(e, "no built-in profile '%s' (built-ins: %s; a profile file needs a path with '/' or a .ini name)",
		       name_or_path, names);
}

void profile_write_ini(const struct sim_profile *p, char *buf, unsigned len)
{
	size_t used = 0;
	buf[0] = 0;
#define OUT(...) do { if (used < len) used += (size_t)snprintf(buf + used, len - used, __VA_ARGS__); } while (0)
	/* Every key, so a reader sees what the model uses; a key left at its
	   default says so.  The output parses back into the same profile. */
	for (size_t i = 0; i < NKEYS; i++) {
		const struct key_desc *k = &keys[i];
		const char *field = (const char *)p + k->off;
		bool dflt = !key_needed(k, p);
		switch (k->type) {
		case K_STR:
			OUT("%-16s = %s", k->key, field);
			dflt = false;
			break;
		case K_BOOL:
			OUT("%-16s = %s", k->key, *(const bool *)field ? "yes" : "no");
			dflt = !*(const bool *)field;
			break;
		case K_ROUTE:
			OUT("%-16s = %s", k->key, route_name(p->route));
			dflt = false;
			break;
		case K_INT:
			OUT("%-16s = %d", k->key, *(const int *)field);
			dflt = dflt && *(const int *)field == (int)k->dflt;
			break;
		case K_DOUBLE:
			if (dflt && *(const double *)field == k->dflt && k->dflt < k->lo) {
				/* Never set, and 0 is no valid value: a key of
				   another route or of GC. */
				OUT("# %-14s = (not set: %s)\n", k->key,
				    k->unset ? k->unset : need_text(k->need));
				continue;
			}
			OUT("%-16s = %.6g", k->key, *(const double *)field);
			dflt = dflt && *(const double *)field == k->dflt;
			break;
		case K_ROUNDS:
			if (p->nrounds == 0) {
				OUT("# %-14s = (none: no foreground fold rounds)\n", k->key);
				continue;
			}
			OUT("%-16s =", k->key);
			for (int r = 0; r < p->nrounds; r++)
				OUT("%s %.6g@%.6g", r ? "," : "", p->rounds[r].fold_gb, p->rounds[r].host_gbs);
			dflt = false;
			break;
		}
		OUT("%s\n", dflt ? "   # default" : "");
	}
#undef OUT
}
