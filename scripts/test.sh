#!/usr/bin/env bash
# Sets up and builds (scripts/setup.sh), then runs the whole test suite.
# GPU tests skip cleanly where no GPU is present.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake --build "${RECIPE_BUILD_DIR:-build}" -j "$(nproc)"  # the tests, the header checks, the profiler
ctest --test-dir "${RECIPE_BUILD_DIR:-build}" --output-on-failure -j "$(nproc)"
