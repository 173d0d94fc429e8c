#!/usr/bin/env bash
# ssdbench run -> show -> export on a small file: what show and export read
# back from the database must be what run measured and printed, and a run
# killed with SIGKILL must stay readable, shown as interrupted or running.
source "$(dirname "$0")/lib.sh"
cd "$TEST_TMP"
db=$TEST_TMP/r.db

"$SSDBENCH" run --target f.img --size 16m --rw randrw --bs 4k --qd 4 \
	--time 1s --ramp 200ms --db "$db" --json >run.json 2>run.err \
	|| { cat run.err; fail "ssdbench run"; }
id=$(json_get run.json 'd["run_id"]')

"$SSDBENCH" show --db "$db" | grep -qE "^ +$id .* done +interrupt +f\.img$" || fail "run listed"
[ "$(json_get run.json 'd["engine"]["batch"]')" = 1 ] || fail "default batch is 1"

"$SSDBENCH" show "$id" --db "$db" --json >show.json
"$SSDBENCH" export "$id" --db "$db" --csv -o samples.csv
python3 - run.json show.json samples.csv <<'PY' || fail "show/export agree with run"
import csv, json, sys
run = json.load(open(sys.argv[1]))
show = json.load(open(sys.argv[2]))
rows = list(csv.DictReader(open(sys.argv[3])))
assert show["run"]["status"] == "done" and show["run"]["engine_mode"] == run["engine"]["mode"]
rw, sw = run["workloads"][0], show["workloads"][0]
assert sw["final"] and sw["measured_ns"] == rw["measured_ns"]
for d in ("read", "write"):
    r, s = rw[d], sw[d]
    assert r["total_ios"] > 0
    assert s["total_ios"] == r["total_ios"] and s["total_bytes"] == r["total_bytes"]
    assert abs(s["iops"] - r["iops"]) <= 1e-9 * r["iops"]
    # The same histogram, stored and read back: identical figures.
    assert s["lat_ns"]["min"] == r["lat_ns"]["min"] and s["lat_ns"]["max"] == r["lat_ns"]["max"]
    assert s["lat_ns"]["p50"] == r["lat_ns"]["percentiles"]["50.000000"]
    assert s["lat_ns"]["p99"] == r["lat_ns"]["percentiles"]["99.000000"]
    assert s["lat_ns"]["count"] == r["total_ios"]
    # The measured samples add up to the totals; the ramp ones are marked.
    measured = [x for x in rows if x["ramp"] == "0"]
    assert sum(int(x[d + "_ios"]) for x in measured) == r["total_ios"], d
    assert sum(int(x[d + "_bytes"]) for x in measured) == r["total_bytes"], d
assert any(x["ramp"] == "1" for x in rows)
assert [int(x["idx"]) for x in rows] == list(range(len(rows)))
PY

# A run killed mid-way keeps what it committed and stays readable.
"$SSDBENCH" run --target f.img --rw randread --bs 4k --time 60s --db "$db" \
	>/dev/null 2>&1 &
pid=$!
# Wait until at least a second of samples is committed (readable from
# outside), then kill: all of those must still be there afterwards.
seen=0 killed=$((id + 1))
for _ in $(seq 300); do
	seen=$("$SSDBENCH" export $killed --db "$db" --csv 2>/dev/null | tail -n +2 | wc -l) || seen=0
	[ "$seen" -ge 10 ] && break
	sleep 0.1
done
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
[ "$seen" -ge 10 ] || fail "no committed samples visible while the run went"
"$SSDBENCH" show --db "$db" >list.txt
cat list.txt
grep -qE '^ +[0-9]+ .*running\*' list.txt || fail "killed run listed as running*"
"$SSDBENCH" show $killed --db "$db" | grep -q 'interrupted or still running' \
	|| fail "killed run explained"
n=$("$SSDBENCH" export $killed --db "$db" --csv | tail -n +2 | wc -l)
echo "killed run: $seen samples seen before the kill, $n stored after"
[ "$n" -ge "$seen" ] || fail "samples lost by the kill: $seen seen, $n left"
# An explicit completion batch is recorded with the run, not only printed.
"$SSDBENCH" run --target f.img --size 16m --rw randread --bs 4k --qd 8 --batch 4 \
	--time 200ms --db "$db" --json >batch.json || fail "run --batch 4"
[ "$(json_get batch.json 'd["engine"]["batch"]')" = 4 ] || fail "JSON batch"
"$SSDBENCH" show "$(json_get batch.json 'd["run_id"]')" --db "$db" \
	| grep -qE '^ +engine mode +interrupt, batch 4$' || fail "stored mode names the batch"
echo "run/show/export: ok"
