#!/usr/bin/env bash
# On a machine with a GPU: builds recipe-profile with nvcc (no CMake needed)
# and measures this GPU's platform profile into OUTFILE.
# usage: bench/device/profile.sh OUTFILE [--quick] [--name NAME]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: profile.sh OUTFILE [recipe-profile options]}
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O3 -std=c++17 -arch="${ARCH:-sm_90}" -I "$root/library/include" "$root/tools/profiler/recipe_profile.cu" \
    -o "$work/recipe-profile"
"$work/recipe-profile" -o "$out" "$@"
