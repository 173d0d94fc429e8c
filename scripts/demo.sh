#!/usr/bin/env bash
# The main job: a review of a simulated WD_BLACK SN8100 2 TB (the `quick`
# preset, every step of the methodology, in virtual time), beside two
# comparison drives, drawn into demo/report/index.html.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p demo
db=demo/ssdbench.db
rm -f "$db" "$db-wal" "$db-shm"
suite() { build/ssdbench suite --target "sim:$1" --preset quick --db "$db"; }
dut=$(suite sn8100-2tb)
cmp1=$(suite micron1300-1tb)
cmp2=$(suite p1-1tb)
build/ssdbench report "$dut" --compare "$cmp1" --compare "$cmp2" --db "$db" --out demo/report
echo "demo: open demo/report/index.html (runs $dut, $cmp1, $cmp2 in $db)"
