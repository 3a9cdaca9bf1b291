#!/usr/bin/env bash
# On a machine with a GPU: what an emitted program pays outside its converted
# region. For each sample named: the C program (gcc -O2), its --convert-all
# .cu as emitted (CUDA started on a thread of its own before main,
# recipe::EarlyStart), and the same .cu without that line (CUDA started by
# the first call), each run RUNS times in alternation, one fresh process at
# a time, under /usr/bin/time: wall, user and system seconds, minor page
# faults, involuntary context switches; the .cu runs with RECIPE_REPORT=1
# (their start-up and phase lines kept in OUTDIR/<name>.<variant>.runN.log).
# Prints one line per run and the medians per variant.
# usage: bench/device/outside_region.sh PLATFORM OUTDIR SAMPLE...
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
platform=${1:?usage: outside_region.sh PLATFORM OUTDIR SAMPLE...}
out=$(mkdir -p "${2:?usage: outside_region.sh PLATFORM OUTDIR SAMPLE...}" && cd "$2" && pwd)
shift 2
recipe=${RECIPE_BINARY:-$root/build/recipe}
export RECIPE_INCLUDE=$root/library/include
for name in "$@"; do
  d=$out/$name
  "$recipe" advise "$root/samples/$name.c" --platform "$platform" --convert-all -o "$d" > "$d.advise.log" 2>&1 || { echo "$name: advise failed"; continue; }
  gcc -O2 "$root/samples/$name.c" -o "$d/c" -lm
  cmd=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["compile_command"])' "$d/$name.plan.json")
  cmd=${cmd% -o *}
  sed '/^static recipe::EarlyStart /d' "$d/$name.cu" > "$d/${name}_late.cu"
  (cd "$d" && eval "$cmd" -o "$d/cu" && eval "${cmd/$name.cu/${name}_late.cu}" -o "$d/late") > "$d.build.log" 2>&1 || { echo "$name: build failed"; tail -5 "$d.build.log"; continue; }
  for ((run = 1; run <= ${RUNS:-5}; run++)); do
    for v in c cu late; do
      (cd "$d" && RECIPE_REPORT=1 /usr/bin/time -f "%e %U %S %R %c" -o "$d/$v.time" "./$v" > /dev/null 2> "$out/$name.$v.run$run.log")
      echo "$name $v run $run: $(tail -1 "$d/$v.time")" | tee -a "$out/runs.txt"
    done
  done
done
python3 - "$out/runs.txt" <<'PY'
import statistics, sys
from collections import defaultdict
runs = defaultdict(list)
for line in open(sys.argv[1]):
    head, vals = line.split(":", 1)
    name, v = head.split()[:2]
    runs[(name, v)].append([float(x) for x in vals.split()])
print("program variant: median wall s, user s, sys s, minor faults, involuntary switches")
for (name, v), rs in runs.items():
    print(name, v, " ".join(f"{statistics.median(col):.3f}" for col in zip(*rs)))
PY
tar -czf "$out.tgz" -C "$out" --exclude='c' --exclude='cu' --exclude='late' . && mv "$out.tgz" "$out/all.tgz"
