#!/usr/bin/env bash
# ssdbench(1) from the program's own help texts, so the manual page never
# says something --help does not:  scripts/gen-man.sh BINARY > ssdbench.1
# The commands are the ones `ssdbench --help` lists; each command's
# section is its `--help` text, preformatted.
set -euo pipefail
bin=${1:?usage: gen-man.sh BINARY}
version=$("$bin" version | awk '{ print $2 }')

# Text as roff: a backslash is \e, and a line starting with . or ' would
# be a request, so it gets a zero-width escape in front.
roff() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }

commands=$("$bin" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')

cat <<HEAD
.TH SSDBENCH 1 "" "ssdbench $version" "User Commands"
.SH NAME
ssdbench \\- review-grade SSD benchmark: methodology, results database, report, simulator
.SH SYNOPSIS
.B ssdbench
.I COMMAND
.RI [ OPTIONS ]
.SH DESCRIPTION
.nf
HEAD
"$bin" --help | roff
echo ".fi"
echo ".SH COMMANDS"
for c in $commands; do
	echo ".SS $c"
	echo ".nf"
	# `version` has no help of its own: its output says what it does.
	"$bin" "$c" --help 2>&1 | roff
	echo ".fi"
done
cat <<'TAIL'
.SH FILES
.TP
.I ssdbench.db
the results database in the current directory (every command's --db
chooses another).
.SH SAFETY
ssdbench never writes to a block device without --destroy-data, and
refuses a mounted device, one holding /, one with holders or used as
swap, and one another process has open exclusively.
.SH SEE ALSO
.BR fio (1),
.BR nvme (1),
.BR smartctl (8).
The documentation in the source tree: README.md and docs/*.md.
TAIL
