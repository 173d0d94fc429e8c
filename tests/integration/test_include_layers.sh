#!/usr/bin/env bash
# The rooms include each other one way (ARCHITECTURE: store -> analysis ->
# findings -> report; the suite writes findings only through the hook the
# CLI hands it): no file of src/suite/ includes findings/, so findings may
# read the suite's plans and records without a cycle.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
bad=$(grep -ln '#include "findings/' "$root"/src/suite/*.[ch] || true)
[ -z "$bad" ] || fail "src/suite includes findings: $bad"
# and the low rooms include nothing above them
for room in common analysis store; do
	bad=$(grep -lE '#include "(suite|findings|report|cli)/' "$root"/src/$room/*.[ch] || true)
	[ -z "$bad" ] || fail "src/$room includes a room above it: $bad"
done
echo ok
