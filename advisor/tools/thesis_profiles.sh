#!/bin/sh
# Rebuilds advisor/platforms/tesla-c2050.json and gtx-460.json from the
# thesis's published figures and regenerates docs/model-reproduction.md
# (see thesis_profiles.cpp and reproduction_doc.cpp for how).
# Usage: advisor/tools/thesis_profiles.sh [BUILD_DIR]   (default: build)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-${RECIPE_BUILD_DIR:-build}}
case $build in /*) ;; *) build="$root/$build" ;; esac
cmake --build "$build" --target recipe_core -j2 >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
${CXX:-c++} -std=c++20 -O2 -I"$root" -I"$root/library/include" "$root/advisor/tools/thesis_profiles.cpp" \
    "$build/librecipe_core.a" -o "$out/thesis_profiles" \
    -DRECIPE_SOURCE_DIR="\"$root\"" -ltree-sitter
"$out/thesis_profiles" "$root/advisor/platforms"
${CXX:-c++} -std=c++20 -O2 -I"$root" -I"$root/library/include" "$root/advisor/tools/reproduction_doc.cpp" \
    "$build/librecipe_core.a" -o "$out/reproduction_doc" -ltree-sitter
"$out/reproduction_doc" "$root/advisor/platforms" "$root/docs/model-reproduction.md"
