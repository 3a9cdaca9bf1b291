#!/usr/bin/env bash
# On a machine with a GPU, in one call: the end-to-end benchmark of the
# samples as a user runs them (the stored profile PROFILE, default the h200
# one, for the GPU side; this host's own figures for the C side:
# --measure-host), then what the C side's fresh pages cost on this host:
# bench/host/first_touch_passes.c in PROCESSES fresh processes (each pass of
# a fresh array; recipe's hostFirstTouchGBs is the best of three passes) and
# bench/host/fresh_output.sh on moving_average (its nest with the output
# fresh and present, beside the model's price). OUT gets the e2e page and
# plans (bench/e2e/device.sh) and host.txt.
# usage: bench/device/e2e_host_session.sh NAME OUT   (build/recipe built)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
name=${1:?usage: e2e_host_session.sh NAME OUT}
out=$(mkdir -p "${2:?usage: e2e_host_session.sh NAME OUT}" && cd "$2" && pwd)
status=0
PROFILE=${PROFILE:-$root/advisor/platforms/h200.json} ADVISE_EXTRA=--measure-host RUNS=${RUNS:-5} CANDIDATES_ONLY=1 \
  "$root/bench/e2e/device.sh" "$name" "$out" sample || status=$?
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{
  echo "== first_touch_passes (256 MiB, 4 passes), ${PROCESSES:-5} processes"
  gcc -O2 "$root/bench/host/first_touch_passes.c" -o "$work/ftp"
  for _ in $(seq "${PROCESSES:-5}"); do "$work/ftp" 256 4 | tr '\n' ' '; echo; done
  echo "== fresh_output.sh moving_average"
  RUNS=5 "$root/bench/host/fresh_output.sh" "$root/samples/moving_average.c" 'moving_average(in, out);' out '(size_t)N * sizeof *out'
  echo "== fresh_output.sh blur1d"
  RUNS=5 "$root/bench/host/fresh_output.sh" "$root/samples/blur1d.c" 'blur(in, out);' out '(size_t)N * sizeof *out'
} > "$out/host.txt" 2>&1 || status=$?
cat "$out/host.txt"
exit $status
