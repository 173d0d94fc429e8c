#!/usr/bin/env bash
# Boots one QEMU guest (TCG: no KVM needed) with the real kernel's nvme,
# ahci/libata, virtio, device-mapper, md and null_blk drivers in front of
# QEMU's NVMe and AHCI controller models, and runs the VM tests
# (tests/vm/test_vm_*.sh) inside it, one after the other.  Prints one line
# per test, like tests/run.sh:
#   vm NAME: ok (Ns) | skipped: REASON | FAILED (Ns)
# and ends with "vm: N passed, N failed, N skipped".  Exit 1 when any failed.
#
#   tests/vm/run.sh [PATTERN]    only tests whose name has PATTERN
#
# Environment: SSDBENCH (the binary the guest runs; default the sanitizer
# build), VM_KERNEL (a vmlinuz; default the newest /boot/vmlinuz-* whose
# modules are installed), VM_TIMEOUT (seconds for the whole guest, 900: a
# guard against a hung guest; each test has its own limit too).
set -u
cd "$(dirname "$0")/../.."
repo=$PWD
pattern=${1:-}
export SSDBENCH=${SSDBENCH:-$repo/build/san/ssdbench}

tests=()
for s in tests/vm/test_vm_*.sh; do
	name=$(basename "$s" .sh)
	[ -n "$pattern" ] && [[ $name != *$pattern* ]] && continue
	tests+=("$name")
done
[ ${#tests[@]} -gt 0 ] || exit 0

passed=0 failed=0 skipped=0
skip_all() {
	for t in "${tests[@]}"; do echo "vm $t: skipped: $1"; done
	echo "vm: 0 passed, 0 failed, ${#tests[@]} skipped"
	exit 0
}

# What the guest needs from the host.
qemu=$(command -v qemu-system-x86_64) || skip_all "no qemu-system-x86_64 (package qemu-system-x86)"
kernel=${VM_KERNEL:-}
if [ -z "$kernel" ]; then
	for k in $(ls -v /boot/vmlinuz-* 2>/dev/null); do
		[ -d "/lib/modules/${k#/boot/vmlinuz-}/kernel" ] && kernel=$k
	done
fi
[ -n "$kernel" ] && [ -r "$kernel" ] || skip_all "no kernel image with modules in /boot (package linux-image-amd64)"
kver=${kernel#*/vmlinuz-}
command -v busybox >/dev/null || skip_all "no busybox (package busybox-static)"
[ "$(id -u)" = 0 ] || skip_all "needs root (the guest shares the host's tree as root)"
[ -x "$SSDBENCH" ] || skip_all "no binary at $SSDBENCH (make san)"

vm_tmp=$(mktemp -d /tmp/ssdbench-vm.XXXXXX)
trap 'rm -rf "$vm_tmp"' EXIT
share=$vm_tmp/share
mkdir -p "$share/results" tests/artefacts/vm
if ! tests/vm/initramfs.sh "$kver" "$vm_tmp/initrd.gz" 2>"$vm_tmp/initrd.err"; then
	skip_all "cannot build the initramfs: $(tail -1 "$vm_tmp/initrd.err")"
fi

# Each test's time limit: a "# vm-timeout: N" line in the test, else 60 s.
for t in "${tests[@]}"; do
	limit=$(sed -n 's/^# vm-timeout: \([0-9]*\).*/\1/p' "tests/vm/$t.sh")
	echo "$t ${limit:-60}"
done >"$share/tests.list"
{
	printf 'export SSDBENCH=%q\n' "$SSDBENCH"
	printf 'export ASAN_OPTIONS=%q UBSAN_OPTIONS=%q\n' \
		"${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}" \
		"${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
	printf 'export VM_ARTEFACTS=%q\n' "$share/artefacts"
} >"$share/env"
mkdir -p "$share/artefacts"

# The disks.  Names the tests rely on: /dev/nvme0n1 (QEMU NVMe, 512 MiB),
# /dev/sda (QEMU AHCI + ide-hd, 256 MiB, TRIM), /dev/vda (root-disk test),
# /dev/vdb and /dev/vdc (64 MiB each, for md, dm and partitions).
truncate -s 512M "$vm_tmp/nvme.img"
truncate -s 256M "$vm_tmp/sata.img"
for d in vda vdb vdc; do truncate -s 64M "$vm_tmp/$d.img"; done
disks=(
	-drive "file=$vm_tmp/nvme.img,if=none,id=nvm,format=raw,cache=none,aio=threads,discard=unmap"
	-device "nvme,serial=SSDB-NVME-0001,drive=nvm,id=nvme0"
	-device ahci,id=ahci
	-drive "file=$vm_tmp/sata.img,if=none,id=sata,format=raw,discard=unmap,cache=none"
	-device "ide-hd,drive=sata,bus=ahci.0,model=SSDBENCH SATA DISK,serial=SSDB-SATA-0001,rotation_rate=1"
)
for d in vda vdb vdc; do
	disks+=(-drive "file=$vm_tmp/$d.img,if=virtio,format=raw,cache=none,discard=unmap")
done

start=$(date +%s)
timeout -k 5 "${VM_TIMEOUT:-900}" "$qemu" -nodefaults -no-reboot -display none \
	-machine pc -accel tcg,thread=multi -cpu max -smp 2 -m 1536 \
	-kernel "$kernel" -initrd "$vm_tmp/initrd.gz" \
	-append "console=ttyS0 panic=-1 loglevel=4 nvme.poll_queues=2 ssdbench.share=$share ssdbench.repo=$repo" \
	-serial "file:$share/console.log" \
	-fsdev "local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap" \
	-device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot \
	-fsdev "local,id=repo,path=$repo,security_model=none,readonly=on,multidevs=remap" \
	-device virtio-9p-pci,fsdev=repo,mount_tag=repo \
	-fsdev "local,id=share,path=$share,security_model=passthrough" \
	-device virtio-9p-pci,fsdev=share,mount_tag=share \
	"${disks[@]}" >"$vm_tmp/qemu.out" 2>&1
qrc=$?
secs=$(( $(date +%s) - start ))

# Keep what the guest left for reading after a failure.
rm -rf tests/artefacts/vm && mkdir -p tests/artefacts/vm
cp -r "$share/results/." "$share/console.log" "$vm_tmp/qemu.out" tests/artefacts/vm/ 2>/dev/null
cp -r "$share/artefacts/." tests/artefacts/vm/ 2>/dev/null
echo "vm guest: ${secs}s, qemu exit $qrc, kernel $kver; logs in tests/artefacts/vm/"

for t in "${tests[@]}"; do
	log=tests/artefacts/vm/$t.log
	if [ ! -f "$share/results/$t.rc" ]; then
		failed=$((failed + 1))
		echo "vm $t: FAILED (did not finish: guest timed out or crashed), last lines of the console:"
		tail -20 "$share/console.log" 2>/dev/null
		continue
	fi
	read -r rc tsecs <"$share/results/$t.rc"
	case $rc in
	0) passed=$((passed + 1)); echo "vm $t: ok (${tsecs}s)" ;;
	77) skipped=$((skipped + 1)); echo "vm $t: skipped: $(tail -1 "$log")" ;;
	*) failed=$((failed + 1))
	   echo "vm $t: FAILED (${tsecs}s, exit $rc), last lines of $log:"; tail -30 "$log" ;;
	esac
done
echo "vm: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
