# Shared helpers for integration tests.  Source it first; every resource a
# test makes (temp dir, loop devices, zram, mounts) is removed on exit.
set -euo pipefail
: "${SSDBENCH:?SSDBENCH must point at the binary}"
TEST_TMP=$(mktemp -d /tmp/ssdbench-test.XXXXXX)
# Devices are recorded in files, not shell variables: make_loop and
# make_zram run inside $(...), a subshell whose variables the cleanup
# would never see.
_LOOPS=$TEST_TMP/.loops
_ZRAM=$TEST_TMP/.zram
_mounts=()

cleanup() {
	local m l
	for m in "${_mounts[@]}"; do umount "$m" 2>/dev/null || true; done
	if [ -f "$_LOOPS" ]; then
		while read -r l; do losetup -d "$l" 2>/dev/null || true; done <"$_LOOPS"
	fi
	if [ -f "$_ZRAM" ]; then echo 1 > /sys/block/zram0/reset 2>/dev/null || true; fi
	rm -rf "$TEST_TMP"
}
trap cleanup EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
# On stderr, so the reason reaches the log from inside $(...) too.
skip() { echo "$*" >&2; exit 77; }
need_root() { [ "$(id -u)" = 0 ] || skip "needs root"; }

# make_loop SIZE_MB [extra losetup args]: prints the new loop device.
make_loop() {
	need_root
	local img dev
	img=$(mktemp "$TEST_TMP/loop.XXXXXX")
	truncate -s "${1}M" "$img"
	shift
	dev=$(losetup --direct-io=on -f --show "$@" "$img") || skip "losetup failed"
	echo "$dev" >>"$_LOOPS"
	echo "$dev"
}

# make_zram SIZE_MB: prints /dev/zram0 if it is free, else skips.
make_zram() {
	need_root
	[ -e /sys/block/zram0 ] || skip "no zram device"
	[ "$(cat /sys/block/zram0/disksize)" = 0 ] || skip "zram0 is in use"
	echo "${1}M" > /sys/block/zram0/disksize || skip "cannot size zram0"
	touch "$_ZRAM"
	echo /dev/zram0
}

track_mount() { _mounts+=("$1"); }

# expect_fail "what" CMD...: the command must exit non-zero; its stderr is
# kept in $LAST_ERR for message checks.
expect_fail() {
	local what=$1; shift
	if "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err"; then
		fail "$what: expected failure, got success"
	fi
	LAST_ERR=$(cat "$TEST_TMP/err")
}

# json_get FILE EXPR: a value from a JSON file (python3 is on every machine).
json_get() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2],{"d":d}))' "$1" "$2"; }
