#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0072-export-pprof-protoc: the pprof export decoded by protoc against proto/pprof.proto: gzip,
# message structure, and every total of the golden profiles exact.
. "$(dirname "$0")/lib.sh"
need_cmd protoc
G="$ROOT/tests/golden"
cd "$TMP"

decode() { gzip -dc "$1" | protoc --decode=perftools.profiles.Profile --proto_path="$ROOT/proto" pprof.proto; }
# values N TEXT: the sum of the N-th value (1-based) of every sample.
values() {
	awk -v want="$1" '/^sample \{/ { in_s = 1; i = 0 } /^}/ { in_s = 0 }
		in_s && /^  value:/ { i++; if (i == want) s += $2 } END { print s + 0 }' "$2"
}
strings() { sed -n 's/^string_table: "\(.*\)"$/\1/p' "$1"; }

# The synthetic profile: 1000 x 16 B, 100 in 1024..1151 (110000 B), 10 x 4096; 50 x 64, 5 x 4096.
expect_exit 0 "$COPYPROF" export -i "$G/profile-synthetic.json" -f pprof -o s.pb.gz
expect_err "exported 2 sites .* to s.pb.gz: pprof, 5 samples, 6 locations, 1165 calls, 190640 bytes"
gzip -t s.pb.gz || fail "not gzip"
decode s.pb.gz > s.txt 2>err || fail "protoc cannot decode: $(cat err)"
expect_eq "samples" "$(grep -c '^sample {' s.txt)" 5
expect_eq "calls" "$(values 1 s.txt)" 1165
expect_eq "bytes" "$(values 2 s.txt)" 190640
expect_eq "first string" "$(sed -n 's/^string_table: //p' s.txt | head -1)" '""'
strings s.txt > str
for want in calls count bytes "len 16" "len 64..71" "len 1024..1151" "len 4096..4607" app_copy \
	app_clear /usr/bin/app len_min len_max mechanism uprobe kernel 6.12.0-test cpu_model \
	"Synthetic CPU" host host-a; do
	grep -qxF "$want" str || fail "string table lacks '$want'"
done
expect_eq "strings stored once" "$(sort str | uniq -d)" ""
expect_eq "time" "$(sed -n 's/^time_nanos: //p' s.txt)" 1796029200000000000
expect_eq "duration" "$(sed -n 's/^duration_nanos: //p' s.txt)" 1500000000
expect_eq "period" "$(sed -n 's/^period: //p' s.txt)" 1
# The 1024..1151 sample: 100 calls, 110000 bytes, numeric bounds 1024 and 1151 bytes.
awk '/^sample \{/ { b = "" } { b = b $0 "\n" } /^}/ && b ~ /value: 110000/ { print b }' s.txt > big
expect_eq "1024..1151 values" "$(grep -o 'value: [0-9]*' big | tr '\n' ' ')" "value: 100 value: 110000 "
expect_eq "1024..1151 bounds" "$(grep -o 'num: [0-9]*' big | tr '\n' ' ')" "num: 1024 num: 1151 "

# Callers: one sample per (caller, bucket) and the calls no caller took.
expect_exit 0 "$COPYPROF" export -i "$G/profile-callers.json" -f pprof -o c.pb.gz
decode c.pb.gz > c.txt || fail "protoc cannot decode the callers profile"
expect_eq "caller samples" "$(grep -c '^sample {' c.txt)" 3
expect_eq "caller calls" "$(values 1 c.txt)" 1110
expect_eq "caller bytes" "$(values 2 c.txt)" 166960
expect_eq "stack depths" "$(awk '/^sample \{/ { n = 0 } /location_id:/ { n++ } /^}/ && n { printf "%d ", n; n = 0 }' c.txt)" "3 3 2 "

# Sampled: samples and their recovered lengths, a CPU period of 1 s / sample_hz.
expect_exit 0 "$COPYPROF" export -i "$G/profile-synthetic-sampled.json" -f pprof -o t.pb.gz
decode t.pb.gz > t.txt || fail "protoc cannot decode the sampled profile"
expect_eq "samples" "$(values 1 t.txt)" 25492
expect_eq "sample bytes" "$(values 2 t.txt)" 29580672
strings t.txt | grep -qxF sample_bytes || fail "no sample_bytes type"
strings t.txt | grep -qxF ZSTD_decompressStream || fail "the folded stack's frames are missing"
exit 0
