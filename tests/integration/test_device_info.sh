# ssdbench info on loop devices and files made here: "not NVMe / not ATA"
# is detected cleanly and the sysfs facts match what the test configured.
source "$(dirname "$0")/lib.sh"

# info_check JSON_FILE EXPR EXPECTED
info_check() {
	local got
	got=$(json_get "$1" "$2")
	[ "$got" = "$3" ] || fail "$2: expected '$3', got '$got'"
}

# A 64 MiB loop device with 512-byte sectors.
dev=$(make_loop 64)
"$SSDBENCH" info "$dev" --json >"$TEST_TMP/loop.json"
info_check "$TEST_TMP/loop.json" 'd["kind"]' block
info_check "$TEST_TMP/loop.json" 'd["transport"]' loop
info_check "$TEST_TMP/loop.json" 'd["size_bytes"]' 67108864
info_check "$TEST_TMP/loop.json" 'd["logical_block_size"]' 512
info_check "$TEST_TMP/loop.json" 'd["block"]["size_bytes"]' 67108864
info_check "$TEST_TMP/loop.json" 'd["block"]["name"]' "$(basename "$dev")"
info_check "$TEST_TMP/loop.json" 'd["block"]["backing_file"]' "$TEST_TMP/loop0.img"
info_check "$TEST_TMP/loop.json" 'd["nvme"]' None
info_check "$TEST_TMP/loop.json" 'd["ata"]' None
info_check "$TEST_TMP/loop.json" '"not NVMe" in d["nvme_probe"]' True
info_check "$TEST_TMP/loop.json" '"not ATA" in d["ata_probe"]' True
info_check "$TEST_TMP/loop.json" 'd["health"]["temperature_c"]' None
# The human form says the same.
"$SSDBENCH" info "$dev" >"$TEST_TMP/loop.txt"
grep -q "not NVMe" "$TEST_TMP/loop.txt" || fail "human form lacks 'not NVMe'"
grep -q "64 MiB" "$TEST_TMP/loop.txt" || fail "human form lacks the size"

# The same with 4096-byte logical sectors.
dev4k=$(make_loop 32 --sector-size 4096)
"$SSDBENCH" info "$dev4k" --json >"$TEST_TMP/loop4k.json"
info_check "$TEST_TMP/loop4k.json" 'd["logical_block_size"]' 4096
info_check "$TEST_TMP/loop4k.json" 'd["block"]["physical_block_size"]' 4096
info_check "$TEST_TMP/loop4k.json" 'd["size_bytes"]' 33554432

# A regular file.
head -c 1048576 /dev/zero >"$TEST_TMP/plain.img"
"$SSDBENCH" info "$TEST_TMP/plain.img" --json >"$TEST_TMP/file.json"
info_check "$TEST_TMP/file.json" 'd["kind"]' file
info_check "$TEST_TMP/file.json" 'd["size_bytes"]' 1048576
info_check "$TEST_TMP/file.json" 'd["block"]' None

# Bad input: a clear error and a non-zero exit.
expect_fail "missing target" "$SSDBENCH" info "$TEST_TMP/nope"
grep -q "No such file" <<<"$LAST_ERR" || fail "missing target: '$LAST_ERR'"
expect_fail "character device" "$SSDBENCH" info /dev/null
grep -q "character device" <<<"$LAST_ERR" || fail "chardev: '$LAST_ERR'"
set +e
"$SSDBENCH" info >/dev/null 2>&1; rc=$?
[ $rc = 2 ] || fail "no target: exit $rc, want 2"
"$SSDBENCH" info "$dev" --frobnicate >/dev/null 2>&1; rc=$?
[ $rc = 2 ] || fail "unknown option: exit $rc, want 2"
set -e
echo ok
