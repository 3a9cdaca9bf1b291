#!/usr/bin/env bash
# On a machine with a GPU, in one call: the model checked on this machine.
#  1. the GPU benchmark (bench/gpu/run_gpu_bench.sh run: this GPU's profile,
#     the bounds, the raw floor, the five experiments) into OUTDIR/gpu;
#  2. the samples end to end (bench/e2e/device.sh, CANDIDATES_ONLY=1), their
#     recipes made with the profile step 1 measured and `--measure-host`
#     (this host's CPU), into OUTDIR/e2e;
#  3. with TESTS=1, first the device tests (tests/gpu/run_gpu_tests.sh) into
#     OUTDIR/gpu-tests.log.
#  4. with AB_OLD_INCLUDE (a copy of an earlier library/include), before the
#     e2e: every sample's --convert-all .cu (advised here for platform NAME)
#     built against that library and this one and run in alternation
#     (bench/device/ab_first_call.sh, RUNS processes each; AB_PROGRAMS: only
#     these samples) into OUTDIR/ab;
#     with SKIP_E2E=1 steps 1-2 are left out.
#  5. with PHASES=1, after step 2: every sample's --convert-all .cu, advised
#     with the profile of step 1, run RUNS times with RECIPE_REPORT=1
#     (bench/device/first_call.sh: each call's phases measured beside the
#     predicted ones) into OUTDIR/phases (PROGRAMS: only these samples).
# Everything again in OUTDIR/all.tgz (a runner may bring back few files).
# usage: bench/device/model_session.sh NAME OUTDIR
# Environment: RECIPE_BINARY (default build/recipe), RECIPE_BENCH_PLAN
# (default build/bench_plan: `RECIPE_BUILD_DIR=build bench/gpu/run_gpu_bench.sh
# prepare`), RUNS (processes per program, default 5), SKIP_BENCH=1 (no step 1:
# the e2e recipes then use a profile measured by bench/device/profile.sh),
# PROGRAMS (bench/e2e/device.sh).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
name=${1:?usage: model_session.sh NAME OUTDIR}
out=$(mkdir -p "${2:?usage: model_session.sh NAME OUTDIR}" && cd "$2" && pwd)
export RECIPE_BINARY=${RECIPE_BINARY:-$root/build/recipe}
export RECIPE_BENCH_PLAN=${RECIPE_BENCH_PLAN:-$root/build/bench_plan}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/device.txt"
status=0
if [ "${TESTS:-0}" = 1 ]; then
  start=$(date +%s)
  bash "$root/tests/gpu/run_gpu_tests.sh" > "$out/gpu-tests.log" 2>&1 || status=1
  echo "gpu tests: exit $status in $(( $(date +%s) - start )) s" | tee -a "$out/device.txt"
  tail -3 "$out/gpu-tests.log"
fi
if [ -n "${AB_OLD_INCLUDE:-}" ]; then
  start=$(date +%s)
  mkdir -p "$out/ab-cu"
  cus=()
  for c in "$root"/samples/*.c; do
    p=$(basename "$c" .c)
    [ -z "${AB_PROGRAMS:-}" ] || grep -qw -- "$p" <<<"$AB_PROGRAMS" || continue
    "$RECIPE_BINARY" advise "$c" --platform "$name" --convert-all -o "$out/ab-cu/$p" > "$out/ab-cu/$p.advise.log" 2>&1 &&
      [ -f "$out/ab-cu/$p/$p.cu" ] && cus+=("$out/ab-cu/$p/$p.cu")
  done
  RUNS=${RUNS:-5} bash "$root/bench/device/ab_first_call.sh" "$out/ab" "$AB_OLD_INCLUDE" "${cus[@]}" > "$out/ab.log" 2>&1 || status=1
  echo "ab: ${#cus[@]} programs in $(( $(date +%s) - start )) s" | tee -a "$out/device.txt"
  rm -f "$out"/ab/*.old "$out"/ab/*.new
fi
if [ "${SKIP_E2E:-0}" = 1 ]; then
  tar -czf "$out.tgz" -C "$out" . && mv "$out.tgz" "$out/all.tgz"
  exit $status
fi
profile=$out/gpu/profile.json
if [ "${SKIP_BENCH:-0}" != 1 ]; then
  start=$(date +%s)
  bash "$root/bench/gpu/run_gpu_bench.sh" run "$out/gpu" > "$out/gpu-bench.log" 2>&1
  rc=$?
  [ $rc -eq 0 ] || status=1
  echo "gpu bench: exit $rc in $(( $(date +%s) - start )) s" | tee -a "$out/device.txt"
  grep -A8 '^## Targets' "$out"/gpu/results-*.md | tail -7
else
  mkdir -p "$out/gpu"
  bash "$root/bench/device/profile.sh" "$profile" --name "$name" > "$out/profile.log" 2>&1 || status=1
fi
start=$(date +%s)
PROFILE=$profile RUNS=${RUNS:-5} CANDIDATES_ONLY=1 ADVISE_EXTRA=--measure-host \
  bash "$root/bench/e2e/device.sh" "$name" "$out/e2e" sample > "$out/e2e.log" 2>&1
rc=$?
[ $rc -eq 0 ] || status=1
echo "e2e: exit $rc in $(( $(date +%s) - start )) s" | tee -a "$out/device.txt"
grep -E '^[0-9]+ programs' "$out"/e2e/results-e2e-*.md
if [ "${PHASES:-0}" = 1 ]; then
  start=$(date +%s)
  mkdir -p "$out/phases-cu"
  cus=()
  for c in "$root"/samples/*.c; do
    p=$(basename "$c" .c)
    [ -z "${PROGRAMS:-}" ] || grep -qw -- "$p" <<<"$PROGRAMS" || continue
    "$RECIPE_BINARY" advise "$c" --platform "$profile" --convert-all -o "$out/phases-cu/$p" > "$out/phases-cu/$p.advise.log" 2>&1 &&
      [ -f "$out/phases-cu/$p/$p.cu" ] && cus+=("$out/phases-cu/$p/$p.cu")
  done
  RUNS=${RUNS:-5} bash "$root/bench/device/first_call.sh" "$out/phases" "${cus[@]}" > "$out/phases.log" 2>&1 || status=1
  echo "phases: ${#cus[@]} programs in $(( $(date +%s) - start )) s" | tee -a "$out/device.txt"
  rm -f "$out"/phases/all.tgz
  find "$out/phases" -type f -perm -u+x -delete
fi
tar -czf "$out.tgz" -C "$out" . && mv "$out.tgz" "$out/all.tgz"
exit $status
