#!/usr/bin/env bash
# Why a program's start-up and first call cost what they do on a host with
# several GPUs, in one call (each line of OUTDIR/probe.txt one fresh process):
#  - CUDA's start-up (bench/multi/context_probe.cu): the first CUDA call in
#    main or on a thread started before main, main idle or faulting in fresh
#    pages meanwhile, 1 and all GPUs; then the same with another process
#    holding every GPU (is it the driver's own set-up of idle GPUs?);
#  - the same start-up bisected, one process after another: the bare probe,
#    the library's EarlyStart alone (library_start_probe.cu, without and with
#    heat2d's pool sizes), the emitted heat2d at once and after a pause, and
#    the bare probe again after it;
#  - the emitted programs' start-up timelines (RECIPE_REPORT=1): heat2d and
#    emboss as advised for one GPU, also with CUDA_MODULE_LOADING=EAGER;
#  - first calls writing fresh pages over 1..N GPUs (bench/multi/scaling.cu
#    `fresh`, its output never touched, against `run`, its output filled;
#    the last field of each line is the first call's start-up wait, which
#    its first_ms includes: subtract it).
# usage: bench/multi/probe.sh OUTDIR   (RUNS, default 3; RECIPE_BINARY, default build/recipe;
#        PARTS, default "contexts bisect timelines fresh")
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: probe.sh OUTDIR}
runs=${RUNS:-3}
recipe=${RECIPE_BINARY:-$root/build/recipe}
mkdir -p "$out"
work=$(mktemp -d)
export NCCL_NVLS_ENABLE=0
gpus=$(nvidia-smi -L | wc -l)
{ nvidia-smi --query-gpu=index,name,driver_version,persistence_mode --format=csv,noheader; nproc; } > "$out/device.txt"
nvcc -O2 -std=c++17 -arch=sm_90 "$root/bench/multi/context_probe.cu" -o "$work/probe" &
nvcc -O2 -std=c++17 -arch=sm_90 -I"$root/library/include" "$root/bench/multi/scaling.cu" -o "$work/scaling" &
nvcc -O2 -std=c++17 -arch=sm_90 -I"$root/library/include" "$root/bench/multi/library_start_probe.cu" -o "$work/library_start" &
parts=" ${PARTS:-contexts bisect timelines fresh} "
for p in heat2d:"-DW=8192 -DH=8192 -DSTEPS=100" emboss:"-DW=16384 -DH=16384"; do
  name=${p%%:*}; read -r -a defs <<<"${p#*:}"
  ( mkdir -p "$work/$name" && "$recipe" advise "$root/samples/$name.c" "${defs[@]}" --platform h200 -o "$work/$name" > /dev/null &&
    nvcc -O2 -std=c++17 -arch=sm_90 --fmad=false "${defs[@]}" -I"$root/library/include" "$work/$name"/*.cu -o "$work/$name/gpu" ) &
done
wait
probe() { PROBE_MODE=$1 PROBE_GPUS=$2 "$work/probe" "$1" "$2"; }
if [[ $parts == *" contexts "* ]]; then
{
  for r in $(seq 1 "$runs"); do
    for mode in main early busy; do for n in 1 "$gpus"; do probe "$mode" "$n"; done; done
  done
  PROBE_MODE=hold PROBE_GPUS=$gpus "$work/probe" hold "$gpus" & holder=$!
  sleep 4
  for r in $(seq 1 "$runs"); do
    for mode in main early; do for n in 1 "$gpus"; do echo "held-by-another $(probe "$mode" "$n")"; done; done
  done
  kill "$holder"; wait "$holder" 2>/dev/null
  sleep 2
} > "$out/probe.txt" 2>&1
fi
if [[ $parts == *" bisect "* ]]; then
  heat2d_pool=$(grep -o 'PoolSize{ *[0-9]*, *[0-9]*' "$work/heat2d"/*.cu | grep -o '[0-9]*, *[0-9]*$' | tr -d ' ')
  for r in $(seq 1 "$runs"); do
    echo "bare: $(probe early 1)"
    echo "library, no pool: $(RECIPE_REPORT=1 "$work/library_start" 2>&1 | grep -m1 'GPU 0')"
    echo "library, heat2d's pool: $(PROBE_DEVICE_BYTES=${heat2d_pool%,*} PROBE_PINNED_BYTES=${heat2d_pool#*,} RECIPE_REPORT=1 "$work/library_start" 2>&1 | grep -m1 'GPU 0')"
    echo "heat2d: $(RECIPE_REPORT=1 "$work/heat2d/gpu" "$work/heat2d.bin" 2>&1 >/dev/null | grep -m1 'GPU 0')"
    sleep 3
    echo "heat2d after 3 s: $(RECIPE_REPORT=1 "$work/heat2d/gpu" "$work/heat2d.bin" 2>&1 >/dev/null | grep -m1 'GPU 0')"
    echo "bare after heat2d: $(probe early 1)"
  done > "$out/bisect.txt" 2>&1
  cat "$out/bisect.txt"
fi
[[ $parts == *" timelines "* ]] &&
for name in heat2d emboss; do
  for r in $(seq 1 "$runs"); do
    echo "== $name run $r"; RECIPE_REPORT=1 "$work/$name/gpu" "$work/$name.bin" 2>&1 >/dev/null | grep -A4 'start-up\|^recipe: [a-z]* (' | head -24
    echo "== $name run $r, CUDA_MODULE_LOADING=EAGER"
    CUDA_MODULE_LOADING=EAGER RECIPE_REPORT=1 "$work/$name/gpu" "$work/$name.bin" 2>&1 >/dev/null | grep 'start-up\|GPU 0'
  done
done > "$out/timelines.txt" 2>&1
[[ $parts == *" fresh "* ]] &&
for kind in fresh run; do
  for n in $(seq 1 "$gpus"); do
    for r in $(seq 1 "$runs"); do "$work/scaling" "$kind" 16384 16384 "$n" staged || echo "FAILED $kind $n"; done
  done
done > "$out/fresh.txt" 2>&1
cat "$out/probe.txt" "$out/fresh.txt" 2>/dev/null
