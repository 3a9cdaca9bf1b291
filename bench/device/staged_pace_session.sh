#!/usr/bin/env bash
# On a machine with a GPU: the GPU benchmark (bench/gpu/run_gpu_bench.sh run,
# its profile measured first), then bench/kernel/staged_pace_probe.cu on the
# profile's staging thread count: the profiler's staged time per tile beside
# whole runs timed as the benchmark times them. OUT gets bench.tar.gz (the
# benchmark's directory), probe.tsv and the results page.
# usage: bench/device/staged_pace_session.sh OUT   (bench_plan built by `run_gpu_bench.sh prepare`)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: staged_pace_session.sh OUT}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O2 -std=c++17 -arch="${ARCH:-sm_90}" -I "$root/library/include" -I "$root/tools/profiler" \
    "$root/bench/kernel/staged_pace_probe.cu" -o "$work/probe" &
probe_build=$!
"$root/bench/gpu/run_gpu_bench.sh" run "$work/bench" | tail -25
cp "$work"/bench/results-*.md "$out/" || true
tar -C "$work" -czf "$out/bench.tar.gz" bench
wait $probe_build
threads=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1])).get('stagingThreads', 0))" "$work/bench/profile.json")
echo "== probe, $threads staging threads"
"$work/probe" "$threads" | tee "$out/probe.tsv"
