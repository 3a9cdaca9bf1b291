#!/usr/bin/env bash
# Whole programs over several GPUs, as a user runs them: each program
# advised with `recipe advise --gpus N` (the advisor picks how many of the N
# to use) and with `--gpus N --all-gpus` (all N, whatever is fastest: the
# model's prediction of each count checked), N = 1, 2, 4, built with the
# recipe's compile command, run
# cold, one process per run, RUNS processes each (median), next to the C
# program (gcc -O2 -ffp-contract=off, run once: its outputs are the
# reference and its time the baseline). Every output file is compared byte
# for byte with the C program's. RECIPE_REPORT=time gives each converted
# call's or region's measured and predicted time.
# usage: bench/multi/e2e.sh PLATFORM OUTDIR      (RECIPE_BINARY: default build/recipe;
#        RECIPE_PLATFORM_DIR: the profiles, default advisor/platforms;
#        ONLY="heat2d stencil7" and VARIANTS="1 2a" run a part)
# Writes OUTDIR/e2e.tsv: program variant gpus_chosen run wall_s converted_ms predicted_ms identical startup_wait_ms
# (converted_ms: the calls' and regions' own times less their wait for CUDA's start-up, startup_wait_ms)
# (variant: 0 the C program, N --gpus N, Na --gpus N --all-gpus)
# and OUTDIR/<program>-gN.plan.json, OUTDIR/<program>-gN.calls.log (every run's
# `recipe: time` lines, each after its run's number), OUTDIR/<program>-gN.phases.log
# (one further run's RECIPE_REPORT=1 phases and start-up timeline); bench/multi/report.py renders the page.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
platform=${1:?usage: e2e.sh PLATFORM OUTDIR}
out=${2:?usage: e2e.sh PLATFORM OUTDIR}
recipe=${RECIPE_BINARY:-$root/build/recipe}
runs=${RUNS:-3}
mkdir -p "$out"
work=$(mktemp -d)
export NCCL_NVLS_ENABLE=0 RECIPE_PLATFORM_DIR=${RECIPE_PLATFORM_DIR:-$root/advisor/platforms}
gpus=$(nvidia-smi -L | wc -l)
# name | source | sizes (C and advise)
programs=(
  "heat2d|samples/heat2d.c|-DW=8192 -DH=8192 -DSTEPS=100"
  "heat2d-16k|samples/heat2d.c|-DW=16384 -DH=16384 -DSTEPS=50"
  "stencil7|samples/stencil7.c|-DNX=512 -DNY=512 -DNZ=256 -DITERATIONS=50"
  "emboss|samples/emboss.c|-DW=16384 -DH=16384"
)
printf "program\tvariant\tgpus_chosen\trun\twall_s\tconverted_ms\tpredicted_ms\tidentical\tstartup_wait_ms\n" > "$out/e2e.tsv"
now() { date +%s.%N; }
# Every program advised and built first, all at once (nvcc is slow); then run one at a time.
read -r -a variants <<<"${VARIANTS:-1 2a 4a 4}"  # VARIANTS / ONLY (program names): a part of the run
if [ -n "${ONLY:-}" ]; then
  kept=()
  for spec in "${programs[@]}"; do [[ " $ONLY " == *" ${spec%%|*} "* ]] && kept+=("$spec"); done
  programs=("${kept[@]}")
fi
build() {  # name src variant defs...
  local name=$1 src=$2 v=$3; shift 3
  local dir=$work/$name-g$v
  local all=(); [ "${v%a}" != "$v" ] && all=(--all-gpus)
  mkdir -p "$dir"
  "$recipe" advise "$root/$src" "$@" --platform "$platform" --gpus "${v%a}" "${all[@]}" -o "$dir" > "$dir/advise.log" 2>&1 || return
  local cu; cu=$(ls "$dir"/*.cu 2>/dev/null | head -1)
  [ -n "$cu" ] || return
  nvcc -O2 -std=c++17 -arch=sm_90 --fmad=false "$@" -I"$root/library/include" "$cu" -o "$dir/gpu" > "$dir/nvcc.log" 2>&1
}
for spec in "${programs[@]}"; do
  IFS='|' read -r name src sizes <<<"$spec"
  read -r -a defs <<<"$sizes"
  gcc -O2 -std=c99 -ffp-contract=off "${defs[@]}" "$root/$src" -o "$work/$name-c" -lm &
  for v in "${variants[@]}"; do [ "${v%a}" -le "$gpus" ] && build "$name" "$src" "$v" "${defs[@]}" & done
done
wait
for spec in "${programs[@]}"; do
  IFS='|' read -r name src sizes <<<"$spec"
  t0=$(now); "$work/$name-c" "$work/$name-c.bin" > /dev/null; t1=$(now)
  printf "%s\t0\t0\t1\t%.3f\t-\t-\tyes\n" "$name" "$(awk "BEGIN{print $t1 - $t0}")" >> "$out/e2e.tsv"
  for v in "${variants[@]}"; do
    n=${v%a}
    [ "$n" -le "$gpus" ] || continue
    dir=$work/$name-g$v
    if ! ls "$dir"/*.plan.json > /dev/null 2>&1; then
      echo "FAIL $name variant $v: advise"; tail -3 "$dir/advise.log"; continue
    fi
    cp "$dir"/*.plan.json "$out/$name-g$v.plan.json"
    cp "$dir"/*.recipe.md "$out/$name-g$v.recipe.md" 2>/dev/null
    cu=$(ls "$dir"/*.cu 2>/dev/null | head -1)
    if [ -z "$cu" ]; then echo "SKIP $name variant $v: kept on the CPU (no .cu)"; continue; fi
    [ -x "$dir/gpu" ] || { echo "FAIL $name variant $v: nvcc"; tail -3 "$dir/nvcc.log"; continue; }
    chosen=$(grep -o 'cfg.devices = [0-9]*\|_config.devices = [0-9]*' "$cu" | grep -o '[0-9]*$' | sort -n | tail -1)
    chosen=${chosen:-1}
    # The advisor's own choice on one GPU is the --gpus 1 program, run already.
    if [ "$v" = "$n" ] && [ "$n" != 1 ] && [ "$chosen" = 1 ]; then
      printf "%s\t%s\t1\t0\t-\t-\t-\tsame as --gpus 1\n" "$name" "$v" >> "$out/e2e.tsv"; continue
    fi
    for r in $(seq 1 "$runs"); do
      rm -f "$dir/gpu.bin"
      t0=$(now); RECIPE_REPORT=time "$dir/gpu" "$dir/gpu.bin" > /dev/null 2> "$dir/run$r.log"; rc=$?; t1=$(now)
      same=no; cmp -s "$work/$name-c.bin" "$dir/gpu.bin" && same=yes
      [ $rc -eq 0 ] || { same="failed(rc=$rc)"; tail -3 "$dir/run$r.log"; }
      conv=$(awk '/^recipe: time /{m+=$4-$5} END{printf "%.3f", m}' "$dir/run$r.log")
      wait_ms=$(awk '/^recipe: time /{w+=$5} END{printf "%.3f", w}' "$dir/run$r.log")
      pred=$(awk '/^recipe: time /{p+=$6} END{printf "%.3f", p}' "$dir/run$r.log")
      [ "$r" = 1 ] && cp "$dir/run1.log" "$out/$name-g$v.run1.log"
      grep '^recipe: time ' "$dir/run$r.log" | sed "s/^/$r /" >> "$out/$name-g$v.calls.log"
      printf "%s\t%s\t%d\t%d\t%.3f\t%s\t%s\t%s\t%s\n" "$name" "$v" "$chosen" "$r" "$(awk "BEGIN{print $t1 - $t0}")" "$conv" "$pred" "$same" "$wait_ms" >> "$out/e2e.tsv"
    done
    # One more run for its phases beside the predicted ones and the start-up
    # thread's timeline (RECIPE_REPORT=1 times with events: not a timed run).
    RECIPE_REPORT=1 "$dir/gpu" "$dir/gpu.bin" > /dev/null 2> "$out/$name-g$v.phases.log"
  done
done
cat "$out/e2e.tsv"
