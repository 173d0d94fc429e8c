# ssdbench purge on loop devices and a file made here: discard really
# leaves zeros and holes, and every refusal says what and why.
source "$(dirname "$0")/lib.sh"

# A direct-I/O loop device full of random data.
dev=$(make_loop 32)
img="$TEST_TMP/loop0.img"
dd if=/dev/urandom of="$dev" bs=1M count=32 oflag=direct status=none
[ "$(du -k "$img" | cut -f1)" -ge 30000 ] || fail "backing file not filled"

# No consent, no purge (exit 2: usage), and the data is untouched.
set +e
"$SSDBENCH" purge "$dev" >/dev/null 2>"$TEST_TMP/err"; rc=$?
set -e
[ $rc = 2 ] || fail "purge without --destroy-data: exit $rc, want 2"
grep -q -- "--destroy-data" "$TEST_TMP/err" || fail "no hint: $(cat "$TEST_TMP/err")"
cmp -s -n 1048576 "$dev" /dev/zero && fail "data changed without consent"

# A method the device lacks, an LBA format on a non-NVMe device, a typo.
expect_fail "format on loop" "$SSDBENCH" purge "$dev" --destroy-data --method format
grep -q "does not support --method format; it supports: discard" <<<"$LAST_ERR" \
	|| fail "format on loop: '$LAST_ERR'"
expect_fail "lbaf on loop" "$SSDBENCH" purge "$dev" --destroy-data --lbaf 1
grep -q -- "--lbaf needs an NVMe namespace" <<<"$LAST_ERR" || fail "lbaf: '$LAST_ERR'"
set +e
"$SSDBENCH" purge "$dev" --destroy-data --method sanitise >/dev/null 2>&1; rc=$?
set -e
[ $rc = 2 ] || fail "unknown method: exit $rc, want 2"

# Auto picks discard here; afterwards the device reads zeros and the
# backing file is holes.
"$SSDBENCH" purge "$dev" --destroy-data --json >"$TEST_TMP/purge.json"
[ "$(json_get "$TEST_TMP/purge.json" 'd["method"]')" = discard ] || fail "method not discard"
[ "$(json_get "$TEST_TMP/purge.json" 'd["logical_block_size"]')" = 512 ] || fail "lbs"
grep -q "first 512-byte block" "$TEST_TMP/purge.json" || fail "no verification recorded"
cmp -s -n $((32 << 20)) "$dev" /dev/zero || fail "device does not read back zeros"
[ "$(du -k "$img" | cut -f1)" -le 64 ] || fail "backing file still allocated: $(du -k "$img")"

# A mounted filesystem is refused, naming the mount point.
fsdev=$(make_loop 64)
mkfs.ext4 -q -F "$fsdev"
mkdir "$TEST_TMP/mnt"
mount "$fsdev" "$TEST_TMP/mnt"
track_mount "$TEST_TMP/mnt"
expect_fail "mounted" "$SSDBENCH" purge "$fsdev" --destroy-data
grep -q "$TEST_TMP/mnt" <<<"$LAST_ERR" || fail "mounted: message lacks the mount point: '$LAST_ERR'"
umount "$TEST_TMP/mnt"
"$SSDBENCH" purge "$fsdev" --destroy-data --method discard >"$TEST_TMP/out"
grep -q "purged $fsdev by discard" "$TEST_TMP/out" || fail "purge after umount: $(cat "$TEST_TMP/out")"

# A regular file is deleted and recreated at its size, and says so.
head -c 2097152 /dev/urandom >"$TEST_TMP/file.img"
expect_fail "file method" "$SSDBENCH" purge "$TEST_TMP/file.img" --destroy-data --method discard
grep -q "regular file" <<<"$LAST_ERR" || fail "file method: '$LAST_ERR'"
"$SSDBENCH" purge "$TEST_TMP/file.img" --destroy-data >"$TEST_TMP/out"
grep -q "recreate-file" "$TEST_TMP/out" || fail "file purge: $(cat "$TEST_TMP/out")"
grep -q "deleted and recreated" "$TEST_TMP/out" || fail "file purge does not say so"
[ "$(stat -c %s "$TEST_TMP/file.img")" = 2097152 ] || fail "file size changed"
cmp -s "$TEST_TMP/file.img" <(head -c 2097152 /dev/zero) || fail "file not empty"
echo ok
