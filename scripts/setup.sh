#!/usr/bin/env bash
# Installs what is missing (Debian packages, the tree-sitter C grammar from
# the npm registry), then configures and builds the `recipe` binary into
# build/ — only what the main job needs; scripts/test.sh builds the rest.
# Safe to run again: it installs and fetches only what is not there.
set -euo pipefail
cd "$(dirname "$0")/.."

# Libraries are checked by package, tools by command (node/npm may come from
# elsewhere than Debian).
packages=(libtree-sitter-dev libkainjow-mustache-dev libcxxopts-dev nlohmann-json3-dev catch2)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
for tool in cmake:cmake g++:g++ cc:gcc pkg-config:pkg-config npm:npm; do  # cc: the preprocessor recipe runs
  command -v "${tool%%:*}" >/dev/null || missing+=("${tool#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "recipe setup: installing ${missing[*]}"
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The generated C parser: npm package tree-sitter-c 0.23.x (language ABI 14,
# which Debian's libtree-sitter 0.20.7 loads). Fetched, never committed.
grammar_version=0.23.6
grammar_dir=.deps/tree-sitter-c
if [ ! -f "$grammar_dir/src/parser.c" ] || [ "$(cat "$grammar_dir/VERSION" 2>/dev/null)" != "$grammar_version" ]; then
  echo "recipe setup: fetching tree-sitter-c@$grammar_version from the npm registry"
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "tree-sitter-c@$grammar_version" >/dev/null)
  rm -rf "$grammar_dir" && mkdir -p "$grammar_dir"
  tar -xzf "$tmp"/tree-sitter-c-*.tgz -C "$grammar_dir" --strip-components=1 package/src package/LICENSE
  echo "$grammar_version" > "$grammar_dir/VERSION"
  rm -rf "$tmp"
fi

build_dir=${RECIPE_BUILD_DIR:-build}
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release ${RECIPE_CMAKE_ARGS:-} >/dev/null
cmake --build "$build_dir" --target recipe -j "$(nproc)"
