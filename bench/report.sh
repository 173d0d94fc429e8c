#!/usr/bin/env bash
# How long `ssdbench report` takes for a full review: every methodology step
# of a device under test and two comparison devices (one from another
# database), 41 charts, datasheet check.  The databases are the synthetic
# review the report's unit test writes (tests/unit/report_fixture.h).
#
#   bench/report.sh [RUNS]      (default 5; needs `make` and `make san`)
#
# Prints each run's wall time and the median.  The reviewer's per-I/O logs
# took 5-15 minutes per tail-latency graph; this draws all of them.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
bin=build/ssdbench
fixture=build/san/tests/test_report
[ -x "$bin" ] || { echo "build first: make" >&2; exit 1; }
[ -x "$fixture" ] || { echo "build the fixture first: make san" >&2; exit 1; }
command -v gnuplot >/dev/null || { echo "gnuplot is not installed" >&2; exit 1; }

tmp=$(mktemp -d /tmp/ssdbench-bench-report.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
SSDBENCH_REPORT_FIXTURE="$tmp/fx" "$fixture" >/dev/null
echo "databases: $(du -ch "$tmp"/fx/*.db | tail -1 | cut -f1), $(nproc) cpus, gnuplot $(gnuplot --version | cut -d' ' -f2)"

times=()
for i in $(seq 1 "$runs"); do
	rm -rf "$tmp/out"
	start=$(date +%s.%N)
	"$bin" report 1 --compare 2 --compare-db "$tmp/fx/other.db:1" \
		--db "$tmp/fx/main.db" --datasheet "$tmp/fx/datasheet.ini" \
		--out "$tmp/out" >/dev/null
	end=$(date +%s.%N)
	t=$(echo "$end - $start" | bc -l)
	times+=("$t")
	printf 'run %d: %.2f s, %d charts\n' "$i" "$t" "$(ls "$tmp"/out/*.svg | wc -l)"
done
printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "median: %.2f s\n", a[int((NR+1)/2)]}'
