#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0114-escape-text: control characters from a profile never reach the terminal. A symbol that
# would retitle (ESC ] 0 ; ... BEL) and clear (ESC [ 2 J) the terminal, a target with a CR and
# a label with the C1 control CSI (U+009B) are shown as \x1b, \x07, \x0d and \u009b by report,
# diff (stdout and -o FILE) and in error messages, byte for byte; --json keeps them exactly
# (JSON escapes them itself), and text without controls is unchanged. A Unicode bidirectional
# override (U+202E) in a symbol is shown as \u202e by report and diff.
. "$(dirname "$0")/lib.sh"
need_cmd jq
cd "$TMP"
G="$ROOT/tests/golden/profile-synthetic.json"

jq '.sites[0].symbol = "evil\u001b]0;pwned\u0007\u001b[2J" | .sites[0].target = "/bin/a\rb" |
    .sites[1].label = "st\u009bage"' "$G" > evil.json
# raw FILE: the bytes a terminal acts on, one per line (ESC, BEL, CR, C1 in UTF-8), if any.
raw() { LC_ALL=C grep -c $'\x1b\|\x07\|\r\|\xc2[\x80-\x9f]' "$1"; }

expect_exit 0 "$COPYPROF" report -i evil.json
expect_eq "raw control bytes in report" "$(raw "$TMP/out")" 0
grep -qF 'site 0: /bin/a\x0db:evil\x1b]0;pwned\x07\x1b[2J+0x0' "$TMP/out" ||
	fail "report does not show the escapes: $(grep -a 'site 0' "$TMP/out")"
echo "ok: report shows $(grep -aF 'site 0' "$TMP/out" | cut -c1-60)"

expect_exit 0 "$COPYPROF" diff "$G" evil.json
expect_eq "raw control bytes in diff" "$(raw "$TMP/out")" 0
grep -qF 'evil\x1b]0;pwned\x07\x1b[2J' "$TMP/out" || fail "diff does not show the escapes"
expect_exit 0 "$COPYPROF" diff -o diff.txt "$G" evil.json
expect_eq "raw control bytes in diff -o" "$(raw diff.txt)" 0
grep -qF 'evil\x1b]0;pwned\x07\x1b[2J' diff.txt || fail "diff -o does not show the escapes"
# The C1 control CSI (C2 9B in UTF-8) in a label.
expect_exit 0 "$COPYPROF" report -i evil.json
grep -qF 'site 1: /usr/bin/app:app_clear+0x0 [st\u009bage]' "$TMP/out" ||
	fail "report does not show the label's C1 control: $(grep -a 'site 1' "$TMP/out")"

# A Unicode bidirectional override (U+202E, E2 80 AE in UTF-8) reorders what follows it on the
# screen ("copy_gnp.exe" shown for "copy_exe.png"): shown as \u202e by report and diff, kept
# exactly in --json.
jq '.sites[0].symbol = "copy_\u202egnp.exe"' "$G" > bidi.json
bidi_raw() { LC_ALL=C grep -c $'\xe2\x80\xae' "$1"; }
expect_exit 0 "$COPYPROF" report -i bidi.json
expect_eq "raw U+202E in report" "$(bidi_raw "$TMP/out")" 0
expect_out 'site 0: /usr/bin/app:copy_\\u202egnp\.exe\+0x0'
expect_exit 0 "$COPYPROF" diff "$G" bidi.json
expect_eq "raw U+202E in diff" "$(bidi_raw "$TMP/out")" 0
expect_out 'copy_\\u202egnp\.exe'
expect_exit 0 "$COPYPROF" report -i bidi.json --json
expect_eq "U+202E in --json" "$(jq -r '.sites[0].symbol' "$TMP/out")" "$(printf 'copy_\u202egnp.exe')"

# Error messages: a file name with escapes is shown, not obeyed.
expect_exit 1 "$COPYPROF" report -i $'no\x1b[2Jsuch.json'
expect_eq "raw control bytes in the message" "$(raw "$TMP/err")" 0
expect_err 'no\\x1b\[2Jsuch\.json'

# JSON is data: the symbol comes back exactly (json-c writes \u001b itself).
expect_exit 0 "$COPYPROF" report -i evil.json --json
expect_eq "symbol in --json" "$(jq -r '.sites[0].symbol' "$TMP/out" | od -An -c | tr -s ' ')" \
	"$(jq -r '.sites[0].symbol' evil.json | od -An -c | tr -s ' ')"
expect_eq "raw control bytes in --json" "$(raw "$TMP/out")" 0
expect_exit 0 "$COPYPROF" diff --json "$G" evil.json
jq -e '[.. | strings | select(test("pwned"))] | length > 0' "$TMP/out" > /dev/null ||
	fail "diff --json lost the symbol"

# Text without controls is byte for byte what it was (the golden report).
expect_exit 0 "$COPYPROF" report -i "$G"
cp "$TMP/out" plain.txt
expect_exit 0 "$COPYPROF" report -i "$G" --json
expect_eq "clean text unchanged" "$(LC_ALL=C grep -c '\\x' plain.txt)" 0
echo "ok: diff, diff -o, messages and --json"
exit 0
