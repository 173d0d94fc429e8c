#!/usr/bin/env bash
# ssdbench analyze reads what fio leaves behind: a bandwidth log written on
# a loop device gives the same total bytes as fio's JSON reports (exactly
# for a per-I/O log; within fio's unlogged last window for an averaged
# one), fio's JSON is read back as fio wrote it, and a stored run is
# analysed.  Bad input is refused with a reason.
source "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || skip "fio is not installed"
dev=$(make_loop 192)
cd "$TEST_TMP"

# per-I/O log: every write is one line with its size
fio --name=seq --filename="$dev" --rw=write --bs=128k --size=64M --direct=1 \
    --ioengine=libaio --iodepth=8 --write_bw_log=seq \
    --output-format=json --output=seq.json >/dev/null
"$SSDBENCH" analyze --fio-log seq_bw.1.log --json > a.json
fio_bytes=$(json_get seq.json 'd["jobs"][0]["write"]["io_bytes"]')
got=$(json_get a.json 'd["traces"][0]["total_bytes"]')
[ "$got" = "$fio_bytes" ] || fail "per-I/O log: $got bytes, fio says $fio_bytes"
[ "$(json_get a.json 'd["traces"][0]["direction"]')" = write ] || fail "direction"
[ "$(json_get a.json 'd["traces"][0]["total_ios"]')" = \
  "$(json_get seq.json 'd["jobs"][0]["write"]["total_ios"]')" ] || fail "I/O count"

# averaged log over 2.5 s, rate-limited so it lasts; 250 ms windows, so
# fio's sampler would have to run late by almost a window on a loaded
# machine before a late entry read as a stall
fio --name=avg --filename="$dev" --rw=write --bs=128k --direct=1 \
    --ioengine=libaio --iodepth=4 --rate=40m --time_based --runtime=2500ms \
    --write_bw_log=avg --log_avg_msec=250 \
    --output-format=json --output=avg.json >/dev/null
"$SSDBENCH" analyze --fio-log avg_bw.1.log --kind fill --json > b.json
python3 - avg.json b.json <<'PY' || fail "averaged log total differs from fio's"
import json, sys
fio = json.load(open(sys.argv[1]))["jobs"][0]["write"]
got = json.load(open(sys.argv[2]))["traces"][0]
# fio leaves the last partial window (< 250 ms) out of an averaged log
slack = fio["bw_bytes"] * 0.25 + 128 * 1024
print("fio", fio["io_bytes"], "log", got["total_bytes"], "slack", slack)
assert abs(got["total_bytes"] - fio["io_bytes"]) <= slack
assert 2.2 <= got["total_s"] <= 2.55, got["total_s"]
assert abs(got["fill"]["true_avg_bps"] / (40 * 1048576) - 1) < 0.05
assert got["fill"]["has_cache"] is False
PY

# fio's JSON read back
"$SSDBENCH" analyze --fio-json seq.json --json > c.json
[ "$(json_get c.json 'd["fio_jobs"][0]["write"]["io_bytes"]')" = "$fio_bytes" ] || fail "fio JSON io_bytes"
[ "$(json_get c.json 'd["fio_jobs"][0]["name"]')" = seq ] || fail "fio JSON job name"
p99=$(json_get seq.json 'd["jobs"][0]["write"]["clat_ns"]["percentile"]["99.000000"]')
[ "$(json_get c.json 'd["fio_jobs"][0]["write"]["clat_percentiles_ns"]["p99"]')" = "$p99" ] || fail "fio JSON p99"
"$SSDBENCH" analyze --fio-json seq.json | grep -q "write: $fio_bytes bytes" || fail "fio JSON text"

# unified_rw_reporting's "mixed" section and lat_percentiles' lat_ns
# percentiles, read as fio wrote them
fio --name=mx --filename="$TEST_TMP/mx" --size=8M --rw=randrw --bs=4k --ioengine=psync \
    --runtime=1s --time_based --unified_rw_reporting=1 --lat_percentiles=1 \
    --output-format=json --output=mx.json >/dev/null
"$SSDBENCH" analyze --fio-json mx.json --json > mx.out
python3 - mx.json mx.out <<'PY2' || fail "mixed / lat_ns"
import json, sys
m = json.load(open(sys.argv[1]))["jobs"][0]["mixed"]
g = json.load(open(sys.argv[2]))["fio_jobs"][0]
assert "read" not in g and "write" not in g
o = g["mixed"]
assert o["io_bytes"] == m["io_bytes"] and o["total_ios"] == m["total_ios"]
assert o["lat_mean_ns"] == m["lat_ns"]["mean"]
for k, v in m["lat_ns"]["percentile"].items():
    assert o["lat_percentiles_ns"]["p%g" % float(k)] == v, k
PY2

# a stored run: ssdbench's own samples through the store
"$SSDBENCH" run --target "$TEST_TMP/file" --size 32M --rw write --bs 128k \
    --qd 4 --time 1s --db run.db >/dev/null
"$SSDBENCH" analyze last --db run.db --json > d.json
python3 - d.json <<'PY' || fail "stored run analysis"
import json, sys
t = json.load(open(sys.argv[1]))["traces"][0]
assert t["direction"] == "write" and t["metric"] == "bw"
assert t["samples"] >= 9 and t["total_bytes"] > 0
assert t["latency"]["count"] == t["total_ios"]
assert t["steady"]["rule"] == "fio-slope"
PY
"$SSDBENCH" analyze last --db run.db --kind consistency | grep -q "consistency (bw)" || fail "text output"

# refusals
printf '1, 2, 3\n' > bad.log
expect_fail "garbage log" "$SSDBENCH" analyze --fio-log bad.log
grep -q "line 1: not a fio log line" <<<"$LAST_ERR" || fail "garbage log message: $LAST_ERR"
expect_fail "missing file" "$SSDBENCH" analyze --fio-log nothere.log
grep -q "cannot open nothere.log" <<<"$LAST_ERR" || fail "missing file message: $LAST_ERR"
echo '{"x": 1}' > notfio.json
expect_fail "not fio JSON" "$SSDBENCH" analyze --fio-json notfio.json
grep -q 'no "jobs" array' <<<"$LAST_ERR" || fail "not fio JSON message: $LAST_ERR"
if "$SSDBENCH" analyze 1 --fio-log seq_bw.1.log 2>/dev/null; then fail "two sources accepted"; fi
"$SSDBENCH" analyze 1 --fio-log seq_bw.1.log 2>/dev/null || [ $? -eq 2 ] || fail "two sources: exit code"
expect_fail "bad kind" "$SSDBENCH" analyze --fio-log seq_bw.1.log --kind nope
grep -q "unknown analysis 'nope'" <<<"$LAST_ERR" || fail "bad kind message"
expect_fail "bad run" "$SSDBENCH" analyze 99 --db run.db
expect_fail "no database" "$SSDBENCH" analyze 1 --db none.db
echo ok
