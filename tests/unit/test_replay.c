/*
 * Trace replay: the three formats read record by record against traces
 * written here by hand (every offset, length, direction and time known),
 * bad records named by file and line, the remapping onto a span against
 * hand-computed offsets, and the timing on the simulator's virtual clock:
 * an I/O starts exactly at its recorded time (or that time divided by the
 * speed), read back from the per-I/O log.
 */
#include "check.h"
#include "tmp_files.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/backend.h"
#include "engine/engine.h"
#include "engine/replay.h"

static const char *write_file(const char *name, const void *data, size_t len)
{
	const char *p = tmp_path(name);
	FILE *f = fopen(p, "wb");
	if (!f || fwrite(data, 1, len, f) != len)
		CHECK_FAIL("cannot write %s", p);
	if (f)
		fclose(f);
	return p;
}

static const char *write_text(const char *name, const char *text)
{
	return write_file(name, text, strlen(text));
}

/* Every I/O of a trace, up to max; -1 with e set on an error. */
static int read_all(const char *path, enum replay_format fmt, struct trace_io *io, int max,
		    enum replay_format *told, struct sb_err *e)
{
	struct trace_reader *r;
	if (trace_reader_open(path, fmt, &r, e))
		return -1;
	int n = 0, got = 0;
	while (n < max && (got = trace_reader_next(r, &io[n], e)) == 1)
		n++;
	if (told)
		*told = trace_reader_format(r);
	trace_reader_close(r);
	return got < 0 ? -1 : n;
}

/* The trace at p must read as `want` (told from the file), with n I/Os. */
static bool reads_as(const char *p, enum replay_format want, int n, struct trace_io *io, int max)
{
	struct sb_err e;
	enum replay_format told;
	int got = read_all(p, REPLAY_FMT_AUTO, io, max, &told, &e);
	if (got < 0) {
		CHECK_FAIL("%s", e.msg);
		return false;
	}
	CHECK_EQ_U64(told, want);
	CHECK_EQ_U64(got, n);
	return got == n && told == want;
}

static void check_io(const struct trace_io *io, uint64_t t_ns, uint8_t op, uint64_t off,
		     uint32_t len)
{
	CHECK_EQ_U64(io->t_ns, t_ns);
	CHECK_EQ_U64(io->op, op);
	CHECK_EQ_U64(io->offset, off);
	CHECK_EQ_U64(io->len, len);
}

/* The error of reading `text` as a trace: it must fail and name `where`. */
static void check_refused(const char *name, const char *text, const char *where,
			  const char *what)
{
	struct trace_io io[16];
	struct sb_err e;
	const char *p = write_text(name, text);
	if (read_all(p, REPLAY_FMT_AUTO, io, 16, NULL, &e) >= 0) {
		CHECK_FAIL("%s: accepted", name);
		return;
	}
	char want[256];
	snprintf(want, sizeof want, "%s:%s", p, where);
	if (!strstr(e.msg, want) || !strstr(e.msg, what))
		CHECK_FAIL("%s: '%s' lacks '%s' or '%s'", name, e.msg, want, what);
}

TEST(iolog_v2_records_and_waits)
{
	const char *p = write_text("v2.log",
		"fio version 2 iolog\n"
		"/dev/sdx add\n"
		"/dev/sdx open\n"
		"/dev/sdx write 4096 8192\n"
		"/dev/sdx wait 1500 0\n"
		"/dev/sdx read 0 512\n"
		"/dev/sdx sync 0 0\n"
		"\n"
		"/dev/sdx wait 250 0\n"
		"/dev/sdx trim 1048576 65536\r\n"
		"/dev/sdx close\n");
	struct trace_io io[8];
	struct sb_err e;
	if (!reads_as(p, REPLAY_FMT_IOLOG, 3, io, 8))
		return;
	check_io(&io[0], 0, IO_WRITE, 4096, 8192);
	check_io(&io[1], 1500000, IO_READ, 0, 512);		/* after 1500 us */
	check_io(&io[2], 1750000, IO_TRIM, 1048576, 65536);
	struct replay_spec s = { 0 };
	snprintf(s.path, sizeof s.path, "%s", p);
	if (replay_scan(&s, &e)) {
		CHECK_FAIL("%s", e.msg);
		return;
	}
	CHECK_EQ_U64(s.ios[DIR_READ], 1);
	CHECK_EQ_U64(s.ios[DIR_WRITE], 1);
	CHECK_EQ_U64(s.ios[DIR_TRIM], 1);
	CHECK_EQ_U64(s.bytes, 8192 + 512 + 65536);
	CHECK_EQ_U64(s.len_max, 65536);
	CHECK_EQ_U64(s.duration_ns, 1750000);
	CHECK_EQ_U64(s.skipped, 1);
	CHECK_EQ_U64(s.format, REPLAY_FMT_IOLOG);
}

TEST(iolog_v3_timestamps_in_microseconds)
{
	/* as fio 3.33 writes it (write_iolog, thinktime=20ms) */
	const char *p = write_text("v3.log",
		"fio version 3 iolog\n"
		"19 /tmp/f add\n"
		"130 /tmp/f open\n"
		"134 /tmp/f read 61440 4096\n"
		"20451 /tmp/f read 774144 4096\n"
		"40727 /tmp/f write 880640 4096\n"
		"40727 /tmp/f datasync 0 0\n"
		"101287 /tmp/f close\n");
	struct trace_io io[8];
	struct sb_err e;
	int n = read_all(p, REPLAY_FMT_IOLOG, io, 8, NULL, &e);
	if (n < 0) {
		CHECK_FAIL("%s", e.msg);
		return;
	}
	CHECK_EQ_U64(n, 3);
	check_io(&io[0], 134000, IO_READ, 61440, 4096);
	check_io(&io[1], 20451000, IO_READ, 774144, 4096);
	check_io(&io[2], 40727000, IO_WRITE, 880640, 4096);
}

TEST(iolog_bad_lines_name_file_and_line)
{
	check_refused("a1.log", "fio version 2 iolog\nf add\nf jump 0 4096\n", "3:",
		      "unknown action 'jump'");
	check_refused("a2.log", "fio version 3 iolog\n0 f add\n5 f wait 100 0\n", "3:",
		      "not allowed in a version 3");
	check_refused("a3.log", "fio version 3 iolog\n0 f read 0 4096\nx f read 0 4096\n",
		      "3:", "not a timestamp");
	check_refused("a4.log", "fio version 2 iolog\nf read 0 0\n", "2:", "length 0");
	check_refused("a5.log", "fio version 2 iolog\nf read -1 4096\n", "2:", "numbers");
	check_refused("a6.log", "fio version 2 iolog\na read 0 4096\nb read 0 4096\n", "3:",
		      "second file");
	check_refused("a7.log", "fio version 2 iolog\nf read 0 4096 7\n", "2:",
		      "not a version 2 iolog line");
	check_refused("a8.log", "fio version 2 iolog\nf read 0 134217728\n", "2:", "64 MiB");
	/* an iolog that is not v2/v3 when the format is forced */
	struct trace_io io[4];
	struct sb_err e;
	const char *p = write_text("a9.log", "0, 4096, 4096\n");
	CHECK(read_all(p, REPLAY_FMT_IOLOG, io, 4, NULL, &e) < 0);
	CHECK(strstr(e.msg, ":1: not a fio iolog") != NULL);
	/* nothing to replay */
	struct replay_spec s = { 0 };
	snprintf(s.path, sizeof s.path, "%s",
		 write_text("a10.log", "fio version 2 iolog\nf add\nf sync 0 0\n"));
	CHECK(replay_scan(&s, &e) == -1);
	CHECK(strstr(e.msg, "no I/O to replay") != NULL);
}

/* blkparse's default output of dd writing to a loop device, abridged, with
   the events that are not D and the totals it ends with. */
static const char blkparse_text[] =
	"  7,0    1        1     0.000000000  2213  Q  WS 2048 + 8 [dd]\n"
	"  7,0    1        2     0.000004157  2213  G  WS 2048 + 8 [dd]\n"
	"  7,0    1        3     0.000005023  2213  P   N [dd]\n"
	"  7,0    1        4     0.000006100  2213  U   N [dd] 1\n"
	"  7,0    1        5     0.000011003  2213  D  WS 2048 + 8 [dd]\n"
	"  7,0    1        6     0.000123456     0  C  WS 2048 + 8 [0]\n"
	"  7,0    0        7     0.001000000  2213  D   R 0 + 256 [dd]\n"
	"  7,0    0        8     0.001500000   117  D  FN [kworker/0:1H]\n"
	"  7,0    0        9     0.002000001   117  m   N some message\n"
	"  7,0    0       10     1.250000000   118  D  FWFS 4096 + 16 [jbd2/loop0-8]\n"
	"  7,0    0       11     1.500000000   118  D   D 8192 + 2048 [fstrim]\n"
	"\n"
	"CPU0 (7,0):\n"
	" Reads Queued:           0,        0KiB\t Writes Queued:           1,        4KiB\n"
	"Total (7,0):\n"
	" Reads Queued:           0,        0KiB\t Writes Queued:           1,        4KiB\n"
	"Throughput (R/W): 0KiB/s / 4KiB/s\n"
	"Events (7,0): 11 entries\n";

TEST(blkparse_text_d_events)
{
	const char *p = write_text("bp.txt", blkparse_text);
	struct trace_io io[8];
	if (!reads_as(p, REPLAY_FMT_BLKPARSE, 4, io, 8))
		return;
	check_io(&io[0], 11003, IO_WRITE, 2048 * 512, 8 * 512);
	check_io(&io[1], 1000000, IO_READ, 0, 256 * 512);
	check_io(&io[2], 1250000000, IO_WRITE, 4096 * 512, 16 * 512);	/* preflush + FUA write */
	check_io(&io[3], 1500000000, IO_TRIM, 8192 * 512, 2048 * 512);
}

TEST(blkparse_bad_lines)
{
	check_refused("b1.txt", "  7,0 1 1 0.000000000 1 D W 0 + 8 [a]\ngarbage here\n", "2:",
		      "not a blkparse event line");
	check_refused("b2.txt", "  7,0 1 1 0.000000000 1 D W 0 + 8 [a]\n"
				"  8,16 1 2 0.000000001 1 D W 0 + 8 [a]\n", "2:", "device 8,16");
	check_refused("b3.txt", "  7,0 1 1 0.000000000 1 D W 0 8 [a]\n", "1:", "SECTOR + SECTORS");
	check_refused("b4.txt", "  7,0 1 1 0.000000000 1 D X 0 + 8 [a]\n", "1:", "RWBS 'X'");
	/* neither format: said as such at line 1 */
	check_refused("b5.txt", "hello\n", "1:", "not a trace this reads");
}

static void put32(unsigned char *p, uint32_t v, bool swap)
{
	if (swap)
		v = __builtin_bswap32(v);
	memcpy(p, &v, 4);
}

static void put64(unsigned char *p, uint64_t v, bool swap)
{
	if (swap)
		v = __builtin_bswap64(v);
	memcpy(p, &v, 8);
}

/* A struct blk_io_trace record in either byte order (blktrace_api.h:
   magic, sequence, time, sector, bytes, action, pid, device, cpu as
   32-bit or 64-bit fields, then error and pdu_len as 16-bit ones). */
static void put_rec(unsigned char *r, bool swap, uint64_t t, uint64_t sector, uint32_t bytes,
		    uint32_t action, uint32_t dev, uint16_t pdu)
{
	memset(r, 0, BLKTRACE_REC);
	put32(r, 0x65617407u, swap);
	put64(r + 8, t, swap);
	put64(r + 16, sector, swap);
	put32(r + 24, bytes, swap);
	put32(r + 28, action, swap);
	put32(r + 36, dev, swap);
	put32(r + 40, 1, swap);		/* cpu */
	uint16_t p16 = swap ? __builtin_bswap16(pdu) : pdu;
	memcpy(r + 46, &p16, 2);
}

#define TC(bit) ((uint32_t)(bit) << 16)
#define ISSUE 7u
#define QUEUE 1u

static void check_binary(bool swap)
{
	unsigned char buf[6 * BLKTRACE_REC + 8];
	size_t k = 0;
	uint32_t dev = (7u << 20) | 0;
	/* a process-name message (notify, with its text payload) */
	put_rec(buf + k, swap, 0, 0, 0, TC(1u << 10) | 1u, dev, 8);
	k += BLKTRACE_REC;
	memcpy(buf + k, "dd\0\0\0\0\0\0", 8);
	k += 8;
	put_rec(buf + k, swap, 100, 2048, 4096, TC(1u << 1) | TC(1u << 4) | QUEUE, dev, 0);
	k += BLKTRACE_REC;
	put_rec(buf + k, swap, 250, 2048, 4096, TC(1u << 1) | TC(1u << 6) | ISSUE, dev, 0);
	k += BLKTRACE_REC;
	put_rec(buf + k, swap, 900, 0, 131072, TC(1u << 0) | TC(1u << 6) | ISSUE, dev, 0);
	k += BLKTRACE_REC;
	put_rec(buf + k, swap, 1000, 0, 0, TC(1u << 2) | TC(1u << 6) | ISSUE, dev, 0);	/* flush */
	k += BLKTRACE_REC;
	put_rec(buf + k, swap, 5000, 64, 1048576, TC(1u << 13) | TC(1u << 1) | ISSUE, dev, 0);
	k += BLKTRACE_REC;
	const char *p = write_file(swap ? "bt-swapped.bin" : "bt.bin", buf, k);
	struct trace_io io[8];
	struct sb_err e;
	if (!reads_as(p, REPLAY_FMT_BLKTRACE, 3, io, 8))
		return;
	check_io(&io[0], 250, IO_WRITE, 2048 * 512, 4096);
	check_io(&io[1], 900, IO_READ, 0, 131072);
	check_io(&io[2], 5000, IO_TRIM, 64 * 512, 1048576);
	/* cut inside the last record */
	p = write_file("bt-cut.bin", buf, k - 10);
	CHECK(read_all(p, REPLAY_FMT_BLKTRACE, io, 8, NULL, &e) < 0);
	CHECK(strstr(e.msg, "ends inside a record") != NULL);
}

TEST(blktrace_binary_both_byte_orders)
{
	check_binary(false);
	check_binary(true);
}

TEST(map_onto_span)
{
	uint64_t off;
	uint32_t len;
	/* a trace that fits, aligned: the same offsets */
	replay_map(0, 1 << 20, 512, 4096, 8192, &off, &len);
	CHECK_EQ_U64(off, 4096);
	CHECK_EQ_U64(len, 8192);
	/* modulo the span, from its base */
	replay_map(1 << 20, 1 << 20, 512, 3 * (1 << 20) + 12288, 4096, &off, &len);
	CHECK_EQ_U64(off, (1 << 20) + 12288);
	/* a 4 KiB-block target: 512-byte offsets and lengths go to whole blocks */
	replay_map(0, 1 << 20, 4096, 4096 + 1536, 1024, &off, &len);
	CHECK_EQ_U64(off, 4096);
	CHECK_EQ_U64(len, 4096);
	/* past the end of the span: moved back so it ends inside */
	replay_map(0, 1 << 20, 512, (1 << 20) - 4096, 65536, &off, &len);
	CHECK_EQ_U64(off, (1 << 20) - 65536);
	CHECK_EQ_U64(len, 65536);
	/* a span that is not a multiple of the block: still inside */
	replay_map(0, 10000, 4096, 9000, 4096, &off, &len);
	CHECK(off + len <= 10000);
	CHECK_EQ_U64(off % 4096, 0);
}

/* Submission times (completion - latency) of the per-I/O log, in order. */
static int submissions(const char *csv, uint64_t *t, char *op, uint64_t *off, int max)
{
	FILE *f = fopen(csv, "r");
	if (!f)
		return -1;
	char line[256];
	int n = 0;
	if (!fgets(line, sizeof line, f)) {
		fclose(f);
		return -1;
	}
	unsigned long long tn, o, lat;
	unsigned wl, job, len;
	int res;
	char c;
	while (n < max && fgets(line, sizeof line, f) &&
	       sscanf(line, "%llu,%u,%u,%c,%llu,%u,%llu,%d", &tn, &wl, &job, &c, &o, &len,
		      &lat, &res) == 8) {
		t[n] = tn - lat;
		op[n] = c;
		off[n] = o;
		n++;
	}
	fclose(f);
	return n;
}

/* Replay `trace` on a simulated drive at timing `timing`: the I/Os' start
   times from the workload's start, from the per-I/O log. */
static int replay_on_sim(const char *trace, const char *timing, uint32_t qd, uint64_t *t,
			 char *op, uint64_t *off, int max)
{
	char csv[128];
	snprintf(csv, sizeof csv, "%s", tmp_path("sim-iolog.csv"));
	struct engine_opts o = { .target = "sim:sn8100-2tb,scale=0.001", .allow_write = true,
				 .interval_ns = 100000000ull, .iolog_path = csv };
	struct engine *eng = NULL;
	struct sb_err e;
	if (engine_open(&o, &eng, &e)) {
		CHECK_FAIL("sim: %s", e.msg);
		return -1;
	}
	struct workload w;
	workload_defaults(&w);
	w.qd = qd;
	w.seed = 1;
	snprintf(w.replay.path, sizeof w.replay.path, "%s", trace);
	int rc = replay_timing_parse(timing, &w.replay, &e);
	if (!rc)
		rc = replay_scan(&w.replay, &e);
	struct engine_result res = { 0 };
	if (!rc)
		rc = engine_run(eng, &w, 1, NULL, &res, &e);
	if (rc)
		CHECK_FAIL("replay: %s", e.msg);
	engine_result_free(&res);
	engine_close(eng);
	return rc ? -1 : submissions(csv, t, op, off, max);
}

TEST(recorded_timing_exact_on_virtual_time)
{
	/* gaps from 3 us to 40 ms, and two I/Os at one time */
	static const uint64_t us[] = { 500, 503, 1503, 1503, 21503, 61503, 61600, 70000 };
	char text[1024];
	int k = snprintf(text, sizeof text, "fio version 3 iolog\n0 f add\n");
	for (int i = 0; i < 8; i++)
		k += snprintf(text + k, sizeof text - (size_t)k, "%llu f %s %d 4096\n",
			      (unsigned long long)us[i], i % 3 ? "read" : "write", i * 8192);
	char trace[128];
	snprintf(trace, sizeof trace, "%s", write_text("timed.log", text));
	uint64_t t[16], off[16];
	char op[16];
	int n = replay_on_sim(trace, "recorded", 4, t, op, off, 16);
	CHECK_EQ_U64(n, 8);
	/* per-I/O log lines are in completion order; find each by offset */
	for (int i = 0; i < 8 && n == 8; i++) {
		int at = -1;
		for (int j = 0; j < n; j++)
			if (off[j] == (uint64_t)i * 8192)
				at = j;
		if (at < 0) {
			CHECK_FAIL("offset %d not replayed", i * 8192);
			continue;
		}
		CHECK_EQ_U64(t[at], (us[i] - us[0]) * 1000);
		CHECK_EQ_U64(op[at], i % 3 ? 'R' : 'W');
	}
	/* twice as fast: every gap halved */
	n = replay_on_sim(trace, "2x", 4, t, op, off, 16);
	CHECK_EQ_U64(n, 8);
	for (int i = 0; i < 8 && n == 8; i++)
		for (int j = 0; j < n; j++)
			if (off[j] == (uint64_t)i * 8192)
				CHECK_EQ_U64(t[j], (us[i] - us[0]) * 1000 / 2);
	/* as fast as possible at QD1: one after the other, all before the
	   recorded 69.5 ms */
	n = replay_on_sim(trace, "afap", 1, t, op, off, 16);
	CHECK_EQ_U64(n, 8);
	for (int i = 0; i < n; i++)
		CHECK_EQ_U64(off[i], (uint64_t)i * 8192);
	CHECK(n == 8 && t[7] < 10000000);
}

TEST(cleanup)
{
	tmp_files_remove();
}

CHECK_MAIN("replay")
