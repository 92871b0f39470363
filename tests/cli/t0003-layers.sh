#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0003-layers: the layer rule (scripts/check-layers.sh) holds on this tree, docs/design.md
# lists the uses the includes have, and the rule catches an include from a layer above, one
# between peers, estimate including the timing code, and a circle, in a scratch copy.
. "$(dirname "$0")/lib.sh"
need_cmd git
cd "$ROOT"
expect_exit 0 scripts/check-layers.sh
expect_out "every include stays in its folder or goes to a layer below"
# Who uses whom, as docs/design.md#layers lists it, is what the includes say.
sed -n '/^```uses$/,/^```$/p' docs/design.md | sed '1d;$d' >"$TMP/doc-uses"
[ -s "$TMP/doc-uses" ] || fail "docs/design.md has no \`\`\`uses block"
scripts/check-layers.sh --uses >"$TMP/tree-uses" || fail "check-layers.sh --uses failed"
if diff -u "$TMP/doc-uses" "$TMP/tree-uses" >"$TMP/uses.diff"; then
	pass "docs/design.md#layers lists the uses the includes have"
else
	fail "docs/design.md#layers lists other uses than the includes have: $(cat "$TMP/uses.diff")"
fi

copy=$TMP/tree
mkdir "$copy"
git ls-files user flamegraph asm-ref bpf scripts/check-layers.sh | tar -cf - -T - | tar -xf - -C "$copy"
cd "$copy"
git init -q . && git add -A
expect_exit 0 scripts/check-layers.sh

# lib including a kernel header: upward.
sed -i '0,/#include "log.h"/s//#include "log.h"\n#include "kernel\/ksyms.h"/' user/lib/outfile.c
expect_exit 1 scripts/check-layers.sh
expect_err 'user/lib/outfile.c: includes user/kernel/ksyms.h, from a layer not below its own'
git checkout -q user/lib/outfile.c

# record and costmodel are peers: neither may include the other.
printf '#include "record/planner.h"\n' >>user/costmodel/mixmeas.c
expect_exit 1 scripts/check-layers.sh
expect_err 'user/costmodel/mixmeas.c: includes user/record/planner.h, from a layer not below'
git checkout -q user/costmodel/mixmeas.c

# estimate times nothing: it may include neither the paired replay nor calibrate's timing code.
printf '#include "measure/paired.h"\n#include "measure/calib_timer.h"\n' >>user/estimate/estimate_run.c
expect_exit 1 scripts/check-layers.sh
expect_err 'user/estimate/estimate_run.c: includes user/measure/paired.h, from a layer not below'
expect_err 'user/estimate/estimate_run.c: includes user/measure/calib_timer.h, from a layer not below'
git checkout -q user/estimate/estimate_run.c

# A circle inside one folder: counter_map includes utf8, utf8 includes counter_map.
printf '#include "utf8.h"\n' >>user/lib/counter_map.h
printf '#include "counter_map.h"\n' >>user/lib/utf8.h
expect_exit 1 scripts/check-layers.sh
expect_err 'include circle between modules'
expect_err 'user/lib/(utf8|counter_map)'
exit 0
