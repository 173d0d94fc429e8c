#include "cli/run_options.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/run_profiles.h"
#include "common/ini.h"
#include "common/units.h"
#include "engine/replay.h"

enum key_scope { SCOPE_RUN, SCOPE_WORKLOAD };

enum key_id {
	K_TARGET, K_SIZE, K_RW, K_RWMIX, K_BS, K_QD, K_JOBS, K_SPAN, K_TIME,
	K_BYTES, K_RAMP, K_SYNC, K_RATE, K_TRIM, K_FSYNC_EVERY, K_BUFFERED,
	K_DIRECT, K_POLL, K_SQPOLL, K_BATCH, K_INTERVAL, K_IOLOG, K_SEED,
	K_DESTROY, K_JSON, K_MIB, K_DB, K_NO_DB, K_JOB, K_NAME, K_TIME_BASED,
	K_HELP, K_RANDDIST, K_BSSPLIT, K_PROFILE, K_RATE_IOPS, K_RATE_PROCESS,
	K_REPLAY, K_REPLAY_FORMAT, K_REPLAY_TIMING,
};

struct key {
	const char *name;
	const char *alias;	/* fio's name, or NULL */
	enum key_id id;
	enum key_scope scope;
	bool flag;		/* takes no value on the command line */
};

static const struct key keys[] = {
	{ "target", "filename", K_TARGET, SCOPE_RUN, false },
	{ "size", NULL, K_SIZE, SCOPE_RUN, false },
	{ "rw", "readwrite", K_RW, SCOPE_WORKLOAD, false },
	{ "rwmixread", NULL, K_RWMIX, SCOPE_WORKLOAD, false },
	{ "bs", "blocksize", K_BS, SCOPE_WORKLOAD, false },
	{ "qd", "iodepth", K_QD, SCOPE_WORKLOAD, false },
	{ "jobs", "numjobs", K_JOBS, SCOPE_WORKLOAD, false },
	{ "span", NULL, K_SPAN, SCOPE_WORKLOAD, false },
	{ "time", "runtime", K_TIME, SCOPE_WORKLOAD, false },
	{ "bytes", "io_size", K_BYTES, SCOPE_WORKLOAD, false },
	{ "ramp", "ramp_time", K_RAMP, SCOPE_WORKLOAD, false },
	{ "sync", NULL, K_SYNC, SCOPE_WORKLOAD, true },
	{ "rate", NULL, K_RATE, SCOPE_WORKLOAD, false },
	{ "rate-iops", "rate_iops", K_RATE_IOPS, SCOPE_WORKLOAD, false },
	{ "rate-process", "rate_process", K_RATE_PROCESS, SCOPE_WORKLOAD, false },
	{ "trim", NULL, K_TRIM, SCOPE_WORKLOAD, false },
	{ "fsync-every", NULL, K_FSYNC_EVERY, SCOPE_WORKLOAD, false },
	{ "buffered", NULL, K_BUFFERED, SCOPE_WORKLOAD, true },
	{ "direct", NULL, K_DIRECT, SCOPE_WORKLOAD, false },
	{ "poll", "hipri", K_POLL, SCOPE_RUN, true },
	{ "sqpoll", "sqthread_poll", K_SQPOLL, SCOPE_RUN, true },
	{ "batch", NULL, K_BATCH, SCOPE_RUN, false },
	{ "interval", NULL, K_INTERVAL, SCOPE_RUN, false },
	{ "iolog", NULL, K_IOLOG, SCOPE_RUN, false },
	{ "seed", NULL, K_SEED, SCOPE_WORKLOAD, false },
	{ "destroy-data", NULL, K_DESTROY, SCOPE_RUN, true },
	{ "json", NULL, K_JSON, SCOPE_RUN, true },
	{ "mib", NULL, K_MIB, SCOPE_RUN, true },
	{ "db", NULL, K_DB, SCOPE_RUN, false },
	{ "no-db", NULL, K_NO_DB, SCOPE_RUN, true },
	{ "job", NULL, K_JOB, SCOPE_RUN, false },
	{ "name", NULL, K_NAME, SCOPE_WORKLOAD, false },
	{ "time_based", NULL, K_TIME_BASED, SCOPE_WORKLOAD, true },
	{ "help", NULL, K_HELP, SCOPE_RUN, true },
	{ "random_distribution", NULL, K_RANDDIST, SCOPE_WORKLOAD, false },
	{ "bssplit", NULL, K_BSSPLIT, SCOPE_WORKLOAD, false },
	{ "profile", NULL, K_PROFILE, SCOPE_WORKLOAD, false },
	{ "replay", NULL, K_REPLAY, SCOPE_WORKLOAD, false },
	{ "replay-format", NULL, K_REPLAY_FORMAT, SCOPE_WORKLOAD, false },
	{ "replay-timing", NULL, K_REPLAY_TIMING, SCOPE_WORKLOAD, false },
};

void run_options_usage(void)
{
	printf(
"usage: ssdbench run --target PATH [options]\n"
"       ssdbench run --target PATH --job FILE [options]\n"
"\n"
"target:\n"
"  --target PATH        block device or file (alias --filename)\n"
"  --size SIZE          files: create or extend to SIZE (written fully before reads)\n"
"  --destroy-data       allow writes and trims on a block device, and filling an\n"
"                       existing file that has holes before reading it\n"
"workload (fio names in brackets):\n"
"  --rw MODE            read write randread randwrite rw randrw trim randtrim [readwrite]\n"
"  --rwmixread PCT      read share of rw/randrw (default 50)\n"
"  --bs SIZE            block size, 512 B to 64 MiB [blocksize] (default 4k)\n"
"  --qd N               queue depth per job, 1 to 1024 [iodepth] (default 1)\n"
"  --jobs N             threads, each with its own ring [numjobs] (default 1)\n"
"  --span [OFF:]LEN     region to use (default the whole target)\n"
"  --time DUR           measured time after the ramp: 30, 5s, 2m [runtime]\n"
"  --bytes SIZE|PCT%%    measured amount, or a share of the span [io_size]\n"
"  --ramp DUR           run first without measuring [ramp_time]\n"
"  --sync               O_SYNC writes\n"
"  --rate RATE          open loop: bytes/s over all jobs arrive on a schedule\n"
"                       (15m, 15MiB/s); response latency from each arrival\n"
"  --rate-iops N        open loop: I/Os per second over all jobs, 250k = 250000\n"
"                       [rate_iops]\n"
"  --rate-process P     arrivals: uniform (default; fio's linear) or poisson\n"
"                       [rate_process]\n"
"  --trim PCT           share of I/Os that trim (rw=trim: all)\n"
"  --fsync-every SIZE   fsync after every SIZE written per job\n"
"  --buffered           page cache instead of O_DIRECT [direct=0]\n"
"  --seed N             offsets and data (default: from the clock)\n"
"  --random_distribution D  random offsets: uniform, zipf:THETA, pareto:H,\n"
"                       normal:DEV, zoned:ACCESS%%/SPAN%%:... (as fio)\n"
"  --bssplit MIX        block sizes with shares, SIZE/PCT:..., per direction\n"
"                       read,write[,trim] (as fio): 4k/70:64k/30\n"
"  --name NAME          workload name\n"
"  --profile NAME       a named workload: jesd219, oltp (docs/run.md); options\n"
"                       after it change it\n"
"replay (instead of --rw, --bs and the mixes; docs/run.md):\n"
"  --replay FILE        replay a trace: a fio iolog (v2, v3), blkparse's text\n"
"                       (D events) or a blkparse -d dump; offsets modulo the span\n"
"  --replay-format F    auto (default), iolog, blkparse or blktrace\n"
"  --replay-timing T    recorded (default), afap (as fast as --qd allows), or a\n"
"                       speed: 2x (twice as fast), 0.5x\n"
"engine:\n"
"  --poll               polled completions (IOPOLL) when the device has poll queues [hipri]\n"
"  --sqpoll             kernel submission polling; costs a core [sqthread_poll]\n"
"  --batch N            completions to wait for per reap, 1..1024 (default 1,\n"
"                       as fio); more saves CPU, delays the stamps\n"
"                       [iodepth_batch_complete_min]\n""  --interval DUR       sample interval (default 100ms)\n"
"  --iolog FILE         CSV line per I/O, streamed\n"
"output:\n"
"  --json               JSON on stdout (keys: docs/json.md)\n"
"  --mib                MiB/s instead of MB/s\n"
"  --db FILE            results database (default ssdbench.db); --no-db: none\n"
"  --job FILE           fio-like job file: [global] then one [section] per workload\n"
"\n"
"Without --time or --bytes a workload covers its span once.\n");
}

static const struct key *find_key(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		const struct key *k = &keys[i];
		if ((strlen(k->name) == len && !strncmp(k->name, name, len)) ||
		    (k->alias && strlen(k->alias) == len && !strncmp(k->alias, name, len)))
			return k;
	}
	return NULL;
}

static int parse_bool(const char *key, const char *v, bool *out, struct sb_err *e)
{
	if (!v || !strcmp(v, "1") || !strcasecmp(v, "true") || !strcasecmp(v, "yes")) {
		*out = true;
		return 0;
	}
	if (!strcmp(v, "0") || !strcasecmp(v, "false") || !strcasecmp(v, "no")) {
		*out = false;
		return 0;
	}
	return sb_errf(e, "%s: '%s' is not 0 or 1", key, v);
}

static int copy_str(char *dst, size_t len, const char *key, const char *v, struct sb_err *e)
{
	if (strlen(v) >= len)
		return sb_errf(e, "%s: value too long", key);
	memcpy(dst, v, strlen(v) + 1);
	return 0;
}

static int set_u32(const char *key, const char *v, uint64_t lo, uint64_t hi,
		   uint32_t *out, struct sb_err *e)
{
	uint64_t x;
	if (parse_uint_range(key, v, lo, hi, &x, e))
		return -1;
	*out = (uint32_t)x;
	return 0;
}

static int set_size32(const char *key, const char *v, uint32_t *out, struct sb_err *e)
{
	uint64_t x;
	if (parse_size(v, &x, e))
		return sb_err_wrap(e, "%s", key);
	if (x > UINT32_MAX)
		return sb_errf(e, "%s: '%s' is too large", key, v);
	*out = (uint32_t)x;
	return 0;
}

static const char *const rw_modes[] = { "read", "write", "randread", "randwrite",
					"rw", "randrw", "trim", "randtrim", "readwrite",
					"randreadwrite", NULL };

/* Apply one key=value to the run options or to the workload spec. */
static int apply(struct run_options *o, struct run_wl_spec *s, const struct key *k,
		 const char *v, struct sb_err *e)
{
	bool b;
	uint64_t x;
	switch (k->id) {
	case K_TARGET:
		return copy_str(o->target, sizeof o->target, k->name, v, e);
	case K_SIZE:
		if (parse_size(v, &o->size, e))
			return sb_err_wrap(e, "size");
		return 0;
	case K_RW:
		for (int i = 0; rw_modes[i]; i++)
			if (!strcmp(v, rw_modes[i]))
				return copy_str(s->rw, sizeof s->rw, k->name, v, e);
		return sb_errf(e, "rw: '%s' is not one of read, write, randread, randwrite, "
			       "rw, randrw, trim, randtrim", v);
	case K_RWMIX:
		if (parse_uint_range("rwmixread", v, 0, 100, &x, e))
			return -1;
		s->rwmixread = (int)x;
		return 0;
	case K_BS:
		return set_size32("bs", v, &s->w.bs, e);
	case K_QD:
		return set_u32("qd", v, 1, 1024, &s->w.qd, e);
	case K_JOBS:
		return set_u32("jobs", v, 1, 256, &s->w.jobs, e);
	case K_SPAN:
		return copy_str(s->span, sizeof s->span, k->name, v, e);
	case K_TIME:
		if (parse_duration_ns(v, &s->w.stop_time_ns, e))
			return sb_err_wrap(e, "time");
		return 0;
	case K_BYTES:
		return copy_str(s->bytes, sizeof s->bytes, k->name, v, e);
	case K_RAMP:
		if (parse_duration_ns(v, &s->w.ramp_ns, e))
			return sb_err_wrap(e, "ramp");
		return 0;
	case K_SYNC:
		return parse_bool(k->name, v, &s->w.sync, e);
	case K_RATE:
		if (parse_rate(v, &s->w.rate, e))
			return sb_err_wrap(e, "rate");
		return 0;
	case K_RATE_IOPS:
		return parse_count("rate-iops", v, 1, 1000000000ull, &s->w.rate_iops, e);
	case K_RATE_PROCESS:
		return arrival_process_parse(v, &s->w.rate_process, e);
	case K_TRIM:
		return set_u32("trim", v, 0, 100, &s->w.trim_pct, e);
	case K_FSYNC_EVERY:
		if (parse_size(v, &s->w.fsync_every, e))
			return sb_err_wrap(e, "fsync-every");
		return 0;
	case K_BUFFERED:
		return parse_bool(k->name, v, &s->w.buffered, e);
	case K_DIRECT:
		if (parse_bool(k->name, v, &b, e))
			return -1;
		s->w.buffered = !b;
		return 0;
	case K_POLL:
		return parse_bool(k->name, v, &o->iopoll, e);
	case K_SQPOLL:
		return parse_bool(k->name, v, &o->sqpoll, e);
	case K_BATCH:
		return set_u32("batch", v, 1, 1024, &o->batch, e);
	case K_INTERVAL:
		if (parse_duration_ns(v, &o->interval_ns, e))
			return sb_err_wrap(e, "interval");
		if (o->interval_ns < 1000000)
			return sb_errf(e, "interval: %s is shorter than 1 ms", v);
		return 0;
	case K_IOLOG:
		return copy_str(o->iolog, sizeof o->iolog, k->name, v, e);
	case K_SEED:
		return parse_uint_range("seed", v, 0, INT64_MAX, &s->w.seed, e);
	case K_DESTROY:
		return parse_bool(k->name, v, &o->destroy_data, e);
	case K_JSON:
		return parse_bool(k->name, v, &o->json, e);
	case K_MIB:
		return parse_bool(k->name, v, &o->mib, e);
	case K_DB:
		return copy_str(o->db, sizeof o->db, k->name, v, e);
	case K_NO_DB:
		return parse_bool(k->name, v, &o->no_db, e);
	case K_JOB:
		return copy_str(o->jobfile, sizeof o->jobfile, k->name, v, e);
	case K_NAME:
		return copy_str(s->w.name, sizeof s->w.name, k->name, v, e);
	case K_TIME_BASED:
		return 0;	/* a time given with --time is always a stop */
	case K_HELP:
		o->help = true;
		return 0;
	case K_RANDDIST:
		return access_dist_parse(v, &s->w.dist, e);
	case K_BSSPLIT:
		return bs_split_parse(v, s->w.bssplit, e);
	case K_REPLAY:
		return copy_str(s->w.replay.path, sizeof s->w.replay.path, k->name, v, e);
	case K_REPLAY_FORMAT:
		return replay_format_parse(v, &s->w.replay.format, e);
	case K_REPLAY_TIMING:
		return replay_timing_parse(v, &s->w.replay, e);
	case K_PROFILE: {
		const struct run_profile *p = run_profile_find(v);
		char names[256];
		if (!p)
			return sb_errf(e, "profile: no profile '%s' (there are %s)", v,
				       run_profile_names(names, sizeof names));
		/* through the options' own parsing: a profile is options */
		for (int i = 0; i < RUN_PROFILE_KEYS && p->set[i].key; i++) {
			const struct key *pk = find_key(p->set[i].key, strlen(p->set[i].key));
			if (!pk)
				return sb_errf(e, "profile %s: no option %s", v, p->set[i].key);
			if (apply(o, s, pk, p->set[i].value, e))
				return sb_err_wrap(e, "profile %s", v);
		}
		return 0;
	}
	}
	return sb_errf(e, "%s: not handled", k->name);
}

static void spec_defaults(struct run_wl_spec *s)
{
	memset(s, 0, sizeof *s);
	workload_defaults(&s->w);
	snprintf(s->rw, sizeof s->rw, "read");
	s->rwmixread = -1;
}

struct jobfile_reader {
	struct run_options *o;
	struct run_wl_spec global;	/* [global]: defaults for later sections */
	struct run_wl_spec *cur;
};

static int jobfile_entry(void *ctx, const struct ini_entry *en, struct sb_err *e)
{
	struct jobfile_reader *r = ctx;
	struct run_options *o = r->o;
	if (!en->key) {
		if (!strcmp(en->section, "global")) {
			r->cur = &r->global;
			return 0;
		}
		if (o->nwl == RUN_MAX_WORKLOADS)
			return sb_errf(e, "%s: more than %d workloads", en->where, RUN_MAX_WORKLOADS);
		r->cur = &o->wl[o->nwl++];
		*r->cur = r->global;
		snprintf(r->cur->w.name, sizeof r->cur->w.name, "%s", en->section);
		return 0;
	}
	const struct key *k = find_key(en->key, strlen(en->key));
	if (!k)
		return sb_errf(e, "%s: unknown option '%s'", en->where, en->key);
	if (k->id == K_JOB)
		return sb_errf(e, "%s: a job file cannot include another", en->where);
	if (!en->value && !k->flag)
		return sb_errf(e, "%s: '%s' needs a value", en->where, en->key);
	if (apply(o, r->cur, k, en->value, e))
		return sb_err_wrap(e, "%s", en->where);
	return 0;
}

/* fio-like INI: [global] sets defaults for the sections after it. */
static int parse_jobfile(struct run_options *o, const struct run_wl_spec *base,
			 struct sb_err *e)
{
	char *text;
	if (ini_read_file(o->jobfile, "job file", &text, e))
		return -1;
	struct jobfile_reader r = { .o = o, .global = *base };
	r.cur = &r.global;
	int rc = ini_parse(text, o->jobfile, jobfile_entry, &r, e);
	free(text);
	if (!rc && !o->nwl)
		rc = sb_errf(e, "%s: no workload section (add one like [randread])", o->jobfile);
	return rc;
}

int run_options_parse(int argc, char **argv, struct run_options *o, struct sb_err *e)
{
	memset(o, 0, sizeof *o);
	struct run_wl_spec base;
	spec_defaults(&base);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strncmp(a, "--", 2) || !a[2])
			return sb_errf(e, "unexpected argument '%s' (options start with --)", a);
		const char *name = a + 2, *eq = strchr(name, '=');
		size_t len = eq ? (size_t)(eq - name) : strlen(name);
		const struct key *k = find_key(name, len);
		if (!k)
			return sb_errf(e, "unknown option '%.*s' (see 'ssdbench run --help')",
				       (int)len + 2, a);
		const char *v = eq ? eq + 1 : NULL;
		if (!v && !k->flag) {
			if (i + 1 >= argc)
				return sb_errf(e, "option --%s needs a value", k->name);
			v = argv[++i];
		}
		if (apply(o, &base, k, v, e))
			return -1;
	}
	if (o->help)
		return 0;
	if (!o->target[0])
		return sb_errf(e, "no target: give --target PATH (a block device or a file)");
	if (o->jobfile[0]) {
		if (parse_jobfile(o, &base, e))
			return -1;
	} else {
		o->wl[0] = base;
		o->nwl = 1;
	}
	/* Each trace is read once now: a bad record is said before any I/O,
	   and whether the replay writes is known to the safety checks. */
	for (uint32_t i = 0; i < o->nwl; i++)
		if (workload_is_replay(&o->wl[i].w) && replay_scan(&o->wl[i].w.replay, e))
			return sb_err_wrap(e, "replay");
	return 0;
}

/* fio's rw word without "rand": read, write, trim, rw, readwrite. */
static const char *rw_kind(const struct run_wl_spec *s)
{
	return strncmp(s->rw, "rand", 4) ? s->rw : s->rw + 4;
}

/* The read share the rw word (and rwmixread) give, known before resolve;
   a replay's trace says whether it reads. */
static uint32_t spec_read_pct(const struct run_wl_spec *s)
{
	if (workload_is_replay(&s->w))
		return s->w.replay.ios[DIR_READ] ? 1 : 0;
	const char *kind = rw_kind(s);
	if (!strcmp(kind, "read"))
		return 100;
	if (!strcmp(kind, "write") || !strcmp(kind, "trim"))
		return 0;
	return s->rwmixread >= 0 ? (uint32_t)s->rwmixread : 50;
}

/* A replay's trace says what each I/O does: the options that would say
   it too are refused rather than ignored. */
static int replay_options(const struct run_wl_spec *s, struct sb_err *e)
{
	struct workload d;
	workload_defaults(&d);
	if (strcmp(s->rw, "read") || s->rwmixread >= 0 || s->w.bs != d.bs || s->w.trim_pct)
		return sb_errf(e, "rw, rwmixread, bs and trim do not apply to a replay: its "
			       "trace says what each I/O does");
	return 0;
}

static int resolve_one(struct run_wl_spec *s, uint64_t target_size, struct sb_err *e)
{
	struct workload *w = &s->w;
	const char *rw = s->rw;
	const char *kind = rw_kind(s);
	bool replay = workload_is_replay(w);
	if (replay && replay_options(s, e))
		return -1;
	w->pattern = strncmp(rw, "rand", 4) ? PATTERN_SEQ : PATTERN_RAND;
	w->read_pct = spec_read_pct(s);
	if (!strcmp(kind, "trim"))
		w->trim_pct = 100;
	if (s->rwmixread >= 0 && strcmp(kind, "rw") && strcmp(kind, "readwrite"))
		return sb_errf(e, "rwmixread applies to rw/randrw, not to rw=%s", rw);
	if (s->span[0]) {
		const char *colon = strchr(s->span, ':');
		uint64_t off = 0, len;
		if (colon) {
			char head[64];
			snprintf(head, sizeof head, "%.*s", (int)(colon - s->span), s->span);
			if (parse_size(head, &off, e))
				return sb_err_wrap(e, "span offset");
		}
		if (parse_size_or_percent(colon ? colon + 1 : s->span, target_size, 1, &len, NULL, e))
			return sb_err_wrap(e, "span length");
		w->span_offset = off;
		w->span_len = len;
		if (!len)
			return sb_errf(e, "span: length is 0");
	}
	if (s->bytes[0]) {
		uint64_t span = w->span_len ? w->span_len :
			(w->span_offset < target_size ? target_size - w->span_offset : 0);
		if (parse_size_or_percent(s->bytes, span, w->bs, &w->stop_bytes, NULL, e))
			return sb_err_wrap(e, "bytes");
		if (!w->stop_bytes)
			return sb_errf(e, "bytes: '%s' is less than one block", s->bytes);
	}
	/* Neither time nor amount: one pass over the span, like fio (a
	   replay: the whole trace). */
	if (!w->stop_time_ns && !w->stop_bytes && !replay) {
		uint64_t span = w->span_len ? w->span_len :
			(w->span_offset < target_size ? target_size - w->span_offset : 0);
		w->stop_bytes = span - span % (w->bs ? w->bs : 1);
		if (!w->stop_bytes)
			w->stop_bytes = w->bs;
	}
	return 0;
}

int run_options_resolve(struct run_options *o, uint64_t target_size, struct sb_err *e)
{
	for (uint32_t i = 0; i < o->nwl; i++)
		if (resolve_one(&o->wl[i], target_size, e))
			return sb_err_wrap(e, "workload '%s'", o->wl[i].w.name);
	return 0;
}

bool run_options_write(const struct run_options *o)
{
	for (uint32_t i = 0; i < o->nwl; i++) {
		const struct run_wl_spec *s = &o->wl[i];
		if (workload_is_replay(&s->w) ? s->w.replay.ios[DIR_WRITE] || s->w.replay.ios[DIR_TRIM]
					      : strcmp(rw_kind(s), "read") || s->w.trim_pct)
			return true;
		if (s->w.fsync_every)
			return true;
	}
	return false;
}

bool run_options_read(const struct run_options *o)
{
	for (uint32_t i = 0; i < o->nwl; i++)
		if (spec_read_pct(&o->wl[i]) > 0)
			return true;
	return false;
}
