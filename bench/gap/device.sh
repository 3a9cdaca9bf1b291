#!/usr/bin/env bash
# On a machine with a GPU: where the whole-program time of an emitted program
# goes, next to its C program. For each sample, `recipe advise --convert-all`
# with the profile PLATFORM writes the .cu; three programs are built with
# probe_main.c wrapped around their main: the C program (gcc -O2; its
# converted nests timed by bench/e2e/instrument.py), the .cu
# (the recipe's nvcc line) and the .cu without its early CUDA start-up (the
# `recipe::EarlyStart` line removed). bench/gap/run.py then runs them as
# fresh processes, ROUNDS rounds interleaved, and one round with the
# library's phase tables; bench/gap/report.py summarises OUTDIR/gap.tsv
# (OUTDIR/gap.md); the plans and phase tables are packed in OUTDIR/details.tgz.
# usage: bench/gap/device.sh PLATFORM OUTDIR
# Environment: RECIPE_BINARY (default build/recipe), ROUNDS (default 5),
# SAMPLES (names, default every sample).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
platform=${1:?usage: device.sh PLATFORM OUTDIR}
out=$(mkdir -p "${2:?usage: device.sh PLATFORM OUTDIR}" && cd "$2" && pwd)
recipe=${RECIPE_BINARY:-$root/build/recipe}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export RECIPE_PLATFORM_DIR=$root/advisor/platforms
samples=${SAMPLES:-$(cd "$root/samples" && ls ./*.c | sed 's|^\./||; s|\.c$||')}
gcc -O2 -c "$root/bench/gap/probe_main.c" -o "$work/probe_c.o" || exit 1
g++ -O2 -x c++ -c "$root/bench/gap/probe_main.c" -o "$work/probe_cxx.o" || exit 1
: > "$work/programs.tsv"
for name in $samples; do
  d=$work/$name
  mkdir -p "$d"
  cp "$root/samples/$name.c" "$d/"
  read -r -a flags <<<"$(sed -n 's|^/\* recipe advise flags: \(.*\) \*/$|\1|p' "$root/samples/$name.c" | head -1)"
  cflags=()
  for ((i = 0; i < ${#flags[@]}; i++)); do
    case ${flags[i]} in
      -D|-U) cflags+=("${flags[i]}" "${flags[i + 1]:-}"); ((i++)) ;;
      -D*|-U*) cflags+=("${flags[i]}") ;;
    esac
  done
  (cd "$d" && "$recipe" advise "$name.c" "${flags[@]}" --convert-all --platform "$platform" -o . >advise.log 2>&1)
  [ -f "$d/$name.cu" ] || { echo "device.sh: $name: no .cu (see advise.log)"; cat "$d/advise.log"; continue; }
  # The C program with the converted nests timed (bench/e2e/instrument.py): its region beside the library's.
  python3 "$root/bench/e2e/instrument.py" "$d/$name.plan.json" "$d/$name.c" "$d/timed.c" >"$d/build.log" 2>&1 &&
  gcc -O2 "${cflags[@]}" -Dmain=recipe_probe_main "$d/timed.c" "$work/probe_c.o" -lm -o "$d/c" >>"$d/build.log" 2>&1 ||
    { echo "device.sh: $name: C build failed"; cat "$d/build.log"; continue; }
  cmd=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["compile_command"])' "$d/$name.plan.json")
  cmd=${cmd%" $name.cu -o $name"}
  cmd=${cmd//'"$RECIPE_INCLUDE"'/$root/library/include}
  # Without a GPU here (a dry run of the script), build for sm_90.
  command -v nvidia-smi >/dev/null || cmd=${cmd//-arch=native/-arch=sm_90}
  sed '/recipe::EarlyStart recipe_early_start;/d' "$d/$name.cu" > "$d/noearly.cu"
  ok=1
  for v in cu noearly; do
    src=$name.cu; [ $v = noearly ] && src=noearly.cu
    (cd "$d" && eval "$cmd -Dmain=recipe_probe_main $src $work/probe_cxx.o -o $v") >>"$d/build.log" 2>&1 || ok=0
  done
  [ $ok = 1 ] || { echo "device.sh: $name: nvcc failed"; tail -20 "$d/build.log"; continue; }
  printf '%s\tc\t%s\n%s\tcu\t%s\n%s\tnoearly\t%s\n' "$name" "$d/c" "$name" "$d/cu" "$name" "$d/noearly" >> "$work/programs.tsv"
  cp "$d/$name.plan.json" "$out/$name.plan.json"
done
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1; date -u '+%Y-%m-%d %H:%M UTC'; } > "$out/device.txt"
python3 "$root/bench/gap/run.py" "$work" "$out" "${ROUNDS:-5}" || exit 1
python3 "$root/bench/gap/report.py" "$out" | tee "$out/gap.md"
# The plans and phase tables in one file (fewer files travel back).
(cd "$out" && tar -czf details.tgz ./*.plan.json phases-*.txt && rm -f ./*.plan.json phases-*.txt)
