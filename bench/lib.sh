# SPDX-License-Identifier: GPL-2.0
# lib.sh: sourced by the benchmarks: build what a benchmark runs before timing it, so that a
# missing program is built (or the benchmark stops), never timed as a failing command.

# bench_need BUILD TARGET...: makes each TARGET (a path under BUILD: copyprof, tests/copyload,
# copyprof-static) with this tree's Makefile; exits 1 if one cannot be built.
bench_need() {
	local root build t targets=()
	root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	build=$1
	shift
	# The Makefile names its outputs relative to the tree ("build/..."), as its .d files do.
	case $build in /*) build=$(realpath -m --relative-to="$root" "$build") ;; esac
	for t in "$@"; do targets+=("$build/$t"); done
	make -C "$root" -s OUTPUT="$build" "${targets[@]}" >&2 ||
		{ echo "bench: cannot build ${targets[*]} (make deps, then make)" >&2; exit 1; }
	for t in "${targets[@]}"; do
		[ -x "$root/$t" ] || [ -x "$t" ] || { echo "bench: $t was not built" >&2; exit 1; }
	done
}
