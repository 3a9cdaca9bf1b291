#!/usr/bin/env bash
# Re-prices a saved end-to-end run with this tree's model: the samples are
# advised again (bench/e2e/generate.sh, SAMPLES_ONLY=1) with the profile that
# run measured, their plans replace the saved ones in a copy of the run's
# logs, and bench/e2e/report.py writes the page again: the same measurements
# beside this tree's predictions. For checking a change of the model against
# runs already made, before a GPU machine measures it again.
# usage: bench/e2e/reprice.sh LOGDIR PROFILE.json OUTDIR
#   LOGDIR: a run's logs (bench/e2e/run.sh's OUTDIR: programs.tsv, raw.tsv,
#   samples/...), PROFILE.json: the profile its plans were made with.
# Environment: ADVISE_EXTRA (as generate.sh; the run's own, e.g. --measure-host,
# re-measures this host's CPU, so the C side is not re-priced like for like).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
logs=${1:?usage: reprice.sh LOGDIR PROFILE.json OUTDIR}
profile=${2:?usage: reprice.sh LOGDIR PROFILE.json OUTDIR}
out=${3:?usage: reprice.sh LOGDIR PROFILE.json OUTDIR}
[ -f "$logs/programs.tsv" ] && [ -f "$logs/raw.tsv" ] || { echo "reprice.sh: $logs has no programs.tsv and raw.tsv" >&2; exit 3; }
rm -rf "$out" && mkdir -p "$out/plans" "$out/logs" || exit 3
SAMPLES_ONLY=1 "$root/bench/e2e/generate.sh" "$out/plans" "$profile" > "$out/generate.log" 2>&1 ||
  { echo "reprice.sh: generate.sh failed (see $out/generate.log)" >&2; exit 1; }
cp -r "$logs/." "$out/logs/"
# Each sample's plans, the decision's and the forced one, at the same paths.
while IFS=$'\t' read -r name kind _ _ _ plan _ fplan _; do
  [ "$kind" = sample ] || continue
  for p in "$plan" "$fplan"; do
    [ "$p" = - ] && continue
    if [ -f "$out/plans/$p" ]; then cp "$out/plans/$p" "$out/logs/$p"
    else echo "reprice.sh: $name: no $p in the new plans" >&2; exit 1; fi
  done
done < "$logs/programs.tsv"
python3 "$root/bench/e2e/report.py" "$out/logs" "$out/results-e2e-repriced.md"
