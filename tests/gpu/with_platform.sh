#!/usr/bin/env bash
# `recipe` with --platform $RECIPE_TEST_PLATFORM added to every `advise`, so
# that the sample tests (tests/gpu/sample_tests.sh) check the plans made for
# a given stored profile (its region chunks and streams, for one) on the GPU.
# usage: RECIPE_TEST_PLATFORM=h100 RECIPE_REAL_BINARY=build/recipe \
#        RECIPE_BINARY=tests/gpu/with_platform.sh tests/gpu/run_gpu_tests.sh
set -euo pipefail
real=${RECIPE_REAL_BINARY:?set RECIPE_REAL_BINARY to the recipe binary}
if [ "${1:-}" = advise ] && [ -n "${RECIPE_TEST_PLATFORM:-}" ] && [ "${2:-}" != --help ]; then
    exec "$real" "$@" --platform "$RECIPE_TEST_PLATFORM"
fi
exec "$real" "$@"
