#!/usr/bin/env bash
# Every sample, and every program of tests/gpu/forms/ (code written the way
# real suites write it: its own headers, sizes in variables or struct
# fields, C99 parameters; the `recipe advise` flags it needs on its line
# `/* recipe advise flags: ... */`), through `recipe advise`, on the GPU: the emitted .cu (built
# with --fmad=false) must write exactly the bytes the sequential C program
# (built with -ffp-contract=off) writes, and compute-sanitizer memcheck must
# find nothing. Called by run_gpu_tests.sh:
#   sample_tests.sh RECIPE_BINARY WORKDIR LOGDIR
# ONLY="name ..." runs those samples and forms alone.
set -u
RECIPE=$1
WORK=$2
LOG=$3
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
SANITIZER=${SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
CC=${CC:-$(command -v gcc || command -v cc)}
mkdir -p "$WORK"
failed=0
# How `recipe advise` takes its output directory.
help=$("$RECIPE" advise --help 2>&1 || true)
outflag=-o
for f in --output-dir --out-dir --output; do
    if grep -q -- "$f" <<<"$help"; then outflag=$f; break; fi
done
for src in "$ROOT"/samples/*.c "$ROOT"/tests/gpu/forms/*.c; do
    name=$(basename "$src" .c)
    if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $name "* ]]; then continue; fi
    dir="$WORK/$name"
    srcdir=$(dirname "$src")
    rm -rf "$dir" && mkdir -p "$dir"
    read -r -a flags <<<"$(sed -n 's|^/\* recipe advise flags: \(.*\) \*/$|\1|p' "$src" | head -1)"
    # --convert-all: the conversion is under test, also where the CPU comparison would keep a nest.
    "$RECIPE" advise "$src" "${flags[@]}" --convert-all "$outflag" "$dir" >"$LOG/$name.advise.log" 2>&1
    rc=$?
    if [ $rc -eq 1 ]; then echo "SKIP $name: no nest recipe accepts (exit 1; see $LOG/$name.advise.log)"; continue; fi
    if [ $rc -ne 0 ]; then echo "FAIL $name: recipe advise exit $rc"; tail -5 "$LOG/$name.advise.log"; failed=1; continue; fi
    cu=$(ls "$dir"/*.cu 2>/dev/null | head -1)
    if [ -z "$cu" ]; then echo "FAIL $name: no .cu emitted"; failed=1; continue; fi
    if ! "$CC" -O2 -std=c99 -ffp-contract=off -I"$srcdir" "$src" -o "$dir/ref" -lm >"$LOG/$name.cc.log" 2>&1; then
        echo "FAIL $name: C reference does not build"; failed=1; continue
    fi
    if ! "$NVCC" -O3 -std=c++17 -arch=sm_90 --fmad=false -I"$ROOT/library/include" -I"$srcdir" "$cu" -o "$dir/gpu" \
        >"$LOG/$name.nvcc.log" 2>&1; then
        echo "FAIL $name: emitted .cu does not build"; tail -5 "$LOG/$name.nvcc.log"; failed=1; continue
    fi
    "$dir/ref" "$dir/ref.bin" >"$LOG/$name.ref.log" 2>&1 || { echo "FAIL $name: C program failed"; failed=1; continue; }
    if ! timeout 300 "$dir/gpu" "$dir/gpu.bin" >"$LOG/$name.gpu.log" 2>&1; then
        echo "FAIL $name: GPU program failed"; tail -5 "$LOG/$name.gpu.log"; failed=1; continue
    fi
    if ! cmp -s "$dir/ref.bin" "$dir/gpu.bin"; then
        echo "FAIL $name: outputs differ ($(cmp "$dir/ref.bin" "$dir/gpu.bin" 2>&1 | head -1))"; failed=1; continue
    fi
    if ! timeout 300 "$SANITIZER" --tool memcheck --error-exitcode 99 "$dir/gpu" "$dir/memcheck.bin" \
        >"$LOG/$name.memcheck.log" 2>&1; then
        echo "FAIL $name: memcheck"; grep -m5 "=========" "$LOG/$name.memcheck.log"; failed=1; continue
    fi
    echo "PASS $name: $(stat -c %s "$dir/ref.bin") bytes identical, memcheck clean"
done
exit $failed
