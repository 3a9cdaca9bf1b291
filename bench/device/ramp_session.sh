#!/usr/bin/env bash
# On a machine with a GPU: does a fresh process's GPU work run at full pace
# from its first launch (bench/kernel/ramp_probe.cu)? PROCESSES fresh
# processes, GAP seconds apart (the GPU idle between them), then one with a
# pause in the middle, while nvidia-smi samples the clocks every 50 ms.
# Writes OUTDIR/ramp.log (the probe's lines per process) and OUTDIR/smi.csv.
# usage: bench/device/ramp_session.sh OUTDIR   (PROCESSES, GAP, N, BATCHES, STEPS)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mkdir -p "${1:?usage: ramp_session.sh OUTDIR}" && cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"; kill "$smi" 2>/dev/null' EXIT
nvcc -O3 -std=c++17 -arch="${ARCH:-sm_90}" "$root/bench/kernel/ramp_probe.cu" -o "$work/ramp" -ldl || exit 1
nvidia-smi --query-gpu=name,driver_version,persistence_mode,pstate,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem \
  --format=csv | tee "$out/ramp.log"
nvidia-smi --query-gpu=timestamp,pstate,clocks.sm,clocks.mem,power.draw --format=csv,noheader -lms 50 >"$out/smi.csv" &
smi=$!
for p in $(seq 1 "${PROCESSES:-5}"); do
  sleep "${GAP:-2}"
  echo "== process $p at $(date +%T.%N)" >>"$out/ramp.log"
  "$work/ramp" "${N:-1300}" "${BATCHES:-20}" "${STEPS:-50}" >>"$out/ramp.log" 2>&1
done
sleep "${GAP:-2}"
echo "== process with a 2000 ms pause at $(date +%T.%N)" >>"$out/ramp.log"
"$work/ramp" "${N:-1300}" "${BATCHES:-20}" "${STEPS:-50}" 2000 >>"$out/ramp.log" 2>&1
sleep 1
