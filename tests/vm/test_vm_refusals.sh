#!/usr/bin/env bash
# Every safety refusal on real kernel block devices: a mounted partition
# (run, purge, suite), holders (device-mapper, md raid1), swap, the device
# holding the root filesystem, a read-only device, a device opened O_EXCL by
# another process.  Each is refused with its reason, exit 1, and the
# device's data is unchanged afterwards.
# vm-timeout: 240
source "$(dirname "$0")/lib.sh"
S=$SSDBENCH
DB=$TEST_TMP/r.db

# refused PATTERN CMD...: exit 1 and PATTERN in stderr.
refused() {
	local pat=$1 rc=0 t0=$(( $(date +%s%N) / 1000000 )); shift
	"$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err" || rc=$?
	[ $rc = 1 ] || fail "$*: exit $rc, expected 1 ($(tail -3 "$TEST_TMP/err"))"
	grep -q -- "$pat" "$TEST_TMP/err" || fail "$*: message lacks '$pat': $(cat "$TEST_TMP/err")"
	echo "refused ($(( $(date +%s%N) / 1000000 - t0 )) ms): ${*:1:3}: $(grep -m1 -- "$pat" "$TEST_TMP/err")"
}
# all_refused DEV PATTERN [all]: run (write) and purge refuse DEV; with
# "all" also a read run and the suite (one safety check serves all four,
# and each start of a program costs seconds under emulation).
all_refused() {
	local dev=$1 pat=$2
	refused "$pat" "$S" run --no-db --target "$dev" --rw randwrite --destroy-data --time 1s
	refused "$pat" "$S" purge "$dev" --destroy-data
	[ "${3:-}" = all ] || return 0
	refused "$pat" "$S" run --no-db --target "$dev" --rw read --time 1s
	refused "$pat" "$S" suite --target "$dev" --preset quick --destroy-data --db "$DB"
}
# The data must survive every refusal: a random first MiB checked after.
mark() { dd if=/dev/urandom of="$1" bs=1M count=1 oflag=direct status=none; sha1sum <"$1" >"$TEST_TMP/$(basename "$1").sum"; }
unchanged() { sha1sum <"$1" | cmp -s - "$TEST_TMP/$(basename "$1").sum" || fail "$1 changed despite the refusal"; }

echo "== a mounted partition of the disk"
printf 'label: dos\n,32M,L\n,,L\n' | sfdisk -q /dev/vdb
for _ in $(seq 50); do [ -b /dev/vdb2 ] && break; sleep 0.1; done
mkfs.ext4 -q -F /dev/vdb1
mark /dev/vdb2
mkdir "$TEST_TMP/mnt" && mount /dev/vdb1 "$TEST_TMP/mnt" && track_mount "$TEST_TMP/mnt"
all_refused /dev/vdb "has a mounted partition (/dev/vdb1 at $TEST_TMP/mnt)" all
all_refused /dev/vdb1 "is mounted at $TEST_TMP/mnt" all
umount "$TEST_TMP/mnt"
unchanged /dev/vdb2

echo "== a swap partition"
mkswap -q /dev/vdb2 >/dev/null && swapon /dev/vdb2
all_refused /dev/vdb2 "in use as swap" all
all_refused /dev/vdb "in use as swap"
swapoff /dev/vdb2
wipefs -q -a /dev/vdb >/dev/null
blockdev --rereadpt /dev/vdb

echo "== held by device-mapper"
mark /dev/vdc
dm=$(dm_create ssdb-hold "0 65536 linear /dev/vdc 0") || fail "dmsetup create"
all_refused /dev/vdc "is held by $(basename "$dm")" all
dm_remove ssdb-hold
unchanged /dev/vdc

echo "== members of an md raid1"
mdadm --create /dev/md0 --run --quiet --level=1 --raid-devices=2 --metadata=1.2 \
	--assume-clean /dev/vdb /dev/vdc 2>"$TEST_TMP/md.err" || fail "mdadm: $(cat "$TEST_TMP/md.err")"
mark /dev/md0
all_refused /dev/vdb "is held by md0" all
all_refused /dev/vdc "is held by md0"
mdadm --stop /dev/md0 >/dev/null 2>&1
mdadm --zero-superblock /dev/vdb /dev/vdc

echo "== read-only device"
mark /dev/vdb
blockdev --setro /dev/vdb
refused "read-only" "$S" run --no-db --target /dev/vdb --rw write --destroy-data --time 1s
refused "read-only" "$S" run --no-db --target /dev/vdb --rw trim --destroy-data --time 1s
refused "read-only" "$S" purge /dev/vdb --destroy-data
refused "read-only" "$S" suite --target /dev/vdb --preset quick --destroy-data --db "$DB"
# reading stays allowed
"$S" run --no-db --target /dev/vdb --rw read --bytes 1m >/dev/null || fail "read of a read-only device refused"
blockdev --setrw /dev/vdb
unchanged /dev/vdb

echo "== opened O_EXCL by another process"
python3 -c 'import os,sys,time; fd=os.open(sys.argv[1], os.O_RDONLY|os.O_EXCL); print("held", flush=True); time.sleep(60)' /dev/vdb >"$TEST_TMP/held" &
holder=$!
for _ in $(seq 100); do grep -q held "$TEST_TMP/held" 2>/dev/null && break; sleep 0.1; done
all_refused /dev/vdb "in use" all
kill $holder; wait $holder 2>/dev/null || true
unchanged /dev/vdb

echo "== the device holding the root filesystem"
# A root disk of its own: ext4 on vda, the host's tree bound in below it,
# and ssdbench run chrooted there, so / is on /dev/vda.
mkfs.ext4 -q -F /dev/vda
r=$TEST_TMP/root
mkdir "$r" && mount /dev/vda "$r" && track_mount "$r"
for l in bin sbin lib lib64; do ln -s "usr/$l" "$r/$l"; done
mkdir -p "$r/usr" "$r/etc" "$r/proc" "$r/sys" "$r/dev" "$r/tmp" "$r$PWD"
for d in usr etc proc sys dev "$PWD"; do
	mount --bind "/$d" "$r/$d" && track_mount "$r/$d"
done
tac_mounts() { for d in "$PWD" dev sys proc etc usr; do umount "$r/$d" 2>/dev/null || true; done; }
rc=0
chroot "$r" "$S" run --no-db --target /dev/vda --rw read --time 1s >"$TEST_TMP/out" 2>"$TEST_TMP/err" || rc=$?
cat "$TEST_TMP/err"
[ $rc = 1 ] && grep -q "holds the root filesystem" "$TEST_TMP/err" || { tac_mounts; fail "root disk: exit $rc"; }
rc=0
chroot "$r" "$S" purge /dev/vda --destroy-data >"$TEST_TMP/out" 2>"$TEST_TMP/err" || rc=$?
cat "$TEST_TMP/err"
[ $rc = 1 ] && grep -q "holds the root filesystem" "$TEST_TMP/err" || { tac_mounts; fail "root disk purge: exit $rc"; }
tac_mounts
echo ok
