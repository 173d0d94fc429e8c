#!/usr/bin/env bash
# The main job: a review of a simulated WD_BLACK SN8100 2 TB (the `quick`
# preset, every step of the methodology, in virtual time), beside two
# comparison drives, drawn into demo/report/index.html.
# SSDBENCH names the binary (default build/ssdbench; the package test runs
# the installed one), DEMO_DIR the folder (default demo).
set -euo pipefail
cd "$(dirname "$0")/.."
ssdbench=${SSDBENCH:-build/ssdbench}
out=${DEMO_DIR:-demo}
mkdir -p "$out"
db=$out/ssdbench.db
rm -f "$db" "$db-wal" "$db-shm"
suite() { "$ssdbench" suite --target "sim:$1" --preset quick --db "$db"; }
dut=$(suite sn8100-2tb)
cmp1=$(suite micron1300-1tb)
cmp2=$(suite p1-1tb)
"$ssdbench" report "$dut" --compare "$cmp1" --compare "$cmp2" --db "$db" --out "$out/report"
echo "demo: open $out/report/index.html (runs $dut, $cmp1, $cmp2 in $db)"
