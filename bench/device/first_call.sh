#!/usr/bin/env bash
# On a machine with a GPU: where an emitted program's first call spends its
# time. Builds every .cu given (with the nvcc line of the plan.json beside
# it) and runs each RUNS times, one fresh process at a time, with
# RECIPE_REPORT=1 (the measured phases beside the predicted ones); the
# reports go to OUTDIR/<program>.runN.log, all of OUTDIR again in
# OUTDIR/all.tgz.
# usage: bench/device/first_call.sh OUTDIR FILE.cu...
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mkdir -p "${1:?usage: first_call.sh OUTDIR FILE.cu...}" && cd "$1" && pwd)
shift
export RECIPE_INCLUDE=$root/library/include
# Builds at once, then runs one at a time with nothing else running.
build() {
  local dir=$1 name=$2 cmd
  cmd=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["compile_command"])' "$dir/$name.plan.json")
  cmd=${cmd% -o *}
  (cd "$dir" && eval "$cmd" -o "$out/$name" > "$out/$name.build.log" 2>&1) || echo "$name: build failed"
}
for cu in "$@"; do build "$(cd "$(dirname "$cu")" && pwd)" "$(basename "$cu" .cu)" & done
wait
for cu in "$@"; do
  dir=$(cd "$(dirname "$cu")" && pwd)
  name=$(basename "$cu" .cu)
  [ -x "$out/$name" ] || continue
  for ((run = 1; run <= ${RUNS:-5}; run++)); do
    (cd "$dir" && RECIPE_REPORT=1 "$out/$name" \
       > /dev/null 2> "$out/$name.run$run.log")
  done
  echo "$name: $(grep -c . "$out/$name.run1.log") report lines"
done
tar -czf "$out.tgz" -C "$out" --exclude='*.build.log' . && mv "$out.tgz" "$out/all.tgz"
