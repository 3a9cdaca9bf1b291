#!/usr/bin/env bash
# How much a region's time moves from one process to the next, and where:
# each program bench/region/generate.sh made (GENDIR/NAME/*.cu) built as the
# region benchmark builds it, then run PROCESSES times, one process per run,
# with RECIPE_REPORT=1 (every phase of every region, measured beside the
# model), each run's host CPU time split read from /proc/stat before and
# after (user, system, idle, steal: was the host busy elsewhere?).
# Writes OUTDIR/NAME.RUN.out (the report) and OUTDIR/summary.txt: per run,
# each region's measured and predicted totals and the phases that moved.
# usage: bench/device/region_noise.sh GENDIR OUTDIR NAME...   (POLYBENCH, PROCESSES)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
gen=$(cd "${1:?usage: region_noise.sh GENDIR OUTDIR NAME...}" && pwd)
out=$(mkdir -p "${2:?usage: region_noise.sh GENDIR OUTDIR NAME...}" && cd "$2" && pwd)
shift 2
pb=$(cd "${POLYBENCH:-$root/../shared/corpus/polybench-c-4.2.1}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build() {  # NAME: a PolyBench kernel's NAME-SIZE, or a sample
  local name=$1 cu flags="" poly=""
  cu=$(ls "$gen/$name"/*.cu)
  if [[ "$name" =~ ^(.*)-(LARGE|EXTRALARGE)$ ]]; then
    local k=${BASH_REMATCH[1]} size=${BASH_REMATCH[2]}
    flags="-I $pb/utilities -I $pb/stencils/$k -D${size}_DATASET -DPOLYBENCH_TIME"
    gcc -O2 -c $flags "$pb/utilities/polybench.c" -o "$work/$name.o" || return 1
    poly="$work/$name.o"
  fi
  # shellcheck disable=SC2086
  nvcc -O2 -std=c++17 -arch="${ARCH:-native}" --fmad=false -I "$root/library/include" $flags "$cu" $poly \
    -o "$work/$name" >"$out/$name.build.log" 2>&1
}
for n in "$@"; do build "$n" & done
wait
cpu() { awk '/^cpu /{print $2+$3, $4, $5, $9}' /proc/stat; }
for r in $(seq 1 "${PROCESSES:-8}"); do
  for n in "$@"; do
    [ -x "$work/$n" ] || { echo "$n: build failed" >>"$out/summary.txt"; continue; }
    before=$(cpu)
    RECIPE_REPORT=1 "$work/$n" >"$out/$n.$r.out" 2>&1
    after=$(cpu)
    echo "== $n run $r cpu(user system idle steal jiffies) before $before after $after" >>"$out/summary.txt"
    grep -E "^recipe: [^ ]+ \(|^recipe:   (total|kernel|h2d|d2h|staging|pages|alloc|startup) " "$out/$n.$r.out" >>"$out/summary.txt"
  done
done
