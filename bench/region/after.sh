#!/usr/bin/env bash
# On a machine with a GPU: does a sample's region depend on what the host
# did just before the program started? Each round runs the sample's .cu
# (recipe advise, the stored profile; RECIPE_REPORT=time) three times, each
# in a fresh process: right after its C program (as bench/region/run.sh and
# bench/e2e alternate them), after IDLE seconds of nothing, and right after
# every core spun for BUSY seconds. Prints each run's region time (ms, CUDA's
# start-up left out) and each mode's median.
# usage: bench/region/after.sh PLATFORM OUTDIR [SAMPLE...]   (RUNS=5, IDLE=3, BUSY=1)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
platform=${1:?usage: after.sh PLATFORM OUTDIR [SAMPLE...]}
out=$(mkdir -p "${2:?usage: after.sh PLATFORM OUTDIR [SAMPLE...]}" && cd "$2" && pwd)
shift 2
samples=("${@:-stencil7}")
runs=${RUNS:-5} idle=${IDLE:-3} busy=${BUSY:-1}
recipe=${RECIPE_BINARY:-$root/build/recipe}
spin() {  # every core busy for $1 seconds
  local n
  for ((n = 0; n < $(nproc); n++)); do timeout "$1" sh -c 'while :; do :; done' & done
  wait
}
for s in "${samples[@]}"; do
  w=$out/$s
  mkdir -p "$w"
  "$recipe" advise "$root/samples/$s.c" --platform "$platform" -o "$w" >"$w/advise.log" 2>&1 || { echo "$s: advise failed"; continue; }
  gcc -O2 "$root/samples/$s.c" -lm -o "$w/c" || continue
  nvcc -O2 -std=c++17 -arch=native --fmad=false -I "$root/library/include" "$w/$s.cu" -o "$w/gpu" || continue
  region=$(sed -n 's/.*recipe_region_config.name = "\(.*\)";/\1/p' "$w/$s.cu" | head -1 | tr ' ' _)
  for ((r = 0; r < runs; r++)); do
    for mode in after-c after-idle after-busy; do
      case $mode in
        after-c) "$w/c" >/dev/null ;;
        after-idle) sleep "$idle" ;;
        after-busy) spin "$busy" ;;
      esac
      RECIPE_REPORT=time "$w/gpu" >"$w/$mode.$r" 2>&1
    done
  done
  for mode in after-c after-idle after-busy; do
    # recipe: time NAME TOTAL STARTUP PREDICTED
    python3 - "$region" "$s" "$mode" "$w/$mode".* <<'PY'
import statistics, sys
name, sample, mode, v, p = sys.argv[1], sys.argv[2], sys.argv[3], [], None
for path in sys.argv[4:]:
    for line in open(path):
        f = line.split()
        if len(f) == 6 and f[:3] == ["recipe:", "time", name]:
            v.append(float(f[3]) - float(f[4]))
            p = float(f[5])
print(f"{sample} {mode}: region ms {' '.join(f'{x:.2f}' for x in sorted(v))}; "
      f"median {statistics.median(v) if v else float('nan'):.2f}; predicted {p if p is not None else float('nan'):.2f}")
PY
  done
done | tee "$out/after.txt"
