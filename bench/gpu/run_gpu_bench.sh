#!/usr/bin/env bash
# The GPU benchmark: the thesis's §7 experiments (moving average 64 Mi
# floats, emboss 8000^2, Jacobi 400^3) and two of other shapes (a 3x3
# stencil on 8192^2 doubles, a zip of three 64 Mi-float inputs) on this
# machine's GPU, every scheme,
# pinned and pageable host arrays, a tile-size and a kernel-repeat sweep,
# with the model's prediction beside each measurement.
#
#   bench/gpu/run_gpu_bench.sh prepare          here (no GPU): builds the model's
#                                               side, build-library/bench_plan
#                                               (needs recipe_core built in build-library)
#   bench/gpu/run_gpu_bench.sh run OUTDIR       on the GPU machine (nvcc + GPU):
#                                               profile, bounds, plans, measurements
#   bench/gpu/run_gpu_bench.sh report OUTDIR    anywhere: docs/results-h200.md from OUTDIR
#
# run writes OUTDIR/profile.json (recipe-profile), bounds.tsv (kernel and
# whole-array copy times, each way and both at once), floor.tsv (a raw-CUDA
# pipeline's search per experiment), link.txt (link_bench: host staging
# rates, staging blocks, library setup), configs.tsv (every configuration with its
# prediction, the advisor's choices marked) and measured.tsv.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
mode=${1:-}
BUILD=${RECIPE_BUILD_DIR:-build-library}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}

case "$mode" in
prepare)
    cmake --build "$BUILD" -j2 --target recipe_core
    g++ -std=c++20 -O2 -I. -Ilibrary/include bench/gpu/bench_plan.cpp "$BUILD/librecipe_core.a" \
        "$BUILD/librecipe_tree_sitter_c.a" -ltree-sitter -static-libstdc++ -static-libgcc -o "$BUILD/bench_plan"
    echo "built $BUILD/bench_plan"
    ;;
run)
    OUTDIR=${2:?usage: run_gpu_bench.sh run OUTDIR}
    mkdir -p "$OUTDIR"
    if ! nvidia-smi -L >/dev/null 2>&1; then echo "no GPU: skipped"; exit 0; fi
    PLAN=${RECIPE_BENCH_PLAN:-$BUILD/bench_plan}
    [ -x "$PLAN" ] || { echo "run_gpu_bench.sh: $PLAN missing: run 'prepare' first" >&2; exit 2; }
    T=$(mktemp -d)
    FLAGS=(-std=c++17 -O3 -arch=sm_90 -Ilibrary/include)
    "$NVCC" "${FLAGS[@]}" tools/profiler/recipe_profile.cu -o "$T/recipe-profile" &
    # --fmad=false: the kernels compute exactly what their C loops compute.
    "$NVCC" "${FLAGS[@]}" --fmad=false bench/gpu/pipeline_bench.cu -o "$T/pipeline_bench" &
    "$NVCC" "${FLAGS[@]}" bench/gpu/link_bench.cu -o "$T/link_bench" &
    wait
    nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current,clocks.sm,clocks.mem \
        --format=csv | tee "$OUTDIR/device.txt"
    desc=$(nvidia-smi --query-gpu=name,pcie.link.gen.max,pcie.link.width.max,driver_version --format=csv,noheader |
        head -1 | awk -F', ' '{printf "%s, PCIe Gen%s x%s, driver %s", $1, $2, $3, $4}')
    "$T/recipe-profile" -o "$OUTDIR/profile.json" --name h200 --description "$desc"
    echo "== bounds and the raw-CUDA floor"
    "$T/pipeline_bench" --bounds --floor "$OUTDIR/floor.tsv" | tee "$OUTDIR/bounds.tsv"
    echo "== the link and the library's own costs"
    "$T/link_bench" | tee "$OUTDIR/link.txt"
    echo "== plans"
    "$PLAN" "$OUTDIR/profile.json" "$OUTDIR/bounds.tsv" >"$OUTDIR/configs.tsv"
    echo "$(($(wc -l <"$OUTDIR/configs.tsv") - 1)) configurations"
    echo "== measurements"
    "$T/pipeline_bench" --configs "$OUTDIR/configs.tsv" >"$OUTDIR/measured.tsv"
    grep -c -w NO "$OUTDIR/measured.tsv" >/dev/null && echo "WARNING: some outputs differ from the reference" || true
    python3 bench/gpu/report.py "$OUTDIR" --summary
    ;;
report)
    OUTDIR=${2:?usage: run_gpu_bench.sh report OUTDIR}
    python3 bench/gpu/report.py "$OUTDIR" >docs/results-h200.md
    echo "wrote docs/results-h200.md"
    ;;
*)
    sed -n '2,20p' "$0"
    exit 2
    ;;
esac
