#!/usr/bin/env bash
# On a machine with a GPU: the same emitted programs built against two
# copies of the library (this tree's and OLD_INCLUDE, e.g. an earlier
# commit's library/include) and run in alternation, one fresh process at a
# time, RUNS times each (5), with RECIPE_REPORT=1: what a library change did
# to each call, phase by phase, measured against itself on the same machine.
# With OLD_EDIT (a sed script), the old variant is built from a copy of each
# .cu edited by it (e.g. 's/^ *cfg.host_threads = .*//': the library's
# default staging threads against the plan's), against OLD_INCLUDE still.
# Logs go to OUTDIR/<program>.<old|new>.runN.log, the medians of every call's
# phases to OUTDIR/summary.md (bench/device/ab_summary.py).
# usage: bench/device/ab_first_call.sh OUTDIR OLD_INCLUDE FILE.cu...
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mkdir -p "${1:?usage: ab_first_call.sh OUTDIR OLD_INCLUDE FILE.cu...}" && cd "$1" && pwd)
old=$(cd "${2:?usage: ab_first_call.sh OUTDIR OLD_INCLUDE FILE.cu...}" && pwd)
shift 2
# The nvcc line of the plan.json beside each .cu, against one library copy.
build() {
  local dir=$1 name=$2 include=$3 variant=$4 cmd
  cmd=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["compile_command"])' "$dir/$name.plan.json")
  cmd=${cmd% -o *}
  (cd "$dir" && RECIPE_INCLUDE=$include eval "$cmd" -o "$out/$name.$variant" > "$out/$name.$variant.build.log" 2>&1) ||
    echo "$name ($variant): build failed"
}
for cu in "$@"; do
  dir=$(cd "$(dirname "$cu")" && pwd)
  name=$(basename "$cu" .cu)
  build "$dir" "$name" "$root/library/include" new &
  if [ -n "${OLD_EDIT:-}" ]; then
    mkdir -p "$out/old-src/$name"
    sed "$OLD_EDIT" "$cu" > "$out/old-src/$name/$name.cu"
    cp "$dir/$name.plan.json" "$out/old-src/$name/"
    build "$out/old-src/$name" "$name" "$old" old &
  else
    build "$dir" "$name" "$old" old &
  fi
done
wait
for ((run = 1; run <= ${RUNS:-5}; run++)); do
  for cu in "$@"; do
    dir=$(cd "$(dirname "$cu")" && pwd)
    name=$(basename "$cu" .cu)
    for variant in old new; do
      [ -x "$out/$name.$variant" ] || continue
      (cd "$dir" && RECIPE_REPORT=1 "$out/$name.$variant" > /dev/null 2> "$out/$name.$variant.run$run.log")
    done
  done
done
python3 "$root/bench/device/ab_summary.py" "$out" > "$out/summary.md"
cat "$out/summary.md"
