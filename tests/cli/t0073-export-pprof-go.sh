#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0073-export-pprof-go: Go's pprof (go tool pprof, the reader fleet profilers share) reads the
# export: exact totals, stacks with callers and inline frames, labels to filter on, a merge.
. "$(dirname "$0")/lib.sh"
need_cmd go
need_cmd jq
go tool pprof -h >/dev/null 2>&1 || skip "go has no pprof tool"
G="$ROOT/tests/golden"
cd "$TMP"
export HOME="$TMP" GOCACHE="$TMP/gocache" GOFLAGS=
pp() { go tool pprof -symbolize=none "$@" 2>"$TMP/pp.err" || fail "go tool pprof $*: $(cat "$TMP/pp.err")"; }
# total FILE INDEX: the pprof total of one sample type, as "-top" states it.
total() { pp -top -sample_index="$2" -unit=B "$1" | sed -n 's/.* of \([0-9]*\)B\? total$/\1/p'; }

expect_exit 0 "$COPYPROF" export -i "$G/profile-synthetic.json" -f pprof -o s.pb.gz
expect_eq "calls" "$(total s.pb.gz calls)" 1165
expect_eq "bytes" "$(total s.pb.gz bytes)" 190640
pp -raw s.pb.gz > raw
grep -q '^calls/count\[dflt\] bytes/bytes$' raw || fail "sample types: $(head -8 raw)"
grep -q '^Time: 2026-11-30 09:00:00 +0000 UTC$' raw || fail "time: $(head -5 raw)"
grep -q '^Duration: 1.5s$' raw || fail "duration: $(head -5 raw)"
# Flat per bucket frame, cumulative per function.
pp -top -cum -sample_index=calls s.pb.gz > top
expect_eq "app_copy cum" "$(awk '$NF == "app_copy" { print $4 }' top)" 1110
expect_eq "len 16 flat" "$(grep ' len 16$' top | awk '{ print $1 }')" 1000
expect_eq "len 4096..4607 flat" "$(grep ' len 4096..4607$' top | awk '{ print $1 }')" 15
# Numeric labels filter by length: 1024 bytes and more.
expect_eq "calls >= 1024 B" "$(pp -top -tagfocus=len_min=1024B: -sample_index=calls s.pb.gz |
	sed -n 's/.*accounting for \([0-9]*\),.*/\1/p')" 115

# --length-as label: no bucket frames, the copy functions are the flat column; lengths stay labels.
expect_exit 0 "$COPYPROF" export -i "$G/profile-synthetic.json" -f pprof --length-as label -o l.pb.gz
pp -top -sample_index=calls l.pb.gz > ltop
expect_eq "label: top flat" "$(awk '$NF ~ /^app_/ { print $NF "=" $1 }' ltop | tr '\n' ' ')" \
	"app_copy=1110 app_clear=55 "
expect_eq "label: no len frames" "$(grep -c ' len ' ltop)" 0
expect_eq "label: calls" "$(total l.pb.gz calls)" 1165
expect_eq "label: bytes" "$(total l.pb.gz bytes)" 190640
expect_eq "label: calls >= 1024 B" "$(pp -top -tagfocus=len_min=1024B: -sample_index=calls l.pb.gz |
	sed -n 's/.*accounting for \([0-9]*\),.*/\1/p')" 115
expect_exit 0 "$COPYPROF" export -i "$G/profile-synthetic-sampled.json" -f pprof --length-as label -o lt.pb.gz
pp -top -sample_index=samples lt.pb.gz | grep -q '^ *25492 .* memcpy$' ||
	fail "sampled leaf: $(pp -top -sample_index=samples lt.pb.gz)"
expect_exit 2 "$COPYPROF" export -i "$G/profile-synthetic.json" -f pprof --length-as bucket -o x.pb.gz
expect_exit 2 "$COPYPROF" export -i "$G/profile-synthetic.json" -f openmetrics --length-as label

# Callers and an inline chain: the leaf is the bucket, then the site's lines, then the caller.
jq '.sites[0].source = {"file": "/k/a.c", "line": 30, "inlined": [
	{"function": "outer", "file": "/k/k.c", "line": 9}, {"function": "inner", "file": "/k/o.c", "line": 20}]}
    | .sites[0].build_id = "0123abcd"' "$G/profile-callers.json" > callers.json
expect_exit 0 "$COPYPROF" export -i callers.json -f pprof -o c.pb.gz
pp -traces -lines c.pb.gz > traces
awk '/^-+\+/ { t++ } t == 1' traces | grep -v '^ *[a-z_]*: ' | sed 's/^ *//' > first
expect_eq "first trace" "$(sed 1d first | tr '\n' '|')" \
	"1000   len 16|inner /k/a.c:30 (inline)|outer /k/o.c:20 (inline)|k_copy /k/k.c:9|alpha|"
grep -q '^ *site: *k_copy+0x0$' traces || fail "no site label: $(head -20 traces)"
expect_eq "no caller" "$(awk '/^-+\+/ { t++ } t == 3' traces | grep -c alpha)" 0
expect_eq "callers' calls" "$(total c.pb.gz calls)" 1110
pp -raw c.pb.gz | grep -q '^1: 0x0/0x0/0x0 vmlinux 0123abcd ' || fail "mapping with build id"

# Two exports merged by pprof itself, as a fleet profiler would: totals add.
expect_exit 0 "$COPYPROF" export -i "$G/profile-callers.json" -f pprof -o c2.pb.gz
pp -proto s.pb.gz c2.pb.gz > both.pb.gz
expect_eq "merged calls" "$(total both.pb.gz calls)" 2275
expect_eq "merged bytes" "$(total both.pb.gz bytes)" 357600

# Sampled: its own sample types and the folded stacks as frames.
expect_exit 0 "$COPYPROF" export -i "$G/profile-synthetic-sampled.json" -f pprof -o t.pb.gz
expect_eq "samples" "$(total t.pb.gz samples)" 25492
expect_eq "sample bytes" "$(total t.pb.gz sample_bytes)" 29580672
# export --help's own examples, on a sampled profile: sample_bytes, -tags and -tagfocus.
"$COPYPROF" export --help | grep -q -- '-sample_index=sample_bytes' || fail "help lacks sample_bytes"
pp -tags -sample_index=samples t.pb.gz | grep -q 'len_min: Total 25492' ||
	fail "-tags has no len_min: $(pp -tags -sample_index=samples t.pb.gz | head)"
[ -n "$(total t.pb.gz sample_bytes)" ] || fail "-sample_index=sample_bytes fails on a sampled profile"
pp -top -cum -sample_index=samples t.pb.gz | grep -q ' 25492 .* ZSTD_decompressStream$' ||
	fail "stack root: $(pp -top -cum t.pb.gz)"
exit 0
