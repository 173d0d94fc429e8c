#!/usr/bin/env bash
# Every refusal of `ssdbench run`, tried and refused with its reason and a
# non-zero exit.  Devices are loop devices this test creates.
source "$(dirname "$0")/lib.sh"
S=$SSDBENCH

# refuse CODE PATTERN ARGS...: exit code CODE and PATTERN in stderr.
refuse() {
	local code=$1 pat=$2 rc=0; shift 2
	"$S" run --no-db "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err" || rc=$?
	[ "$rc" = "$code" ] || fail "$*: exit $rc, expected $code ($(cat "$TEST_TMP/err"))"
	grep -q -- "$pat" "$TEST_TMP/err" || fail "$*: message lacks '$pat': $(cat "$TEST_TMP/err")"
	echo "refused ($rc): $(cat "$TEST_TMP/err")"
}

dev=$(make_loop 16)
echo "== usage errors: exit 2"
refuse 2 "unknown option '--frobnicate'" --target "$dev" --frobnicate
refuse 2 "no target" --rw read
refuse 2 "out of range (1 to 1024)" --target "$dev" --qd 1025
refuse 2 "out of range (1 to 1024)" --target "$dev" --batch 1025
"$S" run --help | grep -- "--batch" | grep -q "1..1024" || fail "--batch help does not give the range the code takes"
refuse 2 "0x1p12" --target "$dev" --bs 0x1p12
refuse 2 "512 B to 64 MiB" --target "$dev" --bs 256
refuse 2 "512 B to 64 MiB" --target "$dev" --bs 128m
refuse 2 "ends beyond the target" --target "$dev" --span 8m:16m
refuse 2 "is not one of" --target "$dev" --rw sideways
refuse 2 "not a duration" --target "$dev" --time soon

echo "== block-size alignment names the block size found"
dev4k=$(make_loop 16 --sector-size 4096)
refuse 2 "logical block size (4096 B)" --target "$dev4k" --bs 2k

echo "== writing a block device needs --destroy-data"
refuse 1 "pass --destroy-data" --target "$dev" --rw randwrite --time 1s
refuse 1 "pass --destroy-data" --target "$dev" --rw trim

echo "== read-only device"
devro=$(make_loop 16 --read-only)
refuse 1 "read-only" --target "$devro" --rw write --destroy-data

echo "== mounted device, flag or not"
mkfs.ext4 -q "$dev" || skip "mkfs.ext4 failed"
mkdir "$TEST_TMP/mnt"
mount "$dev" "$TEST_TMP/mnt" || skip "cannot mount"
track_mount "$TEST_TMP/mnt"
refuse 1 "is mounted at" --target "$dev" --rw read
refuse 1 "is mounted at" --target "$dev" --rw write --destroy-data
umount "$TEST_TMP/mnt"

echo "== opened exclusively by another process"
python3 -c 'import os,sys,time; fd=os.open(sys.argv[1], os.O_RDONLY|os.O_EXCL); print("held", flush=True); time.sleep(30)' "$dev" >"$TEST_TMP/held" &
holder=$!
for _ in $(seq 50); do grep -q held "$TEST_TMP/held" 2>/dev/null && break; sleep 0.1; done
refuse 1 "in use" --target "$dev" --rw read
kill $holder; wait $holder 2>/dev/null || true

echo "== held by a device-mapper layer"
if dmsetup create "ssdbench-test-$$" --table "0 $((16 * 2048)) linear $dev 0" 2>/dev/null; then
	refuse 1 "is held by" --target "$dev" --rw read
	dmsetup remove "ssdbench-test-$$"
else
	echo "no device-mapper in this kernel: holder case not tried"
fi

echo "== files: no permission, no O_DIRECT, missing without --size"
# written fully, so reading it needs no preparation (and no write access)
dd if=/dev/urandom of="$TEST_TMP/ro.img" bs=1M count=1 status=none; chmod 0600 "$TEST_TMP/ro.img"
chmod 0755 "$TEST_TMP"
if setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	rc=0
	setpriv --reuid=65534 --regid=65534 --clear-groups "$S" run --no-db --target "$TEST_TMP/ro.img" \
		--rw read >"$TEST_TMP/out" 2>"$TEST_TMP/err" || rc=$?
	[ $rc = 1 ] && grep -q "no permission to read" "$TEST_TMP/err" || fail "permission: rc $rc $(cat "$TEST_TMP/err")"
	echo "refused ($rc): $(cat "$TEST_TMP/err")"
fi
refuse 1 "give --size" --target "$TEST_TMP/missing.img" --rw read
mkdir "$TEST_TMP/ramfs"
if mount -t ramfs none "$TEST_TMP/ramfs" 2>/dev/null; then
	track_mount "$TEST_TMP/ramfs"
	refuse 1 "does not support O_DIRECT" --target "$TEST_TMP/ramfs/f.img" --size 1m --rw read
	[ ! -e "$TEST_TMP/ramfs/f.img" ] || fail "a refused file target was left behind"
fi
echo ok
