#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0066-flamegraph-browser: the flame graph's own script in a real browser (Debian's headless
# chromium): search and zoom from the URL (#search=, #frame=) read back with --dump-dom, then,
# through chromedriver's WebDriver API (curl), a real click zooms, Reset Zoom restores every
# width, hovering fills the details line, the Search button's prompt highlights and Escape resets.
. "$(dirname "$0")/lib.sh"
need_cmd xmllint
need_cmd jq
need_cmd curl
CHROMIUM=$(command -v chromium || command -v chromium-browser) ||
	skip "needs chromium (make deps installs Debian's chromium)"
need_cmd chromedriver
G="$ROOT/tests/golden"
cd "$TMP"
# Every frame, whatever the script added to its class ("f hide", "f parent").
F="//*[local-name()='g'][contains(concat(' ', @class, ' '), ' f ')]"
# As root and without a network: no sandbox, nothing in the background.
FLAGS=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
	--disable-background-networking --disable-component-update --disable-sync --window-size=1200,400)

expect_exit 0 "$COPYPROF" import-perf --script "$G/perf-script-fixture.txt" --no-kernel-text -o fx.json
# --no-comm: the frames of .stacks[] as they are (the process frames are t0065's and t0045's).
expect_exit 0 "$COPYPROF" flamegraph -i fx.json --no-comm -o stacks.svg
jq -r '.sites[].stacks[]' fx.json > fx.folded
N=$(xmllint --xpath "count($F)" stacks.svg)
names() { xmllint --xpath "$F/*[local-name()='title']/text()" "$1" |
	awk 'NR % 2 == 1'; }
names stacks.svg > names.txt
expect_eq "one name per frame" "$(wc -l < names.txt)" "$N"
# What a search for /memcpy/ must match: the samples of every stack with such a frame, in %.
want_pct=$(awk '{ n = $NF; all += n; sub(/ [0-9]+$/, ""); if ($0 ~ /memcpy/) hit += n }
	END { printf "%.2f", 100 * hit / all }' fx.folded)
want_hits=$(grep -c memcpy names.txt)
# The frames of kthread's subtree: kthread and every distinct path above it.
want_sub=$(awk '{ sub(/ [0-9]+$/, ""); i = index($0, "kthread;"); if (!i) next
	n = split(substr($0, i), f, ";"); p = ""
	for (k = 1; k <= n; k++) { p = p ";" f[k]; seen[p] = 1 } } END { print length(seen) }' fx.folded)
kthread=$(grep -nx kthread names.txt | head -n 1 | cut -d: -f1)
[ -n "$kthread" ] || fail "no kthread frame"
width() { xmllint --xpath "string(($F)[$2]/*[local-name()='rect']/@width)" "$1"; }

# 1. The URL's hash, read back from the DOM chromium has after the script ran.
timeout 120 "$CHROMIUM" "${FLAGS[@]}" --user-data-dir="$TMP/chr1" --dump-dom \
	"file://$TMP/stacks.svg#search=memcpy&frame=kthread" > dom.xml 2> chromium.log ||
	fail "chromium --dump-dom failed: $(tail -n 5 chromium.log)"
xmllint --noout dom.xml || fail "the DOM after the script is not XML: $(head -c 300 dom.xml)"
expect_eq "matched" "$(xmllint --xpath "string(//*[@id='matched'])" dom.xml)" \
	"Matched: $want_pct% ($want_hits frames)"
expect_eq "highlighted" "$(xmllint --xpath "count(//*[local-name()='rect'][@fill='rgb(230,0,230)'])" dom.xml)" \
	"$want_hits"
expect_eq "zoomed frame's width" "$(width dom.xml "$kthread")" 1180.00
expect_eq "callers of kthread, dimmed" "$(xmllint --xpath "count(//*[local-name()='g'][@class='f parent'])" dom.xml)" 3
expect_eq "frames hidden" "$(xmllint --xpath "count(//*[local-name()='g'][@class='f hide'])" dom.xml)" \
	$((N - want_sub - 3))
# The frame above kthread is scaled by as much: its share of kthread's width, times 1180.
above=$((kthread + 1))
expect_eq "scaled" "$(width dom.xml $above)" \
	"$(awk -v a="$(width stacks.svg $above)" -v k="$(width stacks.svg "$kthread")" 'BEGIN { printf "%.2f", 1180 * a / k }')"
expect_eq "Reset Zoom shown" "$(xmllint --xpath "string(//*[@id='unzoom']/@class)" dom.xml)" ""

# 2. chromedriver: real clicks, a hover, the Search prompt and a key.
PORT=$((20000 + $$ % 20000))
chromedriver --port=$PORT > chromedriver.log 2>&1 &
CD=$!
exit_hooks+=('kill $CD 2>/dev/null; wait $CD 2>/dev/null')
wd() { curl -s -X "$1" "http://127.0.0.1:$PORT$2" -H 'Content-Type: application/json' ${3:+-d "$3"}; }
for i in $(seq 50); do wd GET /status | jq -e .value.ready >/dev/null 2>&1 && break; sleep 0.2; done
caps=$(printf '%s\n' "${FLAGS[@]}" "--user-data-dir=$TMP/chr2" | jq -R . | jq -cs --arg bin "$CHROMIUM" \
	'{capabilities: {alwaysMatch: {browserName: "chrome", "goog:chromeOptions": {binary: $bin, args: .}}}}')
SID=$(wd POST /session "$caps" | jq -r .value.sessionId)
[ -n "$SID" ] && [ "$SID" != null ] || fail "chromedriver gave no session: $(tail -n 5 chromedriver.log)"
S=/session/$SID
js() { wd POST "$S/execute/sync" "$(jq -cn --arg s "$1" '{script: $s, args: []}')" | jq -r .value; }
element() { wd POST "$S/element" "$(jq -cn --arg x "$1" '{using: "xpath", value: $x}')" | jq -r '.value | to_entries[0].value'; }
widths='return Array.from(document.querySelectorAll("g.f rect"), r => r.getAttribute("width")).join(" ")'
wd POST "$S/url" "{\"url\":\"file://$TMP/stacks.svg\"}" >/dev/null
before=$(js "$widths")
expect_eq "widths in the browser" "$before" \
	"$(xmllint --xpath "$F/*[local-name()='rect']/@width" stacks.svg |
		sed 's/ *width="\([^"]*\)"/\1 /g' | xargs)"
# Hover: the details line names the frame.
el=$(element "($F)[$kthread]")
wd POST "$S/actions" "$(jq -cn --arg e "$el" '{actions: [{type: "pointer", id: "mouse", actions: [
	{type: "pointerMove", duration: 0, origin: {"element-6066-11e4-a52e-4f735466cecf": $e}, x: 0, y: 0}]}]}')" >/dev/null
expect_eq "details on hover" "$(js 'return document.getElementById("details").textContent')" \
	"kthread ($(xmllint --xpath "string(($F)[$kthread]/*[local-name()='title'])" stacks.svg | sed -n 2p))"
# Click: zoom, and the URL says so.
wd POST "$S/element/$el/click" '{}' >/dev/null
expect_eq "hash after a click" "$(js 'return location.hash')" "#zoom=$((kthread - 1))"
expect_eq "clicked frame's width" "$(js "return document.querySelectorAll('g.f rect')[$((kthread - 1))].getAttribute('width')")" 1180.00
expect_eq "hidden after a click" "$(js 'return document.querySelectorAll("g.f.hide").length')" $((N - want_sub - 3))
wd POST "$S/element/$(element "//*[@id='unzoom']")/click" '{}' >/dev/null
expect_eq "widths after Reset Zoom" "$(js "$widths")" "$before"
expect_eq "nothing hidden" "$(js 'return document.querySelectorAll("g.f.hide").length')" 0
# Search: the button asks with a prompt.
wd POST "$S/element/$(element "//*[@id='search']")/click" '{}' >/dev/null
wd POST "$S/alert/text" '{"text":"memcpy"}' >/dev/null
wd POST "$S/alert/accept" '{}' >/dev/null
expect_eq "matched after the prompt" "$(js 'return document.getElementById("matched").textContent')" \
	"Matched: $want_pct% ($want_hits frames)"
expect_eq "hash after the search" "$(js 'return location.hash')" "#search=memcpy"
# Escape resets the search.
wd POST "$S/actions" '{"actions":[{"type":"key","id":"kb","actions":[{"type":"keyDown","value":"\uE00C"},{"type":"keyUp","value":"\uE00C"}]}]}' >/dev/null
expect_eq "highlight after Escape" "$(js 'return document.querySelectorAll("rect[fill=\"rgb(230,0,230)\"]").length')" 0
expect_eq "Search button after Escape" "$(js 'return document.getElementById("search").textContent')" Search
wd DELETE "$S" >/dev/null
exit 0
