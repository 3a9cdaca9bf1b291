#!/usr/bin/env bash
# On a machine with a GPU: how a sample's region varies from one fresh
# process to the next. Each sample's .cu (recipe advise, the stored profile)
# runs RUNS times with RECIPE_REPORT=1, and each run's region phases are
# tabulated beside the staged floor (bench/region/staged_floor.cu) of the
# same bytes, measured between the runs; the host's NUMA layout and
# transparent huge page settings are recorded with them.
# Writes OUTDIR/spread.md and OUTDIR/logs/.
# usage: bench/region/spread.sh PLATFORM OUTDIR [SAMPLE...]   (RUNS, default 8)
#   SAMPLE: a name in samples/ (default stencil7) or a path to a .c file
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
platform=${1:?usage: spread.sh PLATFORM OUTDIR [SAMPLE...]}
out=$(mkdir -p "${2:?usage: spread.sh PLATFORM OUTDIR [SAMPLE...]}" && cd "$2" && pwd)
shift 2
samples=("${@:-stencil7}")
runs=${RUNS:-8}
recipe=${RECIPE_BINARY:-$root/build/recipe}
logs=$out/logs
mkdir -p "$logs"
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  lscpu | grep -E "^(Model name|Socket|NUMA node)"
  echo "THP: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null) defrag: $(cat /sys/kernel/mm/transparent_hugepage/defrag 2>/dev/null)"
} >"$logs/host.txt" 2>&1
nvcc -O2 -arch=native -Xcompiler -fopenmp "$root/bench/region/staged_floor.cu" -o "$logs/staged_floor" || exit 1
names=()
for c in "${samples[@]}"; do
  [ -f "$c" ] || c=$root/samples/$c.c
  s=$(basename "$c" .c)
  names+=("$s")
  "$recipe" advise "$c" --platform "$platform" -o "$logs/$s" >"$logs/$s.advise.log" 2>&1 || { echo "$s: advise failed"; continue; }
  nvcc -O2 -std=c++17 -arch=native --fmad=false -I "$root/library/include" "$logs/$s/$s.cu" -o "$logs/$s/gpu" || continue
  region=$(sed -n 's/.*recipe_region_config.name = "\(.*\)";/\1/p' "$logs/$s/$s.cu" | head -1)
  echo "$region" >"$logs/$s/region-name"
  for ((r = 0; r < runs; r++)); do
    RECIPE_REPORT=1 "$logs/$s/gpu" >"$logs/$s/run.$r" 2>&1
    # The region's bytes, from its copies line; the floor between runs.
    bytes=$(awk -v n="recipe: $region:" 'index($0, n) == 1 {on = 1} on && /copies:/ {gsub(/[()]/, ""); print $5, $9; exit}' "$logs/$s/run.$r")
    [ -n "$bytes" ] && "$logs/staged_floor" $bytes >"$logs/$s/floor.$r"
  done
done
python3 "$root/bench/region/spread.py" "$logs" "${names[@]}" >"$out/spread.md"
cat "$out/spread.md"
