#!/usr/bin/env bash
# On a GPU machine, in one call: what a CUDA program pays at its exit and
# whether releasing CUDA on a thread during the program's tail (its work
# after its last GPU call) hides it (exit_cost.sh, every mode), then the
# samples' C nests timed against the model priced with this host's own
# figures (generate.sh with --measure-host, then cpu_check.py and
# cpu_nests.py). Everything lands in OUTDIR; OUTDIR/e2e keeps the plans, so
# that a change of the CPU model can be re-priced against these runs.
# usage: bench/device/exit_cpu_session.sh OUTDIR    (RECIPE_BINARY: a built recipe, default build/recipe;
#                                                    ROUNDS: exit_cost's rounds, default 7; RUNS: C runs, default 5)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mkdir -p "${1:?usage: exit_cpu_session.sh OUTDIR}" && cd "$1" && pwd)
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; lscpu | grep -E "Model name|L2 cache|L3 cache|^CPU\(s\)"; } > "$out/device.txt"
ROUNDS=${ROUNDS:-7} bash "$root/bench/device/exit_cost.sh" > "$out/exit_cost.txt" 2>&1
SAMPLES_ONLY=1 ADVISE_EXTRA=--measure-host bash "$root/bench/e2e/generate.sh" "$out/e2e" > "$out/generate.log" 2>&1
cd "$root"
RUNS=${RUNS:-5} python3 bench/e2e/cpu_check.py "$out/e2e" > "$out/cpu_check.txt" 2>&1
RUNS=${RUNS:-5} python3 bench/e2e/cpu_nests.py "$out/e2e" > "$out/cpu_nests.txt" 2>&1
