#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# gen-man.sh: the man page from docs/copyprof.1.in and each command's argp table (its --help),
# so that every option is in it and none is stale. Usage: gen-man.sh COPYPROF IN > copyprof.1
set -eu
bin=$1
in=$2
# One line per option and per paragraph: argp wraps nothing at this margin.
export ARGP_HELP_FMT=rmargin=100000

# roff-safe text: backslashes, then a leading . or ' would be a request.
esc() { sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/"; }

commands=$("$bin" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')

page() {
	local cmd=$1
	"$bin" "$cmd" --help | esc | awk -v cmd="$cmd" '
	function opt(spec, doc) {
		gsub(/-/, "\\-", spec)
		print ".TP"
		print "\\fB" spec "\\fR"
		print doc
	}
	NR == 1 {
		sub(/^Usage: /, "")
		print ".SS \"" $0 "\""
		next
	}
	/^Mandatory or optional arguments/ { next }
	/^  -\?, --help/ || /^      --usage/ { next }
	# An option: "  -x, --long=ARG   doc" or "      --long=ARG   doc"; a long one has its doc
	# on the next line.
	/^  -[^ ], --/ || /^      --[a-z]/ {
		if (pending != "") opt(pending, "")
		line = $0
		sub(/^ +/, "", line)
		if (match(line, /   +/)) {
			opt(substr(line, 1, RSTART - 1), substr(line, RSTART + RLENGTH))
			pending = ""
		} else {
			pending = line
		}
		inopts = 1
		next
	}
	pending != "" && /^                    / {
		sub(/^ +/, "")
		opt(pending, $0)
		pending = ""
		next
	}
	inopts { next }
	/^$/ { if (pre) { print ".fi"; pre = 0 } print ".PP"; next }
	/^  / { if (!pre) { print ".nf"; pre = 1 } print; next }
	{ if (pre) { print ".fi"; pre = 0 } print }
	END { if (pre) print ".fi" }'
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
