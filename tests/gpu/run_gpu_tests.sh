#!/usr/bin/env bash
# GPU tests of the pipelining library and of the .cu files recipe emits.
# Runs where a GPU is; elsewhere (CI) prints "no GPU: skipped" and exits 0.
#
#   tests/gpu/run_gpu_tests.sh            all device tests, memcheck, samples
#   RECIPE_GPU_TESTS_LOG=dir              also keep logs there
#   RECIPE_BINARY=path                    the recipe executable (default build/recipe)
#   RECIPE_GPU_TESTS="run_test ..."       only these device tests (default all)
#   RECIPE_GPU_TESTS_PARTS="tests memcheck samples"   which of 1-3 below to run (default all three)
#
# 1. device tests named after the header they test (run_test: run.cuh,
#    iterate_test: iterate.cuh, region_test: region.cuh, ghost_test: a region with ghost zones, error_test: error.cuh,
#    start_test: start.cuh, first_call_test: a first call counts its wait for CUDA's start-up, report_test: the
#    RECIPE_REPORT part of run.cuh, devices_test: calls and regions over every GPU
#    the machine has, up to 4), each over float, double and int;
# 2. compute-sanitizer memcheck on them (quick sizes; error_test is left out:
#    it faults on purpose; devices_test too: bench/multi/device.sh memchecks
#    it on two GPUs);
# 3. every sample: `recipe advise` emits a .cu, nvcc builds it, it runs on
#    the GPU and every output element is compared with the sequential C
#    program's (both sides built without FMA contraction), then memcheck.
set -u
if ! nvidia-smi -L >/dev/null 2>&1; then
    echo "no GPU: skipped"
    exit 0
fi

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
SANITIZER=${SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
WORK=${RECIPE_GPU_TESTS_DIR:-$ROOT/build-gpu-tests}
LOG=${RECIPE_GPU_TESTS_LOG:-$WORK/logs}
mkdir -p "$WORK" "$LOG"
ARCH=${RECIPE_CUDA_ARCH:-sm_90}
NVCCFLAGS=(-std=c++17 -O2 -arch="$ARCH" -lineinfo -I"$ROOT/library/include")

failures=()
passes=0
pass() { passes=$((passes + 1)); echo "PASS $1"; }
fail() { failures+=("$1"); echo "FAIL $1"; }

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader

# ---- 1. device tests (built in parallel)
PARTS=${RECIPE_GPU_TESTS_PARTS:-tests memcheck samples}
part() { [[ " $PARTS " == *" $1 "* ]]; }
read -r -a TESTS <<<"${RECIPE_GPU_TESTS:-run_test iterate_test region_test ghost_test report_test error_test whole_test start_test devices_test first_call_test}"
# memcheck runs the device tests' binaries, so either part builds them.
if ! part tests && ! part memcheck; then TESTS=(); fi
has_first_call=0
for t in "${TESTS[@]}"; do [ "$t" = first_call_test ] && has_first_call=1; done
TESTS=($(for t in "${TESTS[@]}"; do [ "$t" != first_call_test ] && echo "$t"; done))
for t in "${TESTS[@]}"; do
    rm -f "$WORK/$t"
    "$NVCC" "${NVCCFLAGS[@]}" "tests/gpu/$t.cu" -o "$WORK/$t" >"$LOG/$t.build.log" 2>&1 &
done
wait
for t in "${TESTS[@]}"; do
    if [ ! -x "$WORK/$t" ]; then
        fail "$t (build; see $LOG/$t.build.log)"; cat "$LOG/$t.build.log"; continue
    fi
    part tests || continue
    if timeout 300 "$WORK/$t" >"$LOG/$t.log" 2>&1; then pass "$t: $(tail -1 "$LOG/$t.log")"; else
        fail "$t"; grep -m 20 -e FAIL -e "^  " "$LOG/$t.log"; tail -3 "$LOG/$t.log"; fi
done

# first_call_test: one process per form (CUDA starts once per process)
part tests || has_first_call=0  # not memchecked: it times a first call
if [ "$has_first_call" = 1 ]; then
    rm -f "$WORK/first_call_test"
    "$NVCC" "${NVCCFLAGS[@]}" tests/gpu/first_call_test.cu -o "$WORK/first_call_test" >"$LOG/first_call_test.build.log" 2>&1 ||
        { fail "first_call_test (build; see $LOG/first_call_test.build.log)"; cat "$LOG/first_call_test.build.log"; }
fi
if [ "$has_first_call" = 1 ] && [ -x "$WORK/first_call_test" ]; then
    for form in run whole region; do
        sleep 3  # the GPU idle, as a user's program meets it
        if timeout 120 "$WORK/first_call_test" "$form" >"$LOG/first_call_test.$form.log" 2>&1; then
            pass "first_call_test $form: $(head -1 "$LOG/first_call_test.$form.log")"
        else
            fail "first_call_test $form"; cat "$LOG/first_call_test.$form.log"
        fi
    done
fi

# ---- 2. memcheck
for t in run_test iterate_test region_test ghost_test report_test whole_test start_test; do
    part memcheck || break
    [[ " ${TESTS[*]} " == *" $t "* ]] || continue
    [ -x "$WORK/$t" ] || continue
    if RECIPE_TEST_QUICK=1 timeout 300 "$SANITIZER" --tool memcheck --error-exitcode 99 --leak-check full "$WORK/$t" \
        >"$LOG/$t.memcheck.log" 2>&1; then
        pass "memcheck $t: $(grep -m1 'ERROR SUMMARY' "$LOG/$t.memcheck.log")"
    else
        fail "memcheck $t"; grep -m 20 -e "=========" "$LOG/$t.memcheck.log" | head -20
    fi
done

# ---- 3. samples through recipe advise
RECIPE=${RECIPE_BINARY:-$ROOT/build/recipe}
if ! part samples; then
    echo "samples: not asked for (RECIPE_GPU_TESTS_PARTS)"
elif [ ! -f "$ROOT/cli/advise_command.cpp" ]; then
    echo "PENDING samples: recipe advise does not exist yet (cli/advise_command.cpp); sample tests not run"
elif [ ! -x "$RECIPE" ]; then
    fail "samples: $RECIPE not built (build it first, or set RECIPE_BINARY)"
else
    bash "$ROOT/tests/gpu/sample_tests.sh" "$RECIPE" "$WORK/samples" "$LOG" && pass "samples" || fail "samples"
fi

echo "----"
echo "passed: $passes, failed: ${#failures[@]}"
for f in "${failures[@]}"; do echo "  failed: $f"; done
[ ${#failures[@]} -eq 0 ]
