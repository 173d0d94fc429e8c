#!/usr/bin/env bash
# ssdbench run on zram when it is free: a RAM-backed block device where
# every io_uring I/O is punted to a worker thread (see bench/README.md).
source "$(dirname "$0")/lib.sh"
dev=$(make_zram 64)
S=$SSDBENCH
$S run --target "$dev" --rw write --bs 128k --qd 8 --destroy-data --no-db --json >"$TEST_TMP/w.json"
[ "$(json_get "$TEST_TMP/w.json" 'd["workloads"][0]["write"]["total_bytes"]')" = $((64 << 20)) ] || fail "fill"
$S run --target "$dev" --rw randread --bs 4k --qd 32 --time 1s --no-db --json >"$TEST_TMP/r.json"
python3 - "$TEST_TMP/r.json" <<'PY' || fail "randread on zram"
import json, sys
d = json.load(open(sys.argv[1]))
r = d["workloads"][0]["read"]
assert d["target"]["kind"] == "block" and r["total_ios"] > 1000, r
PY
# The device is free the moment ssdbench exits (rings are torn down with
# their files unregistered first), so a reset works at once.
echo 1 > /sys/block/zram0/reset || fail "zram0 still busy right after ssdbench exited"
echo ok
