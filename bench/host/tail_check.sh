#!/usr/bin/env bash
# main's work after its last GPU work, on this machine (no GPU): the lines
# FIRST..LAST of a sample (a statement or a loop nest that stays on the CPU,
# e.g. a checksum loop) timed in the C program, RUNS processes (default 5),
# beside what `recipe advise --measure-host` prices for main's work after its
# last GPU work (plan.json program.release_tail_ms): whether the tail that
# hides CUDA's release (recipe::release_async) is priced as long as it runs.
# usage: bench/host/tail_check.sh SAMPLE.c FIRST LAST
#   e.g. bench/host/tail_check.sh samples/vector_add.c 37 38
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
src=${1:?usage: tail_check.sh SAMPLE.c FIRST LAST}
first=${2:?}; last=${3:?}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
name=$(basename "$src" .c)
printf '{"nests": [{"id": 1, "verdict": "converted", "conversion": {"replaces_lines": [%d, %d]}}]}\n' "$first" "$last" \
  > "$work/lines.json"
python3 "$root/bench/e2e/instrument.py" "$work/lines.json" "$src" "$work/timed.c"
gcc -O2 "$work/timed.c" -o "$work/timed" -lm
"${RECIPE_BINARY:-$root/build/recipe}" advise "$src" --measure-host -o "$work/plan" > /dev/null 2>&1 || true
ms=()
for _ in $(seq "${RUNS:-5}"); do
  ms+=("$("$work/timed" 2>&1 >/dev/null | sed -n 's/^recipe: c-time [0-9-]* //p')")
done
python3 - "$work/plan/$name.plan.json" "$first" "$last" "${ms[@]}" <<'PY'
import json, statistics, sys
plan, first, last, ms = sys.argv[1], sys.argv[2], sys.argv[3], [float(x) for x in sys.argv[4:]]
try:
    program = json.load(open(plan)).get("program", {})
except OSError:
    program = {}
tail = program.get("release_tail_ms")
after = program.get("release_after_line")
print(f"lines {first}-{last}: measured {statistics.median(ms):.1f} ms (median of {len(ms)}: {min(ms):.1f}-{max(ms):.1f})")
print("main's work after its last GPU work" + (f" (after line {after})" if after else "") + ": priced " +
      (f"{tail:.1f} ms" if tail is not None else "– (no release planned: see the recipe)"))
PY
