#!/usr/bin/env bash
# Builds the guest's initramfs from the host's own files: the static busybox,
# the kernel modules that reach the host's tree (virtio PCI, 9p) in the order
# `modprobe --show-depends` gives, and guest-init as /init.  Nothing binary
# is kept in the repository; the archive is made fresh for every boot.
#
#   tests/vm/initramfs.sh KVER OUT.cpio.gz
set -euo pipefail
kver=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
busybox=$(command -v busybox) || { echo "no busybox" >&2; exit 1; }
file -L "$busybox" | grep -q "statically linked" || { echo "$busybox is not static (install busybox-static)" >&2; exit 1; }

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,dev,proc,sys,host,lib/modules}
cp "$busybox" "$root/bin/busybox"
cp "$here/guest-init" "$root/init"
chmod 0755 "$root/init"

# Modules listed once each, dependencies first; "insmod PATH ARGS" lines.
: >"$root/modules.list"
for m in virtio_pci 9pnet_virtio 9p; do
	modprobe -S "$kver" --show-depends "$m" | while read -r verb path args; do
		[ "$verb" = insmod ] || continue
		name=$(basename "$path")
		grep -q "/$name\$" "$root/modules.list" 2>/dev/null && continue
		case $path in
		*.ko) cp "$path" "$root/lib/modules/$name" ;;
		*.ko.xz) xz -dc "$path" >"$root/lib/modules/${name%.xz}"; name=${name%.xz} ;;
		*.ko.zst) zstd -qdc "$path" >"$root/lib/modules/${name%.zst}"; name=${name%.zst} ;;
		*) echo "unknown module format: $path" >&2; exit 1 ;;
		esac
		echo "/lib/modules/$name${args:+ $args}" >>"$root/modules.list"
	done
done
(cd "$root" && find . | cpio -o -H newc --quiet) | gzip -1 >"$out"
