#!/usr/bin/env bash
# ssdbench info on QEMU's AHCI controller and ide-hd disk behind the
# kernel's ahci/libata drivers: ATA IDENTIFY and SMART field by field against
# smartctl, raw values decoded as smartctl decodes them.
# vm-timeout: 60
source "$(dirname "$0")/lib.sh"
check() {
	"$SSDBENCH" info --json "$SATA" >"$TEST_TMP/ours.json" || fail "info $SATA"
	smartctl -j -a -g wcache -g security "$SATA" >"$TEST_TMP/smartctl.json" || true
	keep "sata-$1-ours.json" "$TEST_TMP/ours.json"
	keep "sata-$1-smartctl.json" "$TEST_TMP/smartctl.json"
	python3 "$VM_DIR/crosscheck.py" ata "$TEST_TMP/ours.json" "$TEST_TMP/smartctl.json" \
		|| fail "ssdbench info and smartctl disagree ($1)"
}
echo "== fresh disk"
check fresh
echo "== after writing"
"$SSDBENCH" run --no-db --target "$SATA" --destroy-data --rw write --bs 128k --qd 4 --span 16m >/dev/null
check after-io
echo ok
