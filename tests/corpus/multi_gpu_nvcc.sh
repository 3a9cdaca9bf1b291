#!/usr/bin/env bash
# recipe advise --gpus 4 on the samples, with the test profile's made-up
# multiGpu figures (tests/platforms/multi-gpu-test.json) and --calls 1000, so
# that calls and regions run on several GPUs: every .cu written must ask the
# library for them (cfg.devices, a region's devices and halo_rows, PoolSize's
# fifth field) and compile with nvcc (-c, sm_90; no GPU needed). Prints
# "skipped" without nvcc.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
recipe=${RECIPE_BINARY:-$root/build/recipe}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$nvcc" ] || { echo "no nvcc: skipped"; exit 0; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
calls=0 regions=0
for name in emboss smooth stencil7 heat2d hotspot; do
  src=$root/samples/$name.c
  if ! "$recipe" advise "$src" --platform "$root/tests/platforms/multi-gpu-test.json" --gpus 4 --calls 1000 --convert-all \
       -o "$work/$name" >"$work/$name.log" 2>&1 || [ ! -f "$work/$name/$name.cu" ]; then
    echo "FAIL $name: no .cu"; cat "$work/$name.log"; failed=1; continue
  fi
  cu=$work/$name/$name.cu
  grep -q '^ *cfg\.devices = [2-9];' "$cu" && calls=$((calls + 1))
  grep -q '_config\.devices = [2-9];' "$cu" && regions=$((regions + 1))
  if grep -q 'devices = [2-9];' "$cu" && ! grep -q 'recipe::PoolSize{ [0-9]*, [0-9]*, [0-9]*, [0-9]*, [2-9]' "$cu"; then
    echo "FAIL $name: several GPUs without PoolSize's devices"; failed=1
  fi
  if ! "$nvcc" -std=c++17 -arch=sm_90 -c --fmad=false -I"$root/library/include" "$cu" -o "$work/$name.o" >"$work/$name.nvcc.log" 2>&1; then
    echo "FAIL $name: the .cu does not compile"; cat "$work/$name.nvcc.log"; failed=1; continue
  fi
  echo "ok   $name: $(grep -o 'devices = [0-9]*' "$cu" | sort | uniq -c | tr '\n' ' ')"
done
[ "$calls" -gt 0 ] || { echo "FAIL: no call runs on several GPUs"; failed=1; }
[ "$regions" -gt 0 ] || { echo "FAIL: no region runs on several GPUs"; failed=1; }
exit $failed
