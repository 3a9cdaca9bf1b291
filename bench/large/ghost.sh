#!/usr/bin/env bash
# On a machine with a GPU: samples/diffuse1d.c (a time loop of 1-D binomial
# smoothing, PolyBench's jacobi-1d form) over more data than the plan may keep
# on the GPU. `recipe advise -D N=... -D STEPS=... --gpu-memory SIZE` plans the
# loop with ghost zones (advisor/ghost_zones.h: k steps a pass, tiles of
# elements plus the rows the k steps read beyond them). The .cu (the arrays
# malloc'd, so staged) is built, run once cold with RECIPE_REPORT=1 (the
# region's measured phases beside the model's), and its output compared byte
# for byte with the C program's (gcc -O2 -ffp-contract=off). --convert-all:
# the conversion is under test.
# usage: bench/large/ghost.sh PLATFORM OUTDIR   (N: elements, default 3 Gi = 12 GiB per array;
#        STEPS: default 4; GPU_MEMORY: the budget, default 4GiB; RECIPE_BINARY: a built recipe)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
platform=${1:?usage: ghost.sh PLATFORM OUTDIR}
out=$(mkdir -p "${2:?usage: ghost.sh PLATFORM OUTDIR}" && cd "$2" && pwd)
recipe=${RECIPE_BINARY:-$root/build/recipe}
n=${N:-3221225472}
steps=${STEPS:-4}
budget=${GPU_MEMORY:-4GiB}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export RECIPE_PLATFORM_DIR=${RECIPE_PLATFORM_DIR:-$root/advisor/platforms}
src=$root/samples/diffuse1d.c
defs=(-DN="${n}L" -DSTEPS="$steps")
{
  echo "# diffuse1d, N=$n floats ($(( n * 4 / 1073741824 )) GiB per array), STEPS=$steps, --gpu-memory $budget, platform $platform, $(date -u '+%Y-%m-%d %H:%M UTC')"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
} | tee "$out/ghost.md"
gcc -O2 -std=c99 -ffp-contract=off "${defs[@]}" "$src" -o "$work/c" || exit 1
"$recipe" advise "$src" "${defs[@]}" --gpu-memory "$budget" --platform "$platform" --convert-all -o "$work/advice" \
  >"$out/advise.log" 2>&1 || { echo "advise failed"; cat "$out/advise.log"; exit 1; }
cp "$work/advice/diffuse1d.cu" "$work/advice/diffuse1d.recipe.md" "$work/advice/diffuse1d.plan.json" "$out/"
grep -m1 "time loop" "$out/advise.log" | tee -a "$out/ghost.md"
grep -E "ghost_launches|ghost_tile_rows" "$out/diffuse1d.cu" | sed 's/^ *//' | tee -a "$out/ghost.md"
nvcc -O2 -std=c++17 -arch="${ARCH:-native}" --fmad=false -I "$root/library/include" "${defs[@]}" \
  "$work/advice/diffuse1d.cu" -o "$work/gpu" || exit 1
t0=$(date +%s.%N); "$work/c" "$work/c.bin" >"$out/c.out"; t1=$(date +%s.%N)
echo "C program: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s, $(cat "$out/c.out")" | tee -a "$out/ghost.md"
t0=$(date +%s.%N); RECIPE_REPORT=1 "$work/gpu" "$work/gpu.bin" >"$out/gpu.out" 2>"$out/gpu.report"; rc=$?; t1=$(date +%s.%N)
echo ".cu program: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s (exit $rc), $(cat "$out/gpu.out")" | tee -a "$out/ghost.md"
if cmp -s "$work/c.bin" "$work/gpu.bin"; then
  echo "outputs: identical ($(stat -c %s "$work/c.bin") bytes)" | tee -a "$out/ghost.md"
else
  echo "outputs: DIFFER ($(cmp "$work/c.bin" "$work/gpu.bin" 2>&1 | head -1))" | tee -a "$out/ghost.md"; rc=1
fi
cat "$out/gpu.report" >> "$out/ghost.md"
exit $rc
