#!/usr/bin/env bash
# On a GPU machine's host: RUNS readings of this host's CPU figures, as
# `recipe advise --measure-host` takes them (advisor/host_cpu.h), kept in a
# host record of their own (OUTDIR/cache, advisor/host_record.h), with the
# GPU and CPU named in OUTDIR/device.txt. bench/host/profile_host_figures.py
# writes one of the readings into a stored profile.
# usage: bench/device/host_figures.sh PLATFORM OUTDIR    (RUNS, default 10)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
platform=${1:?usage: host_figures.sh PLATFORM OUTDIR}
out=$(mkdir -p "${2:?usage: host_figures.sh PLATFORM OUTDIR}" && cd "$2" && pwd)
export RECIPE_CACHE_DIR=$out/cache
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/device.txt"
lscpu | grep "Model name" >> "$out/device.txt"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for i in $(seq 1 "${RUNS:-10}"); do
  "${RECIPE_BINARY:-$root/build/recipe}" advise "$root/samples/emboss.c" --platform "$platform" --measure-host \
      -o "$work/$i" > /dev/null
done
ls "$out"/cache/host-*.json
