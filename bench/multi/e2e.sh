#!/usr/bin/env bash
# Whole programs over several GPUs, as a user runs them: each program
# advised with `recipe advise --gpus N` for N = 1, 2, 4 (the advisor picks
# how many of the N to use), built with the recipe's compile command, run
# cold, one process per run, RUNS processes each (median), next to the C
# program (gcc -O2 -ffp-contract=off, run once: its outputs are the
# reference and its time the baseline). Every output file is compared byte
# for byte with the C program's. RECIPE_REPORT=time gives each converted
# call's or region's measured and predicted time.
# usage: bench/multi/e2e.sh PLATFORM OUTDIR      (RECIPE_BINARY: default build/recipe)
# Writes OUTDIR/e2e.tsv: program gpus_asked gpus_chosen run wall_s converted_ms predicted_ms identical
# and OUTDIR/<program>-gN.plan.json; bench/multi/report.py renders the page.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
platform=${1:?usage: e2e.sh PLATFORM OUTDIR}
out=${2:?usage: e2e.sh PLATFORM OUTDIR}
recipe=${RECIPE_BINARY:-$root/build/recipe}
runs=${RUNS:-3}
mkdir -p "$out"
work=$(mktemp -d)
export NCCL_NVLS_ENABLE=0 RECIPE_PLATFORM_DIR=$root/advisor/platforms
gpus=$(nvidia-smi -L | wc -l)
# name | source | sizes (C and advise)
programs=(
  "heat2d|samples/heat2d.c|-DW=8192 -DH=8192 -DSTEPS=100"
  "stencil7|samples/stencil7.c|-DNX=512 -DNY=512 -DNZ=256 -DITERATIONS=50"
  "emboss|samples/emboss.c|-DW=16384 -DH=16384"
)
printf "program\tgpus_asked\tgpus_chosen\trun\twall_s\tconverted_ms\tpredicted_ms\tidentical\n" > "$out/e2e.tsv"
now() { date +%s.%N; }
# Every program advised and built first, all at once (nvcc is slow); then run one at a time.
build() {  # name src n defs...
  local name=$1 src=$2 n=$3; shift 3
  local dir=$work/$name-g$n
  mkdir -p "$dir"
  "$recipe" advise "$root/$src" "$@" --platform "$platform" --gpus "$n" -o "$dir" > "$dir/advise.log" 2>&1 || return
  local cu; cu=$(ls "$dir"/*.cu 2>/dev/null | head -1)
  [ -n "$cu" ] || return
  nvcc -O2 -std=c++17 -arch=sm_90 --fmad=false "$@" -I"$root/library/include" "$cu" -o "$dir/gpu" > "$dir/nvcc.log" 2>&1
}
for spec in "${programs[@]}"; do
  IFS='|' read -r name src sizes <<<"$spec"
  read -r -a defs <<<"$sizes"
  gcc -O2 -std=c99 -ffp-contract=off "${defs[@]}" "$root/$src" -o "$work/$name-c" -lm &
  for n in 1 2 4; do [ "$n" -le "$gpus" ] && build "$name" "$src" "$n" "${defs[@]}" & done
done
wait
for spec in "${programs[@]}"; do
  IFS='|' read -r name src sizes <<<"$spec"
  t0=$(now); "$work/$name-c" "$work/$name-c.bin" > /dev/null; t1=$(now)
  printf "%s\t0\t0\t1\t%.3f\t-\t-\tyes\n" "$name" "$(awk "BEGIN{print $t1 - $t0}")" >> "$out/e2e.tsv"
  for n in 1 2 4; do
    [ "$n" -le "$gpus" ] || continue
    dir=$work/$name-g$n
    if ! ls "$dir"/*.plan.json > /dev/null 2>&1; then
      echo "FAIL $name --gpus $n: advise"; tail -3 "$dir/advise.log"; continue
    fi
    cp "$dir"/*.plan.json "$out/$name-g$n.plan.json"
    cp "$dir"/*.recipe.md "$out/$name-g$n.recipe.md" 2>/dev/null
    cu=$(ls "$dir"/*.cu 2>/dev/null | head -1)
    if [ -z "$cu" ]; then echo "SKIP $name --gpus $n: kept on the CPU (no .cu)"; continue; fi
    [ -x "$dir/gpu" ] || { echo "FAIL $name --gpus $n: nvcc"; tail -3 "$dir/nvcc.log"; continue; }
    chosen=$(grep -o 'cfg.devices = [0-9]*\|_config.devices = [0-9]*' "$cu" | grep -o '[0-9]*$' | sort -n | tail -1)
    chosen=${chosen:-1}
    for r in $(seq 1 "$runs"); do
      rm -f "$dir/gpu.bin"
      t0=$(now); RECIPE_REPORT=time "$dir/gpu" "$dir/gpu.bin" > /dev/null 2> "$dir/run$r.log"; rc=$?; t1=$(now)
      same=no; cmp -s "$work/$name-c.bin" "$dir/gpu.bin" && same=yes
      [ $rc -eq 0 ] || { same="failed(rc=$rc)"; tail -3 "$dir/run$r.log"; }
      conv=$(awk '/^recipe: time /{m+=$4} END{printf "%.3f", m}' "$dir/run$r.log")
      pred=$(awk '/^recipe: time /{p+=$6} END{printf "%.3f", p}' "$dir/run$r.log")
      printf "%s\t%d\t%d\t%d\t%.3f\t%s\t%s\t%s\n" "$name" "$n" "$chosen" "$r" "$(awk "BEGIN{print $t1 - $t0}")" "$conv" "$pred" "$same" >> "$out/e2e.tsv"
    done
  done
done
cat "$out/e2e.tsv"
