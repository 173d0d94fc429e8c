#!/usr/bin/env bash
# An open loop from the command line (docs/run.md): --rate-iops and
# --rate-process on a simulated drive, its response latency and late
# starts in run's summary and JSON, in show and show --json, stored and
# read back; a closed loop has none; an older database (schema 4, before
# response latency was kept) still reads, and is upgraded when written.
source "$(dirname "$0")/lib.sh"
S=$SSDBENCH
T=sim:micron1300-1tb,scale=0.01
db=$TEST_TMP/r.db

echo "== poisson arrivals at 20000 IOPS, QD 8: the rate is achieved"
$S run --target $T --rw randread --qd 8 --rate-iops 20k --rate-process poisson \
	--time 1s --seed 5 --db "$db" --json >"$TEST_TMP/o.json" 2>"$TEST_TMP/err" ||
	fail "open-loop run: $(cat "$TEST_TMP/err")"
python3 - "$TEST_TMP/o.json" <<'PY' || fail "run --json"
import json, sys
d = json.load(open(sys.argv[1]))
w = d["workloads"][0]
assert w["open_loop"] is True and w["rate_iops"] == 20000 and w["rate_process"] == "poisson", w
r = w["read"]
# a Poisson count over 1 s has a standard deviation of 141 (0.7 %)
assert abs(r["iops"] - 20000) <= 600, r["iops"]
resp, lat, late = r["response_lat_ns"], r["lat_ns"], r["lateness"]
assert resp is not None and late is not None
# every I/O is in the three histograms; response = lateness + service
assert late["ios"] == r["total_ios"], (late, r["total_ios"])
assert resp["mean"] >= lat["mean"], (resp["mean"], lat["mean"])
assert abs(resp["mean"] - lat["mean"] - late["late_ios"] * (late["late_mean_ns"] or 0) / late["ios"]) <= 0.001 * resp["mean"] + 1
assert resp["max"] >= lat["max"]
assert w["write"]["response_lat_ns"] is not None   # every direction has the keys
PY
run=$(json_get "$TEST_TMP/o.json" "d['run_id']")

echo "== the same on the summary"
$S run --target $T --rw randread --qd 8 --rate-iops 20000 --time 300ms --no-db \
	>"$TEST_TMP/sum.txt" 2>"$TEST_TMP/err" || fail "summary run: $(cat "$TEST_TMP/err")"
cat "$TEST_TMP/sum.txt"
grep -q "at 20000 IOPS uniform" "$TEST_TMP/sum.txt" || fail "the description lacks the rate"
grep -qE '^ +response mean ' "$TEST_TMP/sum.txt" || fail "no response latency line"
grep -qE '^ +late: ' "$TEST_TMP/sum.txt" || fail "no late line"
grep -q "open loop: lat is service latency" "$TEST_TMP/sum.txt" || fail "no open-loop note"

echo "== show and show --json read it back"
$S show "$run" --db "$db" >"$TEST_TMP/show.txt" || fail "show"
grep -qE '^ +response ' "$TEST_TMP/show.txt" || fail "show lacks the response line: $(cat "$TEST_TMP/show.txt")"
grep -qE 'late: ' "$TEST_TMP/show.txt" || fail "show lacks the late line"
$S show "$run" --db "$db" --json >"$TEST_TMP/show.json" || fail "show --json"
python3 - "$TEST_TMP/o.json" "$TEST_TMP/show.json" <<'PY' || fail "show --json disagrees with run --json"
import json, sys
run = json.load(open(sys.argv[1]))["workloads"][0]["read"]
show = json.load(open(sys.argv[2]))["workloads"][0]["read"]
assert show["response_lat_ns"]["count"] == run["total_ios"]
assert show["response_lat_ns"]["max"] == run["response_lat_ns"]["max"]
assert show["lateness"] == run["lateness"], (show["lateness"], run["lateness"])
PY

echo "== export --csv --summary has the same response latency and late starts"
$S export "$run" --db "$db" --csv --summary >"$TEST_TMP/sum.csv" || fail "export --csv --summary"
python3 - "$TEST_TMP/show.json" "$TEST_TMP/sum.csv" <<'PY' || fail "the CSV disagrees with JSON"
import csv, json, sys
j = json.load(open(sys.argv[1]))["workloads"][0]["read"]
row = [r for r in csv.DictReader(open(sys.argv[2])) if r["direction"] == "read"][0]
resp, late = j["response_lat_ns"], j["lateness"]
for k in ("count", "min", "p50", "p99", "p99.9", "p99.99", "max"):
    col = "response_lat_" + k.replace(".", "_") + ("" if k == "count" else "_ns")
    assert int(row[col]) == resp[k], (col, row[col], resp[k])
assert abs(float(row["response_lat_mean_ns"]) - resp["mean"]) <= 1e-6 * resp["mean"]
assert int(row["lateness_ios"]) == late["ios"] and int(row["lateness_late_ios"]) == late["late_ios"]
assert int(row["lateness_p99_ns"]) == late["p99_ns"] and int(row["lateness_max_ns"]) == late["max_ns"]
PY

echo "== a closed loop has no response latency"
$S run --target $T --rw randread --qd 4 --time 200ms --db "$db" --json >"$TEST_TMP/c.json" ||
	fail "closed-loop run"
[ "$(json_get "$TEST_TMP/c.json" "d['workloads'][0]['read']['response_lat_ns']")" = None ] ||
	fail "a closed loop reports response latency"
crun=$(json_get "$TEST_TMP/c.json" "d['run_id']")
$S show "$crun" --db "$db" --json >"$TEST_TMP/cs.json" || fail "show closed"
[ "$(json_get "$TEST_TMP/cs.json" "d['workloads'][0]['read']['lateness']")" = None ] ||
	fail "show: a closed loop has late starts"
$S export "$crun" --db "$db" --csv --summary >"$TEST_TMP/csum.csv" || fail "export closed"
python3 - "$TEST_TMP/csum.csv" <<'PY' || fail "export --csv: a closed loop has response columns filled"
import csv, sys
row = list(csv.DictReader(open(sys.argv[1])))[0]
cols = [k for k in row if k.startswith(("response_lat_", "lateness_"))]
assert len(cols) == 15 and all(row[k] == "" for k in cols), row
PY

echo "== a real target (io_uring on a file): the schedule holds, lateness is measured"
f=$TEST_TMP/file
$S run --target "$f" --size 64m --rw randread --qd 4 --rate-iops 2000 --time 2s --no-db \
	--json >"$TEST_TMP/f.json" 2>"$TEST_TMP/err" || fail "file run: $(cat "$TEST_TMP/err")"
python3 - "$TEST_TMP/f.json" <<'PY' || fail "file run"
import json, sys
r = json.load(open(sys.argv[1]))["workloads"][0]["read"]
# 4000 arrivals in 2 s: never more issued; fewer only when the machine
# held the thread past the end (nothing is issued after it), so the rate
# within 3 %
assert 3880 <= r["total_ios"] <= 4000, r["total_ios"]
assert abs(r["iops"] - 2000) <= 60, r["iops"]
l = r["lateness"]
assert l["ios"] == r["total_ios"] and r["response_lat_ns"]["max"] >= r["lat_ns"]["max"], l
PY

echo "== refusals"
expect_fail "two rates" $S run --target $T --rw randread --rate 10m --rate-iops 100 --time 100ms --no-db
grep -q "give one of them" <<<"$LAST_ERR" || fail "two rates: $LAST_ERR"
expect_fail "a process without a rate" $S run --target $T --rw randread --rate-process poisson --time 100ms --no-db
grep -q "needs a rate" <<<"$LAST_ERR" || fail "process without rate: $LAST_ERR"
expect_fail "an unknown process" $S run --target $T --rate-iops 10 --rate-process bursty --no-db
grep -q "not uniform or poisson" <<<"$LAST_ERR" || fail "unknown process: $LAST_ERR"
expect_fail "a bad count" $S run --target $T --rate-iops 12x --no-db

if command -v sqlite3 >/dev/null; then
	echo "== a schema-4 database reads, and is upgraded when written"
	cp "$db" "$TEST_TMP/old.db"
	# (what versions 5 and 6 added taken out again)
	sqlite3 "$TEST_TMP/old.db" "DROP TABLE arrival_histograms; ALTER TABLE workloads DROP COLUMN io_way; ALTER TABLE workloads DROP COLUMN ios_simulated; PRAGMA user_version = 4"
	$S show "$run" --db "$TEST_TMP/old.db" --json >"$TEST_TMP/old.json" || fail "show on a version-4 file"
	[ "$(json_get "$TEST_TMP/old.json" "d['workloads'][0]['read']['response_lat_ns']")" = None ] ||
		fail "a version-4 file has response latency"
	[ "$(sqlite3 "$TEST_TMP/old.db" "PRAGMA user_version")" = 4 ] || fail "show upgraded the file"
	$S run --target $T --rw randread --rate-iops 1000 --time 100ms --db "$TEST_TMP/old.db" >/dev/null ||
		fail "run into a version-4 file"
	[ "$(sqlite3 "$TEST_TMP/old.db" "PRAGMA user_version")" -ge 5 ] || fail "not upgraded"
	[ "$(sqlite3 "$TEST_TMP/old.db" "SELECT count(*) FROM arrival_histograms WHERE kind = 'response'")" -ge 1 ] ||
		fail "no response histogram stored after the upgrade"
else
	echo "sqlite3 is not installed: the schema-4 check is not run"
fi
echo ok
