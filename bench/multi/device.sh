#!/usr/bin/env bash
# On a host with several GPUs, in one call: the library's tests over several
# GPUs (tests/gpu/devices_test.cu, then memcheck on two GPUs, quick sizes),
# the host's several-GPU figures (recipe-profile --multi-gpu-only), and the
# library's scaling over 1..N GPUs (bench/multi/scaling.cu: fresh processes,
# first and second call), a one-GPU run of the whole device-test suite
# unless SKIP_ONE_GPU=1.
# usage: bench/multi/device.sh OUTDIR
# PARTS: which parts run, default "tests memcheck profile scaling" (a part of
# a 10-minute call: e.g. PARTS=tests, then the whole programs).
# BASELINE_INCLUDE=DIR: the regions of the scaling run again with the
# library headers in DIR (an earlier tree's library/include), into
# OUTDIR/scaling-baseline.txt, to measure a change of the library.
# NCCL: the toolkit's libnccl.so.2, or the one Python's NCCL wheel brings;
# RECIPE_NCCL names another. NVLink multicast stays off (NCCL_NVLS_ENABLE=0).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: device.sh OUTDIR}
mkdir -p "$out"
export NCCL_NVLS_ENABLE=0
if [ -z "${RECIPE_NCCL:-}" ]; then
  for d in /usr/local/cuda/lib64 /usr/lib/x86_64-linux-gnu \
      "$(python3 -c 'import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], "lib"))' 2>/dev/null)"; do
    if [ -n "$d" ] && [ -e "$d/libnccl.so.2" ]; then export RECIPE_NCCL=$d/libnccl.so.2; break; fi
  done
fi
echo "NCCL: ${RECIPE_NCCL:-not found}" | tee "$out/device.txt"
echo "measured $(date -u '+%Y-%m-%d %H:%M UTC')" >> "$out/device.txt"
nvidia-smi --query-gpu=index,name,driver_version,pci.bus_id --format=csv,noheader | tee -a "$out/device.txt"
nvidia-smi topo -m >> "$out/device.txt" 2>&1
gpus=$(nvidia-smi -L | wc -l)
arch=${ARCH:-sm_90}
work=$(mktemp -d)
flags=(-std=c++17 -O2 -arch="$arch" -lineinfo -I"$root/library/include")
nvcc "${flags[@]}" "$root/tests/gpu/devices_test.cu" -o "$work/devices_test" > "$out/build.log" 2>&1 &
nvcc "${flags[@]}" "$root/bench/multi/scaling.cu" -o "$work/scaling" >> "$out/build.log" 2>&1 &
if [ -n "${BASELINE_INCLUDE:-}" ]; then
  nvcc -std=c++17 -O2 -arch="$arch" -I"$BASELINE_INCLUDE" "$root/bench/multi/scaling.cu" -o "$work/scaling-baseline" \
    >> "$out/build.log" 2>&1 &
fi
nvcc -O3 -std=c++17 -arch="$arch" -I"$root/library/include" "$root/tools/profiler/recipe_profile.cu" \
  -o "$work/recipe-profile" >> "$out/build.log" 2>&1 &
wait
status=0
parts=" ${PARTS:-tests memcheck profile scaling} "
start=$(date +%s)
if [[ $parts == *" tests "* ]]; then
if timeout 400 "$work/devices_test" > "$out/devices_test.log" 2>&1; then echo "PASS devices_test: $(tail -1 "$out/devices_test.log")"; else
  status=1; echo "FAIL devices_test"; grep -m 20 FAIL "$out/devices_test.log"; tail -3 "$out/devices_test.log"; fi
echo "devices_test: $(( $(date +%s) - start )) s"
fi
start=$(date +%s)
if [[ $parts == *" memcheck "* ]]; then
# NCCL's own start-up asks for kernels of other architectures, an API error
# memcheck would report: API errors are left out, memory errors are not.
if CUDA_VISIBLE_DEVICES=0,1 RECIPE_TEST_QUICK=1 timeout 300 compute-sanitizer --tool memcheck --error-exitcode 99 \
    --report-api-errors no \
    "$work/devices_test" > "$out/devices_test.memcheck.log" 2>&1; then
  echo "PASS memcheck devices_test (2 GPUs): $(grep -m1 'ERROR SUMMARY' "$out/devices_test.memcheck.log")"; else
  status=1; echo "FAIL memcheck devices_test"; grep -m 10 "=========" "$out/devices_test.memcheck.log"; fi
echo "memcheck: $(( $(date +%s) - start )) s"
fi
start=$(date +%s)
if [[ $parts == *" profile "* ]]; then
"$work/recipe-profile" --multi-gpu-only -o "$out/multi-gpu.json" 2>&1 | tail -2
cat "$out/multi-gpu.json"
echo "profile: $(( $(date +%s) - start )) s"
fi
if [[ $parts == *" scaling "* ]]; then
# Scaling: fresh processes, RUNS each, every device count.
start=$(date +%s)
{
  for spec in "run 16384 16384 pinned 1" "run 16384 16384 staged 1" "region 8192 8192 pinned 200" "region 16384 16384 staged 50"; do
    set -- $spec
    for n in $(seq 1 "$gpus"); do
      for r in $(seq 1 "${RUNS:-3}"); do "$work/scaling" "$1" "$2" "$3" "$n" "$4" "$5" || echo "FAILED $spec $n"; done
    done
  done
} > "$out/scaling.txt" 2>&1
cat "$out/scaling.txt"
if [ -x "$work/scaling-baseline" ]; then
  {
    for spec in "region 8192 8192 pinned 200" "region 16384 16384 staged 50"; do
      set -- $spec
      for n in $(seq 1 "$gpus"); do
        for r in $(seq 1 "${RUNS:-3}"); do "$work/scaling-baseline" "$1" "$2" "$3" "$n" "$4" "$5" || echo "FAILED $spec $n"; done
      done
    done
  } > "$out/scaling-baseline.txt" 2>&1
  echo "baseline:"; cat "$out/scaling-baseline.txt"
fi
echo "scaling: $(( $(date +%s) - start )) s"
fi
if [ "${SKIP_ONE_GPU:-0}" != 1 ]; then
  start=$(date +%s)
  CUDA_VISIBLE_DEVICES=0 bash "$root/tests/gpu/run_gpu_tests.sh" > "$out/gpu-tests.log" 2>&1 || status=1
  tail -4 "$out/gpu-tests.log"
  echo "one-GPU tests: $(( $(date +%s) - start )) s"
fi
exit $status
