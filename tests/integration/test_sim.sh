#!/usr/bin/env bash
# The simulator from the command line: the profile commands, a user's
# profile file (round trip through 'sim show', and rejections with file,
# key and reason), runs on sim: targets through the engine (exact bytes,
# bulk and per-I/O agreement, identical reruns), all at small scale.
source "$(dirname "$0")/lib.sh"
S=$SSDBENCH

echo "== sim list names the drives of the reviews"
$S sim list >"$TEST_TMP/list"
for p in sn8100-2tb micron1300-1tb p4800x-375gb pm1725-3.2tb p1-1tb; do
	grep -q "^$p " "$TEST_TMP/list" || fail "sim list lacks $p"
done

echo "== sim show gives parameters and expected figures"
$S sim show sn8100-2tb >"$TEST_TMP/sn.ini"
grep -q '^user_gb *= 2000' "$TEST_TMP/sn.ini" || fail "show: user_gb"
grep -q 'SLC cache: 677 GB on an empty drive, 11 GB on a full one' "$TEST_TMP/sn.ini" || fail "show: cache"
grep -q 'bursts: 1.50 GB' "$TEST_TMP/sn.ini" || fail "show: bursts"
$S sim show sn8100-2tb,scale=0.01 | grep -q '^user_gb *= 20$' || fail "show: scale"
grep -q '^dram_mib *= 2048' "$TEST_TMP/sn.ini" || fail "show: dram_mib"
grep -q 'L2P map: 1863 MiB, held whole in 2048 MiB of DRAM' "$TEST_TMP/sn.ini" || fail "show: the map is held whole"
$S sim show rc100-480gb >"$TEST_TMP/rc.ini"
grep -q '^hmb_mib *= 24' "$TEST_TMP/rc.ini" || fail "show: hmb_mib"
grep -q 'caches 25.8 GB of the 480 GB' "$TEST_TMP/rc.ini" || fail "show: the cached span (24 GiB by hand)"
expect_fail "unknown profile" $S sim show nosuchdrive
grep -q "p1-1tb" <<<"$LAST_ERR" || fail "unknown profile: the message lists the built-ins: $LAST_ERR"
expect_fail "no subcommand" $S sim

echo "== info describes a simulated drive: model, capacity, expected figures"
$S info sim:sn8100-2tb >"$TEST_TMP/info" || fail "info sim: exits non-zero"
cat "$TEST_TMP/info"
grep -qE '^  model +WD_BLACK SN8100 2TB \(simulated\)$' "$TEST_TMP/info" || fail "info: model"
grep -qE '^  size +2\.00 TB \(2000000000000 bytes\)$' "$TEST_TMP/info" || fail "info: size in TB and bytes"
grep -q 'SLC cache: 677 GB on an empty drive, 11 GB on a full one' "$TEST_TMP/info" || fail "info: cache"
$S info sim:sn8100-2tb,scale=0.01 | grep -qE '^  model +WD_BLACK SN8100 2TB \(simulated, scale 0\.01\)$' \
	|| fail "info: a scaled drive says so"
$S info sim:sn8100-2tb --json >"$TEST_TMP/info.json"
python3 - "$TEST_TMP/info.json" <<'PY' || fail "info --json of a simulated drive"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["kind"] == "sim" and d["size"] == 2000000000000, d
assert d["device"]["model"] == "WD_BLACK SN8100 2TB (simulated)", d
assert d["device"]["profile"] == "sn8100-2tb" and d["device"]["simulated"] is True
PY
expect_fail "info of an unknown profile" $S info sim:nosuchdrive

echo "== a user's profile: the show output runs as a file"
cp "$TEST_TMP/sn.ini" "$TEST_TMP/mine.ini"
$S run --target "sim:$TEST_TMP/mine.ini,scale=0.001" --rw write --bs 128k --qd 64 --no-db --json >"$TEST_TMP/mine.json"
python3 - "$TEST_TMP/mine.json" <<'PY' || fail "run on a profile file"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "done" and d["engine"]["backend"] == "sim"
assert d["engine"]["mode"] == "virtual"
w = d["workloads"][0]["write"]
assert w["total_bytes"] == d["target"]["size"] // 131072 * 131072, w["total_bytes"]
PY

echo "== bad profiles are refused with the file, the key and the reason"
grep -v '^w_dir_gbs' "$TEST_TMP/sn.ini" >"$TEST_TMP/missing.ini"
expect_fail "missing key" $S sim show "$TEST_TMP/missing.ini"
grep -q "missing.ini" <<<"$LAST_ERR" && grep -q "missing key 'w_dir_gbs'" <<<"$LAST_ERR" || fail "missing key message: $LAST_ERR"
sed 's/^units .*/units = 0/' "$TEST_TMP/sn.ini" >"$TEST_TMP/zero.ini"
expect_fail "impossible value" $S run --target "sim:$TEST_TMP/zero.ini" --rw read --no-db
grep -q "zero.ini:[0-9]*: key 'units'" <<<"$LAST_ERR" || fail "impossible value message: $LAST_ERR"
sed 's/^phys_gb .*/phys_gb = 1500/' "$TEST_TMP/sn.ini" >"$TEST_TMP/small.ini"
expect_fail "inconsistent capacities" $S sim show "$TEST_TMP/small.ini"
grep -q "small.ini:[0-9]*: key 'phys_gb'" <<<"$LAST_ERR" || fail "capacity message: $LAST_ERR"
expect_fail "bad option" $S run --target "sim:sn8100-2tb,scale=7" --rw read --no-db
grep -q "scale" <<<"$LAST_ERR" || fail "scale message: $LAST_ERR"

echo "== bulk and per-I/O simulation of a fill agree"
t() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["workloads"][0]["measured_ns"])' "$1"; }
$S run --target sim:micron1300-1tb,scale=0.002 --rw write --bs 128k --qd 32 --no-db --json >"$TEST_TMP/bulk.json"
$S run --target sim:micron1300-1tb,scale=0.002,fluid=0 --rw write --bs 128k --qd 32 --no-db --json >"$TEST_TMP/per.json"
python3 - "$(t "$TEST_TMP/bulk.json")" "$(t "$TEST_TMP/per.json")" <<'PY' || fail "bulk vs per-I/O"
import sys
a, b = float(sys.argv[1]), float(sys.argv[2])
assert abs(a - b) <= 0.03 * b, (a, b)
PY

echo "== reruns with a seed are identical"
for i in 1 2; do
	$S run --target sim:sn8100-2tb,scale=0.001,seed=4 --rw randrw --rwmixread 70 --qd 8 --time 2s --seed 3 --no-db --json \
		| python3 -c 'import json,sys; d=json.load(sys.stdin); w=d["workloads"][0]; print(w["read"], w["write"], w["measured_ns"])' >"$TEST_TMP/rerun$i"
done
cmp -s "$TEST_TMP/rerun1" "$TEST_TMP/rerun2" || fail "reruns differ"

echo "== percentiles without one I/O beyond them are marked, not printed as measured"
# 100 reads: p99 has exactly one beyond it, p99.9 and higher none.
$S run --target sim:p1-1tb,scale=0.001 --rw randread --qd 4 --bytes 400k --no-db >"$TEST_TMP/few.txt"
grep -qE 'p99 [0-9.]+ [mun]?s, p99\.9 =max, p99\.99 =max, p99\.999 =max, p99\.9999 =max, max' "$TEST_TMP/few.txt" \
	|| fail "summary marks p99.9 and up: $(cat "$TEST_TMP/few.txt")"
grep -q '^=max: fewer than one I/O beyond' "$TEST_TMP/few.txt" || fail "summary explains =max"
$S run --target sim:p1-1tb,scale=0.001 --rw randread --qd 4 --bytes 400k --no-db --json >"$TEST_TMP/few.json"
python3 - "$TEST_TMP/few.json" <<'PY' || fail "JSON unsupported_percentiles"
import json, sys
from fractions import Fraction
d = json.load(open(sys.argv[1]))
lat = d["workloads"][0]["read"]["lat_ns"]
n = d["workloads"][0]["read"]["total_ios"]
assert n == 100, n
# Independent rule: n * (100 - p) / 100 < 1, in exact fractions.
want = [k for k in lat["percentiles"] if n * (100 - Fraction(k)) / 100 < 1]
assert lat["unsupported_percentiles"] == want, (lat["unsupported_percentiles"], want)
assert "99.000000" not in want and "99.900000" in want
for k in want:
    assert lat["percentiles"][k] == lat["max"]
PY
echo ok
