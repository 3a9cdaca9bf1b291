#!/usr/bin/env bash
# On a machine with a GPU: samples/blur1d.c over more data than the plan may
# keep on the GPU. `recipe advise -D N=... --gpu-memory SIZE` plans it (naive
# and basic do not fit; a tiled scheme keeps a few tiles there), once for
# the malloc'd arrays as they are (staged) and once with --host-memory
# pinned (the .cu registers them). Each .cu is built, run once cold, and its
# output compared byte for byte with the C program's; RECIPE_REPORT=1 gives
# each library call's measured phases beside the model's (--convert-all: the
# conversion is under test; the summary lines say what the decision was).
# usage: bench/large/run.sh PLATFORM OUTDIR   (N: elements, default 3 Gi = 12 GiB of input;
#        GPU_MEMORY: the budget, default 4GiB; RECIPE_BINARY: a built recipe)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
platform=${1:?usage: run.sh PLATFORM OUTDIR}
out=$(mkdir -p "${2:?usage: run.sh PLATFORM OUTDIR}" && cd "$2" && pwd)
recipe=${RECIPE_BINARY:-$root/build/recipe}
n=${N:-3221225472}
budget=${GPU_MEMORY:-4GiB}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export RECIPE_PLATFORM_DIR=${RECIPE_PLATFORM_DIR:-$root/advisor/platforms}
src=$root/samples/blur1d.c
{
  echo "# blur1d, N=$n floats ($(( n * 4 / 1073741824 )) GiB per array), --gpu-memory $budget, platform $platform"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
} | tee "$out/large.md"
gcc -O2 -DN="${n}L" "$src" -o "$work/c" || exit 1
rc=0
for host in staged pinned; do
  flags=()
  [ "$host" = pinned ] && flags=(--host-memory pinned)
  "$recipe" advise "$src" -D N="${n}L" --gpu-memory "$budget" --platform "$platform" "${flags[@]}" --convert-all -o "$work/$host" \
    >"$out/advise-$host.log" 2>&1 || { echo "advise failed ($host)"; cat "$out/advise-$host.log"; exit 1; }
  cp "$work/$host/blur1d.cu" "$out/blur1d-$host.cu"
  nvcc -O3 -std=c++17 -arch="${ARCH:-native}" --fmad=false -I "$root/library/include" -DN="${n}L" \
    "$work/$host/blur1d.cu" -o "$work/gpu-$host" || exit 1
done
t0=$(date +%s.%N); "$work/c" "$work/c.bin" >"$out/c.out"; t1=$(date +%s.%N)
echo "C program: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s, $(cat "$out/c.out")" | tee -a "$out/large.md"
for host in staged pinned; do
  t0=$(date +%s.%N)
  RECIPE_REPORT=1 "$work/gpu-$host" "$work/gpu.bin" >"$out/gpu-$host.out" 2>"$out/gpu-$host.report"
  status=$?
  t1=$(date +%s.%N)
  if [ $status -ne 0 ]; then echo "$host: GPU program failed ($status)"; tail -5 "$out/gpu-$host.report"; rc=1; continue; fi
  if cmp -s "$work/c.bin" "$work/gpu.bin"; then same="identical"; else same="DIFFERENT"; rc=1; fi
  echo "" | tee -a "$out/large.md"
  echo "## $host: output $same ($(stat -c %s "$work/c.bin") bytes); program $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s" | tee -a "$out/large.md"
  grep -E "^  nest" "$out/advise-$host.log" | tee -a "$out/large.md"
  grep -E "^recipe: " "$out/gpu-$host.report" | tee -a "$out/large.md"
  rm -f "$work/gpu.bin"
done
exit $rc
