#!/usr/bin/env bash
# On a machine with a GPU: what staging only the points a region reads
# before writing them (recipe::resident(p, recipe::Box{...}, ...)) does to
# each sample's region, against the same .cu with those arrays copied in
# whole (recipe::resident(p, true, ...)), same library, the two run in
# alternation one fresh process at a time (bench/device/ab_first_call.sh:
# "old" is the whole copy, "new" the written_first one).
# usage: bench/region/ab_written_first.sh PLATFORM OUTDIR [SAMPLE...]   (RUNS, default 8)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
platform=${1:?usage: ab_written_first.sh PLATFORM OUTDIR [SAMPLE...]}
out=$(mkdir -p "${2:?usage: ab_written_first.sh PLATFORM OUTDIR [SAMPLE...]}" && cd "$2" && pwd)
shift 2
. "$root/bench/region/advise_samples.sh"
# shellcheck disable=SC2046
advise_samples "$platform" "$out" $(echo "${@:-stencil7 heat2d diffuse1d}")
OLD_EDIT='s/recipe::resident(\([^,]*\), recipe::Box{{[^}]*}, {[^}]*}}, \(true\|false\))/recipe::resident(\1, true, \2)/' \
  RUNS=${RUNS:-8} bash "$root/bench/device/ab_first_call.sh" "$out/ab" "$root/library/include" "${cus[@]}"
