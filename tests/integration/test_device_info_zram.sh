# ssdbench info on zram (skipped while zram0 is in use): not NVMe / ATA,
# 4096-byte blocks, the size the test gave it, discard supported.
source "$(dirname "$0")/lib.sh"

dev=$(make_zram 48)
"$SSDBENCH" info "$dev" --json >"$TEST_TMP/zram.json"
check() {
	local got
	got=$(json_get "$TEST_TMP/zram.json" "$1")
	[ "$got" = "$2" ] || fail "$1: expected '$2', got '$got'"
}
check 'd["transport"]' zram
check 'd["size_bytes"]' 50331648
check 'd["logical_block_size"]' 4096
check 'd["block"]["discard"]' True
check 'd["block"]["rotational"]' False
check 'd["nvme"]' None
check '"not NVMe" in d["nvme_probe"]' True
check '"not ATA" in d["ata_probe"]' True
echo ok
