#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# gen-completion.sh: bash completion for copyprof from each command's argp table (its --help,
# read by argp-options.awk as the man page is), so that every option completes and none is
# stale. Usage: gen-completion.sh COPYPROF > copyprof.bash (make installs it as
# $(PREFIX)/share/bash-completion/completions/copyprof).
set -eu
bin=$1
opts_awk=$(dirname "$0")/argp-options.awk
unset ARGP_HELP_FMT
commands=$("$bin" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')

# For one command: "words" (every option, long and short), "args" (options that take a value),
# "files" (of those, the ones whose value is a file: FILE, PATH, PROFILE ...), "dirs".
table() {
	"$bin" "$1" --help | awk -f "$opts_awk" | cut -f1 | awk '
	{
		# "-d, --duration=SECONDS": both names take the value the long one shows.
		n = split($0, parts, /, /)
		arg = ""
		if (match(parts[n], /\[?=/))
			arg = substr(parts[n], RSTART)
		for (i = 1; i <= n; i++) {
			o = parts[i]
			sub(/\[?=.*/, "", o)
			words = words " " o
			if (arg == "" || arg ~ /^\[/)
				continue
			args = args " " o
			if (arg ~ /FILE|PATH|PROFILE|PERF\.DATA/)
				files = files " " o
			else if (arg ~ /DIR/)
				dirs = dirs " " o
		}
	}
	END { printf "words=\"%s\"; args=\"%s\"; files=\"%s\"; dirs=\"%s\"\n", substr(words, 2),
	      substr(args, 2), substr(files, 2), substr(dirs, 2) }'
}

cat <<'EOF'
# bash completion for copyprof: generated from its argp tables by scripts/gen-completion.sh.
# Commands, each command's options, files for the options that take one, and after "--" the
# command to record.
_copyprof() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev= cmd=${COMP_WORDS[1]:-} i words args files dirs
	[ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD - 1]}
	COMPREPLY=()
	if [ "$COMP_CWORD" -eq 1 ]; then
EOF
printf '\t\tCOMPREPLY=($(compgen -W "%s --help --version" -- "$cur"))\n' "$(echo $commands)"
cat <<'EOF'
		return 0
	fi
	# record/agent ... -- COMMAND: a command, then whatever it takes (files).
	for ((i = 2; i < COMP_CWORD; i++)); do
		if [ "${COMP_WORDS[i]}" = -- ]; then
			if [ $((i + 1)) -eq "$COMP_CWORD" ]; then
				COMPREPLY=($(compgen -c -- "$cur"))
			else
				COMPREPLY=($(compgen -f -- "$cur"))
			fi
			return 0
		fi
	done
	case $cmd in
EOF
for c in $commands; do
	printf '\t%s) %s ;;\n' "$c" "$(table "$c")"
done
cat <<'EOF'
	*) return 0 ;;
	esac
	# --opt=VALUE: bash splits at '=' (COMP_WORDBREAKS), so the option is two words back.
	if [ "$prev" = = ] && [ "$COMP_CWORD" -gt 2 ]; then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	elif [ "$cur" = = ]; then
		cur=
	fi
	if [[ " $args " == *" $prev "* ]]; then
		if [[ " $files " == *" $prev "* ]]; then
			COMPREPLY=($(compgen -f -- "$cur"))
		elif [[ " $dirs " == *" $prev "* ]]; then
			COMPREPLY=($(compgen -d -- "$cur"))
		fi
		return 0
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$words --help" -- "$cur"))
	else
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
	return 0
}
complete -o filenames -F _copyprof copyprof
EOF
