#!/usr/bin/env bash
# A store made slow on purpose (SSDBENCH_TEST_COMMIT_DELAY_MS: every commit
# of the database takes that much longer, as on a slow disk or during a WAL
# checkpoint).  The I/O threads hand intervals to the collector through a
# ring of 1.6 s (16 intervals of 100 ms): a commit shorter than that costs
# the I/O nothing; a longer one makes the driver wait, and that wait is
# counted and shown by run --json, show, show --json and the database.
source "$(dirname "$0")/lib.sh"
S=$SSDBENCH
f=$TEST_TMP/target.img
db=$TEST_TMP/r.db
$S run --target "$f" --size 32m --rw randread --bs 4k --qd 1 --bytes 1m --no-db >/dev/null

echo "== commits of 1 s: the I/O goes on, no stall"
SSDBENCH_TEST_COMMIT_DELAY_MS=1000 $S run --target "$f" --rw randread --bs 4k --qd 4 \
	--time 3s --db "$db" --json >"$TEST_TMP/a.json" || fail "run with a slow store"
[ "$(json_get "$TEST_TMP/a.json" 'd["workloads"][0]["driver_stalls"]')" = 0 ] || fail "stalls with commits shorter than the ring"
id=$(json_get "$TEST_TMP/a.json" 'd["run_id"]')
empty=$(sqlite3 "$db" "select count(*) from samples s join workloads w on s.workload_id = w.id where w.run_id = $id and s.read_ios = 0 and s.t_end_ns - s.t_start_ns = 100000000")
[ "$empty" = 0 ] || fail "$empty intervals without I/O while the store was slow"

echo "== commits of 2.5 s: the ring fills, the driver waits, and says so"
SSDBENCH_TEST_COMMIT_DELAY_MS=2500 $S run --target "$f" --rw randread --bs 4k --qd 4 \
	--time 3s --db "$db" --json >"$TEST_TMP/b.json" || fail "run with a very slow store"
id=$(json_get "$TEST_TMP/b.json" 'd["run_id"]')
stalls=$(json_get "$TEST_TMP/b.json" 'd["workloads"][0]["driver_stalls"]')
stall_ns=$(json_get "$TEST_TMP/b.json" 'd["workloads"][0]["driver_stall_ns"]')
echo "run --json: $stalls stalls, $stall_ns ns"
[ "$stalls" -ge 1 ] || fail "no stall counted"
# The first commit blocks the collector 2.5 s, the ring holds 1.6 s.
[ "$stall_ns" -ge 500000000 ] && [ "$stall_ns" -le 5000000000 ] || fail "stall time $stall_ns ns"
[ "$(sqlite3 "$db" "select driver_stalls || ' ' || driver_stall_ns from workloads where run_id = $id")" = "$stalls $stall_ns" ] ||
	fail "stalls in the database"
$S show "$id" --db "$db" | grep -q "driver stalls: $stalls " || fail "show: no stall line"
$S show "$id" --db "$db" --json >"$TEST_TMP/show.json"
[ "$(json_get "$TEST_TMP/show.json" 'd["workloads"][0]["driver_stalls"]')" = "$stalls" ] || fail "show --json: stalls"
[ "$(json_get "$TEST_TMP/show.json" 'd["workloads"][0]["driver_stall_ns"]')" = "$stall_ns" ] || fail "show --json: stall time"
