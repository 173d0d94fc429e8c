#!/usr/bin/env bash
# No silent data destruction.  A file target with holes is filled with
# random data before it is read (reads of holes measure nothing); that
# once happened to any existing file, a sparse VM image included.  Now it
# happens without asking only to a file ssdbench created itself; an
# existing file needs --destroy-data, and the run says what it does.
. "$(dirname "$0")/lib.sh"
cd "$TEST_TMP"
S=$SSDBENCH

# Someone's file: 8 MiB of data, then 8 MiB of hole.
head -c 8M /dev/urandom >data.img
truncate -s 16M data.img
before=$(sha256sum <data.img)

rc=0
$S run --target data.img --rw randread --bs 4k --qd 2 --time 500ms --no-db >out 2>err || rc=$?
cat err
[ "$rc" = 2 ] || fail "existing sparse file read without --destroy-data: exit $rc"
grep -q -- "--destroy-data" err || fail "the refusal does not name --destroy-data"
grep -q "destroying its contents" err || fail "the refusal does not say what would happen"
[ "$(sha256sum <data.img)" = "$before" ] || fail "the file was changed"

rc=0
$S run --target data.img --rw randrw --bs 4k --qd 2 --time 500ms --size 32m --no-db >out 2>err || rc=$?
[ "$rc" = 2 ] || fail "growing an existing file for reading without --destroy-data: exit $rc"
[ "$(sha256sum <data.img)" = "$before" ] || fail "the file was changed by the growing run"

$S run --target data.img --rw randread --bs 4k --qd 2 --time 500ms --destroy-data --no-db >out 2>err ||
	fail "with --destroy-data: $(cat err)"
grep -q "its contents are lost" err || fail "--destroy-data: not said what happens: $(cat err)"
[ "$(sha256sum <data.img)" != "$before" ] || fail "--destroy-data: the file was not filled"

# A file ssdbench creates is filled without a flag, now and later.
$S run --target new.img --size 16m --rw randread --bs 4k --qd 2 --time 500ms --no-db >/dev/null 2>err ||
	fail "new file: $(cat err)"
fallocate -p -o 0 -l 1M new.img 2>/dev/null || skip "cannot punch a hole here"
$S run --target new.img --rw randread --bs 4k --qd 2 --time 500ms --no-db >/dev/null 2>err ||
	fail "ssdbench's own file with a hole: $(cat err)"

# A full existing file is read as it is: nothing to fill, nothing asked.
head -c 16M /dev/urandom >full.img
sum=$(sha256sum <full.img)
$S run --target full.img --rw randread --bs 4k --qd 2 --time 500ms --no-db >/dev/null 2>err ||
	fail "full file: $(cat err)"
[ "$(sha256sum <full.img)" = "$sum" ] || fail "a full file was written by a read run"

# Writing needs no fill, so an existing sparse file is not refused for a
# write run (the read share is known from --rw before the workload is
# resolved: a write was once taken for a read and refused).
truncate -s 16m sparse-w.img
$S run --target sparse-w.img --rw write --bs 128k --qd 1 --time 300ms --no-db >/dev/null 2>err ||
	fail "a write run on an existing sparse file: $(cat err)"
echo ok
