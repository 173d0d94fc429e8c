#!/usr/bin/env bash
# A file target whose --size does not fit in its filesystem's free space is
# refused before any I/O (run and suite), naming both sizes; the file is
# neither created nor extended.  A size that fits still runs.
source "$(dirname "$0")/lib.sh"
S=$SSDBENCH
need_root
dev=$(make_loop 64)
mkfs.ext4 -q -F -m 0 "$dev" || skip "mkfs.ext4 failed"
mnt=$TEST_TMP/mnt
mkdir "$mnt" && mount "$dev" "$mnt" || skip "cannot mount ext4"
track_mount "$mnt"
free=$(( $(stat -f -c '%f * %S' "$mnt") ))
echo "free: $free bytes"

echo "== run: a new file larger than the free space"
expect_fail "run --size 128m" "$S" run --no-db --target "$mnt/big.img" --size 128m --rw write
grep -q "free" <<<"$LAST_ERR" && grep -q "128 MiB" <<<"$LAST_ERR" || fail "message: $LAST_ERR"
echo "refused: $LAST_ERR"
[ ! -e "$mnt/big.img" ] || fail "the refused file was created"

echo "== run: extending an existing file beyond the free space"
head -c 1048576 /dev/urandom >"$mnt/small.img"
sum=$(sha1sum <"$mnt/small.img")
expect_fail "run extend" "$S" run --no-db --target "$mnt/small.img" --size 100m --rw randread --time 1s
grep -q "free" <<<"$LAST_ERR" || fail "message: $LAST_ERR"
[ "$(stat -c %s "$mnt/small.img")" = 1048576 ] || fail "the refused file was extended"
[ "$(sha1sum <"$mnt/small.img")" = "$sum" ] || fail "the refused file was written"

echo "== suite: refused up front"
# exit 2 as for any target the suite cannot plan (run: 1, as for a failed open)
rc=0
"$S" suite --target "$mnt/suite.img" --size 128m --preset quick --db "$TEST_TMP/s.db" 2>"$TEST_TMP/err" || rc=$?
[ $rc = 2 ] || fail "suite --size 128m: exit $rc, want 2"
LAST_ERR=$(cat "$TEST_TMP/err")
grep -q "free" <<<"$LAST_ERR" || fail "suite message: $LAST_ERR"
[ ! -e "$mnt/suite.img" ] || fail "the refused suite file was created"

echo "== a size that fits runs, and so does its second run (already allocated)"
"$S" run --no-db --target "$mnt/fits.img" --size 16m --rw randread --time 200ms >/dev/null || fail "16m file refused"
"$S" run --no-db --target "$mnt/fits.img" --size 16m --rw randread --time 200ms >/dev/null || fail "allocated file refused"
echo ok
