#!/usr/bin/env bash
# On a machine with a GPU: builds exit_cost.cu and runs each mode as fresh
# processes, ROUNDS rounds interleaved, printing the process's wall time
# (from outside) beside what main measured inside.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O2 -std=c++17 -arch="${ARCH:-sm_90}" "$root/bench/device/exit_cost.cu" -o "$work/exit_cost"
for round in $(seq "${ROUNDS:-5}"); do
  for mode in ${MODES:-none start early buffers freed reset reset_tail}; do
    t0=$(date +%s%N)
    line=$("$work/exit_cost" "$mode")
    t1=$(date +%s%N)
    echo "round $round wall_ms $(( (t1 - t0) / 1000000 )) $line"
  done
done
