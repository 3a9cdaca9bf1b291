#!/usr/bin/env bash
# Fuzzes recipe: builds a libFuzzer target with clang, AddressSanitizer and
# UndefinedBehaviorSanitizer into build-fuzz/ (or $RECIPE_FUZZ_BUILD_DIR),
# seeds a corpus from samples/*.c, tests/unit/analyzer/inputs/*.c and the
# kept corpus tests/fuzz/corpus-TARGET/ (merge new finds into it with
# `-merge=1`), and
# runs it. TARGET: advise (the default: preprocessing, analysis, planning,
# conversion, rendering and writing the outputs; tests/fuzz/advise_fuzz.cpp)
# or analyzer (the analysis alone, faster; tests/fuzz/analyzer_fuzz.cpp).
#
#   scripts/fuzz.sh [SECONDS [TARGET]] [LIBFUZZER-OPTION]...   (default 600 s, advise)
#
# Any reproducers kept in tests/fuzz/crashes/ (both targets) and
# tests/fuzz/crashes-TARGET/ are replayed first. A finding stops the run with
# exit status 1 and leaves the input in <build>/artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-600}
[ $# -gt 0 ] && shift
target=advise
case "${1:-}" in advise|analyzer) target=$1; shift ;; esac
case "$seconds" in
  ''|*[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS [advise|analyzer]] [LIBFUZZER-OPTION]..." >&2; exit 2 ;;
esac
build_dir=${RECIPE_FUZZ_BUILD_DIR:-build-fuzz}

# clang and its runtimes (libFuzzer, ASan, UBSan) from Debian.
missing=()
command -v clang >/dev/null && command -v clang++ >/dev/null || missing+=(clang)
clang_lib_dir=$(clang -print-resource-dir 2>/dev/null || true)/lib/linux
[ -f "$clang_lib_dir/libclang_rt.fuzzer-x86_64.a" ] || missing+=(libclang-rt-14-dev)
if [ ${#missing[@]} -gt 0 ]; then
  echo "recipe fuzz: installing ${missing[*]}"
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# The project's own dependencies and the fetched C grammar.
[ -f .deps/tree-sitter-c/src/parser.c ] || scripts/setup.sh

# Every target is instrumented (the analyzer, the grammar); only the fuzz
# target links the libFuzzer main. UB aborts instead of printing and going on.
instrument="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cmake -S . -B "$build_dir" \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_FLAGS="$instrument" -DCMAKE_CXX_FLAGS="$instrument" \
  -DRECIPE_ENABLE_FUZZ=ON -DBUILD_TESTING=OFF -DRECIPE_ENABLE_CUDA=OFF >/dev/null
cmake --build "$build_dir" -j 2 --target "recipe_${target}_fuzz"
fuzzer="$build_dir/recipe_${target}_fuzz"

# Seeds are copied afresh each run; the corpus directory keeps what the
# fuzzer found interesting across runs.
rm -rf "$build_dir/seeds" && mkdir -p "$build_dir/seeds" "$build_dir/corpus-$target" "$build_dir/artifacts"
for f in samples/*.c tests/unit/analyzer/inputs/*.c tests/fuzz/corpus-"$target"/*; do
  [ -f "$f" ] && cp "$f" "$build_dir/seeds/$(echo "$f" | tr / _)"
done
echo "recipe fuzz: $(ls "$build_dir/seeds" | wc -l) seed files"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
options=(-max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
         -dict=tests/fuzz/c.dict -artifact_prefix="$build_dir/artifacts/")

shopt -s nullglob
crashes=(tests/fuzz/crashes/* tests/fuzz/crashes-"$target"/*)
if [ ${#crashes[@]} -gt 0 ]; then
  echo "recipe fuzz: replaying ${#crashes[@]} saved reproducers from tests/fuzz/crashes/"
  if ! "$fuzzer" "${options[@]}" "${crashes[@]}" >"$build_dir/replay.log" 2>&1; then
    tail -n 80 "$build_dir/replay.log" >&2
    echo "recipe fuzz: a saved reproducer still fails (full report in $build_dir/replay.log)" >&2
    exit 1
  fi
fi

log="$build_dir/fuzz.log"
echo "recipe fuzz: running for ${seconds}s, log in $log"
# Progress lines only on the terminal; everything in the log.
set +e
"$fuzzer" "${options[@]}" -max_total_time="$seconds" "$@" \
  "$build_dir/corpus-$target" "$build_dir/seeds" 2>&1 | tee "$log" | grep -E '^#[0-9]+[[:space:]]+(INITED|pulse|DONE)'
status=${PIPESTATUS[0]}
set -e

echo "---"
grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 || true
grep -E '^stat::' "$log" || true
if [ "$status" -ne 0 ]; then
  tail -n 80 "$log" >&2
  echo "recipe fuzz: FINDING (exit $status); the reproducer is in $build_dir/artifacts/, full report in $log" >&2
  ls -l "$build_dir/artifacts/" >&2
  exit 1
fi
echo "recipe fuzz: no crash, hang, leak or sanitizer report in ${seconds}s"
