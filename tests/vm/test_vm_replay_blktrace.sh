#!/usr/bin/env bash
# vm-timeout: 300
# Trace replay against a trace recorded in the guest, whose kernel lets
# blktrace trace (a host's may be locked down): blktrace on the virtio disk
# /dev/vdb while dd does known I/O, replayed onto /dev/vdc, as large
# (tests/integration/replay_lib.sh says what is checked).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/../integration/replay_lib.sh"
cd "$TEST_TMP"
# the recorded trace is kept with the artefacts, for reading a failure
trap 'keep replay-trace.txt trace.txt; keep replay-dump.bin dump.bin; cleanup' EXIT
replay_recorded /dev/vdb /dev/vdc
echo ok
