#!/usr/bin/env bash
# ssdbench run on a loop device it creates: exact byte counts, offsets in
# the span and aligned (through the iolog), data really written (read back:
# unique, incompressible), trims reach the backing file, O_SYNC is set on
# the descriptor that writes.
source "$(dirname "$0")/lib.sh"
dev=$(make_loop 64)
img=$(losetup -n -O BACK-FILE "$dev")
S=$SSDBENCH

echo "== exact bytes, offsets through the iolog"
$S run --target "$dev" --rw randwrite --bs 4k --qd 16 --bytes 8m --span 4m:32m \
	--destroy-data --no-db --json --iolog "$TEST_TMP/io.csv" >"$TEST_TMP/w.json"
[ "$(json_get "$TEST_TMP/w.json" 'd["workloads"][0]["write"]["total_bytes"]')" = 8388608 ] || fail "bytes not exact"
[ "$(json_get "$TEST_TMP/w.json" 'd["workloads"][0]["write"]["total_ios"]')" = 2048 ] || fail "ios not exact"
python3 - "$TEST_TMP/io.csv" <<'PY' || fail "iolog check"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 2048, len(rows)
for r in rows:
    off, ln = int(r["offset"]), int(r["len"])
    assert r["op"] == "W" and ln == 4096 and int(r["res"]) == 4096, r
    assert 4 << 20 <= off and off + ln <= (36 << 20), off
    assert (off - (4 << 20)) % 4096 == 0, off
    assert int(r["lat_ns"]) > 0
PY

echo "== data written: every 512-byte block unique and incompressible"
$S run --target "$dev" --rw write --bs 64k --qd 8 --jobs 2 --destroy-data --no-db --json >"$TEST_TMP/f.json"
[ "$(json_get "$TEST_TMP/f.json" 'd["workloads"][0]["write"]["total_bytes"]')" = $((64 << 20)) ] || fail "fill bytes"
python3 - "$dev" <<'PY' || fail "read-back check"
import sys, zlib
seen = set()
with open(sys.argv[1], "rb", buffering=0) as f:
    data = f.read(64 << 20)
assert len(data) == 64 << 20
for i in range(0, len(data), 512):
    stamp = data[i:i + 8]
    assert stamp != b"\0" * 8, i
    assert stamp not in seen, "duplicate block at %d" % i
    seen.add(stamp)
sample = data[:1 << 20]
ratio = len(zlib.compress(sample, 6)) / len(sample)
assert ratio > 0.999, ratio
print("blocks", len(seen), "compress ratio", round(ratio, 4))
PY

echo "== trims punch holes in the backing file"
before=$(stat -c %b "$img")
$S run --target "$dev" --rw trim --bs 1m --qd 4 --span 0:32m --destroy-data --no-db --json >"$TEST_TMP/t.json"
after=$(stat -c %b "$img")
[ "$(json_get "$TEST_TMP/t.json" 'd["workloads"][0]["trim"]["total_ios"]')" = 32 ] || fail "trim count"
echo "allocated 512-byte sectors: $before -> $after"
[ $((before - after)) -ge $((30 * 2048)) ] || fail "trims did not free the backing file ($before -> $after)"

echo "== --sync: the writing descriptor has O_SYNC, without it not"
sync_flags() {	# prints the flags of the process' descriptors on $dev
	local pid=$1 fd
	for fd in /proc/$pid/fd/*; do
		[ "$(readlink "$fd")" = "$dev" ] || continue
		awk '/^flags:/ {print $2}' "/proc/$pid/fdinfo/${fd##*/}"
	done
}
has_osync() {	# O_SYNC is 04010000 (octal)
	local f
	for f in "$@"; do (( (8#$f & 8#4010000) == 8#4010000 )) && return 0; done
	return 1
}
# The descriptors once the run has opened the device (a loaded machine may
# take more than a second to start a sanitizer build); empty if it never did.
# With `want` (sync), the look goes on until a descriptor with O_SYNC is
# there or the run ends: the session's own descriptor (O_DIRECT, no O_SYNC)
# opens first, and a look right then would see only it.
await_flags() {
	local pid=$1 want=${2:-} i f seen=
	for i in $(seq 100); do
		f=$(sync_flags "$pid")
		[ -n "$f" ] && seen=$f
		if [ -n "$seen" ]; then
			[ -z "$want" ] && break
			has_osync $seen && break
		fi
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	echo "$seen"
}
for mode in sync plain; do
	extra=(); [ $mode = sync ] && extra=(--sync)
	$S run --target "$dev" --rw randwrite --bs 4k --qd 2 --time 3s --destroy-data --no-db "${extra[@]}" >/dev/null &
	pid=$!
	flags=$(await_flags $pid "$( [ $mode = sync ] && echo sync)")
	wait $pid || fail "$mode run failed"
	echo "$mode: flags $flags"
	if [ $mode = sync ]; then has_osync $flags || fail "--sync: no O_SYNC descriptor"
	else has_osync $flags && fail "O_SYNC without --sync"; fi
done
echo "== --buffered: the descriptor that does the I/O has no O_DIRECT"
$S run --target "$dev" --rw randread --bs 4k --qd 2 --time 2s --buffered --no-db >/dev/null &
pid=$!
# The session's own descriptor (O_DIRECT) opens first: a loaded machine
# may show it alone for a while, so look until the run's I/O descriptor
# is there too or the run ends.
buffered=0	# O_DIRECT is 040000 (octal); the session's own descriptor keeps it
for i in $(seq 100); do
	flags=$(sync_flags "$pid")
	for f in $flags; do (( (8#$f & 8#40000) == 0 )) && buffered=1; done
	[ $buffered = 1 ] && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
wait $pid || fail "buffered run failed"
echo "buffered: flags $flags"
[ $buffered = 1 ] || fail "--buffered: every descriptor has O_DIRECT"

echo "== --fsync-every: one fsync per 64 KiB written"
$S run --target "$dev" --rw randwrite --bs 4k --qd 4 --bytes 1m --fsync-every 64k \
	--destroy-data --no-db --iolog "$TEST_TMP/fs.csv" >/dev/null
[ "$(grep -c ',F,' "$TEST_TMP/fs.csv")" = 16 ] || fail "fsyncs: $(grep -c ',F,' "$TEST_TMP/fs.csv")"
[ "$(grep -c ',W,' "$TEST_TMP/fs.csv")" = 256 ] || fail "writes with fsync"

echo "== --poll falls back and says so; --sqpoll runs"
$S run --target "$dev" --rw randread --qd 4 --bytes 1m --poll --no-db --json \
	>"$TEST_TMP/p.json" 2>"$TEST_TMP/p.err"
mode=$(json_get "$TEST_TMP/p.json" 'd["engine"]["mode"]')
echo "poll: mode '$mode', stderr: $(cat "$TEST_TMP/p.err")"
case "$mode" in
iopoll) ;;	# a device with poll queues
"interrupt (device cannot poll)") grep -q "cannot poll" "$TEST_TMP/p.err" || fail "no notice on stderr" ;;
*) fail "poll mode '$mode'" ;;
esac
[ "$(json_get "$TEST_TMP/p.json" 'd["workloads"][0]["read"]["total_bytes"]')" = 1048576 ] || fail "poll run bytes"
$S run --target "$dev" --rw randread --qd 2 --bytes 256k --sqpoll --no-db --json >"$TEST_TMP/s.json"
[ "$(json_get "$TEST_TMP/s.json" 'd["engine"]["mode"]')" = sqpoll ] || fail "sqpoll mode"
echo ok
