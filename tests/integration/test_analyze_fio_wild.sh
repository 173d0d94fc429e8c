#!/usr/bin/env bash
# Every fio file of ../shared/external/fio (real output from public
# repositories, fio 2.1 - 3.33; SOURCES.md there says where each is from)
# read by `ssdbench analyze`, each figure checked against a value computed
# here, independently, from the file itself:
#  - JSON: python's own decoder finds every document in the file; the units
#    are told apart by the fields present and then cross-checked against
#    the job itself (bytes / I/Os = the block size of the job options, bytes
#    = bandwidth x runtime, mean latency x IOPS = the queue depth), so a
#    KiB read as bytes or a microsecond read as a nanosecond cannot pass;
#  - logs: the sum over the entries, each covering its own averaging window
#    (whole windows without an entry are time at 0 B/s), and, where the same run's
#    JSON is here too, that sum against fio's own total: never above it,
#    short of it by at most the unlogged last window and the truncation of
#    each logged value to an integer;
#  - what is not a trace (a latency log, a histogram log) is refused with a
#    message naming what the file is.
source "$(dirname "$0")/lib.sh"
ext="$(cd "$(dirname "$0")/../.." && pwd)/../shared/external/fio"
[ -d "$ext" ] || skip "no ../shared/external/fio"
command -v python3 >/dev/null || skip "no python3"
cd "$TEST_TMP"

# --- JSON --------------------------------------------------------------------
for f in "$ext"/*.json; do
	b=$(basename "$f")
	"$SSDBENCH" analyze --fio-json "$f" --json > "$b.out" || fail "$b: refused"
	"$SSDBENCH" analyze --fio-json "$f" > "$b.txt" || fail "$b: text refused"
	grep -q "us us" "$b.txt" && fail "$b: text says 'us us'"
	grep -qiw "nan" "$b.txt" && fail "$b: text says nan"
	python3 - "$f" "$b.out" <<'PY' || fail "$b: figures differ"
import json, re, sys
text = open(sys.argv[1]).read()
got = json.load(open(sys.argv[2]))["fio_jobs"]
dec = json.JSONDecoder()
docs, i = [], 0
while True:
    m = re.compile(r"^\{", re.M).search(text, i)
    if not m:
        break
    d, end = dec.raw_decode(text, m.start())
    docs.append(d)
    i = end
want = [(k, j) for k, d in enumerate(docs) for j in d["jobs"]]
assert len(got) == len(want), (len(got), len(want))

def size(s):
    m = re.match(r"(\d+)([kmg]?)", str(s).lower())
    return int(m.group(1)) * {"": 1, "k": 1024, "m": 1 << 20, "g": 1 << 30}[m.group(2)]

def close(a, b, rel=1e-9):
    return a is not None and abs(a - b) <= rel * max(1, abs(b))

for (k, j), g in zip(want, got):
    assert g["document"] == k and g["name"] == j["jobname"], (g["name"], j["jobname"])
    opts = dict(docs[k].get("global options", {}), **j.get("job options", {}))
    for dn in ("read", "write", "trim", "mixed"):
        d = j.get(dn)
        if not d or not d.get("io_bytes"):
            assert dn not in g, dn
            continue
        o = g[dn]
        # units by the fields present: fio < 2.21 gives io_bytes in KiB
        # (no io_kbytes yet), latency in us under "clat" before clat_ns
        kib = "io_kbytes" not in d and "clat_ns" not in d
        io_bytes = d["io_bytes"] * (1024 if kib else 1)
        assert o["io_bytes"] == io_bytes, (dn, o["io_bytes"], io_bytes)
        bw = d["bw_bytes"] if "bw_bytes" in d else d["bw"] * 1024
        assert close(o["bw_bps"], bw), (o["bw_bps"], bw)
        assert close(o["iops"], d["iops"])
        assert o["runtime_ms"] == d["runtime"]
        if "total_ios" in d:
            assert o["total_ios"] == d["total_ios"]
            bs = opts.get("bs") or opts.get("blocksize")
            if bs:   # cross-check: bytes per I/O is the job's block size
                assert o["io_bytes"] == o["total_ios"] * size(bs), (o["io_bytes"], bs)
        else:
            assert o["total_ios"] is None, "a missing figure is null, not 0"
        # cross-check: bytes = bandwidth x runtime (fio rounds both)
        assert abs(o["io_bytes"] - o["bw_bps"] * o["runtime_ms"] / 1000) <= 0.02 * o["io_bytes"] + 2048, dn
        lat = d.get("clat_ns") or {k2: v * 1000 for k2, v in d["clat"].items() if k2 != "percentile"}
        assert close(o["clat_mean_ns"], lat["mean"], 1e-6), (o["clat_mean_ns"], lat["mean"])
        # cross-check by Little's law: mean latency x IOPS is about the
        # queue depth (loosely: fio 3.33 divides by a runtime shorter than
        # the job's when it is interrupted), a factor 1000 off is not
        qd = int(opts.get("iodepth", 1)) * int(opts.get("numjobs", 1))
        assert 0.05 < o["clat_mean_ns"] * o["iops"] / 1e9 < 10 * max(qd, 8), (o["clat_mean_ns"], o["iops"], qd)
        pct = (d.get("clat_ns") or d["clat"]).get("percentile", {})
        scale = 1 if "clat_ns" in d else 1000
        for key, v in pct.items():
            if float(key) <= 0:
                continue   # fio 2.x pads the list with "0.00": 0
            assert o["clat_percentiles_ns"]["p%g" % float(key)] == v * scale, key
        assert all(float(k2[1:]) > 0 for k2 in o["clat_percentiles_ns"])
print("ok", len(got), "jobs")
PY
done

# text and several documents appended with >>, fio's stderr before, between
# and after them: each document found and read
{ echo "fio: terminating on signal 2"; cat "$ext/fioplot-floppy-write-1-1.json";
  echo "fio: some stderr {not json}"; cat "$ext/pkb-7fb0c9d8-0_fio.json"; echo "bye"; } > two.json
"$SSDBENCH" analyze --fio-json two.json --json > two.out || fail "appended documents refused"
python3 - two.out <<'PY' || fail "appended documents"
import json, sys
g = json.load(open(sys.argv[1]))["fio_jobs"]
assert [x["document"] for x in g] == [0, 1, 1], [x["document"] for x in g]
assert g[0]["write"]["io_bytes"] == 1474560 and g[0]["fio_version"] == "fio-3.1"
assert g[1]["read"]["io_bytes"] == 1294256 * 1024 and g[1]["fio_version"] == "fio-2.17"
PY

# --- logs --------------------------------------------------------------------
# python's reading of a log: per direction and per stretch of rising time,
# the window (median step between entries), bytes (KiB/s x window) or I/Os
for f in "$ext"/*_bw*.log "$ext"/*_iops*.log; do
	b=$(basename "$f")
	"$SSDBENCH" analyze --fio-log "$f" --kind steady --json > "$b.out" || fail "$b: refused"
	"$SSDBENCH" analyze --fio-log "$f" --kind steady > "$b.txt" || fail "$b: text refused"
	grep -qiw "nan" "$b.txt" && fail "$b: text says nan"
	python3 - "$f" "$b.out" <<'PY' || fail "$b: figures differ"
import json, statistics, sys
rows = [[int(x) for x in l.split(",")[:4]] for l in open(sys.argv[1]) if l.strip()]
out = json.load(open(sys.argv[2]))
iops = "_iops" in sys.argv[1]
main = max((0, 1, 2), key=lambda d: (sum(r[2] == d for r in rows), -d))
# stretches: fio appends a second job's log with time starting again
segs, cur, last = [], [], -1
for r in rows:
    if r[0] < last:
        segs.append(cur); cur = []
    cur.append(r); last = r[0]
segs.append(cur)
segs = [[r for r in s if r[2] == main] for s in segs]
segs = [s for s in segs if s]
tr = out["traces"]
assert len(tr) == len(segs), (len(tr), len(segs))
for s, t in zip(segs, tr):
    steps = [b[0] - a[0] for a, b in zip(s, s[1:]) if b[0] > a[0]]
    averaged = all(r[3] == 0 for r in s)
    win = statistics.median(steps) if averaged else None
    total, prev, secs = 0.0, 0, 0
    for r in s:
        dt = r[0] - prev
        if dt <= 0:
            continue
        # whole windows with no entry (a step of >= 1.9 windows) are a stall
        # at 0 (fio logs nothing for a window without completions); a
        # shorter step is fio's sampler running late and the entry covers it
        missing = round(dt / win) - 1 if averaged and dt >= 1.9 * win else 0
        own = dt - missing * win if missing else dt
        total += r[1] * own / 1000 * (1 if iops else 1024)
        prev = r[0]
    key = "total_ios" if iops else "total_bytes"
    assert abs(t[key] - total) <= len(s), (key, t[key], total)
    assert abs(t["total_s"] - s[-1][0] / 1000) < 1e-9 or t["total_s"] == (s[-1][0] - s[0][0]) / 1000, t["total_s"]
    st = t["steady"]
    for k in ("rule", "metric", "interval_s", "window_s", "limit_pct"):
        assert st.get(k) is not None, k
print("ok", len(tr), "traces")
PY
done

# logs against the JSON of the same run: fio's total is never exceeded, and
# is missed by at most the unlogged end and each value's integer truncation
check_pair() {
	local log=$1 js=$2 dir=$3 kind=$4 win_ms=$5
	"$SSDBENCH" analyze --fio-log "$ext/$log" --dir "$dir" --kind steady --json > pair.out || fail "$log refused"
	python3 - "$ext/$log" "$ext/$js" pair.out "$dir" "$kind" "$win_ms" <<'PY' || fail "$log against $js"
import json, sys
log, js, out, dn, kind, win = sys.argv[1:7]
win = int(win)
d = json.load(open(js))["jobs"][0][dn]
t = json.load(open(out))["traces"][0]
n = sum(1 for l in open(log) if int(l.split(",")[2]) == {"read": 0, "write": 1}[dn])
if kind == "bw":
    fio, got, per_entry = d["io_bytes"], t["total_bytes"], 1024 * win / 1000
else:
    fio, got, per_entry = d["total_ios"], t["total_ios"], win / 1000
rate = fio / (d["runtime"] / 1000)
slack = rate * (d["runtime"] / 1000 - t["total_s"]) * 1.5 + n * per_entry + per_entry
print(log, "fio", fio, "log", got, "slack", slack)
assert got <= fio + n, "more than fio counted: a gap was filled in"
assert fio - got <= slack, "short of fio by more than the unlogged end"
PY
}
check_pair fioplot-floppy-write-iodepth-1-numjobs-1_bw.1.log fioplot-floppy-write-1-1.json write bw 1000
check_pair fioplot-floppy-write-iodepth-1-numjobs-1_iops.1.log fioplot-floppy-write-1-1.json write iops 1000
check_pair fioplot-pm883-randread-iodepth-1-numjobs-1_bw.1.log fioplot-pm883-randread-1-1.json read bw 250
check_pair fioplot-pm883-randread-iodepth-1-numjobs-1_iops.1.log fioplot-pm883-randread-1-1.json read iops 250
for d in read write; do
	check_pair fioplot-860pro-randrw-iodepth-1-numjobs-1_bw.1.log fioplot-860pro-randrw-1-1.json $d bw 250
	check_pair fioplot-860pro-randrw-iodepth-1-numjobs-1_iops.1.log fioplot-860pro-randrw-1-1.json $d iops 250
done

# the floppy's stall from 8 s to 11 s is time at 0 B/s, not 8 KiB/s stretched
"$SSDBENCH" analyze --fio-log "$ext/fioplot-floppy-write-iodepth-1-numjobs-1_bw.1.log" \
	--kind fill --json > floppy.out || fail "floppy fill refused"
python3 - floppy.out <<'PY' || fail "floppy stall"
import json, sys
f = json.load(open(sys.argv[1]))["traces"][0]["fill"]
assert f["min_bps"] == 0, f["min_bps"]
PY

# not traces: refused, naming what the file is
expect_fail "latency log" "$SSDBENCH" analyze --fio-log "$ext/fioplot-pm883-randread-iodepth-1-numjobs-1_clat.1.log"
grep -q "latency log" <<<"$LAST_ERR" || fail "latency log message: $LAST_ERR"
expect_fail "histogram log" "$SSDBENCH" analyze --fio-log "$ext/pkb_fio_avg_1506559526.49_clat_hist.1.log"
grep -q "histogram log" <<<"$LAST_ERR" || fail "histogram log message: $LAST_ERR"
cp "$ext/pkb_fio_avg_1506559526.49_clat_hist.1.log" renamed_bw.log
expect_fail "histogram log, renamed" "$SSDBENCH" analyze --fio-log renamed_bw.log
grep -q "histogram log" <<<"$LAST_ERR" || fail "renamed histogram log message: $LAST_ERR"
# an IOPS log without block sizes has no bytes: no fill figures from it
expect_fail "fill from IOPS without bs" "$SSDBENCH" analyze --kind fill \
	--fio-log "$ext/fio-samples-m2sw1-128k-sdb-read-para.results_iops.log"
grep -q "block size" <<<"$LAST_ERR" || fail "IOPS fill message: $LAST_ERR"
# a malformed line names the formats accepted
printf '1000, 5, 1, 0\n1000 5 1\n' > bad.log
expect_fail "malformed" "$SSDBENCH" analyze --fio-log bad.log
grep -q "line 2" <<<"$LAST_ERR" && grep -q "3.18" <<<"$LAST_ERR" || fail "malformed message: $LAST_ERR"
# 3.18+ priority column, log_offset's offset column, hex priority
printf '100, 1000, 1, 0, 0\n200, 1000, 1, 0, 0\n' > prio.log
printf '100, 1000, 1, 0, 4096, 0x0000\n200, 1000, 1, 0, 8192, 0x0000\n' > offprio.log
for f in prio.log offprio.log; do
	"$SSDBENCH" analyze --fio-log $f --kind steady --json > $f.out || fail "$f refused"
	[ "$(json_get $f.out 'd["traces"][0]["total_bytes"]')" = 204800 ] || fail "$f bytes"
done
echo ok
