#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0006-help-layout: no command's --help is ragged. argp wraps at column 79, so a line the
# source breaks by hand must fit in 79 columns, or argp leaves a word or two alone on a line:
# every example line fits, and a paragraph is either one long line (argp wraps it) or lines
# that each fit. Read with wrapping off (ARGP_HELP_FMT=rmargin=1000), as the source has it.
. "$(dirname "$0")/lib.sh"
cd "$TMP"
cmds=$("$COPYPROF" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
[ -n "$cmds" ] || fail "copyprof --help lists no commands"
n=0
for c in $cmds; do
	ARGP_HELP_FMT=rmargin=1000 "$COPYPROF" "$c" --help >help.txt ||
		fail "$c --help exit $?"
	# The text before the options: from the second line to the first option line.
	awk 'NR > 1 && /^ +-/ { exit } NR > 1' help.txt >doc.txt
	[ -s doc.txt ] || fail "$c --help has no description"
	n=$((n + $(wc -l <doc.txt)))
	awk -v c="$c" '
	{ line[NR] = $0 }
	END {
		for (i = 1; i <= NR; i++) {
			long = length(line[i]) > 79
			if (long && line[i] ~ /^  /)
				printf "%s: an example of %d columns: %s\n", c, length(line[i]), line[i]
			else if (long && i < NR && line[i + 1] != "" && line[i + 1] !~ /^ /)
				printf "%s: a hand-broken line of %d columns: %s\n", c, length(line[i]), line[i]
		}
	}' doc.txt >ragged.txt
	if [ -s ragged.txt ]; then fail "$(cat ragged.txt)"; else pass "$c --help: none ragged"; fi
done
if [ "$n" -gt $((5 * $(echo $cmds | wc -w))) ]; then
	pass "$n description lines of $(echo $cmds | wc -w) commands read"
else
	fail "only $n description lines read from $(echo $cmds | wc -w) commands"
fi
