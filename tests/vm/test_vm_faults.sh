#!/usr/bin/env bash
# Faults from real kernel drivers, with nothing lost: a device-mapper error
# target in the middle of the span (write, then read), dm-flakey failing
# every I/O for a time window, null_blk with bad blocks, ENOSPC on a small
# ext4, and a suite cut by the error target that `resume` finishes once the
# fault is cleared.  Each run ends with a clear message (offset and errno),
# status failed, and every byte completed before the fault in the database.
# vm-timeout: 240
source "$(dirname "$0")/lib.sh"
S=$SSDBENCH
command -v sqlite3 >/dev/null || skip "needs the sqlite3 shell"
MiB=1048576

# failed_run DB WHAT PATTERN ARGS...: the run fails (exit 1), says PATTERN,
# and is stored as failed.
failed_run() {
	local db=$1 what=$2 pat=$3 rc=0; shift 3
	rm -f "$db"
	"$S" run --db "$db" --interval 20ms "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err" || rc=$?
	echo "$what: exit $rc: $(tail -2 "$TEST_TMP/err")"
	keep "faults-$what.err" "$TEST_TMP/err"
	[ $rc = 1 ] || fail "$what: exit $rc, expected 1"
	grep -Eq -- "$pat" "$TEST_TMP/err" || fail "$what: message lacks '$pat'"
	[ "$(sqlite3 "$db" "select status from runs")" = failed ] || fail "$what: run not stored as failed"
	[ "$(sqlite3 "$db" "select status from workloads")" = failed ] || fail "$what: workload not stored as failed"
	[ -n "$(sqlite3 "$db" "select error from runs")" ] || fail "$what: no error stored"
}
# The I/Os in flight when the error target is reached (QD 4 x 128 KiB from
# 16 MiB) all fail; whichever completes first is the one reported.
AT_16M="at offset (16777216|16908288|17039360|17170432) failed"
# sample_bytes DB DIR: bytes of direction DIR (read/write) over all samples.
sample_bytes() { sqlite3 "$1" "select coalesce(sum(${2}_bytes),0) from samples"; }

sectors=$(blockdev --getsz /dev/vdb)
bad=$((16 * 2048))   # the error target covers [16 MiB, 17 MiB)

echo "== dm error target at 16 MiB: sequential write"
dm=$(dm_create ssdb-err "0 $bad linear /dev/vdb 0
$bad 2048 error
$((bad + 2048)) $((sectors - bad - 2048)) linear /dev/vdb $((bad + 2048))") || fail "dmsetup"
failed_run "$TEST_TMP/w.db" dm-error-write "write of 131072 bytes $AT_16M" \
	--target "$dm" --destroy-data --rw write --bs 128k --qd 4
grep -q "Input/output error" "$TEST_TMP/err" || fail "errno not named"
# Sequential at QD 4 with 128 KiB: everything below 16 MiB completed, and
# nothing at or beyond it (the window never reaches past 16.5 MiB).
got=$(sample_bytes "$TEST_TMP/w.db" write)
[ "$got" = $((16 * MiB)) ] || fail "samples hold $got bytes written, want $((16 * MiB)) (all before the fault)"
[ "$(sqlite3 "$TEST_TMP/w.db" "select write_bytes from workloads")" = $((16 * MiB)) ] || fail "workload totals"

echo "== dm error target at 16 MiB: sequential read"
failed_run "$TEST_TMP/r.db" dm-error-read "read of 131072 bytes $AT_16M" --target "$dm" --rw read --bs 128k --qd 4
got=$(sample_bytes "$TEST_TMP/r.db" read)
[ "$got" = $((16 * MiB)) ] || fail "samples hold $got bytes read, want $((16 * MiB))"

echo "== a suite cut by the error target, resumed after the fault is cleared"
db=$TEST_TMP/suite.db
rc=0
"$S" suite --target "$dm" --destroy-data --preset quick --db "$db" --only fill,sync_write \
	--set fill.rest=0 --set fill.pass_rest=0 --set sync_write.amount=256k \
	>"$TEST_TMP/id" 2>"$TEST_TMP/err" || rc=$?
keep faults-suite.err "$TEST_TMP/err"
run=$(head -1 "$TEST_TMP/id")
echo "suite: exit $rc: $(tail -2 "$TEST_TMP/err")"
[ $rc = 1 ] || fail "suite on a failing device: exit $rc, expected 1"
[ "$(sqlite3 "$db" "select status from steps where name='fill'")" = failed ] || fail "fill not failed"
[ "$(sqlite3 "$db" "select status from runs where id=$run")" = failed ] || fail "run not failed"
before=$(sqlite3 "$db" "select count(*) from samples")
[ "$before" -gt 0 ] || fail "no sample kept from the failed fill"
sqlite3 "$db" "select workload_id || ':' || idx from samples" | sort >"$TEST_TMP/s.before"
# Clear the fault: the same device, linear all the way.
dmsetup suspend --noudevsync ssdb-err
dmsetup load --noudevsync ssdb-err --table "0 $sectors linear /dev/vdb 0"
dmsetup resume --noudevsync ssdb-err
"$S" resume "$run" --db "$db" >/dev/null 2>"$TEST_TMP/err" || fail "resume: $(tail -5 "$TEST_TMP/err")"
[ "$(sqlite3 "$db" "select status from runs where id=$run")" = done ] || fail "run not done after resume"
for s in fill sync_write; do
	[ "$(sqlite3 "$db" "select count(*) from steps where name='$s' and status='done'")" = 1 ] || fail "step $s not done"
done
sqlite3 "$db" "select workload_id || ':' || idx from samples" | sort >"$TEST_TMP/s.after"
[ -z "$(comm -23 "$TEST_TMP/s.before" "$TEST_TMP/s.after")" ] || fail "samples of the failed step lost on resume"
dm_remove ssdb-err

echo "== dm-flakey: every I/O fails after 8 s up"
dm=$(dm_create ssdb-flakey "0 $sectors flakey /dev/vdc 0 8 60") || fail "dmsetup flakey"
failed_run "$TEST_TMP/f.db" dm-flakey "Input/output error" \
	--target "$dm" --destroy-data --rw randwrite --bs 4k --qd 8 --time 40s
[ "$(sample_bytes "$TEST_TMP/f.db" write)" -gt 0 ] || fail "no sample from the 8 s the device was up"
dm_remove ssdb-flakey

echo "== null_blk, memory backed, with bad blocks at 8 MiB"
modprobe null_blk nr_devices=0 || skip "no null_blk module"
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
# nullb_dev DIR: the block device of a powered configfs null_blk (named
# nullbINDEX by older kernels, after its directory by newer ones).
nullb_dev() {
	local d
	for _ in $(seq 50); do
		for d in "/dev/$(basename "$1")" "/dev/nullb$(cat "$1/index")"; do
			[ -b "$d" ] && { echo "$d"; return; }
		done
		sleep 0.1
	done
	fail "no block device for $1"
}
nb=/sys/kernel/config/nullb/ssdb
mkdir "$nb"
echo 32 >"$nb/size"; echo 1 >"$nb/memory_backed"; echo 512 >"$nb/blocksize"
echo "+16384-16391" >"$nb/badblocks"
echo 1 >"$nb/power"
nbdev=$(nullb_dev "$nb")
failed_run "$TEST_TMP/n.db" null_blk-badblocks "write of 65536 bytes at offset 8388608 failed" \
	--target "$nbdev" --destroy-data --rw write --bs 64k --qd 1
[ "$(sample_bytes "$TEST_TMP/n.db" write)" = $((8 * MiB)) ] || fail "null_blk: samples do not hold the 8 MiB before the bad block"
echo 0 >"$nb/power"; rmdir "$nb"

echo "== null_blk as a slow device: completion_nsec 2 ms"
nb=/sys/kernel/config/nullb/slow
mkdir "$nb"
echo 16 >"$nb/size"; echo 2 >"$nb/irqmode"; echo 2000000 >"$nb/completion_nsec"
echo 1 >"$nb/power"
nbdev=$(nullb_dev "$nb")
"$S" run --db "$TEST_TMP/slow.db" --target "$nbdev" --rw randread --qd 1 --time 1s >/dev/null 2>&1 || fail "slow read"
minp50=$(sqlite3 "$TEST_TMP/slow.db" "select min(read_p50_ns) from samples where read_ios > 0")
ios=$(sqlite3 "$TEST_TMP/slow.db" "select read_ios from workloads")
echo "slow device: $ios reads in 1 s, smallest interval median $minp50 ns"
# The timer completes no I/O before 2 ms: QD 1 cannot exceed 500 per second.
[ "$minp50" -ge 2000000 ] || fail "a median latency below the configured 2 ms: $minp50"
[ "$ios" -le 500 ] && [ "$ios" -gt 0 ] || fail "$ios reads at QD 1 in 1 s on a 2 ms device"
echo 0 >"$nb/power"; rmdir "$nb"

echo "== ENOSPC: a sparse file target on an ext4 another file filled"
mkfs.ext4 -q -F -b 4096 /dev/vdc
mkdir "$TEST_TMP/fs" && mount /dev/vdc "$TEST_TMP/fs" && track_mount "$TEST_TMP/fs"
truncate -s 32m "$TEST_TMP/fs/target.img"
# %f: free blocks including those reserved for root, which this test is.
free=$(( $(stat -f -c '%f * %S' "$TEST_TMP/fs") ))
fallocate -l $((free - 4 * MiB)) "$TEST_TMP/fs/filler"
failed_run "$TEST_TMP/e.db" enospc "No space left on device" \
	--target "$TEST_TMP/fs/target.img" --rw write --bs 128k --qd 1
got=$(sample_bytes "$TEST_TMP/e.db" write)
[ "$got" -gt 0 ] && [ "$got" -le $((4 * MiB)) ] || fail "ENOSPC: $got bytes in samples, want (0, 4 MiB]"
# Sequential at QD 1: the samples hold exactly the bytes below the failed write.
at=$(sed -nE 's/.*at offset ([0-9]+) failed.*/\1/p' "$TEST_TMP/err")
[ "$got" = "$at" ] || fail "ENOSPC: $got bytes in samples, the write at $at failed"
umount "$TEST_TMP/fs"
echo ok
