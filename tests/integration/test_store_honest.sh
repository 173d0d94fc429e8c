#!/usr/bin/env bash
# The database never lies.  A database that fills up, disappears or cannot
# be written makes the run say so and exit non-zero ("run N stored" only
# when it was); a damaged database is refused for writing and a truncated
# one is named as such; a valid database on a read-only mount can still be
# read (show, report, analyze); a --json command that fails leaves stdout
# one JSON document.
. "$(dirname "$0")/lib.sh"
need_root
cd "$TEST_TMP"
S=$SSDBENCH
RUN=(run --target sim:p1-1tb --size 64m --rw randread --bs 4k --qd 4)

echo "== a database that fills up"
mkdir small
mount -t tmpfs -o size=400k tmpfs small && track_mount "$TEST_TMP/small"
rc=0
$S "${RUN[@]}" --time 60s --interval 10ms --db small/a.db >out 2>err || rc=$?
cat err
[ "$rc" != 0 ] || fail "full database: exit 0"
grep -q "full" err || fail "full database: not said: $(cat err)"
grep -Eq "^run [0-9]+ stored$" out && fail "full database: 'stored' printed: $(grep stored out)"
# whatever it kept says failed, never done
st=$(sqlite3 small/a.db "select group_concat(status) from runs" 2>/dev/null || true)
[[ $st != *done* ]] || fail "full database: a run marked done: $st"

echo "== a database on a read-only mount"
mkdir ro
mount -t tmpfs -o size=20m tmpfs ro && track_mount "$TEST_TMP/ro"
$S "${RUN[@]}" --time 1s --db ro/a.db >/dev/null 2>&1 || fail "run on tmpfs"
mount -o remount,ro "$TEST_TMP/ro"
$S show --db ro/a.db >out 2>err || fail "show on a read-only mount: $(cat err)"
grep -q "sim:p1-1tb" out || fail "show: no run listed"
$S show 1 --db ro/a.db >/dev/null 2>err || fail "show 1 on a read-only mount: $(cat err)"
$S analyze 1 --db ro/a.db >/dev/null 2>err || fail "analyze on a read-only mount: $(cat err)"
if command -v gnuplot >/dev/null; then
	$S report 1 --db ro/a.db --out "$TEST_TMP/rep" >/dev/null 2>err ||
		fail "report on a read-only mount: $(cat err)"
fi
expect_fail "run into a read-only mount" $S "${RUN[@]}" --time 1s --db ro/a.db
grep -q "read-only file system" <<<"$LAST_ERR" || fail "read-only: $LAST_ERR"
expect_fail "new database on a read-only mount" $S "${RUN[@]}" --time 1s --db ro/new.db
grep -q "read-only file system" <<<"$LAST_ERR" || fail "read-only new: $LAST_ERR"

echo "== a truncated database"
$S "${RUN[@]}" --time 2s --interval 10ms --db t.db >/dev/null 2>&1 || fail "run"
sqlite3 t.db "pragma wal_checkpoint(truncate)" >/dev/null
size=$(stat -c %s t.db)
head -c $((size / 2)) t.db >cut.db
expect_fail "show of a truncated database" $S show --db cut.db
grep -q "truncated" <<<"$LAST_ERR" || fail "truncated (show): $LAST_ERR"
expect_fail "run into a truncated database" $S "${RUN[@]}" --time 1s --db cut.db
grep -q "truncated" <<<"$LAST_ERR" || fail "truncated (run): $LAST_ERR"

echo "== a damaged database is not written to"
cp t.db bad.db
# Overwrite a page in the middle of the file: the header stays valid.
page=$(sqlite3 bad.db "pragma page_size")
pages=$(sqlite3 bad.db "pragma page_count")
dd if=/dev/urandom of=bad.db bs="$page" seek=$((pages / 2)) count=1 conv=notrunc status=none
before=$(sha256sum bad.db)
expect_fail "run into a damaged database" $S "${RUN[@]}" --time 1s --db bad.db
grep -q "damaged" <<<"$LAST_ERR" || fail "damaged: $LAST_ERR"
[ "$(sha256sum bad.db)" = "$before" ] || fail "damaged database was written to"

echo "== --json errors leave stdout one JSON document, or nothing"
printf 'x\n' >bad.log
for args in "analyze --json --fio-log bad.log" "analyze --json 9 --db t.db" \
	    "analyze --json 1 --db none.db" "show --json 9 --db t.db"; do
	# shellcheck disable=SC2086
	$S $args >out 2>/dev/null && fail "$args: exit 0"
	if [ -s out ]; then
		python3 -c 'import json,sys; json.load(open(sys.argv[1]))' out ||
			fail "$args: stdout is not JSON: $(head -c 200 out)"
	fi
done
echo ok
