#!/usr/bin/env bash
# analyze --fio-log streams the log: its memory does not grow with the
# log's length.  The same per-I/O log at 2 MB and at 20 times that (a
# whole-file reader holds the text and an entry per line: some 120 MB
# more) is analysed from a file and from a pipe; the peak resident memory
# of the two may differ by 16 MB at most.  The figures of both are the
# ones the log's lines give (counted here with awk).  Without the
# sanitizer, a 200 MB log is also read under an address-space limit of
# half its size.
source "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "no python3"
S=$SSDBENCH
cd "$TEST_TMP"

# a per-I/O log: one entry at 0 ms, N at 5 s, one at 9.999 s: 4 KiB writes
gen() {
	{ echo "0, 4096, 1, 4096"; { yes "5000, 4096, 1, 4096" || true; } | head -n "$1"
	  echo "9999, 4096, 1, 4096"; } >"$2"
}
gen 100000 small_bw.log
gen 2000000 big_bw.log
echo "logs: $(stat -c %s small_bw.log) and $(stat -c %s big_bw.log) bytes"

# peak resident KiB of one command (its stdout into a file)
peak() {
	local out=$1
	shift
	python3 -c '
import resource, subprocess, sys
with open(sys.argv[1], "w") as o:
    rc = subprocess.run(sys.argv[2:], stdout=o).returncode
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if rc == 0 else -1)' "$out" "$@"
}

for src in file pipe; do
	for f in small_bw.log big_bw.log; do
		if [ $src = file ]; then
			kb=$(peak $f.$src.json $S analyze --fio-log $f --kind fill --json)
		else
			kb=$(peak $f.$src.json bash -c "cat $f | $S analyze --fio-log /dev/stdin --kind fill --json")
		fi
		[ "$kb" -gt 0 ] || fail "$f from a $src: refused"
		lines=$(awk 'END { print NR }' $f)
		python3 - $f.$src.json "$lines" <<'PY' || fail "$f from a $src: figures"
import json, sys
t = json.load(open(sys.argv[1]))["traces"][0]
n = int(sys.argv[2])
assert t["total_bytes"] == 4096 * n, (t["total_bytes"], n)
PY
		eval "kb_${src}_${f%%_*}=$kb"
		echo "$f from a $src: peak $kb KiB"
	done
done
for src in file pipe; do
	eval "small=\$kb_${src}_small big=\$kb_${src}_big"
	[ $((big - small)) -le 16384 ] ||
		fail "from a $src: the 20 times longer log took $((big - small)) KiB more"
done

# (a sanitizer's shadow memory alone is larger than any such limit)
if [ "$(grep -c __asan_init "$S" || true)" = 0 ]; then
	gen 10000000 huge_bw.log
	limit=$(( $(stat -c %s huge_bw.log) / 1024 / 2 ))
	(ulimit -v "$limit"; $S analyze --fio-log huge_bw.log --kind fill >/dev/null) ||
		fail "a $(stat -c %s huge_bw.log)-byte log under an address-space limit of $limit KiB"
	echo "a $(stat -c %s huge_bw.log)-byte log read under a $limit KiB address-space limit"
fi
echo ok
