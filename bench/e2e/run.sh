#!/usr/bin/env bash
# On a machine with a GPU: the end-to-end benchmark of the programs that
# bench/e2e/generate.sh prepared in OUTDIR (programs.tsv). One call does all:
#  1. builds, JOBS at a time, for each program: the original C program and
#     the timed C copy (gcc -O2, the program's flags, its extra C sources,
#     -lm), the decision's .cu (target gpu) and the forced one (--convert-all,
#     target gpu-forced; not built when its content is the decision's .cu's),
#     each with the nvcc line the recipe printed in its own plan (plan.json's
#     compile_command / compile field where it has one, else the .cu's
#     `// Build:` line), "$RECIPE_INCLUDE" being this checkout's
#     library/include, run in the directory advise ran in (the first directory
#     of the .cu's path), the objects of the extra C sources linked in;
#     -arch=native where nvcc can build and run with it, else -arch=$ARCH;
#  2. then, one process at a time and nothing else running, RUNS rounds of,
#     in this order: the original C program (whole-program wall time); the
#     timed C copy (its `recipe: c-time FIRST-LAST MS` lines, summed); the
#     decision's .cu if there is one, and the forced .cu if there is one and
#     it differs from the decision's (the report then takes the decision's
#     runs for both), each with RECIPE_REPORT=time (wall time, and its
#     `recipe: time NAME MEASURED_MS STARTUP_MS PREDICTED_MS` lines, summed);
#     stdout goes to /dev/null. Programs with no forced .cu (the generator
#     converts no nest) run only as C programs;
#  3. bench/e2e/report.py OUTDIR writes the page (REPORT, default
#     OUTDIR/results-e2e.md) from what was saved:
#       OUTDIR/raw.tsv     one line per process run (header on line 1);
#                          variant c, c-timed, gpu (the decision's .cu) or gpu-forced
#       OUTDIR/builds.tsv  one line per build: name, kind, target, exit status, log
#       OUTDIR/env.tsv     the date, GPU, driver, nvcc, gcc, CPU, RUNS, arch
#     Builds and logs are in OUTDIR/e2e-build/<name>/.
# Exits 1 if a build failed or a program exited non-zero (the page is still
# written, with those rows marked), or if the report cannot be made.
# usage: bench/e2e/run.sh OUTDIR
# Environment: RUNS (rounds, default 5), ONLY (program names, space-separated),
# JOBS (builds at a time, default all cores), ARCH (default sm_90, when
# -arch=native does not work), TIMEOUT (seconds a run may take, default 900),
# REPORT (the page's path), IDLE_S (seconds the GPU sits unused before
# each .cu run, counted from the end of the last one, default 3: a user's
# program meets an idled GPU, whose CUDA start-up on an H200 host took
# ~290 ms against ~220 within a second of another process;
# bench/kernel/startup_after_idle.cu), FULL_RUNS (after the rounds, this many more runs
# of each .cu with RECIPE_REPORT=1: every call's phases and the start-up
# thread's timeline, kept in e2e-build/<name>/<variant>.full<k>.log and not
# timed; default 0).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(cd "${1:?usage: run.sh OUTDIR}" && pwd)
runs=${RUNS:-5}
jobs=${JOBS:-$(nproc)}
arch=${ARCH:-sm_90}
limit=${TIMEOUT:-900}
include=$root/library/include
build=$dir/e2e-build
unset RECIPE_REPORT
[ -f "$dir/programs.tsv" ] || { echo "run.sh: no programs.tsv in $dir (make it with bench/e2e/generate.sh)" >&2; exit 3; }
if ! awk -F'\t' 'NF != 10 {exit 1}' "$dir/programs.tsv"; then
  echo "run.sh: $dir/programs.tsv does not have the 10 columns of generate.sh (an older layout, without the forced" \
       "--convert-all side?): make it again with bench/e2e/generate.sh" >&2
  exit 3
fi
cd "$dir" || exit 3
rm -rf "$build"
mkdir -p "$build"

selected() { [ -z "${ONLY:-}" ] || grep -qw -- "$1" <<<"$ONLY"; }

# -arch=native, where nvcc can build for the GPU here and the result runs.
archflag=-arch=native
mkdir -p "$build/probe"
printf '__global__ void k() {}\nint main() { k<<<1, 1>>>(); return cudaDeviceSynchronize() != cudaSuccess; }\n' > "$build/probe/probe.cu"
if ! { nvcc -arch=native "$build/probe/probe.cu" -o "$build/probe/probe" && "$build/probe/probe"; } >"$build/probe/log" 2>&1; then
  archflag=-arch=$arch
  echo "run.sh: -arch=native does not work here (see $build/probe/log); building with $archflag" >&2
fi

# The nvcc line of the recipe for PLAN / CU, as it printed it.
compile_command() {
  python3 - "$1" "$2" <<'EOF'
import json, sys
plan = json.load(open(sys.argv[1]))
for key in ("compile_command", "compile"):
    if isinstance(plan.get(key), str):
        print(plan[key]); sys.exit(0)
for line in open(sys.argv[2]):
    if line.startswith("// Build: "):
        print(line[len("// Build: "):].strip()); sys.exit(0)
sys.exit(f"{sys.argv[1]}: no compile command (no compile_command field, and {sys.argv[2]} has no '// Build:' line)")
EOF
}

# Builds CU with the nvcc line of PLAN into $build/NAME/TARGET (gpu or
# gpu-forced), OBJS (already quoted) linked in; NAME/status gets "TARGET STATUS".
build_cu() {
  local name=$1 target=$2 cu=$3 plan=$4 objs=$5
  local b=$build/$name status=0 cmd stem sub rel
  {
    cmd=$(compile_command "$plan" "$cu") || status=1
    stem=$(basename "$cu" .cu)
    sub=${cu%%/*}
    rel=${cu#*/}
    if [ $status -eq 0 ] && [[ $cmd != *" $stem.cu -o $stem" ]]; then
      echo "run.sh: the compile command does not end with '$stem.cu -o $stem': $cmd"; status=1
    fi
    if [ $status -eq 0 ]; then
      cmd=${cmd%" $stem.cu -o $stem"}
      # shellcheck disable=SC2016  # the literal "$RECIPE_INCLUDE" of the printed line
      cmd=${cmd//'"$RECIPE_INCLUDE"'/$(printf '%q' "$include")}
      cmd=${cmd//-arch=native/$archflag}
      cmd+=" $(printf '%q' "$rel")$objs -o $(printf '%q' "$b/$target")"
      echo "(cd $sub && $cmd)"
      (cd "$sub" && eval "$cmd") || status=1
    fi
  } >"$b/$target.log" 2>&1
  echo "$target $status" >> "$b/status"
}

# Builds one program into $build/NAME: c, c-timed, gpu, gpu-forced; NAME/status gets "TARGET STATUS" lines.
build_one() {
  local name=$1 c=$2 timed=$3 cu=$4 plan=$5 fcu=$6 fplan=$7 flags=$8 extra=$9
  local b=$build/$name objs="" src i=0 status=0
  mkdir -p "$b"
  # shellcheck disable=SC2086
  gcc -O2 $flags "$c" $extra -lm -o "$b/c" >"$b/c.log" 2>&1
  echo "c $?" >> "$b/status"
  if [ "$timed" != - ]; then
    # shellcheck disable=SC2086
    gcc -O2 $flags "$timed" $extra -lm -o "$b/c-timed" >"$b/c-timed.log" 2>&1
    echo "c-timed $?" >> "$b/status"
    # What this host's gcc vectorised in the C program (bench/e2e/cpu_nests.py --logs).
    # shellcheck disable=SC2086
    gcc -O2 $flags -fopt-info-vec-optimized -c "$c" -o /dev/null 2>"$b/vectorized.log"
  fi
  [ "$cu" = - ] && [ "$fcu" = - ] && return
  for src in $extra; do
    # shellcheck disable=SC2086
    gcc -O2 -c $flags "$src" -o "$b/extra$i.o" >>"$b/extra.log" 2>&1 || status=1
    objs+=" $(printf '%q' "$b/extra$i.o")"
    i=$((i + 1))
  done
  if [ $status -ne 0 ]; then
    [ "$cu" != - ] && { cp "$b/extra.log" "$b/gpu.log"; echo "gpu 1" >> "$b/status"; }
    [ "$fcu" != - ] && { cp "$b/extra.log" "$b/gpu-forced.log"; echo "gpu-forced 1" >> "$b/status"; }
    return
  fi
  [ "$cu" != - ] && build_cu "$name" gpu "$cu" "$plan" "$objs"
  [ "$fcu" != - ] && ! same_cu "$cu" "$fcu" && build_cu "$name" gpu-forced "$fcu" "$fplan" "$objs"
}

# Whether the forced .cu FCU is the decision's CU, the same program (then it is
# neither built nor run again): byte for byte once the comment lines are left
# out, since they quote host figures that --measure-host reads anew for each
# side (two runs of one program would only measure the host's noise).
code() { grep -v '^[[:space:]]*//' "$1"; }
same_cu() { [ "$1" != - ] && [ "$2" != - ] && cmp -s <(code "$1") <(code "$2"); }

echo "run.sh: building ($jobs at a time, $archflag)" >&2
while IFS=$'\t' read -r name kind c timed cu plan fcu fplan flags extra; do
  selected "$name" || continue
  build_one "$name" "$c" "$timed" "$cu" "$plan" "$fcu" "$fplan" "$flags" "$extra" </dev/null &
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
done < programs.tsv
wait

failed=0
printf 'name\tkind\ttarget\tstatus\tlog\n' > builds.tsv
while IFS=$'\t' read -r name kind _; do
  selected "$name" || continue
  while read -r target status; do
    printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$kind" "$target" "$status" "e2e-build/$name/$target.log" >> builds.tsv
    if [ "$status" -ne 0 ]; then
      failed=1
      echo "run.sh: $name: $target build failed (e2e-build/$name/$target.log):" >&2
      grep -m3 -i error "$build/$name/$target.log" >&2
    fi
  done < "$build/$name/status"
done < programs.tsv

{
  printf 'date\t%s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
  printf 'gpu\t%s\n' "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
  printf 'nvcc\t%s\n' "$(nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\).*/\1/p')"
  printf 'gcc\t%s\n' "$(gcc -dumpfullversion 2>/dev/null)"
  printf 'cpu\t%s\n' "$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -1)"
  printf 'runs\t%s\n' "$runs"
  printf 'arch\t%s\n' "$archflag"
  printf 'idle_s\t%s\n' "${IDLE_S:-3}"
  printf 'advise_extra\t%s\n' "${ADVISE_EXTRA:-}"  # the samples' further advise options (generate.sh)
} > env.tsv

# Waits until the GPU has been unused IDLE_S seconds since the last .cu run ended.
gpu_ended=0
idle_gpu() {
  local left
  left=$(awk -v e="$gpu_ended" -v n="$(date +%s.%N)" -v i="${IDLE_S:-3}" 'BEGIN {l = e + i - n; print (e > 0 && l > 0) ? l : 0}')
  sleep "$left"
}

# One run of EXE (VARIANT c, c-timed, gpu or gpu-forced) as round RUN: a line of raw.tsv.
run_one() {
  local name=$1 kind=$2 variant=$3 exe=$4 run=$5
  local err=$build/$name/$variant.stderr t0 t1 rc fields on_gpu=0
  { [ "$variant" = gpu ] || [ "$variant" = gpu-forced ]; } && on_gpu=1
  [ $on_gpu = 1 ] && idle_gpu
  t0=$(date +%s.%N)
  if [ $on_gpu = 1 ]; then
    # shellcheck disable=SC2209
    RECIPE_REPORT=time timeout "$limit" "$exe" </dev/null >/dev/null 2>"$err"
  else
    timeout "$limit" "$exe" </dev/null >/dev/null 2>"$err"
  fi
  rc=$?
  t1=$(date +%s.%N)
  [ $on_gpu = 1 ] && gpu_ended=$t1
  case $variant in
    c) fields=$'-\t-\t-\t-\t-\t-' ;;
    c-timed) fields=$(awk '$1 == "recipe:" && $2 == "c-time" {s += $4; n++}
                           END {printf "%.6f\t-\t%d\t-\t-\t-", s, n}' "$err") ;;
    gpu|gpu-forced) fields=$(awk '$1 == "recipe:" && $2 == "time" && NF == 6 {
                         n++; m += $4; s += $5; p += $6; if (n == 1) f = $4; if (n == 2) g = $4 }
                       END {printf "%.6f\t%.6f\t%d\t%s\t%s\t%.6f", m, s, n, (n ? f : "-"), (n > 1 ? g : "-"), p}' "$err") ;;
  esac
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$kind" "$variant" "$run" "$rc" \
    "$(awk "BEGIN {printf \"%.6f\", $t1 - $t0}")" "$fields" >> raw.tsv
  if [ "$rc" -ne 0 ]; then
    failed=1
    cp "$err" "$build/$name/$variant.run$run.failed.stderr"
    echo "run.sh: $name: $variant exited $rc in round $run (e2e-build/$name/$variant.run$run.failed.stderr)" >&2
  fi
}

printf 'name\tkind\tvariant\trun\tstatus\twall_s\tregion_ms\tstartup_ms\tcalls\tfirst_ms\tsecond_ms\tpredicted_ms\n' > raw.tsv
while IFS=$'\t' read -r name kind _ timed cu _ fcu _; do
  selected "$name" || continue
  echo "run.sh: running $name ($runs rounds)" >&2
  b=$build/$name
  for ((run = 1; run <= runs; run++)); do
    [ -x "$b/c" ] && run_one "$name" "$kind" c "$b/c" "$run"
    [ "$timed" != - ] && [ -x "$b/c-timed" ] && run_one "$name" "$kind" c-timed "$b/c-timed" "$run"
    [ "$cu" != - ] && [ -x "$b/gpu" ] && run_one "$name" "$kind" gpu "$b/gpu" "$run"
    # A forced .cu that is the decision's (same_cu) was not built: the report takes the gpu runs for it.
    [ "$fcu" != - ] && [ -x "$b/gpu-forced" ] && run_one "$name" "$kind" gpu-forced "$b/gpu-forced" "$run"
  done
  for ((k = 1; k <= ${FULL_RUNS:-0}; k++)); do
    for variant in gpu gpu-forced; do
      [ -x "$b/$variant" ] || continue
      idle_gpu
      RECIPE_REPORT=1 timeout "$limit" "$b/$variant" </dev/null >/dev/null 2>"$b/$variant.full$k.log"
      gpu_ended=$(date +%s.%N)
    done
  done
done < programs.tsv

python3 "$root/bench/e2e/report.py" "$dir" || failed=1
exit $failed
