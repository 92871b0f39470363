#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0094-hardening-uprobe: a uprobe offset inside an instruction (or past the function) is refused
# before anything is attached, and the workload running the same binary is unharmed; a boundary
# offset counts exactly; a COMMAND killed by a signal is reported with the signal's name.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd objdump
need_cmd jq
cd "$TMP"

# The compiler decides wl_copy's code: read the boundaries from objdump, not from this script.
objdump -d --no-show-raw-insn "$WL" | awk '/<wl_copy>:$/ { on = 1; next } on && /^$/ { exit }
	on { sub(/:.*/, ""); gsub(/ /, ""); print }' | while read -r a; do echo $((16#$a)); done > starts.txt
[ "$(wc -l < starts.txt)" -ge 3 ] || fail "cannot read wl_copy's instructions: $(cat starts.txt)"
first=$(sed -n 1p starts.txt)
second=$(( $(sed -n 2p starts.txt) - first ))
[ "$second" -ge 2 ] || skip "wl_copy's first instruction is 1 byte long: no inside offset to try"

# A running workload of the same binary, then a refused probe on it.
"$WL" copy=64:30000000 > wl.out 2> wl.err &
wl=$!
expect_exit 1 "$COPYPROF" record --uprobe "$WL:wl_copy+1" -d 3 -o p1.json
expect_err "offset 0x1 is inside an instruction of wl_copy \(wl_copy\+0x0: .*, $second bytes\): a uprobe there would corrupt the program; the nearest instruction boundaries are wl_copy\+0x0 and wl_copy\+$(printf '0x%x' "$second")"
[ ! -e p1.json ] || fail "a refused record wrote a profile"
expect_exit 1 "$COPYPROF" record --uprobe "$WL:wl_copy+$((second - 1))" -d 3 -o p1.json
expect_err "is inside an instruction of wl_copy"
wait "$wl" || fail "the workload died (exit $?) while an inside offset was refused: $(cat wl.err)"

# Past the symbol's size: refused, naming the size.
size=$((16#$(nm -S "$WL" | awk '$4 == "wl_copy" { print $2 }')))
expect_exit 1 "$COPYPROF" record --uprobe "$WL:wl_copy+$size" -d 3 -o p1.json
expect_err "offset $(printf '0x%x' "$size") is past the end of wl_copy \(size $(printf '0x%x' "$size")\): give an offset below"

# A boundary inside the function is accepted and counts every call.
expect_exit 0 "$COPYPROF" record --uprobe "$WL:wl_copy+$second" -o p2.json -- "$WL" copy=100:1234
expect_eq "calls at wl_copy+$second" "$(jq '.sites[0].calls' p2.json)" 1234
expect_eq "bytes at wl_copy+$second" "$(jq '.sites[0].bytes' p2.json)" 123400

# A COMMAND killed by a signal: reported with its number, name and the shell's exit status.
expect_exit 0 "$COPYPROF" record --uprobe "$WL:wl_copy" -o p3.json -- sh -c 'kill -SEGV $$'
expect_err "warning: 'sh' was killed by signal 11 \(SIGSEGV(, core dumped)?\); a shell would show exit status 139"
expect_exit 0 "$COPYPROF" record --uprobe "$WL:wl_copy" -o p3.json -- sh -c 'exit 3'
expect_err "warning: 'sh' exited with status 3"
expect_no_leftover_progs
echo "ok"
