#!/usr/bin/env bash
# On a machine with a GPU, in one call: the device tests (tests/gpu, with
# memcheck and every sample through recipe advise) and the region benchmark
# (bench/region) for this GPU's stored profile. Writes OUTDIR/gpu-tests.log,
# OUTDIR/region.md and OUTDIR/raw.tgz.
# usage: bench/device/regions_session.sh PLATFORM OUTDIR
# Environment: RECIPE_BINARY (a built recipe), POLYBENCH (the corpus),
# SKIP_TESTS=1 (benchmark only), ONLY and RUNS (bench/region/run.sh).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
platform=${1:?usage: regions_session.sh PLATFORM OUTDIR}
out=$(mkdir -p "${2:?usage: regions_session.sh PLATFORM OUTDIR}" && cd "$2" && pwd)
export RECIPE_PLATFORM_DIR=${RECIPE_PLATFORM_DIR:-$root/advisor/platforms}
export RECIPE_BINARY=${RECIPE_BINARY:-$root/build/recipe}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
rc=0
if [ "${SKIP_TESTS:-0}" != 1 ]; then
  t0=$(date +%s)
  bash "$root/tests/gpu/run_gpu_tests.sh" >"$out/gpu-tests.log" 2>&1 || rc=1
  echo "device tests: rc=$rc in $(( $(date +%s) - t0 )) s"
  grep -E "^(PASS|FAIL|SKIP|PENDING)|checks" "$out/gpu-tests.log" | tail -40
fi
t0=$(date +%s)
bash "$root/bench/region/device.sh" "$platform" "$out" || rc=1
echo "region benchmark: $(( $(date +%s) - t0 )) s"
exit $rc
