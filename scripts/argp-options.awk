# SPDX-License-Identifier: GPL-2.0
# argp-options.awk: the options of one command's --help (argp's own layout, wrapped at its
# default 79 columns), one per line: SPEC<TAB>DOC, SPEC as argp prints it ("-d,
# --duration=SECONDS", "--sample[=HZ]"), DOC with its wrapped lines joined. The one reader of
# argp's option table for scripts/gen-man.sh and scripts/gen-completion.sh.
#
# Why not ARGP_HELP_FMT=rmargin=100000 (no wrapping): glibc's argp misplaces columns around a
# line longer than its 200-byte buffer ("-i,          --interval"), so the text is read as argp
# wraps it. Options come after the description, which ends with the "Exit status" paragraph
# (t0001 checks every command has one): an example line such as "      --uprobe x" is not one.
function flush() {
	if (spec != "" && spec !~ /^-\?, --help$/ && spec != "--usage")
		print spec "\t" doc
	spec = doc = ""
}
/^Exit status/ { exit_seen = 1 }
!opts { if (exit_seen && /^$/) opts = 1; next }
/^Mandatory or optional arguments/ { flush(); exit }
/^  -[^ ], --/ || /^      --[a-z]/ || /^  -[^ ]  / {
	flush()
	line = $0
	sub(/^ +/, "", line)
	if (match(line, /  +/)) {
		spec = substr(line, 1, RSTART - 1)
		doc = substr(line, RSTART + RLENGTH)
	} else {
		spec = line
	}
	next
}
/^          +[^ ]/ {
	line = $0
	sub(/^ +/, "", line)
	doc = doc == "" ? line : doc " " line
	next
}
/^$/ { flush(); next }
END { flush() }
