#!/usr/bin/env bash
# Runs `recipe advise` over every PolyBench/C 4.2.1 kernel as shipped, with
# the suite's own flags, into OUTDIR, on a copy of the corpus inside OUTDIR so
# that everything OUTDIR holds is relative to it (it can be carried to a GPU
# machine as it is):
#   OUTDIR/corpus/            the suite, copied unedited
#   OUTDIR/<kernel>/          <kernel>.recipe.md, .cu (when a nest was converted), .plan.json
#   OUTDIR/kernels.tsv        kernel, its .c (relative to OUTDIR), the .cu or "-", the preprocessor flags
# usage: bench/polybench/generate.sh OUTDIR [extra preprocessor flags, e.g. -DPOLYBENCH_USE_RESTRICT]
# Environment: RECIPE_BINARY (default build/recipe), POLYBENCH (default ../shared/corpus/polybench-c-4.2.1),
# DATASET (default LARGE_DATASET), PLATFORM (the --platform of advise: a name or a .json profile; default h200),
# ADVISE_FLAGS (more options for advise, e.g. --convert-all to convert also the nests the CPU comparison keeps).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: generate.sh OUTDIR [flags...]}
shift
recipe=${RECIPE_BINARY:-$root/build/recipe}
corpus=${POLYBENCH:-$root/../shared/corpus/polybench-c-4.2.1}
dataset=${DATASET:-LARGE_DATASET}
platform=${PLATFORM:-h200}
# A profile given by a relative path is still found after the cd below.
[ -f "$platform" ] && platform=$(cd "$(dirname "$platform")" && pwd)/$(basename "$platform")
[ -f "$corpus/utilities/benchmark_list" ] || { echo "no PolyBench/C corpus at $corpus"; exit 3; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out/corpus"
cp -r "$corpus" "$out/corpus"
: > "$out/kernels.tsv"
cd "$out"
while read -r rel; do
  rel=${rel#./}
  name=$(basename "$rel" .c)
  flags=(-I corpus/utilities "-D$dataset" "$@")
  rm -rf "$name"
  status=0
  # shellcheck disable=SC2086
  "$recipe" advise "corpus/$rel" "${flags[@]}" --platform "$platform" ${ADVISE_FLAGS:-} -o "$name" >/dev/null 2>"$name.stderr" || status=$?
  if [ "$status" -gt 1 ]; then
    echo "generate.sh: recipe advise failed on $rel (exit $status):" >&2
    cat "$name.stderr" >&2
    exit 1
  fi
  rm -f "$name.stderr"
  cu=-
  [ -f "$name/$name.cu" ] && cu="$name/$name.cu"
  printf '%s\t%s\t%s\t%s\n' "$name" "corpus/$rel" "$cu" "${flags[*]}" >> kernels.tsv
done < "$corpus/utilities/benchmark_list"
echo "generate.sh: $(grep -vc $'\t-\t' kernels.tsv) of $(wc -l < kernels.tsv) kernels have a .cu in $out"
