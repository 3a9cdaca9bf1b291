#!/usr/bin/env bash
# On a machine with a GPU, in one call: the device tests (tests/gpu: the
# library's tests, memcheck, every sample through recipe advise compared
# byte for byte with its C program) and the end-to-end benchmark of the
# samples (bench/e2e: the C program and the emitted one, each run cold in
# fresh processes) with the stored profile of PLATFORM.
# usage: bench/device/check_session.sh PLATFORM OUTDIR
# Environment: RECIPE_BINARY (a built recipe; default build/recipe), RUNS
# (processes per program, default 5: medians of 5 cold processes),
# POLYBENCH (bench/e2e/device.sh asks for the corpus), SKIP_TESTS=1 (the
# benchmark only), ADVISE_EXTRA (bench/e2e/generate.sh). Writes
# OUTDIR/gpu-tests.log, the e2e page and data (bench/e2e/device.sh), and
# all of OUTDIR again in OUTDIR/all.tgz.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
platform=${1:?usage: check_session.sh PLATFORM OUTDIR}
out=${2:?usage: check_session.sh PLATFORM OUTDIR}
mkdir -p "$out"
export RECIPE_BINARY=${RECIPE_BINARY:-$root/build/recipe}
export RECIPE_PLATFORM_DIR=$root/advisor/platforms
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/device.txt"
tests=0
if [ "${SKIP_TESTS:-0}" != 1 ]; then
  start=$(date +%s)
  bash "$root/tests/gpu/run_gpu_tests.sh" > "$out/gpu-tests.log" 2>&1
  tests=$?
  echo "gpu tests: exit $tests in $(( $(date +%s) - start )) s" | tee -a "$out/device.txt"
  tail -5 "$out/gpu-tests.log"
fi
start=$(date +%s)
PROFILE=$root/advisor/platforms/$platform.json RUNS=${RUNS:-5} CANDIDATES_ONLY=1 \
  bash "$root/bench/e2e/device.sh" "$platform" "$out" sample > "$out/e2e.log" 2>&1
e2e=$?
echo "e2e: exit $e2e in $(( $(date +%s) - start )) s" | tee -a "$out/device.txt"
tail -3 "$out/e2e.log"
# Everything in one file as well, for a runner that brings back only a few files.
tar -czf "$out.tgz" -C "$out" . && mv "$out.tgz" "$out/all.tgz"
exit $(( tests || e2e ))
