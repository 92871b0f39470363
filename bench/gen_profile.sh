#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# gen_profile.sh: write a deterministic synthetic profile with N sites (bench/scale.sh's input).
# Usage: bench/gen_profile.sh N [HOST] > profile.json
# Host h (0, 1, ...) has every site i except those with (i + h) % 4 == 0, so that profiles of
# several hosts overlap in three quarters of their sites (what a fleet merge meets). Sites are
# spread over 64 binaries, 1 to 5 length buckets each; every count follows from (i, h) alone.
set -eu
N=${1:?usage: gen_profile.sh N [HOST]}
H=${2:-0}
exec awk -v n="$N" -v h="$H" 'BEGIN {
	# The copyprof length buckets used here: [lo, hi) pairs of docs/profile-format.md.
	split("16 17 32 33 64 72 128 144 256 288 1024 1152 4096 4608 16384 18432", e, " ")
	printf "{\n  \"format\": \"copyprof-profile\",\n  \"version\": 1,\n"
	printf "  \"meta\": { \"kernel\": \"6.12.0-bench\", \"cpu_model\": \"Bench CPU\", "
	printf "\"cpu_flags\": [ \"erms\", \"fsrm\" ], \"hostname\": \"host-%d\", ", h
	printf "\"start\": \"2026-12-01T00:00:00Z\", \"duration_s\": 10 },\n  \"sites\": [\n"
	id = 0
	for (i = 0; i < n; i++) {
		if (h > 0 && (i + h) % 4 == 0)
			continue
		printf "%s    { \"id\": %d, \"target\": \"/usr/lib/bench/lib%02d.so\", ", id ? ",\n" : "", id, i % 64
		printf "\"symbol\": \"copy_fn_%d\", \"offset\": %d, ", int(i / 3), (i % 3) * 16
		printf "\"mechanism\": \"uprobe\", \"len_arg\": \"arg3\", \"buckets\": ["
		nb = 1 + (i * 7 + h) % 5
		for (k = 0; k < nb; k++) {
			b = (i + k * 3) % 8
			c = 1 + (i * 31 + k * 17 + h * 13) % 1000
			printf "%s { \"lo\": %d, \"hi\": %d, \"count\": %d, \"bytes\": %d }", k ? "," : "", e[2 * b + 1], e[2 * b + 2], c, c * e[2 * b + 1]
		}
		printf " ] }"
		id++
	}
	printf "\n  ]\n}\n"
}'
