#!/usr/bin/env bash
# On a machine with a GPU, in one call: this GPU's platform profile
# (bench/device/profile.sh; or PROFILE, one measured before), the recipes made
# with it (bench/e2e/generate.sh), and the end-to-end benchmark of one kind
# of program (bench/e2e/run.sh). The profile, the page and the raw data go
# to OUTDIR.
# usage: bench/e2e/device.sh NAME OUTDIR [sample|polybench|all]
# Environment: POLYBENCH (the corpus, which does not travel with a checkout),
# PROFILE, RECIPE_BINARY, RUNS, CANDIDATES_ONLY (1: only the programs with a
# nest the generator can convert, those whose forced --convert-all plan
# converts one: every program the comparison with the CPU applies to),
# PROGRAMS (names: only these), TAG (appended to the page's and tarball's
# names when one kind is run in parts).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
name=${1:?usage: device.sh NAME OUTDIR [sample|polybench|all]}
out=$(mkdir -p "${2:?usage: device.sh NAME OUTDIR [kind]}" && cd "$2" && pwd)
which=${3:-all}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
profile=${PROFILE:-}
if [ -z "$profile" ]; then
  profile=$out/$name.json
  "$root/bench/device/profile.sh" "$profile" --name "$name" >"$work/profile.log" 2>&1 || { cat "$work/profile.log"; exit 1; }
  head -3 "$work/profile.log"
fi
SAMPLES_ONLY=$([ "$which" = sample ] && echo 1 || echo 0) "$root/bench/e2e/generate.sh" "$work/e2e" "$profile" >"$work/generate.log" 2>&1 || { tail -20 "$work/generate.log"; exit 1; }
mv "$work"/*.log "$work/e2e/"
# Programs with no nest the generator can convert (no forced .cu, column 7)
# run only as C programs: with CANDIDATES_ONLY=1 they are left out.
# PROGRAMS (names, space-separated) narrows the set further.
only=$(awk -F'\t' -v k="$which" -v c="${CANDIDATES_ONLY:-0}" '(k == "all" || $2 == k) && (c != 1 || $7 != "-") {print $1}' "$work/e2e/programs.tsv" | tr '\n' ' ')
if [ -n "${PROGRAMS:-}" ]; then
  only=$(for p in $only; do grep -qw -- "$p" <<<"$PROGRAMS" && echo "$p"; done | tr '\n' ' ')
fi
# Everything but the corpus, the pictures and the built programs (logs kept).
pack() {
  (cd "$work/e2e" && find . -type f ! -path '*/corpus/*' ! -name '*.svg' \( ! -path './e2e-build/*' -o -name '*.log' -o -name 'c-timed.stderr' \) -print0 |
    tar -czf "$out/plans-$which${TAG:-}.tgz" --null -T -)
}
status=0
if [ -z "${only// }" ]; then
  # An empty ONLY would be every program for run.sh.
  echo "device.sh: no program of kind $which to run (CANDIDATES_ONLY=${CANDIDATES_ONLY:-0})" >&2
  pack
  exit 1
fi
ONLY="$only" REPORT="$out/results-e2e-$name-$which${TAG:-}.md" "$root/bench/e2e/run.sh" "$work/e2e" || status=$?
pack
exit $status
