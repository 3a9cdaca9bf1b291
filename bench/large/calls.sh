#!/usr/bin/env bash
# On a machine with a GPU: what a staged call over arrays larger than the
# plan's device memory pays in its first run against its later ones.
# samples/blur1d.c (a fill of `in` in main, then a blur into `out`) is planned
# at each size with `--gpu-memory SIZE` (the scalable scheme) and every
# library call of the .cu is made REPEAT times in a row (the first run finds
# its output's pages fresh, the later ones warm; each nest writes the same
# bytes every time). The .cu runs with RECIPE_REPORT=1, PROCESSES times, each
# after the C program (gcc -O2) has run at that size, as a user's would have:
# the host's memory is then in use as the program finds it (the first process
# to touch memory on a freshly started virtual machine paid 3.3 GB/s where
# the same host then paid 18). The table gives each run's measured total
# (CUDA's start-up left out), its staging and the part of that which made the
# output's pages present, beside the model's (a first run's prediction is
# Predicted::first); the program's checksum line is compared with the C
# program's. HOST=pinned plans with --host-memory pinned and allocates the
# .cu's two arrays with cudaMallocHost, as that option says they are.
# usage: bench/large/calls.sh PLATFORM OUTDIR   (HOST: staged (default) or pinned; SIZES: elements per array, default
#        "3221225472 1073741824 268435456" = 12, 4 and 1 GiB; REPEAT: runs of each call, default 3;
#        PROCESSES: default 2; GPU_MEMORY: the budget, default 4GiB; RECIPE_BINARY: a built recipe)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
platform=${1:?usage: calls.sh PLATFORM OUTDIR}
out=$(mkdir -p "${2:?usage: calls.sh PLATFORM OUTDIR}" && cd "$2" && pwd)
recipe=${RECIPE_BINARY:-$root/build/recipe}
sizes=${SIZES:-3221225472 1073741824 268435456}
repeat=${REPEAT:-3}
processes=${PROCESSES:-2}
budget=${GPU_MEMORY:-4GiB}
host=${HOST:-staged}
host_flags=()
case $host in
  staged) ;;
  pinned) host_flags=(--host-memory pinned) ;;
  *) echo "HOST must be staged or pinned"; exit 2 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export RECIPE_PLATFORM_DIR=${RECIPE_PLATFORM_DIR:-$root/advisor/platforms}
src=$root/samples/blur1d.c
{
  echo "# blur1d's calls, first run and later runs, $host host arrays, --gpu-memory $budget, platform $platform, $(date -u '+%Y-%m-%d %H:%M UTC')"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  echo
  echo "| floats per array | process | call | run | measured ms | predicted ms | error | staging measured / predicted ms | of it, pages ms | h2d / d2h measured ms |"
  echo "|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|"
} >>"$out/calls.md"
rc=0
for n in $sizes; do
  "$recipe" advise "$src" -D N="${n}L" --gpu-memory "$budget" --platform "$platform" "${host_flags[@]}" --convert-all -o "$work/a$n" \
    >"$work/advise-$n.log" 2>&1 || { echo "advise failed (N=$n)"; cat "$work/advise-$n.log"; exit 1; }
  # Every recipe::run(...) statement made REPEAT times.
  sed "s/^\( *\)recipe::run(cfg,/\1for (int repeat_ = 0; repeat_ < $repeat; ++repeat_) recipe::run(cfg,/" \
    "$work/a$n/blur1d.cu" >"$work/calls-$n.cu"
  grep -q "repeat_ < $repeat" "$work/calls-$n.cu" || { echo "no recipe::run call to repeat in blur1d.cu"; exit 1; }
  if [ "$host" = pinned ]; then
    sed -i -e 's/(float \*)malloc(\(.*\));$/(float *)pinned_malloc_(\1);/' -e 's/^\( *\)free(\(in\|out\));/\1cudaFreeHost(\2);/' \
      -e '/^#include <stdlib.h>/a static void *pinned_malloc_(size_t n) { void *p = nullptr; return cudaMallocHost(\&p, n) == cudaSuccess ? p : nullptr; }' \
      "$work/calls-$n.cu"
    [ "$(grep -c 'pinned_malloc_(\|cudaFreeHost(' "$work/calls-$n.cu")" = 5 ] || { echo "blur1d.cu's arrays not made page-locked"; exit 1; }
  fi
  nvcc -O3 -std=c++17 -arch="${ARCH:-native}" --fmad=false -I "$root/library/include" -DN="${n}L" \
    "$work/calls-$n.cu" -o "$work/gpu-$n" || exit 1
  gcc -O2 -DN="${n}L" "$src" -o "$work/c-$n" || exit 1
  for p in $(seq 1 "$processes"); do
    "$work/c-$n" >"$work/c.out" || { echo "N=$n: the C program failed"; exit 1; }
    sync
    if ! RECIPE_REPORT=1 "$work/gpu-$n" >"$work/gpu.out" 2>"$out/report-$host-$n-$p.txt"; then
      echo "N=$n: the program failed"; tail -5 "$out/report-$host-$n-$p.txt"; rc=1; continue
    fi
    cmp -s "$work/c.out" "$work/gpu.out" || { echo "N=$n: checksums differ: $(cat "$work/c.out") / $(cat "$work/gpu.out")"; rc=1; }
    python3 "$root/bench/large/calls_table.py" "$n" "$p" "$out/report-$host-$n-$p.txt" >>"$out/calls.md" || rc=1
  done
done
cat "$out/calls.md"
exit $rc
