#!/usr/bin/env bash
# The boot search of two runs of the same drive, trial by trial: the
# readers' IOPS, p99, p99.9 and max of B against A (e.g. A = every read
# simulated, B = sampled readers), and the search's answer of each.
#
#   bench/boot_agree.sh A.db B.db [ssdbench binary]
#
# Trials are matched by name ("n=N phase=P run=K readers"); a trial only
# one of the runs made (the searches went different ways) is listed as
# missing.  Ratios are B / A - 1, in per cent.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 A.db B.db [ssdbench]" >&2; exit 2; }
a=$(realpath "$1") b=$(realpath "$2")
bin=$(realpath "${3:-$(dirname "$0")/../build/ssdbench}")
set -- "$a" "$b"
readers() {
	"$bin" export 1 --db "$1" --csv --summary |
		awk -F, '$5 ~ / readers$/ && $8 == "read" { print $5 "," $12 "," $18 "," $19 "," $23 }'
}
answer() {
	sqlite3 "$1" "SELECT key || ' ' || value FROM metrics
		WHERE key IN ('boot.score_readers', 'boot.pass', 'boot.score_iops', 'boot.trials')
		ORDER BY key"
}
join -t, -a1 -a2 -e missing -o 0,1.2,1.3,1.4,1.5,2.2,2.3,2.4,2.5 \
	<(readers "$1" | sort -t, -k1,1) <(readers "$2" | sort -t, -k1,1) |
	awk -F, '
	function rel(b, a) { return (a == "missing" || b == "missing" || a == 0) ? "  missing" : sprintf("%+8.2f%%", 100 * (b / a - 1)) }
	BEGIN { printf "%-34s %10s %9s %9s %9s %9s\n", "trial", "iops A", "iops", "p99", "p99.9", "max" }
	{ printf "%-34s %10.0f %9s %9s %9s %9s\n", $1, $2, rel($6, $2), rel($7, $3), rel($8, $4), rel($9, $5) }'
echo "A: $(answer "$1" | tr '\n' ' ')"
echo "B: $(answer "$2" | tr '\n' ' ')"
