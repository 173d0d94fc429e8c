#!/usr/bin/env bash
# One writer per run and per target.  Two `resume` of one run at once once
# ran the same steps twice and stored them twice; a refused second writer
# once marked the first one's run failed.  Now the run's lease in the
# database refuses the second resume, naming the holder, and leaves the
# first to finish "done"; a second run writing a file another run is
# writing is refused too.
. "$(dirname "$0")/lib.sh"
cd "$TEST_TMP"
S=$SSDBENCH

# cut_suite DB: a suite run in DB cut short after its first steps; prints
# its status ("interrupted" unless it finished first).
cut_suite() {
	$S suite --target sim:p1-1tb --preset quick --db "$1" >/dev/null 2>&1 &
	local pid=$!
	sleep 1.5
	kill -INT $pid
	wait $pid || true
	sqlite3 "$1" "select status from runs where id = 1"
}

echo "== two resumes of one run"
st=$(cut_suite r.db)
[ "$st" = interrupted ] || skip "the suite finished before it could be cut (status $st)"
done_before=$(sqlite3 r.db "select count(*) from steps where run_id = 1 and status = 'done'")

$S resume 1 --db r.db >a.out 2>a.err &
first=$!
# wait until the first holds the lease
for _ in $(seq 1 100); do
	[ -n "$(sqlite3 r.db "select pid from run_leases where run_id = 1" 2>/dev/null)" ] && break
	sleep 0.05
done
holder=$(sqlite3 r.db "select pid from run_leases where run_id = 1")
[ "$holder" = "$first" ] || fail "the first resume holds no lease (holder '$holder', pid $first)"
rc=0
$S resume 1 --db r.db >b.out 2>b.err || rc=$?
cat b.err
[ "$rc" != 0 ] || fail "the second resume was not refused"
grep -q "being written by process $first" b.err || fail "the refusal does not name the holder: $(cat b.err)"
wait $first || fail "the first resume failed: $(cat a.err)"
st=$(sqlite3 r.db "select status from runs where id = 1")
[ "$st" = done ] || fail "after both: run status '$st', not done"
# every step ran once after the cut: no step name done twice
dups=$(sqlite3 r.db "select name from steps where run_id = 1 and status = 'done' group by name having count(*) > 1")
[ -z "$dups" ] || fail "steps done twice: $dups"
[ -z "$(sqlite3 r.db "select pid from run_leases")" ] || fail "the lease was not released"
echo "done before the resume: $done_before steps; now done, once each"

echo "== a stale lease (its process gone) is taken over"
if [ "$(cut_suite s.db)" = interrupted ]; then
	sqlite3 s.db "insert or replace into run_leases values (1, 999999999, '$(hostname)', 'then')"
	$S resume 1 --db s.db >/dev/null 2>err || fail "a stale lease blocked the resume: $(cat err)"
fi

echo "== two runs writing one file"
$S run --target f.img --size 64m --rw randwrite --bs 4k --qd 4 --time 4s --no-db >w1.out 2>w1.err &
w1=$!
for _ in $(seq 1 100); do [ -s f.img ] && break; sleep 0.05; done
sleep 0.5
rc=0
$S run --target f.img --rw randwrite --bs 4k --qd 4 --time 1s --no-db >w2.out 2>w2.err || rc=$?
[ "$rc" != 0 ] || fail "a second writer of f.img was not refused"
grep -q "in use by another ssdbench run" w2.err || fail "second writer: $(cat w2.err)"
wait $w1 || fail "the first writer failed: $(cat w1.err)"
echo ok
