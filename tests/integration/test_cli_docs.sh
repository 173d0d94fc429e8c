#!/usr/bin/env bash
# The command line's own documentation: every command's --help, the
# manual page written from them (each command and each option --help
# lists must be in it, and it must render without warnings), the bash
# completion (commands, options, presets, sim: profiles), and
# `make install` putting all three in place under DESTDIR.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)

# plan's help names --describe, which prints every setting.
$SSDBENCH plan --help >"$TEST_TMP/help"
grep -q -- '--describe' "$TEST_TMP/help" || fail "plan --help lacks --describe"
$SSDBENCH plan --describe >"$TEST_TMP/describe"
grep -q '^\[rnd_precond\]  kind' "$TEST_TMP/describe" || fail "plan --describe"

# The manual page, from the binary under test.
"$root/scripts/gen-man.sh" "$SSDBENCH" >"$TEST_TMP/ssdbench.1" || fail "gen-man.sh"
man=$TEST_TMP/ssdbench.1
head -1 "$man" | grep -q '^\.TH SSDBENCH 1' || fail "no .TH header"
cmds=$($SSDBENCH --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')
[ "$(wc -w <<<"$cmds")" -ge 12 ] || fail "commands from --help: $cmds"
for c in $cmds; do
	grep -q "^\.SS $c\$" "$man" || fail "man page lacks the command $c"
	for o in $($SSDBENCH "$c" --help 2>&1 | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
		grep -q -- "$o" "$man" || fail "man page lacks $c $o"
	done
done
if command -v groff >/dev/null; then
	warn=$(groff -man -ww -z "$man" 2>&1) || fail "groff failed: $warn"
	[ -z "$warn" ] || fail "groff warns: $warn"
else
	echo "groff is not installed: rendering not checked"
fi

# Completion, as bash calls it.
complete_words() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _ssdbench; printf "%s\n" "${COMPREPLY[@]}"' \
		_ "$root/share/ssdbench.bash-completion" "$@"
}
complete_words "$SSDBENCH" pl | grep -qx plan || fail "completion: command"
complete_words "$SSDBENCH" plan --de | grep -qx -- --describe || fail "completion: plan --describe"
complete_words "$SSDBENCH" run --ra | grep -qx -- --ramp || fail "completion: run --ramp"
complete_words "$SSDBENCH" suite --preset f | grep -qx full || fail "completion: preset"
complete_words "$SSDBENCH" suite --target sim:sn | grep -qx sim:sn8100-2tb || fail "completion: sim profile"
complete_words "$SSDBENCH" sim show p4 | grep -qx p4800x-375gb || fail "completion: sim show"

# make install under DESTDIR: binary, manual page, completion.
dest=$TEST_TMP/dest
make -C "$root" -s install DESTDIR="$dest" PREFIX=/usr >/dev/null || fail "make install"
[ -x "$dest/usr/bin/ssdbench" ] || fail "install: no binary"
[ -s "$dest/usr/share/man/man1/ssdbench.1" ] || fail "install: no manual page"
[ -s "$dest/usr/share/bash-completion/completions/ssdbench" ] || fail "install: no completion"
echo "cli docs: ok"
