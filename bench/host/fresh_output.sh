#!/usr/bin/env bash
# One C nest on this machine (no GPU): the sample with the statement CALL
# timed, its output array OUTPUT either fresh (as the program leaves it) or
# written first (memset of BYTES), RUNS processes of each (default 5), beside
# what `recipe advise --measure-host` prices for the nest (its memory and
# arithmetic parts, its first call with fresh output pages and a later call
# with them present): how much of a first call's time its fresh pages take,
# measured against the model's hostFirstTouchGBs share.
# usage: bench/host/fresh_output.sh SAMPLE.c CALL OUTPUT BYTES
#   e.g. bench/host/fresh_output.sh samples/moving_average.c 'moving_average(in, out);' out '(size_t)N * sizeof *out'
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
src=${1:?usage: fresh_output.sh SAMPLE.c CALL OUTPUT BYTES}
call=${2:?}; output=${3:?}; bytes=${4:?}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$src" "$call" "$output" "$bytes" "$work/timed.c" <<'PY'
import sys
src, call, output, nbytes, dst = sys.argv[1:]
s = open(src).read()
if s.count(call) != 1:
    sys.exit(f"fresh_output.sh: `{call}` is not once in {src}")
s = ('#include <stdlib.h>\n#include <string.h>\n#include <stdio.h>\n#include <time.h>\n'
     'static double recipe_now_ms(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); '
     'return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }\n' + s)
s = s.replace(call, f'{{ if (getenv("PRETOUCH")) memset({output}, 1, {nbytes}); '
                    f'double recipe_t0 = recipe_now_ms(); {call} '
                    f'fprintf(stderr, "nest %.3f\\n", recipe_now_ms() - recipe_t0); }}', 1)
open(dst, "w").write(s)
PY
gcc -O2 -fopt-info-vec-optimized "$work/timed.c" -o "$work/timed" -lm 2> "$work/vec.log" || { cat "$work/vec.log"; exit 1; }
grep -o "loop vectorized using [0-9]* byte vectors" "$work/vec.log" | sort | uniq -c | sed 's/^/gcc -O2: /' || echo "gcc -O2: nothing vectorized"
"${RECIPE_BINARY:-$root/build/recipe}" advise "$src" --measure-host --convert-all -o "$work/plan" > /dev/null 2>&1 || true
for mode in fresh present; do
  ms=()
  for _ in $(seq "${RUNS:-5}"); do
    if [ $mode = present ]; then t=$(PRETOUCH=1 "$work/timed" 2>&1 >/dev/null | sed -n 's/^nest //p')
    else t=$("$work/timed" 2>&1 >/dev/null | sed -n 's/^nest //p'); fi
    ms+=("$t")
  done
  printf '%s output: %s ms (median %s)\n' "$mode" "${ms[*]}" "$(printf '%s\n' "${ms[@]}" | sort -g | sed -n "$(( (${#ms[@]} + 1) / 2 ))p")"
done
python3 - "$work/plan" "$call" <<'PY'
import glob, json, sys
plan = json.load(open(glob.glob(sys.argv[1] + "/*.plan.json")[0]))
for n in plan["nests"]:
    ip = n.get("in_program")
    if ip and "cpu_estimate" in ip:
        e = ip["cpu_estimate"]
        print(f"model, nest {n['lines'][0]}-{n['lines'][1]} ({n['function']}): first call {ip['cpu_first_ms']:.1f} ms "
              f"(fresh pages {ip['cpu_first_ms'] - ip['cpu_ms']:.1f}), pages present {ip['cpu_ms']:.1f} "
              f"(memory {e['memory_ms']:.1f} + arithmetic {e['compute_ms']:.1f} at {e['gflops']:.1f} GFLOP/s)")
PY
