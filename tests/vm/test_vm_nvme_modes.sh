#!/usr/bin/env bash
# The NVMe namespace behind the kernel's nvme driver: --poll really polls
# (nvme.poll_queues=2; the driver's interrupts stay still) and --sqpoll runs
# a submission thread, each recorded as it ran; the trim stream works on
# this kernel and deallocated blocks read zeros (DLFEAT); purge by Format
# NVM erases, refuses what the controller lacks (format-crypto, Sanitize)
# naming what it has, formats into 4096-byte LBAs and back, and the facts
# agree with nvme-cli and smartctl after each format.
# vm-timeout: 180
source "$(dirname "$0")/lib.sh"
S=$SSDBENCH
MiB=1048576

# Interrupts of the nvme driver's queues so far (all CPUs).
nvme_irqs() { awk '/nvme0q/ { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) n += $i } END { print n + 0 }' /proc/interrupts; }
# mode_run NAME ARGS...: a 1 s random read; prints the recorded mode.
mode_run() {
	local name=$1; shift
	"$S" run --no-db --target "$NVME" --rw randread --bs 4k --qd 4 --time 1s --json "$@" \
		>"$TEST_TMP/$name.json" 2>"$TEST_TMP/$name.err" || fail "$name: $(cat "$TEST_TMP/$name.err")"
	keep "modes-$name.json" "$TEST_TMP/$name.json"
	json_get "$TEST_TMP/$name.json" 'd["engine"]["mode"]'
}
ios_of() { json_get "$TEST_TMP/$1.json" 'd["workloads"][0]["read"]["total_ios"]'; }

echo "== the driver has poll queues"
[ "$(cat /sys/block/nvme0n1/queue/io_poll)" = 1 ] || fail "no poll queues (nvme.poll_queues=2 not applied)"

echo "== interrupt mode: one interrupt per completion or so"
i0=$(nvme_irqs)
[ "$(mode_run irq)" = interrupt ] || fail "plain run not recorded as interrupt"
di=$(( $(nvme_irqs) - i0 )); ios=$(ios_of irq)
echo "interrupt: $ios reads, $di nvme interrupts"
[ "$di" -ge $((ios / 4)) ] || fail "interrupt mode with $di interrupts for $ios reads"

echo "== --poll: iopoll, the completions come without interrupts"
i0=$(nvme_irqs)
[ "$(mode_run poll --poll)" = iopoll ] || fail "--poll recorded as $(json_get "$TEST_TMP/poll.json" 'd["engine"]["mode"]')"
di=$(( $(nvme_irqs) - i0 )); ios=$(ios_of poll)
echo "iopoll: $ios reads, $di nvme interrupts"
[ "$ios" -gt 100 ] || fail "iopoll: only $ios reads"
[ "$di" -lt $((ios / 20)) ] || fail "iopoll with $di interrupts for $ios reads: not polled"

echo "== --sqpoll: a kernel submission thread while it runs"
"$S" run --no-db --target "$NVME" --rw randread --bs 4k --qd 4 --time 3s --sqpoll --json \
	>"$TEST_TMP/sqpoll.json" 2>"$TEST_TMP/sqpoll.err" &
pid=$!
seen=0
for _ in $(seq 60); do
	grep -qs '^iou-sqp-' /proc/[0-9]*/task/*/comm && { seen=1; break; }
	sleep 0.1
done
wait $pid || fail "sqpoll run: $(cat "$TEST_TMP/sqpoll.err")"
[ $seen = 1 ] || fail "no iou-sqp thread during the --sqpoll run"
[ "$(json_get "$TEST_TMP/sqpoll.json" 'd["engine"]["mode"]')" = sqpoll ] || fail "--sqpoll not recorded as sqpoll"
[ "$(mode_run both --sqpoll --poll)" = sqpoll+iopoll ] || fail "--sqpoll --poll not recorded as sqpoll+iopoll"

echo "== --poll on the SATA disk: no poll queues, said and recorded"
"$S" run --no-db --target "$SATA" --rw randread --time 500ms --poll --json >"$TEST_TMP/sp.json" 2>"$TEST_TMP/sp.err" \
	|| fail "poll on sata: $(cat "$TEST_TMP/sp.err")"
keep modes-sata-poll.json "$TEST_TMP/sp.json"
[ "$(json_get "$TEST_TMP/sp.json" 'd["engine"]["mode"]')" = "interrupt (device cannot poll)" ] \
	|| fail "sata --poll recorded as $(json_get "$TEST_TMP/sp.json" 'd["engine"]["mode"]')"

echo "== trims on this kernel: deallocated blocks read zeros"
[ "$(nvme id-ns -o json "$NVME" | python3 -c 'import json,sys; print(json.load(sys.stdin)["dlfeat"] & 7)')" = 1 ] \
	|| skip "the namespace does not promise zeros after deallocate"
dd if=/dev/urandom of="$NVME" bs=1M count=8 oflag=direct status=none
"$S" run --no-db --target "$NVME" --destroy-data --rw trim --bs 1m --span 4m --json >"$TEST_TMP/trim.json" \
	2>"$TEST_TMP/trim.err" || fail "trim run on $(uname -r): $(cat "$TEST_TMP/trim.err")"
[ "$(json_get "$TEST_TMP/trim.json" 'd["workloads"][0]["trim"]["total_bytes"]')" = $((4 * MiB)) ] || fail "trim bytes"
cmp -s -n $((4 * MiB)) "$NVME" /dev/zero || fail "trimmed range does not read zeros"
cmp -s -n $MiB <(dd if="$NVME" bs=1M skip=4 count=1 iflag=direct status=none) /dev/zero \
	&& fail "the block after the trimmed range reads zeros too"

echo "== a trim over dirty pages of a buffered writer (the boot step's writer)"
# 6.1's BLKDISCARD only invalidates the page cache (EBUSY on dirty pages)
# when the caller's descriptor is not the exclusive one; newer kernels write
# the range back first.
# The writer keeps its descriptor open: the last close would write back.
python3 -c 'import os,sys,time
fd = os.open(sys.argv[1], os.O_WRONLY)
os.write(fd, os.urandom(4 << 20))
print("dirty", flush=True); time.sleep(60)' "$NVME" >"$TEST_TMP/writer" &
writer=$!
for _ in $(seq 100); do grep -q dirty "$TEST_TMP/writer" 2>/dev/null && break; sleep 0.1; done
grep -E '^(Dirty|Writeback):' /proc/meminfo
rc=0
"$S" run --no-db --target "$NVME" --destroy-data --rw trim --bs 1m --span 4m >/dev/null \
	2>"$TEST_TMP/trim.err" || rc=$?
kill $writer; wait $writer 2>/dev/null || true
[ $rc = 0 ] || fail "trim over dirty pages: $(cat "$TEST_TMP/trim.err")"
cmp -s -n $((4 * MiB)) "$NVME" /dev/zero || fail "trimmed range over dirty pages does not read zeros"

echo "== purge: refusals name what the controller has"
expect_fail "format-crypto" "$S" purge "$NVME" --destroy-data --method format-crypto
grep -q "does not support --method format-crypto; it supports: format, discard" <<<"$LAST_ERR" || fail "format-crypto: $LAST_ERR"
expect_fail "sanitize" "$S" purge "$NVME" --destroy-data --method sanitize-block
grep -q "does not support --method sanitize-block; it supports: format, discard" <<<"$LAST_ERR" || fail "sanitize: $LAST_ERR"
echo "refused: $LAST_ERR"
expect_fail "lbaf 8" "$S" purge "$NVME" --destroy-data --lbaf 8
echo "refused: $LAST_ERR"

echo "== purge by format: user data erase, the namespace reads zeros"
dd if=/dev/urandom of="$NVME" bs=1M count=4 oflag=direct status=none
"$S" purge "$NVME" --destroy-data --json >"$TEST_TMP/p.json" 2>"$TEST_TMP/p.err" || fail "purge: $(cat "$TEST_TMP/p.err")"
keep modes-purge.json "$TEST_TMP/p.json"
[ "$(json_get "$TEST_TMP/p.json" 'd["method"]')" = format ] || fail "auto did not pick format"
grep -q "user data erase" "$TEST_TMP/p.json" || fail "detail does not say user data erase"
cmp -s -n $((4 * MiB)) "$NVME" /dev/zero || fail "the namespace does not read zeros after format"

echo "== into LBA format 4 (4096 + 0) and back to 0 (512 + 0)"
"$S" purge "$NVME" --destroy-data --lbaf 4 --json >"$TEST_TMP/p4.json" 2>"$TEST_TMP/p.err" || fail "lbaf 4: $(cat "$TEST_TMP/p.err")"
[ "$(json_get "$TEST_TMP/p4.json" 'd["lbaf"]')" = 4 ] || fail "lbaf after"
[ "$(json_get "$TEST_TMP/p4.json" 'd["logical_block_size"]')" = 4096 ] || fail "lbs after"
[ "$(blockdev --getss "$NVME")" = 4096 ] || fail "the kernel still sees $(blockdev --getss "$NVME")-byte sectors"
crosscheck_nvme lbaf4
expect_fail "2k on 4k" "$S" run --no-db --target "$NVME" --rw randread --bs 2k --time 200ms
grep -q "logical block size (4096 B)" <<<"$LAST_ERR" || fail "2k on a 4k namespace: $LAST_ERR"
"$S" purge "$NVME" --destroy-data --lbaf 0 --json >"$TEST_TMP/p0.json" 2>"$TEST_TMP/p.err" || fail "lbaf 0: $(cat "$TEST_TMP/p.err")"
[ "$(json_get "$TEST_TMP/p0.json" 'd["logical_block_size"]')" = 512 ] || fail "lbs back"
[ "$(blockdev --getss "$NVME")" = 512 ] || fail "the kernel did not come back to 512"
crosscheck_nvme lbaf0

echo "== SATA: purge picks discard (no security feature set), and says so"
"$S" purge "$SATA" --destroy-data --json >"$TEST_TMP/ps.json" 2>"$TEST_TMP/p.err" || fail "sata purge: $(cat "$TEST_TMP/p.err")"
[ "$(json_get "$TEST_TMP/ps.json" 'd["method"]')" = discard ] || fail "sata: not discard"
expect_fail "ata erase" "$S" purge "$SATA" --destroy-data --method ata-secure-erase
grep -q "it supports: discard" <<<"$LAST_ERR" || fail "ata-secure-erase: $LAST_ERR"
expect_fail "format on sata" "$S" purge "$SATA" --destroy-data --method format
echo ok
