#!/usr/bin/env bash
# ssdbench info on QEMU's NVMe controller behind the kernel's nvme driver,
# field by field against nvme-cli (id-ctrl, id-ns, smart-log) and smartctl,
# before and after I/O moved the data-unit counters.
# vm-timeout: 60
source "$(dirname "$0")/lib.sh"
echo "== fresh namespace"
crosscheck_nvme fresh

echo "== after 24 MiB written and 8 MiB read"
"$SSDBENCH" run --no-db --target "$NVME" --destroy-data --rw write --bs 128k --qd 4 --span 24m >/dev/null
"$SSDBENCH" run --no-db --target "$NVME" --rw read --bs 128k --qd 4 --span 8m >/dev/null
crosscheck_nvme after-io
w=$(json_get "$TEST_TMP/after-io/ours.json" 'd["health"]["data_written_bytes"]')
# 24 MiB = 49152 sectors = 49.152 data units: the controller counts 49 or 50
[ "$w" -ge $((49 * 512000)) ] || fail "data written $w does not count the 24 MiB written"
echo ok
