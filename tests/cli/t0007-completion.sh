#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0007-completion: the bash completion (scripts/gen-completion.sh, from the argp tables as the
# man page is) completes every command and every option of every command's --help, files for
# options that take one and after "--"; make install puts it where bash-completion looks.
. "$(dirname "$0")/lib.sh"
cd "$TMP"
"$ROOT/scripts/gen-completion.sh" "$COPYPROF" >copyprof.bash || fail "gen-completion.sh failed"
bash -n copyprof.bash || fail "copyprof.bash is not valid bash"

# complete WORD...: what the completion offers for the command line "copyprof WORD..." (the
# last word being completed), one per line, sorted.
complete_words() {
	bash -c '. ./copyprof.bash
		COMP_WORDS=(copyprof "$@"); COMP_CWORD=$#
		_copyprof; printf "%s\n" "${COMPREPLY[@]}"' complete "$@" | sort
}
cmds=$("$COPYPROF" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
expect_eq "commands" "$(complete_words "" | grep -v '^--' | tr '\n' ' ')" "$(echo $cmds | tr ' ' '\n' | sort | tr '\n' ' ')"
expect_eq "rec" "$(complete_words rec)" record
expect_eq "fl" "$(complete_words fl)" flamegraph
n=0
for c in $cmds; do
	offered=" $(complete_words "$c" - | tr '\n' ' ') "
	# Every option of the help text, long and short (as t0005 reads it for the man page).
	while read -r opt; do
		for o in ${opt//,/ }; do
			n=$((n + 1))
			[[ $offered == *" $o "* ]] || fail "$c: $o is not completed (offered:$offered)"
		done
	done < <("$COPYPROF" "$c" --help | grep -oE '^ +(-[^ -], )?--[a-z][a-z0-9-]*' |
		sed 's/^ *//' | grep -vE -- '--(help|usage)$' | sort -u)
done
echo "checked $n options" >&2
[ "$n" -ge 120 ] || fail "only $n options checked"
expect_eq "record --dur" "$(complete_words record --dur)" --duration
expect_eq "diff --t" "$(complete_words diff --t)" --totals

# Files where an option takes one, nothing where it takes a number, files after "--".
mkdir sub && touch sub/prof.json sub/other.txt
expect_eq "report -i FILE" "$(complete_words report -i sub/p)" sub/prof.json
expect_eq "report --input=FILE" "$(complete_words report --input = sub/p)" sub/prof.json
expect_eq "record -d N" "$(complete_words record -d "")" ""
expect_eq "estimate -m FILE" "$(complete_words estimate -m sub/o)" sub/other.txt
complete_words record --sample -- ech | grep -qx echo || fail "record -- ech: no echo offered"
expect_eq "record -- COMMAND FILE" "$(complete_words record -- cat sub/o)" sub/other.txt

# make install puts it where bash-completion finds it, next to the man page.
make -C "$ROOT" -s OUTPUT="${OUT_DIR#"$ROOT"/}" DESTDIR="$TMP/inst" PREFIX=/usr install >make.log 2>&1 ||
	fail "make install failed: $(tail -n 5 make.log)"
cmp "$TMP/inst/usr/share/bash-completion/completions/copyprof" copyprof.bash ||
	fail "make install did not install the completion generated from this copyprof"
[ -s "$TMP/inst/usr/share/man/man1/copyprof.1" ] || fail "make install lost the man page"
exit 0
