#!/usr/bin/env bash
# Times `recipe advise` on every sample in samples/ (analysis, the search over
# schemes and tiles, rendering the recipe, the .cu, the plan and the pictures,
# writing them): the median wall time of RUNS runs per sample, with the median
# CPU time beside it, against the target of under 100 ms per sample.
#
#   bench/advise_bench.sh [RECIPE-BINARY] [-- EXTRA-ADVISE-ARGS...]
#
# RECIPE-BINARY defaults to build/recipe. Environment: RUNS (7), PLATFORM
# (h200), TIME_BIN (/usr/bin/time, GNU time; without it bash's `time`, and no
# peak memory). Exit status 1 when a sample
# misses the target or advise fails (exit 2 or 3), 0 otherwise.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
recipe=${1:-$root/build/recipe}
[ $# -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift
runs=${RUNS:-7}
platform=${PLATFORM:-h200}
target_ms=100
time_bin=${TIME_BIN:-/usr/bin/time}

if [ ! -x "$recipe" ]; then
  echo "advise_bench: no recipe binary at $recipe (build it, or pass its path)" >&2
  exit 2
fi
# Without GNU time, bash's own `time` measures wall and CPU (no peak memory).
gnu_time=1
[ -x "$time_bin" ] || gnu_time=0

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

printf '%-16s %10s %10s %8s  %s\n' sample "wall ms" "cpu ms" "peak MB" "(median of $runs runs, platform $platform)"
failed=0
for src in "$root"/samples/*.c; do
  name=$(basename "$src" .c)
  : > "$work/$name.times"
  for ((i = 0; i < runs; i++)); do
    rm -rf "$work/out"
    set +e
    if [ $gnu_time = 1 ]; then
      "$time_bin" -f '%e %U %S %M' -o "$work/time.txt" "$recipe" advise "$src" --platform "$platform" -o "$work/out" "$@" \
        > /dev/null 2> "$work/stderr.txt"
      rc=$?
    else
      TIMEFORMAT='%R %U %S 0'
      { time "$recipe" advise "$src" --platform "$platform" -o "$work/out" "$@" > /dev/null 2> "$work/stderr.txt"; } 2> "$work/time.txt"
      rc=$?
    fi
    set -e
    if [ $rc -ge 2 ]; then
      echo "advise_bench: $name: recipe advise exited $rc:" >&2
      tail -3 "$work/stderr.txt" >&2
      failed=1
      continue 2
    fi
    tail -1 "$work/time.txt" >> "$work/$name.times"
  done
  wall=$(awk '{ print $1 * 1000 }' "$work/$name.times" | median)
  cpu=$(awk '{ print ($2 + $3) * 1000 }' "$work/$name.times" | median)
  peak=$(awk '{ print $4 / 1024 }' "$work/$name.times" | sort -n | tail -1)
  verdict=ok
  if awk -v w="$wall" -v t="$target_ms" 'BEGIN { exit !(w >= t) }'; then verdict="MISSED (target < $target_ms ms)"; failed=1; fi
  printf '%-16s %10.0f %10.0f %8.1f  %s\n' "$name" "$wall" "$cpu" "$peak" "$verdict"
done
exit $failed
