#!/usr/bin/env bash
# --sqpoll: the kernel's SQ thread takes the submissions and the completions
# are polled from the ring, so a run makes almost no io_uring_enter calls
# (a few to set up and to wake the thread), not one per batch.  Counted with
# strace on a file.
source "$(dirname "$0")/lib.sh"
command -v strace >/dev/null || skip "strace is not installed"
S=$SSDBENCH
f=$TEST_TMP/target.img
$S run --target "$f" --size 64m --rw randread --bs 4k --qd 1 --bytes 1m --no-db >/dev/null
strace -f -qq -c -e trace=io_uring_enter -o "$TEST_TMP/st" \
	$S run --target "$f" --rw randread --bs 4k --qd 8 --bytes 16m --sqpoll \
	--no-db --json >"$TEST_TMP/r.json" 2>/dev/null || fail "run with --sqpoll"
mode=$(json_get "$TEST_TMP/r.json" 'd["engine"]["mode"]')
case $mode in sqpoll*) ;; *) skip "SQPOLL not available here (mode $mode)" ;; esac
ios=$(json_get "$TEST_TMP/r.json" 'd["workloads"][0]["read"]["total_ios"]')
[ "$ios" = 4096 ] || fail "reads: $ios, expected 4096"
enters=$(awk '$NF == "io_uring_enter" { print $4 }' "$TEST_TMP/st")
enters=${enters:-0}
echo "--sqpoll: $enters io_uring_enter calls for $ios reads"
# One enter per batch would be one per I/O or two at QD8 (2320 before the
# fix); wake-ups of a thread that fell asleep are legitimate, and a loaded
# machine lets the thread sleep more often, so the bound is well below the
# per-batch count, not near zero.
[ "$enters" -lt $((ios / 10)) ] || fail "$enters io_uring_enter calls for $ios I/Os"
