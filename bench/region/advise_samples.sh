# Sourced by the region A/B scripts: advise_samples PLATFORM OUTDIR SAMPLE...
# runs `recipe advise` on each samples/SAMPLE.c (RECIPE_BINARY, default
# build/recipe) into OUTDIR/gen/SAMPLE, its log in OUTDIR/SAMPLE.advise.log,
# and sets the array `cus` to the .cu files made.
advise_samples() {
  local platform=$1 out=$2 name
  shift 2
  local root recipe
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  recipe=${RECIPE_BINARY:-$root/build/recipe}
  cus=()
  for name in "$@"; do
    "$recipe" advise "$root/samples/$name.c" --platform "$platform" -o "$out/gen/$name" >"$out/$name.advise.log" 2>&1 ||
      { echo "$name: advise failed"; continue; }
    cus+=("$out/gen/$name/$name.cu")
  done
}
