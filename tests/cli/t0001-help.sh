#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0001-help: every command has --help with examples; usage errors exit 2 with a message.
. "$(dirname "$0")/lib.sh"

expect_exit 0 "$COPYPROF" --help
cmds=$(sed -n 's/^  \([a-z-]*\)  .*/\1/p' "$TMP/out")
[ -n "$cmds" ] || fail "--help lists no commands"
for c in $cmds; do
	expect_exit 0 "$COPYPROF" "$c" --help
	expect_out "EXAMPLES"
	expect_out "Exit status"
	# The docs and the man page describe every command the binary has.
	grep -q "copyprof $c" "$ROOT/docs/cli.md" || fail "docs/cli.md does not describe '$c'"
	grep -qx ".B $c" "$ROOT/docs/copyprof.1.in" || fail "docs/copyprof.1.in does not list '$c'"
done
# ... and no command the binary lacks.
man_cmds=$(sed -n '/^\.SH COMMANDS/,/^\.SH OPTIONS/{/^\.TP/{n;s/^\.B //p}}' "$ROOT/docs/copyprof.1.in")
expect_eq "man page commands" "$(echo $man_cmds)" "$(echo $cmds)"
expect_exit 0 "$COPYPROF" --version
expect_out "^copyprof [0-9]+\.[0-9]+"
expect_exit 2 "$COPYPROF"
expect_exit 2 "$COPYPROF" frobnicate
expect_err "'frobnicate' is not a command"
grep -q "did you mean" "$TMP/err" && fail "a suggestion for frobnicate: $(cat "$TMP/err")"
# A typo gets the nearest commands (a swap of two letters is one edit, as in git).
expect_exit 2 "$COPYPROF" recrod -d 1
expect_err "^did you mean: copyprof record\?$"
expect_exit 2 "$COPYPROF" flamegrpah
expect_err "^did you mean: copyprof flamegraph\?$"
expect_exit 2 "$COPYPROF" rep
expect_err "^did you mean: copyprof report\?$"
expect_exit 2 "$COPYPROF" record --no-such-option
expect_err "unrecognized option"
expect_exit 2 "$COPYPROF" record
expect_err "nothing to probe: give -p PRESET"
expect_exit 2 "$COPYPROF" report extra-arg
expect_err "unexpected argument"
exit 0
