#!/usr/bin/env bash
# Set-up for a fresh Debian machine: installs what ssdbench needs from
# Debian's packages, builds it, and runs the demo (a review of a simulated
# drive).  Options:
#   --deps-only   install packages only
#   --no-demo     install and build, skip the demo
set -euo pipefail
cd "$(dirname "$0")"

PACKAGES=(build-essential pkg-config liburing-dev libsqlite3-dev libjansson-dev sqlite3
          gnuplot-nox fio python3 util-linux e2fsprogs)
# Trace replay's test records a trace of a loop device.
PACKAGES+=(blktrace)
# The report test renders the HTML page in a headless browser.
PACKAGES+=(chromium)
# The several-targets tests read the runs' JSON arrays.
PACKAGES+=(jq)
# The VM tests (tests/vm/): a QEMU guest running this kernel image with a
# busybox initramfs, and the independent tools the device facts are checked
# against and the faults are made with.
PACKAGES+=(qemu-system-x86 linux-image-amd64 busybox-static cpio nvme-cli
           smartmontools fdisk dmsetup mdadm kmod file)
# The fuzzers (make fuzz, and a few seconds each in make test): clang's
# libFuzzer and sanitizer runtimes.
PACKAGES+=(clang libclang-rt-14-dev)
# The Debian package and its test.
PACKAGES+=(debhelper dpkg-dev)

mode=${1:-all}
missing=()
for p in "${PACKAGES[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	SUDO=""
	[ "$(id -u)" = 0 ] || SUDO=sudo
	echo "installing: ${missing[*]}"
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
[ "$mode" = --deps-only ] && exit 0

make -j"$(nproc)"
[ "$mode" = --no-demo ] && exit 0
exec scripts/demo.sh
