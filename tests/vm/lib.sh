# Helpers for tests that run inside the VM guest (tests/vm/run.sh): the
# integration helpers plus the guest's disks.  Source it first.
source "$(dirname "$0")/../integration/lib.sh"
VM_DIR=$(cd "$(dirname "$0")" && pwd)
NVME=/dev/nvme0n1 NVME_CTRL=/dev/nvme0 SATA=/dev/sda
[ -n "${VM_ARTEFACTS:-}" ] || fail "not inside the VM guest (run tests/vm/run.sh)"
mkdir -p "$VM_ARTEFACTS"

# keep NAME FILE: copy FILE into the artefacts (kept on the host).
keep() { cp "$2" "$VM_ARTEFACTS/$1" 2>/dev/null || true; }

# dm_create NAME TABLE: a device-mapper device without udev; prints /dev/dm-N.
dm_create() {
	dmsetup create --noudevsync "$1" --table "$2" >/dev/null || return 1
	echo "/dev/dm-$(dmsetup info -c --noheadings -o minor "$1" | tr -d ' ')"
}
dm_remove() { dmsetup remove --noudevsync "$1" 2>/dev/null || dmsetup remove --noudevsync --force "$1" 2>/dev/null || true; }

# crosscheck_nvme TAG: ssdbench info against nvme-cli and smartctl, now.
crosscheck_nvme() {
	local d=$TEST_TMP/$1
	mkdir -p "$d"
	"$SSDBENCH" info --json "$NVME" >"$d/ours.json" || fail "info $NVME"
	nvme id-ctrl -o json "$NVME_CTRL" >"$d/id-ctrl.json" || fail "nvme id-ctrl"
	nvme id-ns -o json "$NVME" >"$d/id-ns.json" || fail "nvme id-ns"
	nvme smart-log -o json "$NVME_CTRL" >"$d/smart-log.json" || fail "nvme smart-log"
	# smartctl's exit status is a bit mask of findings, not of failure.
	smartctl -j -a "$NVME" >"$d/smartctl.json" || true
	for f in "$d"/*.json; do keep "nvme-$1-$(basename "$f")" "$f"; done
	python3 "$VM_DIR/crosscheck.py" nvme "$d/ours.json" "$d/id-ctrl.json" "$d/id-ns.json" \
		"$d/smart-log.json" "$d/smartctl.json" || fail "ssdbench info and nvme-cli/smartctl disagree ($1)"
}
