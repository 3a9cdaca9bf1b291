#!/usr/bin/env bash
# Prepares the end-to-end benchmark (bench/e2e/run.sh runs it on a GPU
# machine): `recipe advise` over every sample and every PolyBench/C kernel,
# twice with the same flags: as it is (the decision: it keeps on the CPU the
# nests it predicts would not pay) and with --convert-all (every nest the
# generator can convert, on the GPU: the "forced" side, which shows what the
# decision turned down). For each program whose forced plan converts a nest, a
# copy of its C file with every nest the forced plan converted timed
# (bench/e2e/instrument.py): the C region the model compared with the GPU,
# whatever the decision was. Everything OUTDIR holds is relative to OUTDIR, so
# it can be carried to another machine as it is:
#   OUTDIR/samples/X/src/       the sample's .c and the local headers it includes
#   OUTDIR/samples/X/           X.recipe.md, X.plan.json, X.cu (when a nest was converted), X.timed.c
#   OUTDIR/samples/X/forced/    the same with --convert-all (X.cu when the generator can convert a nest)
#   OUTDIR/polybench/           bench/polybench/generate.sh's output, plus <kernel>/<kernel>.timed.c
#   OUTDIR/polybench-forced/    bench/polybench/generate.sh's output with ADVISE_FLAGS=--convert-all
#   OUTDIR/programs.tsv         one line per program (no header):
#     name, kind (sample|polybench), original .c, timed .c, .cu, plan.json,
#     forced .cu, forced plan.json, C flags (-D/-I), extra C sources to link
#   all paths relative to OUTDIR; "-" for a .cu advise did not write (the
#   decision's when it kept every nest on the CPU; the forced one, and the
#   timed .c, when the generator can convert no nest: then only the C program
#   is timed).
# A sample's own advise flags are on its line `/* recipe advise flags: ... */`;
# they go to advise, and the -D/-I/-U ones to the C build. Advise runs in
# OUTDIR/samples (OUTDIR/polybench or OUTDIR/polybench-forced for PolyBench),
# so the nvcc line it prints (its -I paths) holds from there: run.sh compiles
# each .cu from the first directory of its path.
# usage: bench/e2e/generate.sh OUTDIR [PLATFORM]     PLATFORM: a name or a .json profile (default h200)
# Environment: RECIPE_BINARY (default build/recipe), ADVISE_EXTRA (further
# advise options for the samples, e.g. --measure-host), SAMPLES_ONLY (1: the
# samples alone), and those of
# bench/polybench/generate.sh (POLYBENCH, DATASET).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: generate.sh OUTDIR [PLATFORM]}
platform=${2:-h200}
recipe=${RECIPE_BINARY:-$root/build/recipe}
[ -x "$recipe" ] || { echo "generate.sh: no recipe binary at $recipe (build it, or set RECIPE_BINARY)" >&2; exit 3; }
recipe=$(cd "$(dirname "$recipe")" && pwd)/$(basename "$recipe")
# A profile given by a relative path is still found after the cds below.
[ -f "$platform" ] && platform=$(cd "$(dirname "$platform")" && pwd)/$(basename "$platform")
mkdir -p "$out" || exit 3
out=$(cd "$out" && pwd)
instrument=$root/bench/e2e/instrument.py
failed=0
rows=()

# The local headers SRC includes ("..."), and theirs, copied from SRCDIR into DEST.
copy_headers() {
  local file=$1 srcdir=$2 dest=$3 h
  while read -r h; do
    [ -f "$srcdir/$h" ] || continue
    [ -f "$dest/$h" ] && continue
    mkdir -p "$dest/$(dirname "$h")"
    cp "$srcdir/$h" "$dest/$h"
    copy_headers "$srcdir/$h" "$(dirname "$srcdir/$h")" "$dest/$(dirname "$h")"
  done < <(sed -n 's|^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*|\1|p' "$file")
}

# How many nests PLAN (relative to OUTDIR) converted.
converted() {
  python3 -c 'import json, sys; print(sum(n.get("verdict") == "converted" for n in json.load(open(sys.argv[1]))["nests"]))' "$out/$1"
}

# The timed copy of C (relative to OUTDIR) at TIMED, every nest the forced
# plan FPLAN converted timed, or "-" when it converted none.
timed_copy() {
  local fplan=$1 c=$2 timed=$3 n
  n=$(converted "$fplan") || return 1
  if [ "$n" -eq 0 ]; then
    echo -; return 0
  fi
  python3 "$instrument" "$out/$fplan" "$out/$c" "$out/$timed" || return 1
  echo "$timed"
}

# Checks the two sides of one program: the forced plan converts at least what
# the decision's did, and each plan that converted a nest has its .cu.
check_sides() {
  local name=$1 plan=$2 cu=$3 fplan=$4 fcu=$5 n fn
  n=$(converted "$plan") && fn=$(converted "$fplan") || return 1
  if [ "$n" -gt "$fn" ]; then
    echo "generate.sh: $name: the decision converted $n nests, --convert-all only $fn ($plan, $fplan)" >&2; return 1
  fi
  if { [ "$n" -gt 0 ] && [ "$cu" = - ]; } || { [ "$fn" -gt 0 ] && [ "$fcu" = - ]; }; then
    echo "generate.sh: $name: a plan converted a nest but its .cu is missing ($plan: $n, $fplan: $fn)" >&2; return 1
  fi
}

# Samples.
rm -rf "$out/samples"
mkdir -p "$out/samples"
for src in "$root"/samples/*.c; do
  name=$(basename "$src" .c)
  dir=$out/samples/$name
  mkdir -p "$dir/src" "$dir/forced"
  cp "$src" "$dir/src/"
  copy_headers "$src" "$(dirname "$src")" "$dir/src"
  read -r -a flags <<<"$(sed -n 's|^/\* recipe advise flags: \(.*\) \*/$|\1|p' "$src" | head -1)"
  cflags=()
  for ((i = 0; i < ${#flags[@]}; i++)); do
    case ${flags[i]} in
      -D|-I|-U) cflags+=("${flags[i]}" "${flags[i + 1]:-}"); ((i++)) ;;
      -D*|-I*|-U*) cflags+=("${flags[i]}") ;;
    esac
  done
  ok=1
  for side in decision forced; do
    if [ $side = decision ]; then o=$name; extra_flags=(); else o=$name/forced; extra_flags=(--convert-all); fi
    status=0
    # shellcheck disable=SC2086  # ADVISE_EXTRA: further advise options for every sample, e.g. --measure-host
    (cd "$out/samples" && "$recipe" advise "$name/src/$name.c" "${flags[@]}" "${extra_flags[@]}" ${ADVISE_EXTRA:-} --platform "$platform" \
       -o "$o" >"$o/advise.log" 2>&1) || status=$?
    if [ "$status" -gt 1 ] || [ ! -f "$out/samples/$o/$name.plan.json" ]; then
      echo "generate.sh: recipe advise${extra_flags[*]:+ ${extra_flags[*]}} failed on samples/$name.c (exit $status):" >&2
      cat "$out/samples/$o/advise.log" >&2
      ok=0; break
    fi
  done
  [ $ok = 1 ] || { failed=1; continue; }
  c=samples/$name/src/$name.c
  plan=samples/$name/$name.plan.json
  fplan=samples/$name/forced/$name.plan.json
  cu=-
  [ -f "$dir/$name.cu" ] && cu=samples/$name/$name.cu
  fcu=-
  [ -f "$dir/forced/$name.cu" ] && fcu=samples/$name/forced/$name.cu
  check_sides "$name" "$plan" "$cu" "$fplan" "$fcu" || { failed=1; continue; }
  timed=$(timed_copy "$fplan" "$c" "samples/$name/$name.timed.c") || { failed=1; continue; }
  rows+=("$(printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s' "$name" sample "$c" "$timed" "$cu" "$plan" "$fcu" "$fplan" \
            "${cflags[*]}${cflags[*]:+ }-I samples/$name/src" "")")
done

# SAMPLES_ONLY=1: the samples alone (no corpus needed).
if [ "${SAMPLES_ONLY:-0}" != 1 ]; then
  # PolyBench, twice: its generate.sh writes paths relative to OUTDIR/polybench
  # (OUTDIR/polybench-forced), each with its own copy of the corpus.
  PLATFORM=$platform RECIPE_BINARY=$recipe "$root/bench/polybench/generate.sh" "$out/polybench" || exit 1
  PLATFORM=$platform RECIPE_BINARY=$recipe ADVISE_FLAGS=--convert-all \
    "$root/bench/polybench/generate.sh" "$out/polybench-forced" || exit 1
  while IFS=$'\t' read -r name c cu pflags; do
    plan=polybench/$name/$name.plan.json
    fplan=polybench-forced/$name/$name.plan.json
    [ -f "$out/$plan" ] || { echo "generate.sh: no $plan" >&2; failed=1; continue; }
    [ -f "$out/$fplan" ] || { echo "generate.sh: no $fplan" >&2; failed=1; continue; }
    [ "$cu" != - ] && cu=polybench/$cu
    fcu=-
    [ -f "$out/polybench-forced/$name/$name.cu" ] && fcu=polybench-forced/$name/$name.cu
    c=polybench/$c
    # -I paths relative to OUTDIR/polybench become relative to OUTDIR.
    read -r -a pf <<<"$pflags"
    cflags=()
    for ((i = 0; i < ${#pf[@]}; i++)); do
      case ${pf[i]} in
        -I) p=${pf[i + 1]:-}; ((i++)); [[ $p = /* ]] || p=polybench/$p; cflags+=(-I "$p") ;;
        -I*) p=${pf[i]#-I}; [[ $p = /* ]] || p=polybench/$p; cflags+=("-I$p") ;;
        *) cflags+=("${pf[i]}") ;;
      esac
    done
    cflags+=(-I "$(dirname "$c")")
    check_sides "$name" "$plan" "$cu" "$fplan" "$fcu" || { failed=1; continue; }
    # The forced plan's lines are the same file's: both sides advised a copy of the same corpus.
    timed=$(timed_copy "$fplan" "$c" "polybench/$name/$name.timed.c") || { failed=1; continue; }
    rows+=("$(printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s' "$name" polybench "$c" "$timed" "$cu" "$plan" "$fcu" "$fplan" \
              "${cflags[*]}" polybench/corpus/utilities/polybench.c)")
  done < "$out/polybench/kernels.tsv"
fi

printf '%s\n' "${rows[@]}" > "$out/programs.tsv"
echo "generate.sh: of $(wc -l < "$out/programs.tsv") programs, $(awk -F'\t' '$7 != "-"' "$out/programs.tsv" | wc -l)" \
     "have a forced .cu (the generator converts a nest) and $(awk -F'\t' '$5 != "-"' "$out/programs.tsv" | wc -l)" \
     "a .cu by the decision; programs.tsv in $out"
exit $failed
