#!/usr/bin/env bash
# run --replay: a trace replays with the same directions, offsets (remapped
# onto the span as docs/run.md says), sizes and order, checked in the
# per-I/O log of the replay against the trace itself:
#  - hand-made fio iologs (version 2 and 3) with exact expected offsets, on
#    a file; the run stored like any other;
#  - recorded timing on a simulated drive: the start times are the trace's
#    (virtual time: exact), and at 2x half of them;
#  - (a trace recorded with blktrace: test_run_replay_blktrace.sh, and in
#    the VM guest tests/vm/test_vm_replay_blktrace.sh);
#  - bad traces refused with FILE:LINE, pipes and options that make no sense
#    with a trace refused.
source "$(dirname "$0")/lib.sh"
S=$SSDBENCH
cd "$TEST_TMP"

# replayed CSV: "op offset len" per I/O of the per-I/O log, in its order
replayed() { tail -n +2 "$1" | awk -F, '{ print $4, $5, $6 }'; }

echo "== fio iolog version 2 on a file, offsets modulo a 4 MiB file"
cat >v2.log <<'EOF'
fio version 2 iolog
/data/f add
/data/f open
/data/f write 0 4096
/data/f write 8192 8192
/data/f read 4096 4096
/data/f sync 0 0
/data/f write 5242880 4096
/data/f read 16777216 65536
/data/f wait 1000 0
/data/f write 4190208 8192
/data/f close
EOF
# 5 MiB -> 1 MiB; 16 MiB -> 0; 4 MiB - 4 KiB + 8 KiB would end past the
# end: moved back to 4 MiB - 8 KiB
cat >v2.want <<'EOF'
W 0 4096
W 8192 8192
R 4096 4096
W 1048576 4096
R 0 65536
W 4186112 8192
EOF
$S run --target t.img --size 4m --replay v2.log --replay-timing afap --iolog v2.csv \
	--db r.db --json >v2.json || fail "v2 replay: $(cat v2.json)"
replayed v2.csv >v2.got
diff v2.want v2.got || fail "v2: replayed I/Os differ from the trace"
python3 - v2.json <<'PY' || fail "v2: JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "done", d["status"]
w = d["workloads"][0]
assert w["rw"] == "replay", w["rw"]
r = w["replay"]
assert (r["reads"], r["writes"], r["trims"]) == (2, 4, 0), r
assert r["skipped"] == 1 and r["format"] == "iolog" and r["timing"] == "afap", r
assert w["read"]["total_ios"] == 2 and w["write"]["total_ios"] == 4
assert w["read"]["total_bytes"] == 4096 + 65536
assert w["write"]["total_bytes"] == 4096 + 8192 + 4096 + 8192
PY
id=$(json_get v2.json 'd["run_id"]')
q() { sqlite3 r.db "$1"; }
[ "$(q "select status from runs where id=$id")" = done ] || fail "v2: run not stored as done"
[ "$(q "select write_ios from workloads where run_id=$id")" = 4 ] || fail "v2: totals in the db"
q "select spec_json from workloads where run_id=$id" | grep -q '"replay"' || fail "v2: spec without its replay"
[ "$(q "select count(*) from samples s join workloads w on s.workload_id = w.id where w.run_id=$id")" -ge 1 ] ||
	fail "v2: no samples stored"

# the report names it a replay (its bs is only its longest I/O)
$S report "$id" --db r.db --out rep >/dev/null 2>rep.err || fail "report of a replay: $(cat rep.err)"
grep -q "replay 33:67" rep/index.html || fail "the report does not name the replay: $(grep -o 'Workloads[^.]*' rep/index.html | head -1)"

echo "== fio iolog version 3 (timestamps in microseconds) on a simulated drive"
cat >v3.log <<'EOF'
fio version 3 iolog
19 /tmp/f add
130 /tmp/f open
134 /tmp/f read 61440 4096
20451 /tmp/f read 774144 4096
40727 /tmp/f write 880640 4096
40730 /tmp/f write 884736 4096
101287 /tmp/f read 0 131072
101300 /tmp/f close
EOF
for timing in recorded 2x; do
	$S run --target sim:sn8100-2tb,scale=0.001 --replay v3.log --replay-timing $timing \
		--qd 4 --iolog v3.csv --no-db >/dev/null || fail "v3 replay on sim ($timing)"
	python3 - v3.csv $timing <<'PY' || fail "v3 ($2): start times are not the trace's"
import sys
want = {61440: 134, 774144: 20451, 880640: 40727, 884736: 40730, 0: 101287}
speed = 2 if sys.argv[2] == "2x" else 1
rows = [l.strip().split(",") for l in open(sys.argv[1])][1:]
assert len(rows) == 5, rows
for t, wl, job, op, off, ln, lat, res in rows:
    start = int(t) - int(lat)
    exp = (want[int(off)] - 134) * 1000 // speed
    assert start == exp, (off, start, exp)
print("start times exact")
PY
done

echo "== at its recorded times a replay is an open loop: who waits for a slot is late"
# four reads due at 0, 0, 0 and 10 us: at QD1 three wait for the one
# slot; at QD4 none does, and response latency is service latency
printf 'fio version 3 iolog\n0 f read 0 131072\n0 f read 131072 131072\n0 f read 262144 131072\n10 f read 393216 131072\n' >burst.log
for qd in 1 4; do
	$S run --target sim:sn8100-2tb,scale=0.001 --replay burst.log --qd $qd --no-db --json >burst$qd.json ||
		fail "burst at QD$qd"
	python3 - burst$qd.json $qd <<'PY' || fail "burst at QD$2: lateness"
import json, sys
w = json.load(open(sys.argv[1]))["workloads"][0]
qd = int(sys.argv[2])
assert w["open_loop"] is True
late = w["read"]["lateness"]
assert late["ios"] == 4 and late["late_ios"] == (3 if qd == 1 else 0), late
if qd == 4:
    assert w["read"]["response_lat_ns"]["max"] == w["read"]["lat_ns"]["max"]
print("QD%d:" % qd, late["late_ios"], "of 4 late")
PY
done

echo "== refusals"
refused() {
	local what=$1 pat=$2 rc=0
	shift 2
	"$@" >out 2>err || rc=$?
	[ "$rc" != 0 ] || fail "$what: accepted"
	grep -q -- "$pat" err || fail "$what: message lacks '$pat': $(cat err)"
	echo "$what: $(cat err)"
}
printf 'fio version 2 iolog\nf add\nf write 0 4096\nf jump 0 4096\n' >bad.log
refused "a bad line" "bad.log:4:" $S run --target t.img --replay bad.log --no-db
[ "$(stat -c %s t.img)" = $((4 << 20)) ] || fail "a refused trace changed the target"
refused "a pipe" "cannot be read twice" $S run --target t.img --replay <(cat v2.log) --no-db
refused "--rw with a trace" "do not apply to a replay" \
	$S run --target t.img --replay v2.log --rw randwrite --no-db
refused "--jobs 2 with a trace" "jobs must be 1" $S run --target t.img --replay v2.log --jobs 2 --no-db
refused "a bad timing" "replay-timing" $S run --target t.img --replay v2.log --replay-timing fast --no-db
refused "not a trace" "not a trace this reads" $S run --target t.img --replay r.db --no-db

echo ok
