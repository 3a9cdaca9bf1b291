# Dependencies, all from the system (Debian packages) except the tree-sitter
# C grammar, whose generated parser.c scripts/setup.sh fetches from the npm
# registry into .deps/ (git-ignored). Nothing here is vendored into git.

find_package(nlohmann_json 3.10 REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(TREE_SITTER REQUIRED IMPORTED_TARGET tree-sitter)

# The tree-sitter runtime: the static archive that libtree-sitter-dev ships
# beside the shared object is linked when present. The parser calls across
# the library boundary millions of times for a large file (node accessors,
# stack and subtree helpers), and in a shared object each goes through the
# PLT. Static linking takes some 5 to 10% off the CPU time of `recipe
# analyze` on bench/analyze_bench.sh's file.
# RECIPE_TREE_SITTER_STATIC=OFF, or no archive, links the shared object.
option(RECIPE_TREE_SITTER_STATIC "Link libtree-sitter statically when its archive is installed" ON)
set(RECIPE_TREE_SITTER_LINK PkgConfig::TREE_SITTER)
if(RECIPE_TREE_SITTER_STATIC)
  find_library(RECIPE_TREE_SITTER_ARCHIVE NAMES libtree-sitter.a
               HINTS ${TREE_SITTER_LIBRARY_DIRS} ${TREE_SITTER_STATIC_LIBRARY_DIRS})
  if(RECIPE_TREE_SITTER_ARCHIVE)
    add_library(recipe_tree_sitter_runtime STATIC IMPORTED)
    set_target_properties(recipe_tree_sitter_runtime PROPERTIES
      IMPORTED_LOCATION "${RECIPE_TREE_SITTER_ARCHIVE}"
      INTERFACE_INCLUDE_DIRECTORIES "${TREE_SITTER_INCLUDE_DIRS}")
    set(RECIPE_TREE_SITTER_LINK recipe_tree_sitter_runtime)
    message(STATUS "tree-sitter: linking ${RECIPE_TREE_SITTER_ARCHIVE}")
  else()
    message(STATUS "tree-sitter: no static archive, linking the shared library")
  endif()
endif()

find_path(MUSTACHE_INCLUDE_DIR kainjow/mustache.hpp REQUIRED)
add_library(recipe_mustache INTERFACE)
target_include_directories(recipe_mustache SYSTEM INTERFACE ${MUSTACHE_INCLUDE_DIR})
add_library(recipe::mustache ALIAS recipe_mustache)

find_path(CXXOPTS_INCLUDE_DIR cxxopts.hpp REQUIRED)
add_library(recipe_cxxopts INTERFACE)
target_include_directories(recipe_cxxopts SYSTEM INTERFACE ${CXXOPTS_INCLUDE_DIR})
add_library(recipe::cxxopts ALIAS recipe_cxxopts)

# tree-sitter-c 0.23.x: its parser.c is language ABI 14, which libtree-sitter
# 0.20.7 loads (0.24 is ABI 15 and does not).
set(RECIPE_TREE_SITTER_C_DIR "${PROJECT_SOURCE_DIR}/.deps/tree-sitter-c"
    CACHE PATH "Unpacked npm package tree-sitter-c (has src/parser.c)")
if(NOT EXISTS "${RECIPE_TREE_SITTER_C_DIR}/src/parser.c")
  message(FATAL_ERROR "tree-sitter C grammar not found in ${RECIPE_TREE_SITTER_C_DIR}; run scripts/setup.sh")
endif()
add_library(recipe_tree_sitter_c STATIC "${RECIPE_TREE_SITTER_C_DIR}/src/parser.c")
target_include_directories(recipe_tree_sitter_c PRIVATE "${RECIPE_TREE_SITTER_C_DIR}/src")
set_target_properties(recipe_tree_sitter_c PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)
target_compile_options(recipe_tree_sitter_c PRIVATE -w)
target_link_libraries(recipe_tree_sitter_c PUBLIC ${RECIPE_TREE_SITTER_LINK})
add_library(recipe::tree_sitter_c ALIAS recipe_tree_sitter_c)

if(BUILD_TESTING)
  find_path(CATCH2_INCLUDE_DIR catch2/catch.hpp REQUIRED)
  add_library(recipe_catch2 INTERFACE)
  target_include_directories(recipe_catch2 SYSTEM INTERFACE ${CATCH2_INCLUDE_DIR})
  add_library(recipe::catch2 ALIAS recipe_catch2)
endif()

if(RECIPE_ENABLE_CUDA)
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    enable_language(CUDA)
    set(RECIPE_HAVE_CUDA ON)
  else()
    message(STATUS "No CUDA compiler: the profiler and CUDA checks are not built")
    set(RECIPE_HAVE_CUDA OFF)
  endif()
endif()
