#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# gen-man.sh: the man page from docs/copyprof.1.in and each command's argp table (its --help),
# so that every option is in it and none is stale. Usage: gen-man.sh COPYPROF IN > copyprof.1
set -eu
bin=$1
in=$2
# argp's own layout (wrapped at 79 columns): roff fills the description's lines again, and
# argp-options.awk joins each option's (see there why not ARGP_HELP_FMT=rmargin=100000).
unset ARGP_HELP_FMT
opts_awk=$(dirname "$0")/argp-options.awk

# roff-safe text: backslashes, then a leading . or ' would be a request.
esc() { sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/"; }

commands=$("$bin" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')

page() {
	local cmd=$1
	# The description: up to the blank line after its "Exit status" paragraph.
	"$bin" "$cmd" --help | esc | awk '
	NR == 1 {
		sub(/^Usage: /, "")
		print ".SS \"" $0 "\""
		next
	}
	/^Exit status/ { exit_seen = 1 }
	exit_seen && /^$/ { exit }
	/^$/ { if (pre) { print ".fi"; pre = 0 } print ".PP"; next }
	/^  / { if (!pre) { print ".nf"; pre = 1 } print; next }
	{ if (pre) { print ".fi"; pre = 0 } print }
	END { if (pre) print ".fi" }'
	# The options, one .TP each.
	"$bin" "$cmd" --help | awk -f "$opts_awk" | esc | awk -F '\t' '{
		spec = $1
		gsub(/-/, "\\-", spec)
		print ".TP"
		print "\\fB" spec "\\fR"
		print $2
	}'
}

while IFS= read -r line; do
	if [ "$line" = '.\" @COMMANDS@' ]; then
		# A help line that starts with "..." is text, not a roff request.
		for c in $commands; do
			page "$c"
		done | sed 's/^\.\./\\\&../'
	else
		printf '%s\n' "$line"
	fi
done <"$in"
