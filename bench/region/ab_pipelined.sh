#!/usr/bin/env bash
# On a machine with a GPU: what cutting a region's launches into pieces that
# run as the chunks land and ahead of the chunks out
# (Config::pipelined_launches, recipe/wavefront.h) does to each sample's
# region, against the same .cu with every launch waiting for the last chunk
# in, same library, the two run in alternation one fresh process at a time
# (bench/device/ab_first_call.sh: "old" without the pieces, "new" with them).
# Where the plan does not pipeline the launches, the new variant gets
# `pipelined_launches = PIPELINED` (default 1000000: all of them).
# usage: bench/region/ab_pipelined.sh PLATFORM OUTDIR [SAMPLE...]   (RUNS, default 8)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
platform=${1:?usage: ab_pipelined.sh PLATFORM OUTDIR [SAMPLE...]}
out=$(mkdir -p "${2:?usage: ab_pipelined.sh PLATFORM OUTDIR [SAMPLE...]}" && cd "$2" && pwd)
shift 2
. "$root/bench/region/advise_samples.sh"
# shellcheck disable=SC2046
advise_samples "$platform" "$out" $(echo "${@:-stencil7 heat2d diffuse1d}")
for cu in "${cus[@]}"; do
  grep -q 'pipelined_launches' "$cu" ||
    sed -i "s/^\( *\)\(recipe_region_config\.streams = [0-9]*;\)/\1\2\n\1recipe_region_config.pipelined_launches = ${PIPELINED:-1000000};/" "$cu"
done
OLD_EDIT='s/^ *recipe_region_config\.pipelined_launches = .*//' \
  RUNS=${RUNS:-8} bash "$root/bench/device/ab_first_call.sh" "$out/ab" "$root/library/include" "${cus[@]}"
