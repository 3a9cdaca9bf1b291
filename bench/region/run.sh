#!/usr/bin/env bash
# On a machine with a GPU: every program bench/region/generate.sh made, as
# the C program (gcc -O2) and as the emitted .cu (nvcc --fmad=false):
#  1. correctness: both dump their arrays (PolyBench: -DPOLYBENCH_DUMP_ARRAYS;
#     samples: the output file) and the dumps must be byte-identical;
#  2. time, one process per run, RUNS runs each (medians): the whole program
#     (wall), PolyBench's own kernel timer (-DPOLYBENCH_TIME: the function
#     that holds the time loop), and the region's own time as the library
#     measures it in the program (RECIPE_REPORT=time), beside its prediction;
#  3. the floor: one run with RECIPE_REPORT=1 gives the region's bytes;
#     one run of the same .cu with its launches not pipelined and every array
#     copied whole (whole.cu: no pipelined_launches, no written_first boxes)
#     gives the kernels' time back to back (events) and the arrays' whole
#     bytes; copy_floor.cu times one page-locked copy of those bytes each way.
#     floor = copies in + kernels + copies out, of the bytes moved and of the
#     arrays whole (one copy each way of every array plus the kernels). Where the
#     program's arrays are pageable (the region stages them), staged_floor.cu
#     times the fastest raw-CUDA way to move the same bytes from and to
#     pageable memory: staged floor = those copies + kernels.
# Writes OUTDIR/region.md and OUTDIR/raw/ (logs).
# usage: bench/region/run.sh GENDIR OUTDIR   (RUNS: runs per program; ONLY: names)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
gen=$(cd "${1:?usage: run.sh GENDIR OUTDIR}" && pwd)
out=$(mkdir -p "${2:?usage: run.sh GENDIR OUTDIR}" && cd "$2" && pwd)
raw=$out/raw
mkdir -p "$raw"
runs=${RUNS:-3}
arch=${ARCH:-native}
nvcc -O2 -arch="$arch" "$root/bench/region/copy_floor.cu" -o "$raw/copy_floor" || exit 1
nvcc -O2 -arch="$arch" -Xcompiler -fopenmp "$root/bench/region/staged_floor.cu" -o "$raw/staged_floor" || exit 1

# Builds, in parallel: per program a C and a GPU binary for dumps and for timing.
build() {
  local name=$1 c=$2 cu=$3 flags=$4 w=$raw/$1
  mkdir -p "$w"
  local kdir extra_dump extra_time poly=""
  kdir=$(dirname "$c")
  if [[ "$flags" == *utilities* ]]; then
    poly="$(sed -E 's/.*-I ([^ ]*utilities).*/\1/' <<<"$flags")/polybench.c"
    extra_dump=-DPOLYBENCH_DUMP_ARRAYS
    extra_time=-DPOLYBENCH_TIME
  fi
  for v in dump time; do
    local extra
    [ "$v" = dump ] && extra=${extra_dump:-} || extra=${extra_time:-}
    # shellcheck disable=SC2086
    gcc -O2 $flags $extra -I "$kdir" $poly "$c" -lm -o "$w/c-$v" >"$w/build-c-$v.log" 2>&1 || echo "C build failed" >>"$w/errors"
    if [ -n "$poly" ]; then
      # shellcheck disable=SC2086
      gcc -O2 -c $flags $extra "$poly" -o "$w/polybench-$v.o" >>"$w/build-gpu-$v.log" 2>&1
    fi
    # shellcheck disable=SC2086
    nvcc -O2 -std=c++17 -arch="$arch" --fmad=false -I "$root/library/include" $flags $extra -I "$kdir" "$cu" \
      ${poly:+"$w/polybench-$v.o"} -o "$w/gpu-$v" >>"$w/build-gpu-$v.log" 2>&1 || echo ".cu build failed" >>"$w/errors"
  done
  sed -e 's/^ *recipe_region_config\.pipelined_launches = .*//' \
    -e 's/recipe::resident(\([^,]*\), recipe::Box{{[^}]*}, {[^}]*}}, \(true\|false\))/recipe::resident(\1, true, \2)/' \
    "$cu" >"$w/whole.cu"
  # shellcheck disable=SC2086
  nvcc -O2 -std=c++17 -arch="$arch" --fmad=false -I "$root/library/include" $flags ${extra_time:-} -I "$kdir" -I "$(dirname "$cu")" \
    "$w/whole.cu" ${poly:+"$w/polybench-time.o"} -o "$w/gpu-whole" >>"$w/build-gpu-whole.log" 2>&1 || echo "whole.cu build failed" >>"$w/errors"
}
while IFS=$'\t' read -r name c cu flags decision; do
  [ "$flags" = - ] && flags=""
  if [ -n "${ONLY:-}" ] && ! grep -qw -- "$name" <<<"$ONLY"; then continue; fi
  build "$name" "$c" "$cu" "$flags" &
  while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do wait -n; done
done <"$gen/programs.tsv"
wait

# Correctness: the C dumps in parallel, the GPU dumps one at a time.
dump() {  # BINARY OUTFILE (PolyBench dumps to stderr; samples write argv[1])
  if grep -q utilities <<<"$3"; then "$1" 2>"$2" >/dev/null; else "$1" "$2" >/dev/null; fi
}
while IFS=$'\t' read -r name c cu flags decision; do
  [ "$flags" = - ] && flags=""
  if [ -n "${ONLY:-}" ] && ! grep -qw -- "$name" <<<"$ONLY"; then continue; fi
  [ -e "$raw/$name/errors" ] && continue
  dump "$raw/$name/c-dump" "$raw/$name/c.out" "$flags" &
done <"$gen/programs.tsv"
wait
while IFS=$'\t' read -r name c cu flags decision; do
  [ "$flags" = - ] && flags=""
  if [ -n "${ONLY:-}" ] && ! grep -qw -- "$name" <<<"$ONLY"; then continue; fi
  [ -e "$raw/$name/errors" ] && continue
  dump "$raw/$name/gpu-dump" "$raw/$name/gpu.out" "$flags" || echo "GPU program failed" >>"$raw/$name/errors"
  if cmp -s "$raw/$name/c.out" "$raw/$name/gpu.out"; then echo identical >"$raw/$name/dump"; else
    echo "DIFFERENT: $(cmp "$raw/$name/c.out" "$raw/$name/gpu.out" 2>&1 | head -1)" >"$raw/$name/dump"; fi
  stat -c %s "$raw/$name/c.out" >"$raw/$name/dump-bytes"
  rm -f "$raw/$name/c.out" "$raw/$name/gpu.out"
done <"$gen/programs.tsv"

# The dumps above left hundreds of MB of written files for the kernel to
# write back: flushed now, so that the writeback does not run beside the
# timed runs.
sync
# Times: one process per run, C and GPU alternating, nothing else running.
while IFS=$'\t' read -r name c cu flags decision; do
  [ "$flags" = - ] && flags=""
  if [ -n "${ONLY:-}" ] && ! grep -qw -- "$name" <<<"$ONLY"; then continue; fi
  w=$raw/$name
  [ -e "$w/errors" ] && continue
  for ((r = 0; r < runs; r++)); do
    t0=$(date +%s.%N)
    "$w/c-time" >"$w/c-time.$r.out" 2>&1
    t1=$(date +%s.%N)
    RECIPE_REPORT=time "$w/gpu-time" >"$w/gpu-time.$r.out" 2>&1
    t2=$(date +%s.%N)
    echo "$t0 $t1 $t2" >"$w/wall.$r"
  done
  RECIPE_REPORT=1 "$w/gpu-time" >"$w/gpu-report.out" 2>&1
  RECIPE_REPORT=1 "$w/gpu-whole" >"$w/whole-report.out" 2>&1
  region=$(sed -n 's/.*recipe_region_config.name = "\(.*\)";/\1/p' "$cu" | head -1)
  echo "$region" >"$w/region-name"
  moved() { awk -v n="recipe: $region:" 'index($0, n) == 1 {on = 1} on && /copies:/ {gsub(/[()]/, ""); print $5, $9; exit}' "$1"; }
  bytes=$(moved "$w/gpu-report.out")
  whole=$(moved "$w/whole-report.out")
  [ -n "$bytes" ] && "$raw/copy_floor" $bytes >"$w/floor"
  [ -n "$whole" ] && "$raw/copy_floor" $whole >"$w/floor-whole"
  if [ -n "$bytes" ] && grep -q "HostMemory::Staged" "$cu"; then "$raw/staged_floor" $bytes >"$w/staged-floor"; fi
done <"$gen/programs.tsv"
python3 "$root/bench/region/report.py" "$gen/programs.tsv" "$raw" "$runs" >"$out/region.md"
cat "$out/region.md"
