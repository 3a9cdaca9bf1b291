#!/usr/bin/env bash
# Every figure of docs/results-multi-gpu-KIND.md in one call on a host with
# several GPUs: bench/multi/device.sh (library tests, memcheck, the host's
# figures, the library's scaling; the one-GPU device tests unless
# SKIP_ONE_GPU=1), bench/multi/e2e.sh (whole programs, as advised and on
# every count), then the page, rendered into OUTDIR/page.md, and everything
# in OUTDIR/all.tgz. The programs are advised with the stored profile of
# PLATFORM whose "multiGpu" object is the one this run measured
# (OUTDIR/platforms/PLATFORM.json), so that the model prices this host; with
# ONE_GPU_PROFILE=1 the rest of that profile is measured here too (on GPU 0,
# bench/device/profile.sh, into OUTDIR/one-gpu.json) instead of the stored one.
# usage: bench/multi/session.sh PLATFORM OUTDIR   (RUNS: processes per program, default 3)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
platform=${1:?usage: session.sh PLATFORM OUTDIR}
out=${2:?usage: session.sh PLATFORM OUTDIR}
mkdir -p "$out"
bash "$root/bench/multi/device.sh" "$out" > "$out/device.log" 2>&1
device=$?
mkdir -p "$out/platforms"
base=$root/advisor/platforms/$platform.json
if [ "${ONE_GPU_PROFILE:-0}" = 1 ]; then
  # The one-GPU figures (first calls, staging, the host's CPU) of this host too.
  if CUDA_VISIBLE_DEVICES=0 bash "$root/bench/device/profile.sh" "$out/one-gpu.json" --name "$platform" \
      > "$out/one-gpu-profile.log" 2>&1; then base=$out/one-gpu.json; else echo "FAIL one-GPU profile"; fi
fi
python3 "$root/bench/multi/merge_profile.py" "$base" "$out/multi-gpu.json" "$out/platforms/$platform.json"
RECIPE_PLATFORM_DIR=$out/platforms bash "$root/bench/multi/e2e.sh" "$platform" "$out" > "$out/e2e.log" 2>&1
e2e=$?
python3 "$root/bench/multi/report.py" "$out" > "$out/page.md"
grep -E "PASS|FAIL|SKIP" "$out/device.log" "$out/e2e.log"
tar -czf "$out.tgz" -C "$out" . && mv "$out.tgz" "$out/all.tgz"
exit $(( device || e2e ))
