#!/usr/bin/env bash
# Agreement with fio on the same loop device: the same amount written
# exactly, IOPS of the same order of magnitude (the machine is shared and
# noisy; bench/ holds the careful comparison).
source "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || skip "fio not installed"
dev=$(make_loop 64)
S=$SSDBENCH

# One pair of runs; sets fb/fi (fio bytes, IOPS) and sb/si (ssdbench).
pair() {
	local rw=$1 dir=${1#rand}
	fio --name=agree --filename="$dev" --ioengine=io_uring --direct=1 --rw=$rw --bs=4k \
		--iodepth=16 --size=64m --io_size=16m --registerfiles=1 --fixedbufs=1 \
		--output-format=json --output="$TEST_TMP/fio.json" >/dev/null
	$S run --target "$dev" --rw $rw --bs 4k --qd 16 --bytes 16m --destroy-data --no-db \
		--json >"$TEST_TMP/sb.json"
	fb=$(json_get "$TEST_TMP/fio.json" "d['jobs'][0]['$dir']['io_bytes']")
	fi=$(json_get "$TEST_TMP/fio.json" "d['jobs'][0]['$dir']['iops']")
	sb=$(json_get "$TEST_TMP/sb.json" "d['workloads'][0]['$dir']['total_bytes']")
	si=$(json_get "$TEST_TMP/sb.json" "d['workloads'][0]['$dir']['iops']")
	echo "$rw: fio $fb bytes $fi IOPS, ssdbench $sb bytes $si IOPS"
}

for rw in randwrite randread; do
	# A stall of the shared host can slow either tool for a whole short
	# run, so a pair out of proportion is retried; three in a row fail.
	ok=0
	for attempt in 1 2 3; do
		pair $rw
		[ "$fb" = "$sb" ] || fail "$rw: bytes differ: fio $fb, ssdbench $sb"
		if python3 -c "import sys; r=$si/$fi; sys.exit(0 if 0.1 < r < 10 else 1)"; then
			ok=1
			break
		fi
		echo "$rw: IOPS differ by more than 10x (attempt $attempt)"
	done
	[ $ok = 1 ] || fail "$rw: IOPS differ by more than 10x in three pairs"
done
echo ok
