#!/usr/bin/env bash
# On a machine with a GPU: a sample's region with its staging threads set to
# each of THREADS (default "4 8 12 15"), the variants run in alternation one
# fresh process at a time, RUNS times (default 5), RECIPE_REPORT=time: how the
# region's time follows the host threads that pack and unpack its chunks.
# usage: bench/region/threads_probe.sh PLATFORM OUTDIR SAMPLE
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
platform=${1:?usage: threads_probe.sh PLATFORM OUTDIR SAMPLE}
out=$(mkdir -p "${2:?usage: threads_probe.sh PLATFORM OUTDIR SAMPLE}" && cd "$2" && pwd)
name=${3:?usage: threads_probe.sh PLATFORM OUTDIR SAMPLE}
recipe=${RECIPE_BINARY:-$root/build/recipe}
"$recipe" advise "$root/samples/$name.c" --platform "$platform" -o "$out/gen" >"$out/advise.log" 2>&1 || { echo "advise failed"; exit 1; }
for t in ${THREADS:-4 8 12 15}; do
  sed -e '/recipe_region_config\.host_threads = /d' \
    -e "s/^\( *\)\(recipe_region_config\.host = .*\)/\1\2\n\1recipe_region_config.host_threads = $t;/" "$out/gen/$name.cu" >"$out/gen/$name.t$t.cu"
  nvcc -O2 -std=c++17 -arch=native --fmad=false -I "$root/library/include" "$out/gen/$name.t$t.cu" -o "$out/$name.t$t" &
done
wait
for ((r = 1; r <= ${RUNS:-5}; r++)); do
  for t in ${THREADS:-4 8 12 15}; do
    RECIPE_REPORT=time "$out/$name.t$t" >/dev/null 2>"$out/t$t.run$r.log"
  done
done
for t in ${THREADS:-4 8 12 15}; do
  printf '%s threads:' "$t"
  grep -h "recipe: time" "$out"/t"$t".run*.log | awk '{print $3 "=" $4}' | sort | tr '\n' ' '
  echo
done
