#!/usr/bin/env bash
# The GPU benchmark's measurements taken by two versions of pipeline_bench
# on one machine: this tree's whole run (bench/gpu/run_gpu_bench.sh run:
# profile, bounds, plans, measured.tsv), then OTHER.cu's measurement of the
# same configurations (measured-other.tsv), and per experiment and host
# memory the median ratio other / this, with the chosen plans' errors
# against the prediction both ways. OTHER.cu: another pipeline_bench.cu,
# e.g. `git show REV:bench/gpu/pipeline_bench.cu > build/other_pipeline_bench.cu`
# (it is compiled against this tree's bench/gpu headers and library).
# The two run one after the other, not alternated: a drift of the machine
# in between reads as a difference.
# usage: bench/gpu/ab_measure.sh OUTDIR OTHER.cu   (RECIPE_BUILD_DIR as run_gpu_bench.sh)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: ab_measure.sh OUTDIR OTHER.cu}
other=${2:?usage: ab_measure.sh OUTDIR OTHER.cu}
cd "$root"
RECIPE_BUILD_DIR=${RECIPE_BUILD_DIR:-build} bash bench/gpu/run_gpu_bench.sh run "$out"
nvcc -std=c++17 -O3 -arch="${ARCH:-sm_90}" -Ilibrary/include -Ibench/gpu --fmad=false "$other" -o "$out/other_pipeline_bench"
start=$SECONDS
"$out/other_pipeline_bench" --configs "$out/configs.tsv" >"$out/measured-other.tsv"
echo "other: $((SECONDS - start)) s"
rm -f "$out/other_pipeline_bench"
python3 - "$out/measured.tsv" "$out/measured-other.tsv" <<'PY'
import csv, statistics, sys
from collections import defaultdict
key = ("experiment", "memory", "repeat", "scheme", "tx", "ty", "tz", "copy", "streams", "host")
def rows(p):
    return {tuple(r[k] for k in key): r for r in csv.DictReader(open(p), delimiter="\t")}
a, b = rows(sys.argv[1]), rows(sys.argv[2])
ratios = defaultdict(list)
print("chosen plans: experiment memory | predicted | this ms (error) | other ms (error)")
for k, ra in a.items():
    rb = b.get(k)
    if not rb or float(ra["measured_ms"]) <= 0 or float(rb["measured_ms"]) <= 0:
        continue
    ratios[(k[0], k[1])].append(float(rb["measured_ms"]) / float(ra["measured_ms"]))
    if ra["chosen"] == "1" and k[2] == "1":
        p, ma, mb = float(ra["predicted_ms"]), float(ra["measured_ms"]), float(rb["measured_ms"])
        print(f"  {k[0]:15s} {k[1]:8s} | {p:8.3f} | {ma:8.3f} ({(p - ma) / ma * 100:+6.1f}%) | {mb:8.3f} ({(p - mb) / mb * 100:+6.1f}%)")
print("other / this, median over the configurations (range):")
for (e, m), r in sorted(ratios.items()):
    print(f"  {e:15s} {m:8s} {statistics.median(r):.3f} ({min(r):.3f}-{max(r):.3f}), {len(r)} configurations")
PY
