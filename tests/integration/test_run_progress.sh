#!/usr/bin/env bash
# run's progress line on a terminal (a pseudo-terminal from script(1)):
# it shows the rate of the newest interval, so it follows the drive when
# its speed changes (the SLC cache of a simulated drive ends: the average
# since the start would stay far above the drive's rate), it says "ramp"
# during the ramp instead of "0 IOPS", and a simulated drive's ETA is in
# the drive's time.
. "$(dirname "$0")/lib.sh"
command -v script >/dev/null || skip "script(1) is not installed"
cd "$TEST_TMP"

# on_tty FILE CMD...: run CMD with stderr on a terminal; its output
# (progress lines split at each carriage return) into FILE.
on_tty() {
	local out=$1; shift
	script -qec "$(printf '%q ' "$@")" /dev/null </dev/null | tr '\r' '\n' >"$out"
}

# A whole-drive write of the simulated SN8100: 677 GB of SLC cache at
# 14.1 GB/s, then much slower.
on_tty sim.txt "$SSDBENCH" run --target sim:sn8100-2tb --rw write --bs 128k --qd 32 --db sim.db
sed 's/\x1b\[K//; s/ *$//' sim.txt | { grep -a 'IOPS .* MB/s$' || true; } >lines.txt
cat lines.txt
[ "$(wc -l <lines.txt)" -ge 2 ] || skip "fewer than two progress lines (the run was too fast to sample)"
first=$(head -1 lines.txt | sed 's/.*IOPS  \([0-9.]*\) MB\/s$/\1/')
awk -v f="$first" 'BEGIN { exit !(f > 10000) }' || fail "first line $first MB/s: not the cache's rate"
# Past the cache (677 GB of 2 TB, 34 %) a line between 40 and 75 % of the
# drive shows one interval's rate: one of the stored samples', to the
# line's 0.1 MB/s.  (A bound at the native rate cannot tell: the drive's
# own intervals there reach 4.44 GB/s against its native 3.95, and which
# one a line shows depends on when the terminal is refreshed.)
sqlite3 sim.db "SELECT printf('%.4f', write_bytes * 1e9 / (t_end_ns - t_start_ns) / 1e6)
	FROM samples WHERE t_end_ns > t_start_ns" >rates.txt
[ -s rates.txt ] || fail "the run stored no samples"
mid=$(awk '{ p = $1 + 0 } p >= 40 && p <= 75' lines.txt)
unsampled=
[ -n "$mid" ] || unsampled="no progress line between 40 and 75 % (the host was too slow to sample it)"
[ -z "$mid" ] || while read -r l; do
	r=$(sed 's/.*IOPS  \([0-9.]*\) MB\/s$/\1/' <<<"$l")
	awk -v r="$r" '$1 - r <= 0.05001 && r - $1 <= 0.05001 { found = 1 } END { exit !found }' rates.txt ||
		fail "'$l': $r MB/s is no interval's rate: an average, not the interval"
done <<<"$mid"
grep -q "ETA [0-9]*s (drive's time)" lines.txt || fail "a simulated drive's ETA is not marked as its time"

# A file with a ramp: the ramp's lines carry its rate.
on_tty file.txt "$SSDBENCH" run --target f.img --size 16m --rw randread --bs 4k --qd 1 \
	--ramp 1s --time 1s --no-db
cat file.txt
# The measured workload's lines only: preparing the new file is a write of
# its own, where an interval in which nothing completed is a true 0.
tr '\r' '\n' <file.txt | grep -av 'preparing file' | grep -a ' 0 IOPS' &&
	fail "a progress line says 0 IOPS"
grep -aq 'ramp [1-9][0-9]* IOPS' file.txt || fail "no ramp line with its rate"
grep -a "drive's time" file.txt && fail "a file's ETA is wall-clock"
[ -z "$unsampled" ] || skip "$unsampled"
echo "run progress: ok"
