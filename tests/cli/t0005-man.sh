#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0005-man: the man page (scripts/gen-man.sh from docs/copyprof.1.in and the argp tables)
# holds every option of every command, renders without groff warnings, and has ENVIRONMENT.
. "$(dirname "$0")/lib.sh"
cd "$TMP"
"$ROOT/scripts/gen-man.sh" "$COPYPROF" "$ROOT/docs/copyprof.1.in" >copyprof.1 ||
	fail "gen-man.sh failed"
cmds=$("$COPYPROF" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
expect_eq "commands" "$(echo $cmds)" "record report calibrate probe estimate diff merge import-perf flamegraph export verify agent"
n=0
for c in $cmds; do
	grep -q "^\.SS \"copyprof $c " copyprof.1 || fail "no section for $c"
	# The section of $c: every long option of its --help is there, with its short one.
	sed -n "/^\.SS \"copyprof $c /,/^\.S[SH] /p" copyprof.1 >sec
	while read -r opt; do
		n=$((n + 1))
		grep -q "^\\\\fB.*${opt//-/\\\\-}" sec || fail "$c: $opt is not in the man page"
	done < <("$COPYPROF" "$c" --help |
		grep -oE '^ +(-[^ ], )?--[a-z][a-z0-9-]*' | sed 's/^ *//' | grep -vE -- '--(help|usage)$')
done
echo "checked $n options" >&2
[ "$n" -ge 80 ] || fail "only $n options checked"
for s in NAME SYNOPSIS DESCRIPTION CONVENTIONS COMMANDS OPTIONS EXAMPLES ENVIRONMENT "EXIT STATUS" FILES; do
	grep -q "^\.SH \"\?$s\"\?$" copyprof.1 || fail "no $s section"
done
grep -q '^\.B DEBUGINFOD_URLS$' copyprof.1 || fail "ENVIRONMENT lacks DEBUGINFOD_URLS"
grep -q 'estimate \\-i btrfs.json \\-m costmodel.json \\-\\-at 2048' copyprof.1 ||
	fail "no --at 2048 example"
need_cmd groff
LC_ALL=C.UTF-8 groff -man -Tutf8 -ww copyprof.1 >page.txt 2>warn.txt || fail "groff failed"
[ ! -s warn.txt ] || fail "groff warns: $(head warn.txt)"
grep -q -- "--interval=SECONDS" <(sed 's/\x08.//g' page.txt) || fail "rendered page lacks record -i"
exit 0
