# replay_recorded DEV DEV2: record a blktrace of DEV (a block device the
# test made) while dd writes and reads known places, read it back from
# blkparse's text and from its binary dump (blkparse -d), and replay both
# onto DEV2 (as large, the same logical block): the D events of the text,
# read here with awk and not with ssdbench, must come back in order with
# the same directions, offsets and sizes, and must hold every I/O dd did.
# Skips (exit 77) without blktrace or when the kernel lets no one trace.
# Needs lib.sh sourced, and TEST_TMP as the working directory.
replay_recorded() {
	local dev=$1 dev2=$2 name bt spec bs n bytes t
	command -v blktrace >/dev/null && command -v blkparse >/dev/null ||
		skip "no blktrace/blkparse (package blktrace)"
	if [ ! -d /sys/kernel/debug/block ] && grep -qw debugfs /proc/filesystems; then
		mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null && track_mount /sys/kernel/debug
	fi
	[ -d /sys/kernel/debug/block ] || skip "the kernel has no block tracing (no debugfs block/)"
	name=$(basename "$(readlink -f "$dev")")
	blktrace -d "$dev" -o - >raw.bin 2>bt.err &
	bt=$!
	for _ in $(seq 50); do
		[ -s bt.err ] && break
		ls /sys/kernel/debug/block/"$name"/trace0 >/dev/null 2>&1 && break
		sleep 0.1
	done
	sleep 0.5
	# a kernel locked down (Secure Boot, or lockdown=) refuses its trace
	# files even to root: blktrace says so and traces nothing
	if ! kill -0 $bt 2>/dev/null || grep -qi "failed" bt.err; then
		kill $bt 2>/dev/null || true
		wait $bt || true
		skip "blktrace cannot trace here: $(head -1 bt.err)"
	fi
	: >dd.want
	for spec in "4k 0" "4k 100" "64k 3" "8k 1000" "4k 7" "128k 50"; do
		set -- $spec
		bs=$1 n=$2
		dd if=/dev/urandom of="$dev" bs="$bs" seek="$n" count=1 oflag=direct conv=notrunc status=none
		bytes=$(( ${bs%k} * 1024 ))
		echo "W $(( n * bytes )) $bytes" >>dd.want
	done
	for spec in "16k 2" "4k 9999"; do
		set -- $spec
		bs=$1 n=$2
		dd if="$dev" of=/dev/null bs="$bs" skip="$n" count=1 iflag=direct status=none
		bytes=$(( ${bs%k} * 1024 ))
		echo "R $(( n * bytes )) $bytes" >>dd.want
	done
	sleep 0.5
	kill -INT $bt
	wait $bt || true
	blkparse -i - -d dump.bin <raw.bin >trace.txt 2>bp.err || fail "blkparse: $(cat bp.err)"
	# the D events: device cpu seq time pid action RWBS sector + sectors
	awk '$6 == "D" && $9 == "+" {
		r = $7; if (r ~ /^F[RWD]/) r = substr(r, 2)
		op = substr(r, 1, 1); if (op == "D") op = "T"
		if (op == "R" || op == "W" || op == "T") print op, $8 * 512, $10 * 512
	}' trace.txt >trace.want
	[ -s trace.want ] || fail "no D events in the trace: $(head -3 trace.txt; cat bt.err)"
	python3 - dd.want trace.want <<'PY' || fail "the trace lacks what dd did"
import sys
dd = [l.split() for l in open(sys.argv[1])]
tr = [l.split() for l in open(sys.argv[2])]
i = 0
for x in tr:
    if i < len(dd) and x == dd[i]:
        i += 1
assert i == len(dd), ("dd I/O missing from the D events", dd[i], tr)
print(len(tr), "D events, holding the", len(dd), "I/Os dd did, in order")
PY
	for t in trace.txt dump.bin; do
		"$SSDBENCH" run --target "$dev2" --destroy-data --replay $t --replay-timing afap \
			--qd 1 --iolog $t.csv --no-db >$t.out 2>$t.err || fail "replay of $t: $(cat $t.err)"
		tail -n +2 $t.csv | awk -F, '{ print $4, $5, $6 }' >$t.got
		diff trace.want $t.got >$t.diff || fail "replay of $t differs from the trace: $(head $t.diff)"
		echo "$t: $(wc -l <$t.got) I/Os replayed as recorded"
	done
}
