#!/usr/bin/env bash
# show and export on a database of known contents (written by the unit
# program test_store_demo; its header says what is in it): the numbers
# printed and exported must be the ones it was built from, and every bad
# input must be refused with the documented exit status.
source "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
demo=${SSDBENCH_STORE_DEMO:-$root/build/san/tests/test_store_demo}
[ -x "$demo" ] || skip "no $demo (make san builds it)"

db=$TEST_TMP/demo.db
STORE_DEMO_DB=$db "$demo" || fail "building the demo database"
cd "$TEST_TMP"

# --- show: the list -----------------------------------------------------------
"$SSDBENCH" show --db "$db" >list.txt
cat list.txt
[ "$(grep -cE '^ +[0-9]+ ' list.txt)" = 3 ] || fail "show lists 3 runs"
head -2 list.txt | tail -1 | grep -qE '^ +3 ' || fail "newest run first"
grep -qE '^ +2 .*running\*' list.txt || fail "run 2 marked running*"
grep -q 'interrupted or still running' list.txt || fail "running explained"

"$SSDBENCH" show --db "$db" --json >list.json
[ "$(json_get list.json 'len(d["runs"])')" = 3 ] || fail "json list"
[ "$(json_get list.json 'd["runs"][2]["status"]')" = done ] || fail "json list status"

# --- show: one run ------------------------------------------------------------
"$SSDBENCH" show 1 --db "$db" >run1.txt
cat run1.txt
grep -qE '^ +read +10000\.0 +40\.96 +8000 +4\.00 ms +4\.00 ms' run1.txt || fail "read line"
grep -qE '^ +write +2500\.0 +10\.24 +2000 +20\.0 us' run1.txt || fail "write line"
grep -qE '8\.00 ms$' run1.txt || fail "read max 8 ms"
# 8000 reads: p99.9 has 8 beyond it, p99.99, p99.999 and p99.9999 less than one,
# so those three are the max and say so instead of a number.
grep -qE '^ +read .* 7\.99 ms +=max +=max +=max +8\.00 ms$' run1.txt || fail "read p99.99/p99.999/p99.9999 marked =max"
grep -q '=max: fewer than one I/O beyond' run1.txt || fail "=max explained"
grep -qE '^ +score +42\.5 points' run1.txt || fail "metric"
# Every listed percentile, p99.999 included; the stored JSON shown as
# fields a reader reads, not as escaped JSON lines.
grep -qE '^ +p50 +p99 +p99\.9 +p99\.99 +p99\.999 +p99\.9999 +max$' <(sed 's/.*mean//' run1.txt) \
	|| fail "show lists p50 ... p99.9999 with p99.999"
grep -q '[{}]' run1.txt && fail "show prints raw JSON: $(grep '[{}]' run1.txt)"
grep -qE '^ +rw +randrw$' run1.txt || fail "parameters shown as fields"
grep -qE '^ +size_bytes +1073741824$' run1.txt || fail "facts shown as fields"
"$SSDBENCH" show last --db "$db" | grep -q 'device vanished' || fail "show last"
"$SSDBENCH" show 2 --db "$db" | grep -q 'status *running (interrupted or still running)' \
	|| fail "killed run status"

"$SSDBENCH" show 1 --db "$db" --json >run1.json
python3 - run1.json <<'PY' || fail "show --json values"
import json, sys
d = json.load(open(sys.argv[1]))
w = d["workloads"][0]
r, wr = w["read"], w["write"]
assert d["run"]["params"] == {"rw": "randrw", "bs": 4096}, d["run"]["params"]
assert r["iops"] == 10000 and r["bw_bytes"] == 40960000 and r["total_ios"] == 8000
assert abs(r["lat_ns"]["p50"] - 4000000) <= 4000000 * 0.0005, r["lat_ns"]
assert abs(r["lat_ns"]["p99"] - 7920000) <= 7920000 * 0.0005, r["lat_ns"]
assert r["lat_ns"]["max"] == 8000000 and r["lat_ns"]["min"] == 1000
assert r["lat_ns"]["mean"] == 4000500
assert wr["iops"] == 2500 and wr["lat_ns"]["p99.9999"] == 20000
assert r["lat_ns"]["p99.999"] <= r["lat_ns"]["p99.9999"] and wr["lat_ns"]["p99.999"] == 20000
assert w["trim"]["total_ios"] == 0 and w["trim"]["iops"] == 0
assert "samples" not in w and "histograms" not in w
assert d["metrics"] == [{"step_id": None, "workload_id": None, "key": "score",
                         "value": 42.5, "unit": "points"}]
PY

# --- export -------------------------------------------------------------------
"$SSDBENCH" export 1 --db "$db" --csv -o samples.csv
python3 - samples.csv <<'PY' || fail "CSV samples"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
main = [r for r in rows if r["workload_name"] == "main"]
other = [r for r in rows if r["workload_name"] == "seq, 128k"]
assert len(main) == 10 and len(other) == 3, (len(main), len(other))
assert sum(int(r["read_ios"]) for r in main) == 10000
assert sum(int(r["read_ios"]) for r in main if r["ramp"] == "0") == 8000
assert [int(r["idx"]) for r in main] == list(range(10))
assert all(int(r["t_end_ns"]) - int(r["t_start_ns"]) == 100000000 for r in rows)
assert sum(int(r["write_lat_sum_ns"]) for r in main) == 2500 * 20000
PY
"$SSDBENCH" export last --db "$db" --csv | grep -c . | grep -qx 1 || fail "header only for a run without samples"

"$SSDBENCH" export 1 --db "$db" --csv --summary >summary.csv
python3 - summary.csv <<'PY' || fail "CSV summary"
import csv, sys
rows = {r["direction"]: r for r in csv.DictReader(open(sys.argv[1]))}
assert set(rows) == {"read", "write"}, rows.keys()
assert float(rows["read"]["iops"]) == 10000 and rows["read"]["lat_max_ns"] == "8000000"
assert abs(int(rows["read"]["lat_p99_9_ns"]) - 7992000) <= 7992000 * 0.0005
PY

"$SSDBENCH" export 1 --db "$db" --csv --histograms >hist.csv
python3 - hist.csv <<'PY' || fail "CSV histograms"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert sum(int(r["count"]) for r in rows if r["direction"] == "read") == 8000
w = [r for r in rows if r["direction"] == "write"]
assert len(w) == 1 and int(w[0]["bucket_low_ns"]) <= 20000 <= int(w[0]["bucket_high_ns"])
PY

"$SSDBENCH" export 1 --db "$db" --json -o all.json
python3 - all.json <<'PY' || fail "JSON export"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format"] == "ssdbench-export" and d["format_version"] == 1
w = d["workloads"][0]
assert len(w["samples"]) == 10 and w["samples"][2]["read"]["ios"] == 1000
assert w["samples"][0]["ramp"] is True and w["samples"][2]["ramp"] is False
h = w["histograms"]["read"]
assert h["count"] == 8000 and sum(b[2] for b in h["buckets"]) == 8000
assert h["min_ns"] == 1000 and h["max_ns"] == 8000000
assert d["device_readings"] == [{"t_ns": 500000000, "key": "temperature_c", "value": 41}]
assert d["run"]["facts_before"] == {"size_bytes": 1073741824}
PY
"$SSDBENCH" export 2 --db "$db" --json --samples >two.json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); w=d["workloads"][0]; assert d["steps"][1]["status"]=="running" and len(w["samples"])==5 and "histograms" not in w' two.json \
	|| fail "JSON samples of the killed run"
ls "$TEST_TMP" | grep -q '\.tmp\.' && fail "temporary export file left behind"

# --- refusals -----------------------------------------------------------------
expect_fail "unknown run" "$SSDBENCH" show 99 --db "$db"
grep -q 'no run 99' <<<"$LAST_ERR" || fail "unknown run message: $LAST_ERR"
set +e
"$SSDBENCH" export 99 --db "$db" --csv >/dev/null 2>err; [ $? = 1 ] || fail "export unknown run: exit 1"
"$SSDBENCH" show --db missing.db 2>err; [ $? = 1 ] || fail "missing db: exit 1"
grep -q 'no database at missing.db' err || fail "missing db message: $(cat err)"
[ -e missing.db ] && fail "a read command created a database"
"$SSDBENCH" show --bogus --db "$db" >/dev/null 2>err; [ $? = 2 ] || fail "unknown option: exit 2"
grep -q "unknown option '--bogus'" err || fail "unknown option message"
"$SSDBENCH" show abc --db "$db" 2>err; [ $? = 2 ] || fail "bad run id: exit 2"
"$SSDBENCH" show 1 2 --db "$db" >/dev/null 2>err; [ $? = 2 ] || fail "two runs: exit 2"
"$SSDBENCH" export 1 --db "$db" 2>err; [ $? = 2 ] || fail "no format: exit 2"
grep -q -- '--csv or --json' err || fail "no format message"
"$SSDBENCH" export 1 --db "$db" --csv --json 2>err; [ $? = 2 ] || fail "two formats: exit 2"
"$SSDBENCH" export 1 --db "$db" --csv --samples --summary 2>err; [ $? = 2 ] || fail "two parts: exit 2"
"$SSDBENCH" export --db "$db" --csv 2>err; [ $? = 2 ] || fail "no run: exit 2"
"$SSDBENCH" export 1 --db 2>err; [ $? = 2 ] || fail "--db without value: exit 2"
cp "$db" before.db
"$SSDBENCH" export 1 --db "$db" --json -o "$db" 2>err; [ $? = 2 ] || fail "export over the db: exit 2"
cmp -s "$db" before.db || fail "the database was changed by export -o"
"$SSDBENCH" export 1 --db "$db" --csv -o /nonexistent-dir/x.csv 2>err; [ $? = 1 ] || fail "unwritable -o: exit 1"
printf 'not a database at all, just text\n%.0s' $(seq 40) >notes.txt
"$SSDBENCH" show --db notes.txt 2>err; [ $? = 1 ] || fail "not a db: exit 1"
grep -q 'is not an ssdbench database' err || fail "not a db message: $(cat err)"
set -e
echo "show/export: ok"
