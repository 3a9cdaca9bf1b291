#!/usr/bin/env bash
# Hostile inputs: every case must end with an exit code the README documents
# (0, 1 or 2 — never 3, never a signal), say what went wrong in one line on
# an error, and leave either a whole output set or none.
#
#   tests/hostile/run.sh [RECIPE-BINARY] [PROFILER-BINARY]
#
# Exit status: 0 when every case holds, 1 otherwise (each failure is listed).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
recipe=$(realpath "${1:-$root/build/recipe}")
profiler=$(realpath -m "${2:-$root/build/tools/profiler/recipe-profile}")
[ -x "$recipe" ] || { echo "hostile: no recipe binary at $recipe" >&2; exit 1; }
work=$(mktemp -d)
trap 'chmod -R u+rwx "$work" 2>/dev/null; rm -rf "$work"' EXIT
cd "$work"
python3 "$root/tests/hostile/make_inputs.py" "$work/in" "$root/samples" || exit 1

failures=0 cases=0
fail() { echo "FAIL $1: $2"; failures=$((failures + 1)); }

# check NAME EXPECTED-CODES COMMAND...: runs the command (60 s at most) in a
# fresh directory whose out/ the command may write, then checks the rules.
check() {
  local name=$1 codes=$2
  shift 2
  cases=$((cases + 1))
  local dir="$work/run-$cases"
  mkdir -p "$dir"
  (cd "$dir" && timeout 60 "$@" >stdout.txt 2>stderr.txt)
  local rc=$?
  local err="$dir/stderr.txt"
  if [ $rc -eq 124 ]; then fail "$name" "ran past 60 s"; return; fi
  if [ $rc -ge 128 ]; then fail "$name" "killed by signal $((rc - 128)): $(head -c 200 "$err")"; return; fi
  case " $codes " in *" $rc "*) ;; *) fail "$name" "exit $rc, expected one of $codes: $(tail -c 300 "$err")"; return ;; esac
  if [ $rc -eq 2 ]; then
    # One line saying what went wrong, compiler style or recipe's own: the
    # first that is not a warning (usage may follow it).
    local first
    first=$(grep -av 'warning:\|note:' "$err" | head -1)
    if ! printf '%s\n' "$first" | grep -Eq '^(recipe: error: |recipe-profile: error: |[^ ]+:[0-9]+:[0-9]+: error: |[^ ]+: error: )'; then
      fail "$name" "exit 2 without an error line: $(tail -c 300 "$err")"
      return
    fi
  fi
  # Outputs: all or nothing.
  if [ -d "$dir/out" ]; then
    if find "$dir/out" -name '.recipe-staging-*' | grep -q .; then fail "$name" "a staging directory was left"; return; fi
    local recipes plans cus
    recipes=$(find "$dir/out" -name '*.recipe.md' | wc -l)
    plans=$(find "$dir/out" -name '*.plan.json' | wc -l)
    cus=$(find "$dir/out" -name '*.cu' | wc -l)
    if [ $rc -eq 2 ] && [ "$(find "$dir/out" -type f | wc -l)" -ne 0 ]; then
      fail "$name" "exit 2 but outputs were written: $(ls "$dir/out" | head -3 | tr '\n' ' ')"
      return
    fi
    if [ $rc -ne 2 ] && [ "$1" != "${1%recipe}" ] && [ "$2" = advise ]; then
      if [ "$recipes" -ne 1 ] || [ "$plans" -ne 1 ]; then fail "$name" "incomplete output set ($recipes recipes, $plans plans)"; return; fi
      if [ $rc -eq 0 ] && [ "$cus" -ne 1 ]; then fail "$name" "exit 0 without a .cu"; return; fi
      if [ $rc -eq 1 ] && [ "$cus" -ne 0 ]; then fail "$name" "exit 1 with a .cu"; return; fi
    fi
  fi
}

in=$work/in
# Files no C compiler would take, or that push sizes to the edge.
for f in empty.c binary.c not_utf8.c deep_parens.c unbalanced_parens.c deep_braces.c long_line.c huge.c \
         nul_bytes.c only_comment.c macro_bomb.c stray_directive.c unterminated_comment.c many_nests.c; do
  for cmd in analyze advise; do
    if [ $cmd = advise ]; then check "$cmd $f" "0 1 2" "$recipe" advise "$in/$f" -o out
    else check "$cmd $f" "0 1 2" "$recipe" analyze "$in/$f"; fi
  done
done
# Files that are not there or not files.
check "advise missing" "2" "$recipe" advise "$in/no_such.c" -o out
check "advise directory" "2" "$recipe" advise "$in" -o out
check "analyze directory" "2" "$recipe" analyze "$in"
check "advise /dev/null" "0 1 2" "$recipe" advise /dev/null -o out
if [ "$(id -u)" -ne 0 ]; then
  cp "$in/good.c" "$work/unreadable.c" && chmod 000 "$work/unreadable.c"
  check "advise unreadable" "2" "$recipe" advise "$work/unreadable.c" -o out
fi
check "advise two files" "2" "$recipe" advise "$in/good.c" "$in/good.c" -o out
check "analyze two files" "2" "$recipe" analyze "$in/good.c" "$in/good.c"
# Every option with a bad value.
good=$in/good.c
for bad in "--platform no-such-gpu" "--platform $in/binary.c" "--platform /no/such.json" "--host-memory shared" \
           "--kernel-ms abc" "--kernel-ms -1" "--kernel-ms 0" "--kernel-ms 1=nan" "--kernel-ms 99=1" "--gpu-memory lots" \
           "--gpu-memory -4GiB" "--gpu-memory 99999999999TiB" "--calls 0" "--calls 1e99" "--calls abc" "--format yaml" \
           "--assume W=abc" "--assume W=99999999999999999999" "--assume =3" "--assume W" "-p /no/such/dir" \
           "--cc /no/such/cc" "-D" "-I" "--no-such-option" "-include /no/such.h"; do
  # shellcheck disable=SC2086
  check "advise $bad" "2" "$recipe" advise "$good" -o out $bad
done
check "advise -o onto a file" "2" "$recipe" advise "$good" -o "$good"
mkdir -p "$work/blocked/out" && mkdir -p "$work/blocked/out/good.plan.json"
check "advise with a directory where an output goes" "2" "$recipe" advise "$good" -o "$work/blocked/out" --force
for bad in "--tile 0x0" "--tile -1" "--tile abc" "--tile 1x2x3x4" "--streams 0" "--streams abc" "--copy sideways" \
           "--scheme fast" "--nest 99" "--nest abc"; do
  # shellcheck disable=SC2086
  check "predict $bad" "2" "$recipe" predict "$good" --scheme basic $bad
done
check "predict without a scheme" "2" "$recipe" predict "$good"
for bad in "--schemes fast" "--nest 99" "--no-such-option"; do
  # shellcheck disable=SC2086
  check "sweep $bad" "2" "$recipe" sweep "$good" $bad
done
check "unknown command" "2" "$recipe" frobnicate
check "no command" "2" "$recipe"
check "help of a command" "0" "$recipe" help advise
if [ -x "$profiler" ]; then
  check "recipe-profile bad option" "2" "$profiler" --no-such-option
  check "recipe-profile bad value" "2" "$profiler" --out
fi

echo "hostile: $cases cases, $failures failed"
[ $failures -eq 0 ]
