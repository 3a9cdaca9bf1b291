#!/usr/bin/env bash
# Every .cu that `recipe advise` writes for a PolyBench/C 4.2.1 kernel, with
# the suite's own flags (-DLARGE_DATASET, and again with
# -DPOLYBENCH_USE_RESTRICT), must compile with nvcc with those flags. CI has
# nvcc and no GPU: compile only (-c, sm_90). Prints "skipped" where the
# corpus or nvcc is missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${POLYBENCH:-$root/../shared/corpus/polybench-c-4.2.1}
nvcc=${NVCC:-$(command -v nvcc || true)}
[ -x "$nvcc" ] || nvcc=/usr/local/cuda/bin/nvcc
[ -f "$corpus/utilities/benchmark_list" ] || { echo "no PolyBench/C corpus: skipped"; exit 0; }
[ -x "$nvcc" ] || { echo "no nvcc: skipped"; exit 0; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
compiled=0
for variant in plain restrict; do
  extra=()
  [ "$variant" = restrict ] && extra=(-DPOLYBENCH_USE_RESTRICT)
  # Every nest the generator can convert, also those the CPU comparison keeps there.
  POLYBENCH=$corpus ADVISE_FLAGS=--convert-all "$root/bench/polybench/generate.sh" "$work/$variant" "${extra[@]}" >/dev/null
  # name, .c, .cu, flags: compile the .cu files side by side.
  while IFS=$'\t' read -r name c cu flags; do
    [ "$cu" = - ] && continue
    echo "$variant $name $cu $flags"
  done < "$work/$variant/kernels.tsv" > "$work/$variant.jobs"
done
compile() {
  local variant=$1 name=$2 cu=$3; shift 3
  cd "$work/$variant"
  if "$nvcc" -std=c++17 -arch=sm_90 -c --fmad=false -I"$root/library/include" "$@" -I"$(dirname "corpus/$(grep -P "^$name\t" kernels.tsv | cut -f2 | sed 's|^corpus/||')")" \
       "$cu" -o "$work/$variant.$name.o" >"$work/$variant.$name.log" 2>&1; then
    echo "ok   $variant $name"
  else
    echo "FAIL $variant $name"; cat "$work/$variant.$name.log"
  fi
}
export -f compile
export work root nvcc
results=$(cat "$work"/plain.jobs "$work"/restrict.jobs | xargs -P "$(nproc)" -L 1 bash -c 'compile "$@"' _)
echo "$results"
compiled=$(grep -c '^ok' <<<"$results" || true)
failed=$(grep -c '^FAIL' <<<"$results" || true)
echo "polybench_nvcc: $compiled compiled, $failed failed"
[ "$failed" -eq 0 ]
