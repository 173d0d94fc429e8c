#!/usr/bin/env bash
# Several targets at once (run and suite with --target given more than
# once).  Simulated drives give the same stored figures together as alone
# for the same seed (each target its own process and engine); two files at
# once are two runs, stored separately with their own ids, each pinned to
# CPUs of its own and recording them; a bad second target is refused
# before any I/O on the first; one target failing mid-run (a full file
# system) keeps the other's results, and the exit code says which failed.
source "$(dirname "$0")/lib.sh"
S=$SSDBENCH
A=sim:sn8100-2tb,scale=0.001
B=sim:micron1300-1tb,scale=0.001
W=(--rw randrw --rwmixread 70 --qd 8 --time 2s --seed 7)

# Everything a run stored that is a figure: totals, every sample, every
# histogram bin; nothing that names the run or the wall clock.
figures() {
	sqlite3 "$1" "
	SELECT w.idx, w.read_bytes, w.read_ios, w.write_bytes, w.write_ios, w.measured_ns, w.final
	  FROM workloads w WHERE w.run_id = $2 ORDER BY w.idx;
	SELECT w.idx, s.idx, s.t_start_ns, s.t_end_ns, s.read_ios, s.read_p50_ns, s.read_p99_ns,
	       s.read_max_ns, s.read_lat_sum_ns, s.write_ios, s.write_p99_ns, s.write_lat_sum_ns
	  FROM samples s JOIN workloads w ON w.id = s.workload_id WHERE w.run_id = $2
	  ORDER BY w.idx, s.idx;
	SELECT w.idx, h.direction, h.count, h.min_ns, h.max_ns, h.sum_ns, hex(h.encoded)
	  FROM histograms h JOIN workloads w ON w.id = h.workload_id WHERE w.run_id = $2
	  ORDER BY w.idx, h.direction;"
}
host() { sqlite3 "$1" "SELECT json_extract(host_json, '\$.cpus_allowed') FROM runs WHERE id = $2"; }

echo "== simulated drives: alone, then together"
$S run --target "$A" "${W[@]}" --db "$TEST_TMP/alone.db" --json >"$TEST_TMP/a.json" || fail "run A alone"
$S run --target "$B" "${W[@]}" --db "$TEST_TMP/alone.db" --json >"$TEST_TMP/b.json" || fail "run B alone"
$S run --target "$A" --target "$B" "${W[@]}" --db "$TEST_TMP/both.db" --json \
	>"$TEST_TMP/both.json" 2>"$TEST_TMP/both.err" || fail "together: $(cat "$TEST_TMP/both.err")"
[ "$(jq length "$TEST_TMP/both.json")" = 2 ] || fail "--json is not an array of 2: $(cat "$TEST_TMP/both.json")"
ra=$(jq '.[0].run_id' "$TEST_TMP/both.json"); rb=$(jq '.[1].run_id' "$TEST_TMP/both.json")
[ "$ra" != "$rb" ] && [ "$ra" != null ] && [ "$rb" != null ] || fail "run ids $ra $rb"
[ "$(jq -r '.[0].target.path' "$TEST_TMP/both.json")" = "$(jq -r .target.path "$TEST_TMP/a.json")" ] ||
	fail "the array is not in --target order"
[ "$(sqlite3 "$TEST_TMP/both.db" "SELECT target FROM runs WHERE id = $ra")" = "$A" ] || fail "run $ra is not A's"
[ "$(sqlite3 "$TEST_TMP/both.db" "SELECT target FROM runs WHERE id = $rb")" = "$B" ] || fail "run $rb is not B's"
[ "$(sqlite3 "$TEST_TMP/both.db" "SELECT count(*) FROM runs WHERE status = 'done'")" = 2 ] || fail "not two runs done"
fa=$(figures "$TEST_TMP/alone.db" "$(jq .run_id "$TEST_TMP/a.json")")
fb=$(figures "$TEST_TMP/alone.db" "$(jq .run_id "$TEST_TMP/b.json")")
[ "$(wc -l <<<"$fa")" -gt 10 ] || fail "too few figures to compare: $fa"
[ "$fa" != "$fb" ] || fail "A and B store the same figures: the comparison could not tell them apart"
[ "$fa" = "$(figures "$TEST_TMP/both.db" "$ra")" ] || fail "A together differs from A alone"
[ "$fb" = "$(figures "$TEST_TMP/both.db" "$rb")" ] || fail "B together differs from B alone"
grep -q "target 1 $A: run $ra, done" "$TEST_TMP/both.err" || fail "runs not listed: $(cat "$TEST_TMP/both.err")"

echo "== pinning: said, and recorded with each run"
allowed=$(python3 -c 'import os; s=sorted(os.sched_getaffinity(0)); print(len(s))')
pa=$(sed -n "s/^ssdbench run: $A: threads pinned to CPUs \([0-9,-]*\) .*/\1/p" "$TEST_TMP/both.err")
pb=$(sed -n "s/^ssdbench run: $B: threads pinned to CPUs \([0-9,-]*\) .*/\1/p" "$TEST_TMP/both.err")
[ -n "$pa" ] && [ -n "$pb" ] || fail "pinning not said: $(cat "$TEST_TMP/both.err")"
[ "$(host "$TEST_TMP/both.db" "$ra")" = "$pa" ] || fail "run $ra records CPUs $(host "$TEST_TMP/both.db" "$ra"), pinned to $pa"
[ "$(host "$TEST_TMP/both.db" "$rb")" = "$pb" ] || fail "run $rb records CPUs $(host "$TEST_TMP/both.db" "$rb"), pinned to $pb"
if [ "$allowed" -ge 2 ]; then
	[ "$pa" != "$pb" ] || fail "two targets pinned to the same CPUs $pa with $allowed CPUs"
fi
all=$(host "$TEST_TMP/alone.db" "$(jq .run_id "$TEST_TMP/a.json")")
$S run --target "$A" --target "$B" "${W[@]}" --db "$TEST_TMP/nopin.db" --no-pin --json \
	>"$TEST_TMP/nopin.json" 2>"$TEST_TMP/nopin.err" || fail "--no-pin"
grep -q -- "--no-pin: the 2 targets' threads run on any CPU" "$TEST_TMP/nopin.err" || fail "--no-pin not said"
[ "$(host "$TEST_TMP/nopin.db" "$(jq '.[1].run_id' "$TEST_TMP/nopin.json")")" = "$all" ] || fail "--no-pin run is pinned"

echo "== two files at once: two runs, stored separately"
f1=$TEST_TMP/f1; f2=$TEST_TMP/f2
$S run --target "$f1" --target "$f2" --size 16m --rw randread --bs 4k --qd 4 --time 1s \
	--db "$TEST_TMP/files.db" >"$TEST_TMP/files.out" 2>"$TEST_TMP/files.err" || fail "files: $(cat "$TEST_TMP/files.err")"
grep -q "^== target 1: $f1 ==" "$TEST_TMP/files.out" && grep -q "^== target 2: $f2 ==" "$TEST_TMP/files.out" ||
	fail "summary not per target: $(cat "$TEST_TMP/files.out")"
[ "$(grep -c '^run [0-9]* stored$' "$TEST_TMP/files.out")" = 2 ] || fail "not two runs stored: $(cat "$TEST_TMP/files.out")"
rows=$(sqlite3 "$TEST_TMP/files.db" "SELECT id, target, status FROM runs ORDER BY id")
[ "$(wc -l <<<"$rows")" = 2 ] || fail "runs: $rows"
grep -q "|$f1|done$" <<<"$rows" && grep -q "|$f2|done$" <<<"$rows" || fail "runs: $rows"
for t in "$f1" "$f2"; do
	n=$(sqlite3 "$TEST_TMP/files.db" "SELECT sum(w.read_ios) FROM workloads w JOIN runs r ON r.id = w.run_id WHERE r.target = '$t'")
	[ "$n" -gt 0 ] || fail "$t: no reads stored"
	s=$(sqlite3 "$TEST_TMP/files.db" "SELECT count(*) FROM samples s JOIN workloads w ON w.id = s.workload_id JOIN runs r ON r.id = w.run_id WHERE r.target = '$t'")
	[ "$s" -ge 10 ] || fail "$t: $s samples for a 1 s run"
done

echo "== a bad second target: refused before any I/O on the first"
new=$TEST_TMP/new
rc=0; $S run --target "$new" --target "$TEST_TMP" --size 16m --rw randread --time 1s \
	--db "$TEST_TMP/refused.db" >/dev/null 2>"$TEST_TMP/err" || rc=$?
[ "$rc" = 1 ] || fail "directory as second target: exit $rc: $(cat "$TEST_TMP/err")"
grep -q "is a directory" "$TEST_TMP/err" && grep -q "target 2 ($TEST_TMP) refused: nothing was started" "$TEST_TMP/err" ||
	fail "refusal: $(cat "$TEST_TMP/err")"
[ ! -e "$new" ] || fail "the first target was created although the second was refused"
[ ! -s "$TEST_TMP/refused.db" ] || [ "$(sqlite3 "$TEST_TMP/refused.db" 'SELECT count(*) FROM runs')" = 0 ] ||
	fail "a run was stored although a target was refused"
sparse=$TEST_TMP/sparse; truncate -s 16m "$sparse"
rc=0; $S run --target "$new" --target "$sparse" --size 16m --rw randread --time 1s \
	--no-db >/dev/null 2>"$TEST_TMP/err" || rc=$?
[ "$rc" = 2 ] && grep -q "has unwritten parts" "$TEST_TMP/err" || fail "sparse second target: exit $rc: $(cat "$TEST_TMP/err")"
[ ! -e "$new" ] || fail "the first target was created although the second was refused"
rc=0; $S suite --target "$A" --target sim:no-such-drive --preset quick --db "$TEST_TMP/refused.db" \
	>/dev/null 2>"$TEST_TMP/err" || rc=$?
[ "$rc" = 2 ] && grep -q "refused: nothing was started" "$TEST_TMP/err" || fail "suite, bad second target: exit $rc: $(cat "$TEST_TMP/err")"
[ ! -s "$TEST_TMP/refused.db" ] || [ "$(sqlite3 "$TEST_TMP/refused.db" 'SELECT count(*) FROM runs')" = 0 ] ||
	fail "suite: a run was stored although a target was refused"

if [ "$(id -u)" = 0 ]; then
	echo "== loop device without --destroy-data: refused before the file is touched"
	dev=$(make_loop 16)
	rc=0; $S run --target "$new" --target "$dev" --size 16m --rw randwrite --time 1s --no-db \
		>/dev/null 2>"$TEST_TMP/err" || rc=$?
	[ "$rc" = 1 ] && grep -q "destroy-data" "$TEST_TMP/err" || fail "loop without flag: exit $rc: $(cat "$TEST_TMP/err")"
	[ ! -e "$new" ] || fail "the first target was created although the second was refused"

	echo "== one target's full disk: the other's run is kept, the exit code names the failed one"
	mnt=$TEST_TMP/small; mkdir "$mnt"
	mount -t tmpfs -o size=8m tmpfs "$mnt" || skip "cannot mount a tmpfs"
	track_mount "$mnt"
	full=$mnt/full; truncate -s 32m "$full"	# fits as a sparse file, not once written
	# --size 32m: the engine would refuse it at open, so it is refused
	# with the other refusals, before the first target is touched
	rc=0; $S run --target "$new" --target "$full" --size 32m --rw write --no-db \
		>/dev/null 2>"$TEST_TMP/err" || rc=$?
	[ "$rc" = 2 ] && grep -q "does not fit" "$TEST_TMP/err" || fail "unfillable second target: exit $rc: $(cat "$TEST_TMP/err")"
	[ ! -e "$new" ] || fail "the first target was created although the second was refused"
	# without --size nothing says in advance that it will not fit: the
	# writes fail when the file system is full
	ok=$TEST_TMP/ok
	head -c 32M /dev/zero >"$ok"
	rc=0; $S run --target "$ok" --target "$full" --rw write --bs 1m --qd 4 --buffered \
		--db "$TEST_TMP/full.db" --json >"$TEST_TMP/full.json" 2>"$TEST_TMP/err" || rc=$?
	[ "$rc" = 66 ] || fail "second target full: exit $rc, expected 64 + 2: $(cat "$TEST_TMP/err")"
	[ "$(jq -r '.[0].status' "$TEST_TMP/full.json")" = done ] || fail "first: $(jq -c '.[0]' "$TEST_TMP/full.json")"
	[ "$(jq -r '.[1].status' "$TEST_TMP/full.json")" = failed ] || fail "second: $(jq -c '.[1]' "$TEST_TMP/full.json")"
	okr=$(jq '.[0].run_id' "$TEST_TMP/full.json")
	[ "$(sqlite3 "$TEST_TMP/full.db" "SELECT status || ' ' || (SELECT sum(write_bytes) FROM workloads WHERE run_id = $okr) FROM runs WHERE id = $okr")" = "done 33554432" ] ||
		fail "the first target's run was not kept whole"
	grep -q "target 2 $full: run [0-9]*, FAILED" "$TEST_TMP/err" || fail "failure not listed: $(cat "$TEST_TMP/err")"
else
	echo "not root: loop-device refusal and full-disk isolation not checked"
fi

echo "== suite on two simulated drives: a run each, the same as alone"
$S suite --target "$A" --preset quick --only peak --db "$TEST_TMP/sa.db" >"$TEST_TMP/sa.id" 2>/dev/null || fail "suite alone"
$S suite --target "$A" --target "$B" --preset quick --only peak --db "$TEST_TMP/sb.db" \
	>"$TEST_TMP/sb.ids" 2>"$TEST_TMP/sb.err" || fail "suite together: $(cat "$TEST_TMP/sb.err")"
[ "$(wc -l <"$TEST_TMP/sb.ids")" = 2 ] || fail "suite prints $(cat "$TEST_TMP/sb.ids"), not two run ids"
s1=$(sed -n 1p "$TEST_TMP/sb.ids")
[ "$(sqlite3 "$TEST_TMP/sb.db" "SELECT kind || ' ' || target || ' ' || status FROM runs WHERE id = $s1")" = "suite $A done" ] ||
	fail "suite run $s1"
[ "$(figures "$TEST_TMP/sa.db" "$(cat "$TEST_TMP/sa.id")")" = "$(figures "$TEST_TMP/sb.db" "$s1")" ] ||
	fail "suite on A together differs from alone"
echo "multi targets: ok"
