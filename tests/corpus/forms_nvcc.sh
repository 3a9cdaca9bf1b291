#!/usr/bin/env bash
# Every program of tests/gpu/forms/ (real-style code: own headers, sizes in
# variables and struct fields, C99 parameters) through `recipe advise` with
# the flags on its `/* recipe advise flags: ... */` line: a .cu must be
# written, converting its kernel function's nest, and compile with nvcc (-c,
# sm_90; the GPU run is tests/gpu/sample_tests.sh). Prints "skipped" without nvcc.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
recipe=${RECIPE_BINARY:-$root/build/recipe}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$nvcc" ] || { echo "no nvcc: skipped"; exit 0; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
for src in "$root"/tests/gpu/forms/*.c; do
  name=$(basename "$src" .c)
  read -r -a flags <<<"$(sed -n 's|^/\* recipe advise flags: \(.*\) \*/$|\1|p' "$src" | head -1)"
  if ! "$recipe" advise "$src" "${flags[@]}" --convert-all -o "$work/$name" >"$work/$name.log" 2>&1 || [ ! -f "$work/$name/$name.cu" ]; then
    echo "FAIL $name: no .cu"; cat "$work/$name.log"; failed=1; continue
  fi
  if ! "$nvcc" -std=c++17 -arch=sm_90 -c --fmad=false -I"$root/library/include" -I"$(dirname "$src")" \
       "$work/$name/$name.cu" -o "$work/$name.o" >"$work/$name.nvcc.log" 2>&1; then
    echo "FAIL $name: the .cu does not compile"; cat "$work/$name.nvcc.log"; failed=1; continue
  fi
  echo "ok   $name: $(head -1 "$work/$name.log")"
done
exit $failed
