#!/usr/bin/env bash
# Times `recipe advise` on generated files of small stencil functions — 1-D
# and 2-D stencils, a zip, an initialisation, with declarations and comments
# as real files have them, about 16 lines per function — at several lengths,
# to show how the time grows with the file (it should grow linearly) and
# against the targets: 10,000 lines in under 2 s, 100,000 in under 20 s.
#
#   bench/advise_scale.sh [RECIPE-BINARY]
#
# Environment: LINES ("1000 10000 100000"), RUNS (3), TIME_BIN
# (/usr/bin/time), OUT_ROOT (where the outputs go; default a new directory in
# $TMPDIR — /dev/shm takes the disk out of the figure). Prints per length:
# wall, user and system seconds (medians), peak MB, the nests found, and the
# wall time per 1,000 lines.
#
# The system time is mostly creating the output files (two pictures per
# nest). On ext4 without a journal it depends on how many files were deleted
# in the last minutes (the allocator skips their inodes): rerunning this
# script right after itself reads slower.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
recipe=$(realpath "${1:-$root/build/recipe}")
runs=${RUNS:-3}
time_bin=${TIME_BIN:-/usr/bin/time}
work=$(mktemp -d)
out_root=$(mktemp -d "${OUT_ROOT:-${TMPDIR:-/tmp}}/advise-scale.XXXXXX")
trap 'rm -rf "$work" "$out_root"' EXIT
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

gen() {  # gen LINES FILE
  python3 - "$1" "$2" <<'PY'
import sys
lines, path = int(sys.argv[1]), sys.argv[2]
kinds = [
"""/* {k}: three-point smoothing of a signal */
void smooth_{k}(const float *restrict in, float *restrict out)
{{
    int i;
    for (i = 1; i < 4000000 - 1; i++) {{
        out[i] = 0.25f * in[i - 1] + 0.5f * in[i]
               + 0.25f * in[i + 1];
    }}
}}

""",
"""/* {k}: five-point Laplacian on a 2-D grid */
void laplace_{k}(const double in[2048][2048], double out[2048][2048])
{{
    for (int y = 1; y < 2048 - 1; y++)
        for (int x = 1; x < 2048 - 1; x++)
            out[y][x] = in[y - 1][x] + in[y + 1][x] + in[y][x - 1]
                      + in[y][x + 1] - 4.0 * in[y][x];
}}

""",
"""/* {k}: a zip of two arrays */
void axpy_{k}(float a, const float *restrict x, const float *restrict y, float *restrict z)
{{
    for (long i = 0; i < 8000000; ++i)
        z[i] = a * x[i] + y[i];
}}

""",
"""/* {k}: an initialisation */
void fill_{k}(int *restrict v)
{{
    for (int i = 0; i < 1 << 22; i++)
        v[i] = (i * 2654435761u) >> 7;
}}

""",
]
out, n, k = [], 0, 0
while n < lines:
    text = kinds[k % len(kinds)].format(k=k)
    out.append(text)
    n += text.count("\n")
    k += 1
open(path, "w").write("".join(out))
PY
}

printf '%8s %8s %8s %8s %8s %8s %12s\n' lines nests "wall s" "user s" "sys s" "peak MB" "s/1k lines"
for n in ${LINES:-1000 10000 100000}; do
  gen "$n" "$work/f$n.c"
  : > "$work/t$n"
  for ((i = 0; i < runs; i++)); do
    # A new directory per run, as a first run writes: deleting the last
    # run's thousands of files just before would time the file system's
    # handling of freshly freed inodes (slow on ext4 without a journal).
    "$time_bin" -f '%e %U %S %M' -o "$work/one" "$recipe" advise "$work/f$n.c" -o "$out_root/out$n.$i" >/dev/null 2>&1 || true
    cat "$work/one" >> "$work/t$n"
  done
  nests=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['nests']))" "$out_root/out$n.0/f$n.plan.json" 2>/dev/null || echo "?")
  wall=$(awk '{print $1}' "$work/t$n" | median)
  user=$(awk '{print $2}' "$work/t$n" | median)
  sys=$(awk '{print $3}' "$work/t$n" | median)
  mb=$(awk '{print int($4 / 1024)}' "$work/t$n" | sort -n | tail -1)
  printf '%8s %8s %8.2f %8.2f %8.2f %8s %12.3f\n' "$n" "$nests" "$wall" "$user" "$sys" "$mb" "$(awk -v w="$wall" -v n="$n" 'BEGIN { print w / n * 1000 }')"
done
echo "(median of $runs runs each, outputs under $(df --output=fstype "$out_root" | tail -1) $out_root; load average before: $(cut -d' ' -f1-3 /proc/loadavg))"
