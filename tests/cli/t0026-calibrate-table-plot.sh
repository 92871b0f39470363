#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0026-calibrate-table-plot: --table reprints the seed patch's tables from the example cost
# model exactly; --plot writes valid SVG, for a published and for a measured model.
. "$(dirname "$0")/lib.sh"
SEED="$ROOT/examples/costmodels/cooperlake-8321hc-seed.json"
cd "$TMP"

expect_exit 0 "$COPYPROF" calibrate --table -i "$SEED"
# The seed's own lines, character for character (shared/seeds/000).
while IFS= read -r line; do
	grep -qxF -- "$line" "$TMP/out" || fail "--table lacks the seed's line '$line': $(cat "$TMP/out")"
done <<'SEED'
  bytes          orig    REP MOVSB   increase
     32       10.9 ns      23.1 ns     112.3%
     64       13.9 ns      23.1 ns      66.3%
    128       17.5 ns      28.9 ns      65.2%
    256       26.0 ns      31.7 ns      22.1%
                                    orig    patched  reduction
  warmed                        371.6 ns   123.4 ns      66.8%
  source flushed                706.5 ns   400.8 ns      43.3%
  destination flushed           457.7 ns   350.0 ns      23.5%
SEED
expect_out "not measured"
expect_out "T=2048"
[ ! -e costmodel.json ] || fail "-i wrote a cost model"

have_xmllint=true
command -v xmllint >/dev/null || { have_xmllint=false; echo "note: no xmllint (libxml2-utils): SVGs not validated"; }
valid_svg() {
	[ -s "$1" ] || fail "$1 was not written"
	grep -q '<svg ' "$1" || fail "$1 is not an SVG"
	! $have_xmllint || xmllint --noout "$1" 2>"$TMP/xml" || fail "$1 is not valid XML: $(cat "$TMP/xml")"
}

expect_exit 0 "$COPYPROF" calibrate --plot seed.svg -i "$SEED" --cache all
valid_svg seed.svg
grep -q 'crossover (warm)' seed.svg || fail "the memcpy_orig/movsb crossover is not marked"
expect_eq "curves drawn" "$(grep -c '<polyline' seed.svg)" 7

# Nothing matches: still a valid SVG that says so, and a warning.
expect_exit 0 "$COPYPROF" calibrate --plot none.svg -i "$SEED" --impl stosb
valid_svg none.svg
grep -q 'nothing to draw' none.svg || fail "an empty plot does not say why"
expect_err "no curve of the model matches"

# A measured model: table without gaps, plot of the chosen replicas.
expect_exit 0 "$COPYPROF" calibrate --quick --impl memcpy_orig,movsb,erms_threshold \
	--sizes 32,64,128,256,4K --table --plot m.svg -o m.json
! grep -q 'n/a' "$TMP/out" || fail "--table has gaps after measuring what it needs: $(cat "$TMP/out")"
expect_out "^  destination flushed +[0-9.]+ ns +[0-9.]+ ns +-?[0-9.]+%$"
expect_out "^    256 +[0-9.]+ ns +[0-9.]+ ns +-?[0-9.]+%$"
valid_svg m.svg
expect_eq "warm curves drawn" "$(grep -c '<polyline' m.svg)" 3
exit 0
