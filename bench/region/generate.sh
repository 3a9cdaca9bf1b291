#!/usr/bin/env bash
# Makes the region benchmark's programs: the PolyBench/C time loops the
# generator runs as regions (jacobi-1d, jacobi-2d, heat-3d, fdtd-2d) at LARGE and
# EXTRALARGE, and the samples of each kind of region (heat2d.c: a time loop;
# stencil7.c: a loop calling a function of nests; smooth.c: consecutive
# nests), each through `recipe advise --convert-all` (jacobi-1d's loop is
# kept on the CPU otherwise; its correctness is under test too). Writes OUTDIR/programs.tsv: name, C file,
# .cu, flags ("-": none), the decision recipe advise made without --convert-all.
# usage: bench/region/generate.sh OUTDIR [PLATFORM]   (POLYBENCH: the corpus)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mkdir -p "${1:?usage: generate.sh OUTDIR [PLATFORM]}" && cd "$1" && pwd)
platform=${2:-h200}
recipe=${RECIPE_BINARY:-$root/build/recipe}
pb=$(cd "${POLYBENCH:-$root/../shared/corpus/polybench-c-4.2.1}" && pwd)
: >"$out/programs.tsv"
one() {
  local name=$1 c=$2 flags=$3
  rm -rf "$out/$name" "$out/$name.decision"
  # shellcheck disable=SC2086
  "$recipe" advise "$c" $flags --platform "$platform" -o "$out/$name.decision" >"$out/$name.decision.log" 2>&1 || true
  local decision
  decision=$(grep -m1 -E '^  (time loop|loop|nests) ' "$out/$name.decision.log" | sed -E 's/.*: (converted|kept-on-cpu),.*/\1/' || true)
  # shellcheck disable=SC2086
  "$recipe" advise "$c" $flags --platform "$platform" --convert-all -o "$out/$name" >"$out/$name.log" 2>&1
  # "-" for no flags: bash's read joins empty tab-separated fields.
  printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$c" "$(ls "$out/$name"/*.cu)" "${flags:--}" "${decision:--}" >>"$out/programs.tsv"
}
for k in jacobi-1d jacobi-2d heat-3d fdtd-2d; do
  for size in LARGE EXTRALARGE; do
    one "$k-$size" "$pb/stencils/$k/$k.c" "-I $pb/utilities -D${size}_DATASET"
  done
done
one heat2d "$root/samples/heat2d.c" ""
one stencil7 "$root/samples/stencil7.c" ""
one smooth "$root/samples/smooth.c" ""
cat "$out/programs.tsv"
