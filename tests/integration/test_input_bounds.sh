#!/usr/bin/env bash
# Every input file is read with a limit, and what is not a file is refused
# by name before anything is read: `analyze --fio-json /dev/zero` once grew
# memory until the kernel killed it and `--fio-log /dev/zero` never ended.
# Each command must answer within seconds, exit non-zero, and say why.
. "$(dirname "$0")/lib.sh"
cd "$TEST_TMP"
S=$SSDBENCH

# refused WHAT PATTERN CMD...: non-zero exit within 20 s, PATTERN in stderr.
refused() {
	local what=$1 pat=$2 rc=0
	shift 2
	timeout 20 "$@" >out 2>err || rc=$?
	[ "$rc" != 124 ] || fail "$what: still running after 20 s"
	[ "$rc" != 0 ] || fail "$what: accepted"
	grep -q -- "$pat" err || fail "$what: message lacks '$pat': $(cat err)"
	echo "$what: $(cat err)"
}

mkdir adir
truncate -s 300M big.json
truncate -s 2M big.ini
printf '[fill]\npasses=2\n\0\n' >nul.ini

refused "fio JSON from /dev/zero" "/dev/zero is a character device" $S analyze --fio-json /dev/zero
refused "fio log from /dev/zero" "/dev/zero is a character device" $S analyze --fio-log /dev/zero
refused "fio JSON, a directory" "adir is a directory" $S analyze --fio-json adir
refused "fio log, a directory" "adir is a directory" $S analyze --fio-log adir
refused "fio JSON over the limit" "larger than 256 MiB" $S analyze --fio-json big.json
refused "plan file from /dev/zero" "/dev/zero is a character device" \
	$S plan --preset quick --plan /dev/zero --target sim:p1-1tb
refused "plan file over the limit" "larger than 1 MiB" \
	$S plan --preset quick --plan big.ini --target sim:p1-1tb
refused "plan file with a NUL byte" "not text" \
	$S plan --preset quick --plan nul.ini --target sim:p1-1tb
refused "profile from /dev/zero" "/dev/zero is a character device" \
	$S sim show /dev/zero
refused "job file from /dev/zero" "/dev/zero is a character device" \
	$S run --job /dev/zero --target sim:p1-1tb --no-db

# Values are checked: times that are all 0 give no duration (no rate over
# an invented millisecond), too few samples give no score (not "nan %"),
# negative counters are not printed as 2^64 - 1.
printf '0, 100, 0, 4096\n0, 200, 0, 4096\n0, 300, 0, 4096\n' >zero.log
refused "log with every time 0" "no duration" $S analyze --fio-log zero.log
printf '0, 100, 0, 4096\n1, 200, 0, 4096\n2, 300, 0, 4096\n' >short.log
$S analyze --fio-log short.log >out 2>err || fail "short log: $(cat err)"
grep -qi "nan" out && fail "short log: $(grep -i nan out)"
printf '%s\n' '{"fio version":"fio-3.33","jobs":[{"jobname":"j","read":{"io_bytes":-1,"io_kbytes":0,"bw_bytes":-5,"iops":-1.0,"runtime":-10,"total_ios":-3}}]}' >neg.json
$S analyze --fio-json neg.json >out 2>err || true
grep -q "18446744073709551" out && fail "negative io_bytes printed as 2^64-1: $(cat out)"
grep -qi "nan\|-0 MB" out && fail "negative fields printed: $(cat out)"
printf '0, 100, 0, 4096\n1099511627776, 200, 0, 4096\n' >far.log
refused "log reaching 2^40 ms" "far.log" $S analyze --fio-log far.log

# A pipe is read (up to the limit): fio's JSON through process substitution.
$S analyze --fio-json <(printf '{"fio version":"fio-3.33","jobs":[]}\n') >out 2>err ||
	echo "pipe: $(cat err)"
grep -q "is a\|not a file" err && fail "a pipe was refused as not a file: $(cat err)"
echo ok
