#!/usr/bin/env bash
# Active Range on simulated drives (METHODOLOGY §3.3): on the DRAM-less
# rc100-480gb, whose host memory buffer caches 24 MiB of map pages, the
# random-read IOPS fall past the span those pages cover, and the step's
# findings name the knee; on the SN8100, whose 2 GB of DRAM hold its whole
# map, the chart is flat.  The cached span is worked out by hand: 24 MiB /
# 4 KiB map pages = 6144 pages, each mapping 1024 x 4 KiB = 4 MiB, so
# 24 GiB; the step's spans double from 1 GiB, so the last one inside is
# 16 GiB.  Past it the drive's NAND pays a 40 us map-page read for most
# reads: the whole drive reads about a quarter slower (hand: 16 units /
# (100 + 0.946 x 40) us against 16 / 100 us).
. "$(dirname "$0")/lib.sh"
$SSDBENCH plan --preset cssd --target sim:sn8100-2tb >/dev/null 2>&1 || skip "no simulator in this build"

run_ar() {	# target, database
	$SSDBENCH suite --target "$1" --preset cssd --db "$2" --only purge,fill,active_range \
		>"$TEST_TMP/id" 2>"$TEST_TMP/err" || fail "suite on $1 failed: $(cat "$TEST_TMP/err")"
	$SSDBENCH analyze "$(cat "$TEST_TMP/id")" --db "$2" --json >"$TEST_TMP/a.json" || fail "analyze failed"
}
fig() { json_get "$TEST_TMP/a.json" "d['figures'].get('active_range.$1')"; }

echo "== a DRAM-less drive: the knee at the cached span"
run_ar sim:rc100-480gb "$TEST_TMP/rc.db"
knee=$(fig knee_gib)
drop=$(fig drop_pct)
echo "knee $knee GiB, drop $drop %"
python3 -c "import sys; sys.exit(not ($knee == 16))" || fail "knee at $knee GiB, by hand 16"
python3 -c "import sys; sys.exit(not (20 <= $drop <= 35))" || fail "whole-drive drop $drop %, by hand ~27"
# the spans up to the knee read alike; the one after it is slower
python3 -c "import sys; sys.exit(not ($(fig span5.gib) == 16 and $(fig span6.gib) == 32))" ||
	fail "spans 5 and 6: $(fig span5.gib), $(fig span6.gib) GiB"
i16=$(fig span5.iops)
i32=$(fig span6.iops)
python3 -c "import sys; sys.exit(not ($i32 < 0.95 * $i16))" || fail "32 GiB ($i32) not slower than 16 GiB ($i16)"

echo "== a drive whose DRAM holds the whole map: flat"
run_ar sim:sn8100-2tb,scale=0.01 "$TEST_TMP/sn.db"
[ "$(fig knee_gib)" = None ] || fail "SN8100 has a knee at $(fig knee_gib) GiB"
python3 -c "import sys; sys.exit(not ($(fig drop_pct) < 5))" || fail "SN8100 drops $(fig drop_pct) %"
echo ok
