#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# check-layers.sh: the layer rule of docs/design.md over every #include "..." line. A file may
# include its own folder and the layers below it, never a layer above or beside its own, and
# modules (a .c and its .h) may not include each other in a circle. Exit 1 on a breach.
# With --uses: prints, instead of the verdict, which folders each folder includes (one line per
# folder, "FOLDER: FOLDER ...", lowest layer first), as docs/design.md#layers lists them.
set -euo pipefail
uses_only=false
[ "${1:-}" = --uses ] && uses_only=true
cd "$(dirname "$0")/.."

# Layers, lowest first; folders of one rank are peers and may not include each other.
LAYERS='bpf=0 asm-ref=0 generated=0 user/lib=1 flamegraph=2 user/kernel=3 user/sites=4
	user/profile=5 user/record=6 user/costmodel=6 user/import=6 user/estimate=7 user/export=8
	user/measure=8 user/agent=10 user/fleet=10 user=11'

files=$(git ls-files 'user/*.[ch]' 'flamegraph/*.[ch]' 'asm-ref/*.[ch]' 'asm-ref/*.def' 'bpf/*.h')
edges=$(mktemp)
uses=$(mktemp)
trap 'rm -f "$edges" "$uses"' EXIT

# shellcheck disable=SC2086
grep -H '^#include "' $(echo "$files" | grep '\.[ch]$') | awk -v layers="$LAYERS" -v all="$files" -v edges="$edges" -v uses="$uses" '
BEGIN {
	n = split(layers, l, /[ \t\n]+/)
	for (i = 1; i <= n; i++) if (split(l[i], kv, "=") == 2) rank[kv[1]] = kv[2]
	n = split(all, f, /[ \t\n]+/)
	for (i = 1; i <= n; i++) exists[f[i]] = 1
	nsearch = split("user bpf asm-ref flamegraph", search, " ")
}
function dirof(p) { sub(/\/[^\/]*$/, "", p); return p }
# The folder an include resolves to: the includer'"'"'s folder, then the Makefile'"'"'s -I folders.
function resolve(dir, name,    i) {
	if ((dir "/" name) in exists) return dirof(dir "/" name)
	for (i = 1; i <= nsearch; i++)
		if ((search[i] "/" name) in exists) return dirof(search[i] "/" name)
	if (name ~ /\.skel\.h$/ || name ~ /^proto\//) return "generated"
	return ""
}
{
	file = $0; sub(/:.*/, "", file)
	name = $0; sub(/^[^"]*"/, "", name); sub(/".*/, "", name)
	dir = dirof(file)
	if (!(dir in rank)) next
	to = resolve(dir, name)
	if (to == "") { printf "%s: #include \"%s\" is in no folder of the layer rule\n", file, name; bad = 1; next }
	tofile = to "/" name; sub(/[^\/]*\/\.\.\//, "", tofile)
	if (name ~ /\//) tofile = to "/" substr(name, index(name, "/") + 1)
	if (to != dir && rank[to] >= rank[dir]) {
		printf "%s: includes %s, from a layer not below its own (%s)\n", file, tofile, dir
		bad = 1
	}
	if (to != dir) print rank[dir], dir, to > uses
	if (to == "generated") next
	base = name; sub(/^.*\//, "", base); sub(/\.h$/, "", base)
	me = file; sub(/\.[ch]$/, "", me)
	if (me != to "/" base) print me, to "/" base > edges
}
END { exit bad }
' >&2 || bad=1

# A circle between modules: tsort names the modules on it.
if ! tsort "$edges" >/dev/null 2>"$edges.loop"; then
	echo "include circle between modules:" >&2
	grep -v 'input contains a loop' "$edges.loop" | sed 's/^tsort: /  /' >&2
	bad=1
fi
rm -f "$edges.loop"
[ "${bad:-0}" -eq 0 ] || exit 1
if $uses_only; then
	sort -u "$uses" | sort -k1,1n -k2,2 -k3,3 |
		awk '$2 != last { if (last != "") print line; line = $2 ":"; last = $2 } { line = line " " $3 }
		     END { if (last != "") print line }'
	exit 0
fi
echo "check-layers: every include stays in its folder or goes to a layer below, and none is circular"
