#!/usr/bin/env bash
# The GPU benchmark: five experiments (thesis §7's moving average 64 Mi
# floats, emboss 8000^2 and Jacobi 400^3; a 3x3 stencil on 8192^2 doubles
# and a zip of three 64 Mi-float inputs) on this machine's GPU, every scheme,
# pinned and pageable host arrays, a tile-size and a kernel-repeat sweep,
# with the model's prediction beside each measurement and, measured in the
# same run, the bound and the raw-CUDA floor each plan is set against.
#
#   bench/gpu/run_gpu_bench.sh prepare          here (no GPU): builds the model's
#                                               side, build-library/bench_plan
#                                               (needs recipe_core built in build-library)
#   bench/gpu/run_gpu_bench.sh run OUTDIR       on the GPU machine (nvcc + GPU):
#                                               profile, bounds, raw floor, plans,
#                                               measurements, OUTDIR/results-<gpu>.md
#   bench/gpu/run_gpu_bench.sh report OUTDIR [PAGE]
#                                               anywhere: the page from OUTDIR into
#                                               PAGE (default docs/results-<gpu>.md)
#
# run writes into OUTDIR: date.txt, device.txt (nvidia-smi), profile.json
# (recipe-profile), bounds.tsv (kernel, whole-array copies each way and both
# at once), floor.tsv (the raw-CUDA pipeline's search), link.txt (host
# staging rates, staging blocks, library setup), configs.tsv (every
# configuration with its prediction, the advisor's choices marked),
# measured.tsv, steps.tsv (seconds into the run at each step) and the page.
# ONLY=name,name runs only those experiments (the page then says the run
# measured part of what was planned).
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
    ONLY_ARGS=()
    [ -n "${ONLY:-}" ] && ONLY_ARGS=(--only "$ONLY")
    T=$(mktemp -d)
    trap 'rm -rf "$T"' EXIT
    start=$SECONDS
    : >"$OUTDIR/steps.tsv"
    step() {
        printf '%s\t%d\n' "$1" $((SECONDS - start)) >>"$OUTDIR/steps.tsv"
        echo "== $1 ($((SECONDS - start)) s)"
    }
    step build
    FLAGS=(-std=c++17 -O3 -arch="${ARCH:-sm_90}" -Ilibrary/include)
    "$NVCC" "${FLAGS[@]}" tools/profiler/recipe_profile.cu -o "$T/recipe-profile" & p1=$!
    # --fmad=false: the kernels compute exactly what their C loops compute.
    "$NVCC" "${FLAGS[@]}" --fmad=false bench/gpu/pipeline_bench.cu -o "$T/pipeline_bench" & p2=$!
    "$NVCC" "${FLAGS[@]}" bench/gpu/link_bench.cu -o "$T/link_bench" & p3=$!
    wait $p1 && wait $p2 && wait $p3
    date -u '+%Y-%m-%d %H:%M UTC' >"$OUTDIR/date.txt"
    nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current,pcie.link.gen.max,pcie.link.width.max,clocks.sm,clocks.mem \
        --format=csv | tee "$OUTDIR/device.txt"
    GPU=$(python3 bench/gpu/report.py "$OUTDIR" --gpu-name 2>/dev/null)
    desc=$(nvidia-smi --query-gpu=name,pcie.link.gen.max,pcie.link.width.max,driver_version --format=csv,noheader |
        head -1 | awk -F', ' '{printf "%s, PCIe Gen%s x%s, driver %s", $1, $2, $3, $4}')
    step profile
    "$T/recipe-profile" -o "$OUTDIR/profile.json" --name "$GPU" --description "$desc"
    step "bounds and raw floor"
    "$T/pipeline_bench" --bounds --floor "$OUTDIR/floor.tsv" "${ONLY_ARGS[@]}" | tee "$OUTDIR/bounds.tsv"
    step "link and library costs"
    "$T/link_bench" | tee "$OUTDIR/link.txt"
    step plans
    "$PLAN" "$OUTDIR/profile.json" "$OUTDIR/bounds.tsv" >"$OUTDIR/configs.tsv"
    echo "$(($(wc -l <"$OUTDIR/configs.tsv") - 1)) configurations"
    step measurements
    "$T/pipeline_bench" --configs "$OUTDIR/configs.tsv" "${ONLY_ARGS[@]}" >"$OUTDIR/measured.tsv"
    step done
    if grep -q -w -e NO -e error "$OUTDIR/measured.tsv" "$OUTDIR/floor.tsv"; then
        echo "WARNING: some outputs differ from the reference"
    fi
    python3 bench/gpu/report.py "$OUTDIR" >"$OUTDIR/results-$GPU.md"
    python3 bench/gpu/report.py "$OUTDIR" --summary
    echo "wrote $OUTDIR/results-$GPU.md"
    ;;
report)
    OUTDIR=${2:?usage: run_gpu_bench.sh report OUTDIR [PAGE]}
    PAGE=${3:-docs/results-$(python3 bench/gpu/report.py "$OUTDIR" --gpu-name 2>/dev/null).md}
    python3 bench/gpu/report.py "$OUTDIR" >"$PAGE"
    echo "wrote $PAGE"
    ;;
*)
    sed -n '2,27p' "$0"
    exit 2
    ;;
esac
