# Shared helpers for integration tests.  Source it first; every resource a
# test makes (temp dir, loop devices, zram, mounts) is removed on exit.
set -euo pipefail
: "${SSDBENCH:?SSDBENCH must point at the binary}"
TEST_TMP=$(mktemp -d /tmp/ssdbench-test.XXXXXX)
_loops=()
_mounts=()
_zram_used=0

# make_loop and make_zram run in $(...) subshells, so they record what they
# made in files here rather than in variables the subshell would lose.
_loops_file="$TEST_TMP/.loops"
_zram_file="$TEST_TMP/.zram"

cleanup() {
	local m l
	for m in "${_mounts[@]}"; do umount "$m" 2>/dev/null || true; done
	if [ -f "$_loops_file" ]; then
		while read -r l; do losetup -d "$l" 2>/dev/null || true; done <"$_loops_file"
	fi
	if [ "$_zram_used" = 1 ] || [ -f "$_zram_file" ]; then
		echo 1 > /sys/block/zram0/reset 2>/dev/null || true
	fi
	rm -rf "$TEST_TMP"
}
trap cleanup EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
# To stderr: inside $(...) stdout would be swallowed with the exit.
skip() { echo "$*" >&2; exit 77; }
need_root() { [ "$(id -u)" = 0 ] || skip "needs root"; }

# make_loop SIZE_MB [extra losetup args]: prints the new loop device.
make_loop() {
	need_root
	local n=0 img dev
	[ -f "$_loops_file" ] && n=$(wc -l <"$_loops_file")
	img="$TEST_TMP/loop$n.img"
	truncate -s "${1}M" "$img"
	shift
	dev=$(losetup --direct-io=on -f --show "$@" "$img") || skip "losetup failed"
	_loops+=("$dev")
	echo "$dev" >>"$_loops_file"
	echo "$dev"
}

# make_zram SIZE_MB: prints /dev/zram0 if it is free, else skips.
make_zram() {
	need_root
	[ -e /sys/block/zram0 ] || skip "no zram device"
	[ "$(cat /sys/block/zram0/disksize)" = 0 ] || skip "zram0 is in use"
	echo "${1}M" > /sys/block/zram0/disksize || skip "cannot size zram0"
	_zram_used=1
	touch "$_zram_file"
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
