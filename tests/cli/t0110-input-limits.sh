#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0110-input-limits: every line reader has a longest line and a largest input (docs/cli.md,
# "Input limits"). On /dev/zero (no newline ever) --hist, --folded, import-perf --script, probe
# and record -p refuse at once with exit 1, a message naming the line and the limit, and a
# peak RSS far below the old 4-9 GB; under a 1 GB address-space limit they say the same (not
# "no 'site' or 'entry' lines"). A preset over 1 MiB is refused, one without a final newline
# reads, and a folder is "Is a directory".
. "$(dirname "$0")/lib.sh"
need_cmd /usr/bin/time
cd "$TMP"
M="$ROOT/examples/costmodels/cooperlake-8321hc-seed.json"

# limited WHAT LIMIT CMD...: CMD on /dev/zero exits 1 saying WHAT's line LIMIT, under 200 MB.
limited() {
	local what=$1 limit=$2 rss
	shift 2
	expect_exit 1 /usr/bin/time -o rss -f %M "$@"
	expect_err "/dev/zero:1: line longer than $limit \(no newline within its first $limit\), the most $what may have \(docs/cli.md#input-limits\)"
	rss=$(tail -n 1 rss)
	[ "$rss" -lt 200000 ] || fail "'$*' peaked at $rss KB on /dev/zero"
	echo "ok: $* refused, peak RSS $rss KB"
	# The same under an address-space limit that the old unbounded getline() ran into.
	(ulimit -v 1000000 && exec "$@") > out 2> err
	[ $? -eq 1 ] || fail "'$*' under ulimit -v: exit $?"
	grep -q "line longer than $limit" err || fail "'$*' under ulimit -v: $(cat err)"
	grep -q "no 'site' or 'entry' lines\|has no 'size,count' rows\|no perf samples" err &&
		fail "'$*' under ulimit -v blames the content: $(cat err)"
}

limited "a size table" "4 KiB" "$COPYPROF" estimate --hist /dev/zero -m "$M"
limited "folded stacks" "4 MiB" "$COPYPROF" flamegraph --folded /dev/zero -o fg.svg
grep -q 'line longer than 4 MiB' fg.svg || fail "the error SVG does not say why"
limited "perf script output" "1 MiB" "$COPYPROF" import-perf --script /dev/zero -o p.json
[ ! -e p.json ] || fail "import-perf wrote a profile from /dev/zero"
limited "a preset" "4 KiB" "$COPYPROF" probe -p /dev/zero
if [ "$(id -u)" -eq 0 ]; then
	limited "a preset" "4 KiB" "$COPYPROF" record -p /dev/zero -d 1 -o r.json
	[ ! -e r.json ] || fail "record wrote a profile"
fi

# A preset's whole size: 1 MiB of comments and a site is one byte too many.
{ echo "site read_zero+0x10,len=rdx"; head -c $((1024 * 1024)) /dev/zero | tr '\0' '#' | fold -w 1000; } > big.preset
expect_exit 1 "$COPYPROF" probe -p ./big.preset
expect_err "big.preset: more than 1 MiB, the most a preset may be \(docs/cli.md#input-limits\)"
# The last line needs no newline; a 4096-byte line (its newline included) is the longest.
{ printf 'description ok\n# %4093s\n' x; printf 'site read_zero+0x10,len=rdx'; } > edge.preset
[ "$(sed -n 2p edge.preset | wc -c)" -eq 4096 ] || fail "edge.preset's line 2 is not 4096 bytes"
"$COPYPROF" probe -p ./edge.preset > out 2> err
grep -q "line longer\|needs a value\|no 'site'" err && fail "edge.preset refused: $(cat err)"
echo "ok: a 4096-byte line and a last line without newline read"

# A folder is a read error, not an empty table.
mkdir folder
expect_exit 1 "$COPYPROF" estimate --hist folder -m "$M"
expect_err "cannot read folder: Is a directory"
expect_exit 1 "$COPYPROF" flamegraph --folded folder -o fg.svg
expect_err "cannot read folder: Is a directory"
expect_exit 1 "$COPYPROF" import-perf --script folder -o p.json
expect_err "cannot read folder: Is a directory"

exit 0
