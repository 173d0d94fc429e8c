#!/usr/bin/env bash
# random_distribution through `run` on a simulated drive: the per-I/O log's
# offsets fall into the zones with their shares (within 1 %), the
# definition is recorded in the JSON output and the database, a job file
# sets it per section, and bad definitions are refused before any I/O.
source "$(dirname "$0")/lib.sh"
S=$SSDBENCH
T=sim:p1-1tb,scale=0.001

echo "== zoned from the command line: shares of the logged offsets"
$S run --target $T --rw randread --qd 8 --bytes 800m --seed 5 \
	--random_distribution zoned:50/5:30/15:20/80 --iolog "$TEST_TMP/io.csv" \
	--db "$TEST_TMP/r.db" --json >"$TEST_TMP/out.json" || fail "run"
python3 - "$TEST_TMP/io.csv" "$TEST_TMP/out.json" <<'PY' || fail "zone shares"
import csv, json, sys
d = json.load(open(sys.argv[2]))
size = d["target"]["size"]
w = d["workloads"][0]
assert w["random_distribution"] == "zoned:50/5:30/15:20/80", w
assert "zoned:50/5:30/15:20/80" in w["description"], w["description"]
blocks = size // 4096
bounds = [blocks * 5 // 100, blocks * 20 // 100, blocks]
want = [0.50, 0.30, 0.20]
n = [0, 0, 0]
total = 0
for row in csv.DictReader(open(sys.argv[1])):
    b = int(row["offset"]) // 4096
    total += 1
    n[0 if b < bounds[0] else 1 if b < bounds[1] else 2] += 1
assert total == 800 * 2**20 // 4096, total
for z in range(3):
    share = n[z] / total
    assert abs(share - want[z]) <= 0.01 * want[z], (z, share, want[z])
print("zone shares", [round(x / total, 4) for x in n])
PY
spec=$(sqlite3 "$TEST_TMP/r.db" "SELECT json_extract(spec_json, '\$.random_distribution') FROM workloads")
[ "$spec" = "zoned:50/5:30/15:20/80" ] || fail "database spec: '$spec'"

echo "== a job file sets it per section (also by profile); the other section stays uniform"
cat >"$TEST_TMP/j.fio" <<'JOB'
[global]
rw=randread
bs=4k
io_size=8m

[hot]
random_distribution=zipf:1.2

[flat]

[endurance]
profile=jesd219
iodepth=4
JOB
$S run --target $T --job "$TEST_TMP/j.fio" --no-db --json >"$TEST_TMP/j.json" || fail "job file run"
python3 - "$TEST_TMP/j.json" <<'PY' || fail "job file record"
import json, sys
d = json.load(open(sys.argv[1]))
got = {w["name"]: w["random_distribution"] for w in d["workloads"]}
assert got == {"hot": "zipf:1.2", "flat": "uniform",
               "endurance": "zoned:50/5:30/15:20/80"}, got
e = [w for w in d["workloads"] if w["name"] == "endurance"][0]
assert e["rw"] == "randwrite" and e["qd"] == 4 and e["bssplit"].startswith("512/4:1k/1:"), e
PY

echo "== bssplit per direction: sizes' shares in the I/O log, bytes, offsets"
$S run --target $T --rw randrw --rwmixread 50 --qd 8 --bytes 16g --seed 9 \
	--bssplit 4k/70:8k/30,4k/20:16k/80 --iolog "$TEST_TMP/bs.csv" --no-db --json >"$TEST_TMP/bs.json" || fail "bssplit run"
python3 - "$TEST_TMP/bs.csv" "$TEST_TMP/bs.json" <<'PY' || fail "bssplit shares"
import csv, json, sys, collections
d = json.load(open(sys.argv[2]))
w = d["workloads"][0]
assert w["bssplit"] == "4k/70:8k/30,4k/20:16k/80,4k/20:16k/80", w["bssplit"]
size = d["target"]["size"]
n = collections.Counter()
per = collections.Counter()
nbytes = collections.Counter()
for row in csv.DictReader(open(sys.argv[1])):
    off, ln = int(row["offset"]), int(row["len"])
    assert off % 4096 == 0 and off + ln <= size, (off, ln)
    n[(row["op"], ln)] += 1
    per[row["op"]] += 1
    nbytes[row["op"]] += ln
want = {("R", 4096): .7, ("R", 8192): .3, ("W", 4096): .2, ("W", 16384): .8}
assert set(n) == set(want), n
for k, p in want.items():
    share = n[k] / per[k[0]]
    assert abs(share - p) <= 0.01 * p, (k, share, p)
# the totals are the logged I/Os' bytes, and the budget is met within one I/O
assert w["read"]["total_bytes"] == nbytes["R"] and w["write"]["total_bytes"] == nbytes["W"]
total = nbytes["R"] + nbytes["W"]
assert 16 * 2**30 <= total < 16 * 2**30 + 16384 * 8, total
print("size shares", {k: round(v / per[k[0]], 4) for k, v in n.items()})
PY

echo "== --profile jesd219: the block-size histogram is JESD219's table"
$S run --target $T --profile jesd219 --bytes 4g --seed 219 --iolog "$TEST_TMP/j219.csv" \
	--no-db --json >"$TEST_TMP/j219.json" || fail "jesd219 run"
python3 - "$TEST_TMP/j219.csv" "$TEST_TMP/j219.json" <<'PY' || fail "jesd219 histogram"
import csv, json, math, sys, collections
# JEDEC JESD219 (2010), enterprise endurance workload: transfer size (bytes)
# and share of the accesses (%)
table = {512: 4, 1024: 1, 1536: 1, 2048: 1, 2560: 1, 3072: 1, 3584: 1,
         4096: 67, 8192: 10, 16384: 7, 32768: 3, 65536: 3}
d = json.load(open(sys.argv[2]))
size = d["target"]["size"]
w = d["workloads"][0]
assert w["rw"] == "randwrite" and w["qd"] == 32, w
assert w["random_distribution"] == "zoned:50/5:30/15:20/80", w
sizes = collections.Counter()
zones = [0, 0, 0]
n = 0
for row in csv.DictReader(open(sys.argv[1])):
    assert row["op"] == "W"
    off, ln = int(row["offset"]), int(row["len"])
    sizes[ln] += 1
    zones[0 if off < size * 5 // 100 else 1 if off < size * 20 // 100 else 2] += 1
    n += 1
assert set(sizes) == set(table), sorted(sizes)
for bs, pct in table.items():
    p = pct / 100
    # the histogram of n draws: within 4 standard errors of the table
    tol = 4 * math.sqrt(p * (1 - p) / n)
    assert abs(sizes[bs] / n - p) <= tol, (bs, sizes[bs] / n, p, tol)
for z, p in enumerate([0.5, 0.3, 0.2]):
    assert abs(zones[z] / n - p) <= 0.01 * p, (z, zones[z] / n, p)
print(n, "I/Os; sizes", {bs: round(100 * c / n, 2) for bs, c in sorted(sizes.items())},
      "zones", [round(z / n, 4) for z in zones])
PY

echo "== refusals"
expect_fail "bssplit sequential" $S run --target $T --rw write --bssplit 4k/50:8k/50 --no-db
grep -q "bssplit applies to random I/O" <<<"$LAST_ERR" || fail "bssplit sequential: $LAST_ERR"
expect_fail "bssplit sums" $S run --target $T --rw randread --bssplit 4k/50:8k/40 --no-db
grep -q "not 100" <<<"$LAST_ERR" || fail "bssplit sums: $LAST_ERR"
expect_fail "sequential" $S run --target $T --rw write --random_distribution zipf:1.2 --no-db
grep -q "applies to random I/O" <<<"$LAST_ERR" || fail "sequential: $LAST_ERR"
expect_fail "sums" $S run --target $T --rw randread --random_distribution zoned:60/10:30/20 --no-db
grep -q "must be 100" <<<"$LAST_ERR" || fail "sums: $LAST_ERR"
expect_fail "unknown" $S run --target $T --rw randread --random_distribution lognormal:2 --no-db
grep -q "is not one of uniform" <<<"$LAST_ERR" || fail "unknown: $LAST_ERR"
echo ok
