#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0004-examples: the examples that measure nothing print exactly what examples/*.txt shows, and
# draw exactly the checked-in SVGs. After an intended change, `make golden` writes them anew.
. "$(dirname "$0")/lib.sh"
need_cmd jq
need_cmd xmllint
need_cmd go
cd "$ROOT"

for ex in estimate-fleet export-fleet diff-regression glibc-threshold; do
	bash "examples/$ex.sh" "${OUT_DIR#"$ROOT"/}" >"$TMP/$ex.txt" 2>&1 || fail "examples/$ex.sh failed: $(tail -n 5 "$TMP/$ex.txt")"
	diff -u "examples/$ex.txt" "$TMP/$ex.txt" >"$TMP/diff" ||
		fail "examples/$ex.sh no longer prints examples/$ex.txt (make golden after an intended change): $(head -n 40 "$TMP/diff")"
done

mkdir "$TMP/fg"
bash examples/flamegraph.sh "${OUT_DIR#"$ROOT"/}" "$TMP/fg" 2>&1 |
	sed "s|$TMP/fg|examples/flamegraph-out|g" >"$TMP/flamegraph.txt"
diff -u examples/flamegraph.txt "$TMP/flamegraph.txt" >"$TMP/diff" ||
	fail "examples/flamegraph.sh no longer prints examples/flamegraph.txt: $(head -n 40 "$TMP/diff")"
for svg in examples/flamegraph-out/*.svg; do
	cmp -s "$svg" "$TMP/fg/$(basename "$svg")" || fail "$svg differs from what flamegraph.sh draws now"
done
n=$(ls examples/flamegraph-out/*.svg | wc -l)
expect_eq "SVGs compared" "$n" 2
exit 0
