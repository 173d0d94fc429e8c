#!/usr/bin/env bash
# Runs inside the guest, chrooted into the host's tree: loads the drivers the
# tests use (from the host's /lib/modules, which is this kernel's), then each
# test named in SHARE/tests.list with its own time limit.  Each test leaves
# SHARE/results/NAME.log and NAME.rc; a test without an .rc did not finish.
share=$1 repo=$2
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp LANG=C.UTF-8
# shellcheck disable=SC1091
source "$share/env"
cd "$repo" || exit 1
mkdir -p "$share/results"
{
	echo "kernel $(uname -r), $(nproc) CPUs, $(awk '/MemTotal/ {print $2}' /proc/meminfo) kB"
	# nvme.poll_queues=2 comes from the kernel command line.
	for m in nvme ahci sd_mod virtio_blk dm_mod dm_flakey raid1 ext4; do
		modprobe "$m" || echo "modprobe $m failed"
	done
	ln -sf /proc/self/fd /dev/fd
	# No udev here: wait for the disks the host attached to appear.
	for _ in $(seq 100); do
		[ -b /dev/nvme0n1 ] && [ -b /dev/sda ] && break
		sleep 0.1
	done
	ls -l /dev/nvme* /dev/sd* /dev/vd* 2>&1
} >"$share/results/guest-setup.log" 2>&1

while read -r name limit; do
	[ -n "$name" ] || continue
	start=$(date +%s)
	timeout -k 5 "$limit" bash "tests/vm/$name.sh" >"$share/results/$name.log" 2>&1
	rc=$?
	echo "$rc $(( $(date +%s) - start ))" >"$share/results/$name.rc"
	sync
done <"$share/tests.list"
