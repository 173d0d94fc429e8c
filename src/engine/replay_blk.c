/*
 * blktrace's events, as blkparse prints them (its default format) or dumps
 * them (blkparse -d: struct blk_io_trace records, each followed by
 * pdu_len bytes of payload).  The events replayed are D, "issued to the
 * driver": what the device was asked to do, after the block layer merged
 * and split the requests of the programs (Q events).  A trace holds the
 * events of one device; sectors are 512 bytes whatever the device's block.
 *
 * The default text line (blkparse(1), "%D %2c %8s %5T.%9t %5p %2a %3d"):
 *
 *     7,0    1        5     0.000011003  2213  D  WS 2048 + 8 [dd]
 *
 * device, CPU, sequence, seconds.nanoseconds, pid, action, RWBS, then for
 * a data request "SECTOR + SECTORS [PROCESS]".  RWBS: an optional F
 * (preflush), then R read, W write, D discard (DE secure erase), F flush
 * or N none, then flags.  After the events blkparse prints its totals
 * ("CPU0 (7,0):", "Total (7,0):"): the rest of the file is skipped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "engine/replay.h"

#define MAX_TOKENS 10

/* blktrace_api.h */
#define BLK_IO_TRACE_MAGIC 0x65617400u
#define BLK_IO_TRACE_VERSION 0x07u
#define BLK_TA_ISSUE 7u
#define BLK_TC_WRITE (1u << 1)
#define BLK_TC_PC (1u << 9)
#define BLK_TC_NOTIFY (1u << 10)
#define BLK_TC_DISCARD (1u << 13)
#define SECTOR_SHIFT 9


/* "SECONDS.NANOSECONDS" (blkparse prints 9 digits). */
static bool seconds(const char *s, uint64_t *ns)
{
	const char *dot = strchr(s, '.');
	if (!dot || dot == s || !dot[1] || strlen(dot + 1) > 9)
		return false;
	char whole[24];
	if ((size_t)(dot - s) >= sizeof whole)
		return false;
	memcpy(whole, s, (size_t)(dot - s));
	whole[dot - s] = '\0';
	uint64_t sec, frac;
	if (!replay_number(whole, &sec) || !replay_number(dot + 1, &frac) || sec > UINT64_MAX / 1000000000u)
		return false;
	for (size_t k = strlen(dot + 1); k < 9; k++)
		frac *= 10;
	*ns = sec * 1000000000u + frac;
	return true;
}

static bool device(const char *s, uint32_t *maj, uint32_t *min)
{
	const char *comma = strchr(s, ',');
	char a[16];
	uint64_t x, y;
	if (!comma || (size_t)(comma - s) >= sizeof a)
		return false;
	memcpy(a, s, (size_t)(comma - s));
	a[comma - s] = '\0';
	if (!replay_number(a, &x) || !replay_number(comma + 1, &y) || x > UINT32_MAX || y > UINT32_MAX)
		return false;
	*maj = (uint32_t)x;
	*min = (uint32_t)y;
	return true;
}

static int same_device(struct blk_state *st, uint32_t maj, uint32_t min, struct sb_err *e)
{
	if (!st->have_dev) {
		st->have_dev = true;
		st->major = maj;
		st->minor = min;
		return 0;
	}
	if (maj != st->major || min != st->minor)
		return sb_errf(e, "an event of device %u,%u after events of %u,%u: a replay "
			       "replays one device (blkparse -i DEVICE for one)",
			       maj, min, st->major, st->minor);
	return 0;
}

/* The data I/O of a request at `sector`, `bytes` long; 0 when it moves none. */
static int request(struct blk_state *st, uint8_t op, uint64_t t_ns, uint64_t sector,
		   uint64_t bytes, struct trace_io *io, struct sb_err *e)
{
	if (!bytes) {
		st->skipped++;
		return 0;
	}
	if (bytes > REPLAY_LEN_MAX)
		return sb_errf(e, "a request of %llu bytes, more than 64 MiB",
			       (unsigned long long)bytes);
	if (sector > (UINT64_MAX >> SECTOR_SHIFT) - bytes)
		return sb_errf(e, "sector %llu is past 2^64 bytes", (unsigned long long)sector);
	*io = (struct trace_io){ .t_ns = t_ns, .offset = sector << SECTOR_SHIFT,
				 .len = (uint32_t)bytes, .op = op };
	return 1;
}

static bool summary_start(const char *line)
{
	if (!strncmp(line, "Total (", 7))
		return true;
	if (strncmp(line, "CPU", 3))
		return false;
	const char *p = line + 3;
	while (*p >= '0' && *p <= '9')
		p++;
	return p > line + 3 && !strncmp(p, " (", 2);
}

int blkparse_line(struct blk_state *st, char *line, struct trace_io *io, struct sb_err *e)
{
	if (st->summary)
		return 0;
	if (summary_start(line)) {
		st->summary = true;
		return 0;
	}
	char *tok[MAX_TOKENS];
	int n = 0;
	for (char *save = NULL, *t = strtok_r(line, " \t\r", &save); t && n < MAX_TOKENS;
	     t = strtok_r(NULL, " \t\r", &save))
		tok[n++] = t;
	if (n == 0)
		return 0;
	uint32_t maj, min;
	uint64_t cpu, seq, t_ns, pid;
	if (n < 6 || !device(tok[0], &maj, &min) || !replay_number(tok[1], &cpu) ||
	    !replay_number(tok[2], &seq) || !seconds(tok[3], &t_ns) || !replay_number(tok[4], &pid))
		return sb_errf(e, "not a blkparse event line (its default format: DEVICE "
			       "CPU SEQUENCE SECONDS PID ACTION RWBS SECTOR + SECTORS)");
	st->events++;
	if (same_device(st, maj, min, e))
		return -1;
	if (strcmp(tok[5], "D"))
		return 0;
	if (n < 7)
		return sb_errf(e, "a D event without its RWBS field");
	const char *r = tok[6];
	if (r[0] == 'F' && r[1] && strchr("RWDFN", r[1]))
		r++;	/* a preflush before the request */
	uint8_t op;
	switch (r[0]) {
	case 'R': op = IO_READ; break;
	case 'W': op = IO_WRITE; break;
	case 'D': op = IO_TRIM; break;
	case 'F':
	case 'N':
		st->skipped++;
		return 0;
	default:
		return sb_errf(e, "RWBS '%s' is not a read, write, discard, flush or none", tok[6]);
	}
	uint64_t sector, count;
	/* a passthrough request: "BYTES (CDB) [PROCESS]", no sector */
	if (n >= 9 && replay_number(tok[7], &count) && tok[8][0] == '(') {
		st->skipped++;
		return 0;
	}
	if (n < 10 || !replay_number(tok[7], &sector) || strcmp(tok[8], "+") ||
	    !replay_number(tok[9], &count))
		return sb_errf(e, "a D event without 'SECTOR + SECTORS'");
	if (count > UINT64_MAX >> SECTOR_SHIFT)
		return sb_errf(e, "%llu sectors is too many", (unsigned long long)count);
	return request(st, op, t_ns, sector, count << SECTOR_SHIFT, io, e);
}

/* --- binary records --- */

static uint32_t get32(const unsigned char *p, bool swap)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}

static uint64_t get64(const unsigned char *p, bool swap)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return swap ? __builtin_bswap64(v) : v;
}

static uint16_t get16(const unsigned char *p, bool swap)
{
	uint16_t v;
	memcpy(&v, p, 2);
	return swap ? __builtin_bswap16(v) : v;
}

static bool magic_is(const unsigned char *p, bool swap)
{
	return (get32(p, swap) & 0xffffff00u) == BLK_IO_TRACE_MAGIC;
}

bool blktrace_magic(const void *rec)
{
	return magic_is(rec, false) || magic_is(rec, true);
}

int blktrace_record(struct blk_state *st, const void *rec, uint32_t *pdu,
		    struct trace_io *io, struct sb_err *e)
{
	const unsigned char *p = rec;
	bool swap = !magic_is(p, false);
	if (!magic_is(p, swap))
		return sb_errf(e, "not a blktrace record (no magic number)");
	uint32_t version = get32(p, swap) & 0xffu;
	if (version != BLK_IO_TRACE_VERSION)
		return sb_errf(e, "blktrace record version %u (this reads version %u)",
			       version, BLK_IO_TRACE_VERSION);
	uint64_t t_ns = get64(p + 8, swap), sector = get64(p + 16, swap);
	uint32_t bytes = get32(p + 24, swap), action = get32(p + 28, swap);
	uint32_t dev = get32(p + 36, swap);
	/* after cpu (u32) and error (u16): blktrace_api.h's layout */
	*pdu = get16(p + 46, swap);
	uint32_t cat = action >> 16;
	/* messages (process names, notes) carry text, not I/O */
	if (cat & BLK_TC_NOTIFY)
		return 0;
	if (same_device(st, dev >> 20, dev & 0xfffffu, e))
		return -1;
	if ((action & 0xffffu) != BLK_TA_ISSUE)
		return 0;
	if (cat & BLK_TC_PC) {
		st->skipped++;
		return 0;
	}
	uint8_t op = cat & BLK_TC_DISCARD ? IO_TRIM : cat & BLK_TC_WRITE ? IO_WRITE : IO_READ;
	return request(st, op, t_ns, sector, bytes, io, e);
}
