#!/usr/bin/env bash
# Resume: SIGKILL in the middle of a step, then `resume` finishes the run;
# every sample stored before the kill is still there, the cut step is kept
# as "partial", and every step ends "done".  Ctrl-C (SIGINT) stops cleanly
# and says how to resume.
. "$(dirname "$0")/lib.sh"
command -v sqlite3 >/dev/null || skip "needs the sqlite3 shell"

target=$TEST_TMP/target.img
db=$TEST_TMP/r.db
q() { sqlite3 "$db" "$1"; }

# A short plan whose R/W-ratio step takes a few seconds.
args=(--target "$target" --size 64m --preset quick --db "$db"
      --only purge,fill,cssd_precond,rw_ratio,reclaim
      --set rw_ratio.time=300ms --set rw_ratio.read_pcts=0,50,100 --set reclaim.idles=0s)

$SSDBENCH suite "${args[@]}" >"$TEST_TMP/id" 2>"$TEST_TMP/err" &
pid=$!
# Wait until rw_ratio has stored samples of at least two workloads.
for _ in $(seq 600); do
	n=$(q "select count(distinct w.id) from samples s join workloads w on w.id=s.workload_id join steps t on t.id=w.step_id where t.name='rw_ratio'" 2>/dev/null || echo 0)
	[ "${n:-0}" -ge 2 ] && break
	kill -0 $pid 2>/dev/null || fail "suite ended before the kill: $(cat "$TEST_TMP/err")"
	sleep 0.1
done
kill -KILL $pid
wait $pid 2>/dev/null || true
run=$(head -1 "$TEST_TMP/id")
[ -n "$run" ] || fail "no run id printed"
[ "$(q "select status from steps where name='rw_ratio'")" = running ] || fail "rw_ratio was not running at the kill"
before=$(q "select count(*) from samples")
[ "$before" -gt 0 ] || fail "no sample stored before the kill"
q "select workload_id || ':' || idx from samples" | sort >"$TEST_TMP/samples.before"

$SSDBENCH resume "$run" --db "$db" 2>"$TEST_TMP/resume.err" || fail "resume failed: $(cat "$TEST_TMP/resume.err")"
[ "$(q "select status from runs where id=$run")" = done ] || fail "run not done after resume"
# No sample from before the kill is lost.
q "select workload_id || ':' || idx from samples" | sort >"$TEST_TMP/samples.after"
missing=$(comm -23 "$TEST_TMP/samples.before" "$TEST_TMP/samples.after" | wc -l)
[ "$missing" = 0 ] || fail "$missing samples from before the kill are gone"
[ "$(q "select count(*) from steps where name='rw_ratio' and status='partial'")" = 1 ] || fail "the cut step is not marked partial"
[ "$(q "select count(*) from steps where name='rw_ratio' and status='done'")" = 1 ] || fail "rw_ratio did not run again"
# Steps done before the kill ran once; every planned step is done.
[ "$(q "select count(*) from steps where name='fill'")" = 1 ] || fail "fill ran again"
for s in purge fill cssd_precond rw_ratio reclaim; do
	[ "$(q "select count(*) from steps where name='$s' and status='done'")" = 1 ] || fail "step $s not done"
done
expect_fail "resume of a finished run" $SSDBENCH resume "$run" --db "$db"
grep -q "already complete" <<<"$LAST_ERR" || fail "message: $LAST_ERR"

# Ctrl-C: stops cleanly with status interrupted and the resume command.
rm -f "$db"
$SSDBENCH suite "${args[@]}" >"$TEST_TMP/id" 2>"$TEST_TMP/err" &
pid=$!
for _ in $(seq 600); do
	[ "$(q "select count(*) from steps where name='rw_ratio'" 2>/dev/null)" = 1 ] && break
	sleep 0.1
done
kill -INT $pid
rc=0; wait $pid || rc=$?
[ $rc = 130 ] || fail "Ctrl-C exit code $rc, not 130: $(cat "$TEST_TMP/err")"
grep -q "resume with: ssdbench resume 1 --db" "$TEST_TMP/err" || fail "no resume hint: $(cat "$TEST_TMP/err")"
[ "$(q "select status from runs")" = interrupted ] || fail "run not marked interrupted"
$SSDBENCH resume 1 --db "$db" 2>/dev/null || fail "resume after Ctrl-C failed"
[ "$(q "select status from runs")" = done ] || fail "run not done after the second resume"
echo ok
