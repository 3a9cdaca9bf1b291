#!/usr/bin/env bash
# On a machine with a GPU, in one call, what a change to recipe::Region needs
# checked and timed, and no more: the device tests it touches (built from
# tests/gpu, each run at full size and under memcheck at quick sizes), the
# samples and forms it changes through `recipe advise` byte-compared with
# their C programs (tests/gpu/sample_tests.sh), and the regions' phases
# run after run beside the staged floor (bench/region/spread.sh).
# usage: bench/device/region_change_session.sh PLATFORM OUTDIR
# Environment:
#   TESTS    device tests (default "region_test")
#   SAMPLES  samples and forms for sample_tests.sh (default "stencil7 heat2d diffuse1d c89_swaps parboil_stencil")
#   SPREAD   samples for spread.sh (default "stencil7 heat2d"); RUNS (default 8)
#   RECIPE_BINARY  a built recipe (default build/recipe)
# Writes OUTDIR/session.log, OUTDIR/spread.md and OUTDIR/logs.tgz; exits 1
# when a test or a comparison failed.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
platform=${1:?usage: region_change_session.sh PLATFORM OUTDIR}
out=$(mkdir -p "${2:?usage: region_change_session.sh PLATFORM OUTDIR}" && cd "$2" && pwd)
export RECIPE_PLATFORM_DIR=${RECIPE_PLATFORM_DIR:-$root/advisor/platforms}
export RECIPE_BINARY=${RECIPE_BINARY:-$root/build/recipe}
work=$(mktemp -d)
logs=$work/logs
mkdir -p "$logs"
nvcc_flags=(-std=c++17 -O2 -arch="${RECIPE_CUDA_ARCH:-sm_90}" -lineinfo -I"$root/library/include")
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
rc=0
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  for t in ${TESTS:-region_test}; do
    t0=$(date +%s)
    if ! nvcc "${nvcc_flags[@]}" "$root/tests/gpu/$t.cu" -o "$work/$t" >"$logs/$t.build.log" 2>&1; then
      echo "FAIL $t (build)"; cat "$logs/$t.build.log"; rc=1; continue
    fi
    if timeout 300 "$work/$t" >"$logs/$t.log" 2>&1; then echo "PASS $t: $(tail -1 "$logs/$t.log")"
    else echo "FAIL $t"; grep -m 20 FAIL "$logs/$t.log"; tail -3 "$logs/$t.log"; rc=1; fi
    if RECIPE_TEST_QUICK=1 timeout 300 "$sanitizer" --tool memcheck --error-exitcode 99 --leak-check full "$work/$t" \
        >"$logs/$t.memcheck.log" 2>&1; then echo "PASS memcheck $t: $(grep -m1 'ERROR SUMMARY' "$logs/$t.memcheck.log")"
    else echo "FAIL memcheck $t"; grep -m 20 "=========" "$logs/$t.memcheck.log"; rc=1; fi
    echo "$t: $(( $(date +%s) - t0 )) s"
  done
  t0=$(date +%s)
  if ONLY="${SAMPLES:-stencil7 heat2d diffuse1d c89_swaps parboil_stencil}" bash "$root/tests/gpu/sample_tests.sh" "$RECIPE_BINARY" "$work/samples" "$logs"; then
    echo "PASS samples: ${SAMPLES:-stencil7 heat2d diffuse1d c89_swaps parboil_stencil}"
  else echo "FAIL samples"; rc=1; fi
  echo "samples: $(( $(date +%s) - t0 )) s"
  t0=$(date +%s)
  # shellcheck disable=SC2086
  RUNS=${RUNS:-8} bash "$root/bench/region/spread.sh" "$platform" "$work/spread" ${SPREAD:-stencil7 heat2d}
  cp "$work/spread/spread.md" "$out/spread.md" 2>/dev/null
  cat "$out/spread.md" 2>/dev/null
  echo "spread: $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$out/session.log"
tar -czf "$out/logs.tgz" -C "$work" logs spread 2>/dev/null
grep -q "^FAIL" "$out/session.log" && rc=1
exit $rc
