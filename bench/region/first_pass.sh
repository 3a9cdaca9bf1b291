#!/usr/bin/env bash
# On a machine with a GPU: first_pass_probe.cu (a program's single passes of
# a staged region against the profile's region figures, chunks of CHUNK_MiB
# (default 8) over STREAMS (default 4)), then each SAMPLE's region traced
# (RECIPE_TRACE=1, RECIPE_REPORT=time), RUNS (default 3) fresh processes.
# usage: bench/region/first_pass.sh PLATFORM OUTDIR [SAMPLE...]
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
platform=${1:?usage: first_pass.sh PLATFORM OUTDIR [SAMPLE...]}
out=$(mkdir -p "${2:?usage: first_pass.sh PLATFORM OUTDIR [SAMPLE...]}" && cd "$2" && pwd)
shift 2
source "$root/bench/region/advise_samples.sh"
advise_samples "$platform" "$out" "$@"
nvcc -O2 -std=c++17 -arch=native -I "$root/library/include" "$root/bench/region/first_pass_probe.cu" -o "$out/first_pass_probe" &
for cu in "${cus[@]}"; do
  nvcc -O2 -std=c++17 -arch=native --fmad=false -I "$root/library/include" "$cu" -o "${cu%.cu}" &
done
wait
"$out/first_pass_probe" "${CHUNK_MiB:-8}" "${STREAMS:-4}" "${REPS:-3}" >"$out/probe.txt" 2>&1
for cu in "${cus[@]}"; do
  name=$(basename "${cu%.cu}")
  mkdir -p "$out/run.$name"
  for ((r = 1; r <= ${RUNS:-3}; r++)); do
    (cd "$out/run.$name" && RECIPE_TRACE=1 RECIPE_REPORT=time "${cu%.cu}" >/dev/null 2>"$out/$name.trace$r.log")
  done
done
grep -h "^fit\|^steady" "$out/probe.txt"
