#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0042-import-perf-dd: perf record -g -a and record --sample watch the same dd run; import-perf
# of perf.data agrees with record --sample on the top callers and the clear_user path's share.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
need_cmd perf
cd "$TMP"

"$COPYPROF" record --sample -o rec.json > /dev/null 2> err.txt &
rec=$!
await grep -q "Ctrl-C to end" err.txt
grep -q "Ctrl-C to end" err.txt || fail "record --sample did not start: $(cat err.txt)"
dd if=/dev/zero of=/dev/null bs=1M count=100000000 2>/dev/null & dd_pid=$!
perf record -q -g -F 999 -a -o perf.data -- sleep 2 2> perf.err ||
	fail "perf record failed: $(cat perf.err)"
kill "$dd_pid"; wait "$dd_pid" 2>/dev/null
kill -INT "$rec"
wait "$rec" || fail "record --sample failed: $(cat err.txt)"

expect_exit 0 "$COPYPROF" import-perf -i perf.data -o imp.json
expect_err "samples, [0-9]+ copy family"
[ "$(jq .meta.total_samples imp.json)" -ge 500 ] || fail "import: too few samples"
jq -e '.sites | length > 0 and all(.mechanism == "sample" and (.stacks | length > 0))' \
	imp.json > /dev/null || fail "import: sites without stacks"

# Copy-family samples per caller function, largest first.
callers() { jq -r '[.sites[] | {s: .symbol, c: .calls}] | group_by(.s) |
	map({s: .[0].s, c: (map(.c) | add)}) | sort_by(-.c) | .[0:3][] | .s' "$1"; }
top_rec=$(callers rec.json | head -n 1)
top_imp=$(callers imp.json | head -n 1)
expect_eq "top copy-family caller, import-perf vs record --sample" "$top_imp" "$top_rec"
case $top_rec in read_zero|iov_iter_zero) ;; *) fail "top caller is $top_rec, not read_zero" ;; esac
share() { jq '([.sites[] | select(.leaf | test("stos|clear_user")) | .calls] | add // 0) * 100 /
	([.sites[].calls] | add)' "$1"; }
r=$(share rec.json); i=$(share imp.json)
jq -ne "($r - $i) | fabs < 20" > /dev/null ||
	fail "clear_user share: record --sample $r% vs import-perf $i%"
exit 0
