#!/bin/sh
# Builds and runs bench/search_bench.cpp: the advisor's full search for the
# Jacobi 400^3 sample on the h200 profile (target < 100 ms), with the
# number of candidates evaluated per second.
#
#   bench/search_bench.sh [BUILD_DIR] [-- FILE.c PLATFORM RUNS]
# BUILD_DIR defaults to $RECIPE_BUILD_DIR or build. Exit 1 when the target is missed.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-${RECIPE_BUILD_DIR:-build}}
[ $# -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift
case $build in /*) ;; *) build="$root/$build" ;; esac
cmake --build "$build" --target recipe_core -j2 >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
${CXX:-c++} -std=c++20 -O2 -I"$root" -I"$root/library/include" "$root/bench/search_bench.cpp" \
    "$build/librecipe_core.a" "$build/librecipe_tree_sitter_c.a" $(pkg-config --libs tree-sitter) -o "$out/search_bench" -DRECIPE_SOURCE_DIR="\"$root\""
"$out/search_bench" "$@"
