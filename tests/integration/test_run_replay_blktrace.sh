#!/usr/bin/env bash
# A trace this test records replays as recorded: blktrace on a loop device
# it creates while dd does known I/O, replayed onto a second loop device
# from blkparse's text and from its -d dump (replay_lib.sh says what is
# checked).  Skips without root, blktrace, or where the kernel forbids
# tracing (a locked-down kernel: tests/vm/test_vm_replay_blktrace.sh then
# does the same in the VM guest).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/replay_lib.sh"
need_root
cd "$TEST_TMP"
dev=$(make_loop 64)
dev2=$(make_loop 64)
replay_recorded "$dev" "$dev2"
echo ok
