#!/usr/bin/env bash
# On a machine with a GPU, in one call: the region benchmark's programs made
# (bench/region/generate.sh, with this GPU's stored profile) and measured
# (bench/region/run.sh). Writes OUTDIR/region.md and OUTDIR/raw.tgz.
# usage: bench/region/device.sh PLATFORM OUTDIR   (POLYBENCH: the corpus; RUNS, ONLY)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
platform=${1:?usage: device.sh PLATFORM OUTDIR}
out=$(mkdir -p "${2:?usage: device.sh PLATFORM OUTDIR}" && cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
RECIPE_PLATFORM_DIR=${RECIPE_PLATFORM_DIR:-$root/advisor/platforms} "$root/bench/region/generate.sh" "$work/gen" "$platform" >"$work/generate.log" 2>&1 ||
  { tail -20 "$work/generate.log"; exit 1; }
"$root/bench/region/run.sh" "$work/gen" "$out"
(cd "$out" && tar -czf raw.tgz --exclude='*-dump' --exclude='*-time' --exclude='*.o' --exclude=copy_floor --exclude=staged_floor raw && rm -rf raw)
