#!/usr/bin/env bash
# vm-timeout: 30
source tests/integration/lib.sh
uname -r
ls -l /dev/nvme0n1 /dev/sda /dev/vda
$SSDBENCH info /dev/nvme0n1
$SSDBENCH info /dev/sda
echo ok
