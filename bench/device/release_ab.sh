#!/usr/bin/env bash
# On a machine with a GPU: what recipe::release_async saves the emitted
# programs end to end. Every sample advised for PLATFORM (`--measure-host`,
# its own advise flags); each .cu that releases CUDA after main's last GPU
# work is built as emitted ("release") and with that call removed
# ("exit": CUDA torn down by the exit, as before), beside the C program
# (gcc -O2); then RUNS rounds (default 5) of the three run in turn, one fresh
# process at a time, no arguments, each timed whole from outside.
# OUTDIR/times.tsv holds every run; OUTDIR/summary.md the medians.
# usage: bench/device/release_ab.sh PLATFORM OUTDIR    (RECIPE_BINARY: default build/recipe;
#        RECIPE_PLATFORM_DIR as recipe advise reads it; PROGRAMS: only these samples)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
platform=${1:?usage: release_ab.sh PLATFORM OUTDIR}
out=$(mkdir -p "${2:?usage: release_ab.sh PLATFORM OUTDIR}" && cd "$2" && pwd)
recipe=${RECIPE_BINARY:-$root/build/recipe}
programs=()
for c in "$root"/samples/*.c; do
  p=$(basename "$c" .c)
  [ -z "${PROGRAMS:-}" ] || grep -qw -- "$p" <<<"$PROGRAMS" || continue
  read -r -a flags <<<"$(sed -n 's|^/\* recipe advise flags: \(.*\) \*/$|\1|p' "$c" | head -1)"
  d=$out/$p
  rm -rf "$d"
  mkdir -p "$d"
  "$recipe" advise "$c" --platform "$platform" --measure-host "${flags[@]}" -o "$d" > "$d/advise.log" 2>&1 || continue
  grep -q 'recipe::release_async();' "$d/$p.cu" 2>/dev/null || continue
  cdefs=()
  for f in "${flags[@]}"; do case $f in -D*|-I*|-U*) cdefs+=("$f");; esac; done
  gcc -O2 "${cdefs[@]}" "$c" -o "$d/c" -lm > "$d/c.build.log" 2>&1 || { echo "$p: C build failed"; continue; }
  mkdir -p "$d/exit"
  sed '/^ *recipe::release_async();$/d' "$d/$p.cu" > "$d/exit/$p.cu"
  cmd=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["compile_command"])' "$d/$p.plan.json")
  cmd=${cmd% -o *}
  (cd "$d" && RECIPE_INCLUDE=$root/library/include eval "$cmd" -o "$d/release" > "$d/release.build.log" 2>&1) &
  (cd "$d/exit" && RECIPE_INCLUDE=$root/library/include eval "$cmd" -o "$d/exit-bin" > "$d/exit.build.log" 2>&1) &
  programs+=("$p")
done
wait
printf 'program\tround\tvariant\twall_ms\n' > "$out/times.tsv"
for ((round = 1; round <= ${RUNS:-5}; round++)); do
  for p in "${programs[@]}"; do
    d=$out/$p
    for v in c exit release; do
      exe=$d/$v
      [ "$v" = exit ] && exe=$d/exit-bin
      [ -x "$exe" ] || continue
      t0=$(date +%s%N)
      (cd "$d" && "$exe" < /dev/null > /dev/null 2>> "$d/$v.stderr") || echo "$p $v: exit $?" >> "$out/failures.txt"
      t1=$(date +%s%N)
      printf '%s\t%d\t%s\t%.1f\n' "$p" "$round" "$v" "$(( (t1 - t0) / 1000 ))e-3" >> "$out/times.tsv"
    done
  done
done
python3 - "$out" > "$out/summary.md" <<'PY'
import csv, json, os, statistics, sys
from collections import defaultdict
out = sys.argv[1]
t = defaultdict(list)
for r in csv.DictReader(open(os.path.join(out, "times.tsv")), delimiter="\t"):
    t[(r["program"], r["variant"])].append(float(r["wall_ms"]))
print("| program | C ms | .cu, exit ms | .cu, release ms | release − exit ms | predicted teardown with release ms | tail ms (model) |")
print("|---|---:|---:|---:|---:|---:|---:|")
for p in sorted({k[0] for k in t}):
    m = {v: statistics.median(t[(p, v)]) if t[(p, v)] else float("nan") for v in ("c", "exit", "release")}
    plan = json.load(open(os.path.join(out, p, p + ".plan.json"))).get("program", {})
    print(f"| {p} | {m['c']:.1f} | {m['exit']:.1f} | {m['release']:.1f} | {m['release'] - m['exit']:+.1f} | "
          f"{plan.get('teardown_ms', float('nan')):.1f} | {plan.get('release_tail_ms', float('nan')):.1f} |")
PY
cat "$out/summary.md"
