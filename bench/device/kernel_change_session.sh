#!/usr/bin/env bash
# On a machine with a GPU, in one call, what a change to the emitted kernels'
# code (recipe/view.cuh, recipe/tile.cuh, the block shapes) needs measured:
# the profile's view kernels timed again with it (bench/kernel/view_kernels_probe.cu)
# and copied into a copy of PLATFORM's stored profile (OUTDIR/plat), then
# the region benchmark planned with that profile: LARGE (RUNS, default 3)
# and then BIG (RUNS_BIG, default 1).
# usage: bench/device/kernel_change_session.sh PLATFORM OUTDIR
# Environment: POLYBENCH (the corpus), LARGE and BIG (names for ONLY),
# RECIPE_BINARY (a built recipe). Writes OUTDIR/view_kernels.json,
# OUTDIR/plat/PLATFORM.json, OUTDIR/large/region.md, OUTDIR/big/region.md.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
platform=${1:?usage: kernel_change_session.sh PLATFORM OUTDIR}
out=$(mkdir -p "${2:?usage: kernel_change_session.sh PLATFORM OUTDIR}" && cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O3 -std=c++17 -arch="${ARCH:-sm_90}" -I "$root/library/include" "$root/bench/kernel/view_kernels_probe.cu" \
  -o "$work/probe" || exit 1
"$work/probe" "$out/view_kernels.json" || exit 1
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)
python3 - "$out/view_kernels.json" "$gpu" <<'PY'
import datetime, json, sys
p = json.load(open(sys.argv[1]))
name, driver = [s.strip() for s in sys.argv[2].split(",")]
p.setdefault("source", {})["viewKernels"] = (
    f"measured by bench/kernel/view_kernels_probe.cu on an {name}, {datetime.date.today()} (driver {driver}); "
    "one launch of each kernel of tools/profiler/view_kernels.cuh (every array through the library's views, "
    "4096^2 and 256^3 grids, then 1024^2 and 128^3, interior points, in floats and in doubles), "
    "median of 3x20 launches back to back")
json.dump(p, open(sys.argv[1], "w"))
PY
mkdir -p "$out/plat"
cp "$root/advisor/platforms/$platform.json" "$out/plat/"
python3 "$root/bench/device/profile_fields.py" "$out/plat/$platform.json" "$out/view_kernels.json" \
  "" viewKernels || exit 1
rc=0
RECIPE_PLATFORM_DIR=$out/plat SKIP_TESTS=1 RUNS=${RUNS:-3} \
  ONLY="${LARGE:-jacobi-1d-LARGE jacobi-2d-LARGE heat-3d-LARGE fdtd-2d-LARGE stencil7 heat2d}" \
  bash "$root/bench/device/regions_session.sh" "$platform" "$out/large" || rc=1
RECIPE_PLATFORM_DIR=$out/plat SKIP_TESTS=1 RUNS=${RUNS_BIG:-1} \
  ONLY="${BIG:-jacobi-2d-EXTRALARGE heat-3d-EXTRALARGE fdtd-2d-EXTRALARGE}" \
  bash "$root/bench/device/regions_session.sh" "$platform" "$out/big" || rc=1
exit $rc
