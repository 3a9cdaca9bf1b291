#!/usr/bin/env bash
# On a machine with a GPU, in one call: this host's profile, then blur1d's
# calls over arrays larger than the plan's device memory (bench/large/calls.sh)
# planned with it, staged (malloc'd arrays) and pinned (cudaMallocHost'd). A
# staged call's price is mostly the host's staging, which differs from host to
# host by a third: its prediction is checked against the profile of the host
# it runs on. Writes OUTDIR/plat/here.json and OUTDIR/calls/.
# usage: bench/device/large_session.sh OUTDIR   (STAGED_SIZES, PINNED_SIZES: elements per
#        array, defaults 12 and 4 GiB, and 12 GiB; PROCESSES; RECIPE_BINARY)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mkdir -p "${1:?usage: large_session.sh OUTDIR}" && cd "$1" && pwd)
mkdir -p "$out/plat"
bash "$root/bench/device/profile.sh" "$out/plat/here.json" --name here >"$out/profile.log" 2>&1 ||
  { echo "the profile failed"; tail -20 "$out/profile.log"; exit 1; }
export RECIPE_PLATFORM_DIR=$out/plat
rc=0
HOST=staged SIZES=${STAGED_SIZES:-3221225472 1073741824} bash "$root/bench/large/calls.sh" here "$out/calls" || rc=1
HOST=pinned SIZES=${PINNED_SIZES:-3221225472} PROCESSES=${PROCESSES:-1} bash "$root/bench/large/calls.sh" here "$out/calls" ||
  rc=1
exit $rc
