#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0039-glibc-knob: glibc's REP MOVSB threshold end to end. A workload copies a known number of
# lengths through glibc's memcpy under GLIBC_TUNABLES; record (a uprobe on the implementation
# glibc picks) counts them exactly and stores the threshold the process ran with; estimate
# answers in glibc's terms (today = that threshold, set by GLIBC_TUNABLES; candidates only
# values glibc accepts; a refused one said; no verdict and no line to ship before the mix is
# measured, the line to ship after); calibrate --mix measures the mix paired; then glibc's own
# knob, set in glibc's own code between passes over the same calls (tests/workload/glibc_knob.c),
# must agree with the prediction, seven runs of each side
# alternated, each measurement against the knob runs around it: same sign wherever both are
# clearly non-zero, and within max(3 x the noise, 30% of the effect) everywhere. No timing is
# asserted: both sides come from one machine, and the noise allowed is the noise both measured
# in this run (the median difference's error, and each side's own A/A control), no constant.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
need_cmd readelf
GK="$OUT_DIR/tests/glibc_knob"
F='.inputs[0].families[0]'
cd "$TMP"

need_glibc_memcpy "$GK"
# glibc's threshold variable, from the same debug file (the truth side sets it).
glibc_knob_offset
lst=$(/lib64/ld-linux-x86-64.so.2 --list-tunables | grep x86_rep_movsb_threshold)
min=$(($(echo "$lst" | sed -n 's/.*min: \(0x[0-9a-f]*\).*/\1/p')))
dflt=$(($(echo "$lst" | sed -n 's/.*: \(0x[0-9a-f]*\) (min.*/\1/p')))
echo "$impl; glibc's threshold $dflt (min $min) at $knob"

# The workload as run (a prefix such as chroot ROOT, and its path there), and its size table as
# written here and as the workload reads it: this glibc is the system's.
RUN=()
GKR=$GK
DISTW=dist.txt
DISTP=dist.txt
. "$ROOT/tests/cli/glibc-knob-body.sh"
