#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# diff-regression.sh: the seed's iov_iter regression (thread 003) as copyprof diff sees it. The
# same btrfs-zstd read (20 MB, caches dropped) was recorded with `copyprof record -p btrfs` on the
# Debian 6.1 and 6.12 kernels in qemu (-cpu max,-fsrm: ERMS without FSRM, as the seed's Cooper
# Lake), by tests/vm/t-diff.sh; the two profiles are in examples/data/iov-regression/. diff
# compares them with the seed's Cooper Lake figures: what changed is memcpy's dispatch
# (memcpy_erms -> memcpy_orig), not the copies. The output is examples/diff-regression.txt.
# Usage: examples/diff-regression.sh [BUILD_DIR]
#        examples/diff-regression.sh --record [BUILD_DIR]   (boots both guests first: slow)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
rec=
[[ ${1:-} == --record ]] && { rec=1; shift; }
CP=${1:-build}/copyprof
DATA=examples/data/iov-regression
MODEL=examples/costmodels/cooperlake-8321hc-seed.json

if [[ -n $rec ]]; then
	keep=$(mktemp -d)
	COPYPROF_BIN=$ROOT/$CP bash tests/vm/t-diff.sh "$keep"
	cp "$keep/6.1/btrfs.json" "$DATA/guest-6.1.json"
	cp "$keep/6.12/btrfs.json" "$DATA/guest-6.12.json"
fi

echo "== copyprof diff --totals -m $MODEL (the same work on both kernels)"
"$CP" diff --totals -m "$MODEL" "$DATA/guest-6.1.json" "$DATA/guest-6.12.json"
echo
echo "== the memcpy family as JSON: the rise, and what caused it"
"$CP" diff --totals -m "$MODEL" --json "$DATA/guest-6.1.json" "$DATA/guest-6.12.json" |
	jq -c '.context[0], (.families[] | select(.name == "memcpy") |
		{calls: [.before.calls, .after.calls], p_calls: .change.p_calls, model: .model})'
