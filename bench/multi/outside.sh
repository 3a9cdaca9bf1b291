#!/usr/bin/env bash
# On a host with several GPUs: what a whole program pays outside its
# converted calls on 1 GPU and on N. Each program named is built as its C
# program (gcc -O2 -ffp-contract=off) and advised with `--gpus 1` and
# `--gpus N --all-gpus` (built with the recipe's flags, as bench/multi/e2e.sh
# does), then bench/multi/outside.py runs the three in alternation, RUNS
# times, and splits each run at its last converted call and its checksum line.
# usage: bench/multi/outside.sh PLATFORM OUTDIR [N]   (RECIPE_BINARY: default build/recipe;
#        PROGRAMS: "name|source|sizes" lines, default emboss and stencil7 at e2e.sh's sizes)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
platform=${1:?usage: outside.sh PLATFORM OUTDIR [N]}
out=$(mkdir -p "${2:?usage: outside.sh PLATFORM OUTDIR [N]}" && cd "$2" && pwd)
n=${3:-$(nvidia-smi -L | wc -l)}
[ "$n" -gt 1 ] || { echo "outside.sh: needs N > 1 GPUs (got $n)" >&2; exit 2; }
recipe=${RECIPE_BINARY:-$root/build/recipe}
export NCCL_NVLS_ENABLE=0 RECIPE_PLATFORM_DIR=${RECIPE_PLATFORM_DIR:-$root/advisor/platforms}
programs=${PROGRAMS:-"emboss|samples/emboss.c|-DW=16384 -DH=16384
stencil7|samples/stencil7.c|-DNX=512 -DNY=512 -DNZ=256 -DITERATIONS=50"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
while IFS='|' read -r name src sizes; do
  read -r -a defs <<<"$sizes"
  gcc -O2 -std=c99 -ffp-contract=off "${defs[@]}" "$root/$src" -o "$work/$name-c" -lm || { status=1; continue; }
  args=("$name-c:$work/$name-c")
  for v in 1 "${n}a"; do
    all=(); [ "$v" != 1 ] && all=(--all-gpus)
    d=$work/$name-g$v
    if "$recipe" advise "$root/$src" "${defs[@]}" --platform "$platform" --gpus "${v%a}" "${all[@]}" -o "$d" > "$out/$name-g$v.advise.log" 2>&1 &&
       nvcc -O2 -std=c++17 -arch=sm_90 --fmad=false "${defs[@]}" -I"$root/library/include" "$d"/*.cu -o "$d/gpu" > "$out/$name-g$v.nvcc.log" 2>&1; then
      args+=("$name-g$v:$d/gpu")
    else
      echo "FAIL $name --gpus $v: advise or nvcc"; status=1
    fi
  done
  python3 "$root/bench/multi/outside.py" "$out/$name" "${args[@]}" || status=1
done <<<"$programs"
exit $status
