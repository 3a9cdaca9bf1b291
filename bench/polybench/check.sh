#!/usr/bin/env bash
# On a machine with a GPU: builds every PolyBench/C kernel that
# bench/polybench/generate.sh converted, as the C program (gcc -O2) and as
# the emitted .cu (nvcc, the recipe's flags, --fmad=false), runs both once
# with -DPOLYBENCH_DUMP_ARRAYS and compares their dumps byte for byte.
# Writes a markdown table (REPORT, default $OUT/polybench-gpu.md or
# ./polybench-gpu.md) and exits 1 if any dump differs or any build fails.
# usage: bench/polybench/check.sh GENERATED_DIR   (made with -DPOLYBENCH_DUMP_ARRAYS among its flags)
# Environment: JOBS (programs at a time, default all cores), RUNS (runs of
# each program, the median time reported; default 1), ONLY (kernel names).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(cd "${1:?usage: check.sh GENERATED_DIR}" && pwd)
report=${REPORT:-${OUT:-.}/polybench-gpu.md}
arch=${ARCH:-sm_90}
jobs=${JOBS:-$(nproc)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$dir"

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END {printf "%.3f", NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

one() {
  local name=$1 c=$2 cu=$3 flags=$4
  local kdir
  kdir=$(dirname "$c")
  local w="$work/$name"
  mkdir -p "$w"
  # shellcheck disable=SC2086
  if ! gcc -O2 $flags -I "$kdir" corpus/utilities/polybench.c "$c" -lm -o "$w/c" >"$w/build.log" 2>&1; then
    printf '| %s | C build failed | | | |\n' "$name"; return
  fi
  # shellcheck disable=SC2086
  if ! { gcc -O2 -c $flags corpus/utilities/polybench.c -o "$w/polybench.o" &&
         nvcc -O2 -std=c++17 -arch="$arch" --fmad=false -I "$root/library/include" $flags -I "$kdir" "$cu" "$w/polybench.o" -o "$w/gpu"; } >>"$w/build.log" 2>&1; then
    printf '| %s | .cu build failed: %s | | | |\n' "$name" "$(grep -m1 -i error "$w/build.log" | tr '|' '/')"; return
  fi
  local t0 t1 t2 status=0 c_times="" gpu_times=""
  for ((run = 0; run < ${RUNS:-1}; run++)); do
    t0=$(date +%s.%N)
    "$w/c" 2>"$w/c.dump" >/dev/null
    t1=$(date +%s.%N)
    "$w/gpu" 2>"$w/gpu.dump" >/dev/null || status=$?
    t2=$(date +%s.%N)
    c_times+="$(awk "BEGIN{print $t1 - $t0}") "
    gpu_times+="$(awk "BEGIN{print $t2 - $t1}") "
  done
  local verdict
  if [ $status -ne 0 ]; then verdict="GPU program failed ($status): $(head -c 200 "$w/gpu.dump" | tr '\n|' ' /')"
  elif cmp -s "$w/c.dump" "$w/gpu.dump"; then verdict="identical"
  else verdict="DIFFERENT ($(cmp "$w/c.dump" "$w/gpu.dump" | head -1 | tr '|' '/'))"; fi
  local bytes
  bytes=$(stat -c %s "$w/c.dump")
  printf '| %s | %s | %s | %s | %s |\n' "$name" "$verdict" "$bytes" "$(median $c_times)" "$(median $gpu_times)"
  rm -f "$w/c.dump" "$w/gpu.dump"
}
while IFS=$'\t' read -r name c cu flags; do
  [ "$cu" = - ] && continue
  if [ -n "${ONLY:-}" ] && ! grep -qw -- "$name" <<<"$ONLY"; then continue; fi
  one "$name" "$c" "$cu" "$flags" > "$work/$name.row" &
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
done < kernels.tsv
wait
rows=$(cat "$work"/*.row | sort)
{
  echo "# PolyBench/C 4.2.1: converted programs against the C programs"
  echo
  echo "$(date -u +%Y-%m-%d), $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1),"
  echo "nvcc $(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'), gcc $(gcc -dumpfullversion)."
  echo "Flags: $(head -1 kernels.tsv | cut -f4); C: gcc -O2; .cu: nvcc -O2 --fmad=false -arch=$arch."
  echo "Wall time of the whole program, the median of ${RUNS:-1} run(s), $jobs program(s) at a time on the host$( [ "$jobs" -gt 1 ] && echo ' (times are indicative only: the programs shared the machine)')."
  echo
  echo "| kernel | dump | dump bytes | C s | .cu s |"
  echo "|---|---|---:|---:|---:|"
  echo "$rows"
} > "$report"
cat "$report"
! grep -q 'DIFFERENT\|failed' <<<"$rows"
