#!/usr/bin/env bash
# How much `--measure-host` moves from one run to the next on this host:
# ROUNDS rounds, each running every recipe binary given once in turn
# (`recipe advise samples/heat2d.c --measure-host`), one line per run:
# `round R binary B gflops G math_call_ns M stream_gbs S first_touch_gbs F`.
# Two binaries (an earlier build and this one) compare two ways of
# measuring, alternated so that both see the host's same moments.
# usage: bench/device/host_noise.sh ROUNDS RECIPE_BINARY...
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
rounds=${1:?usage: host_noise.sh ROUNDS RECIPE_BINARY...}
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for r in $(seq 1 "$rounds"); do
  for b in "$@"; do
    rm -rf "$work/o" "$work/cache"
    # A record of its own each run: this run's reading, not the best of the earlier ones.
    RECIPE_CACHE_DIR=$work/cache "$b" advise "$root/samples/heat2d.c" --platform h200 --measure-host -o "$work/o" > /dev/null 2>&1 || { echo "round $r binary $b: advise failed"; continue; }
    python3 - "$work/o/heat2d.plan.json" "$r" "$b" <<'PY'
import json, sys
h = json.load(open(sys.argv[1]))["host_measured"]
print(f"round {sys.argv[2]} binary {sys.argv[3]} gflops {h['gflops']:.2f} math_call_ns {h['math_call_ns']:.2f} "
      f"stream_gbs {h['stream_gbs']:.2f} first_touch_gbs {h['first_touch_gbs']:.2f}")
PY
  done
done
