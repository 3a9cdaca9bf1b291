// recipe.cuh — the whole pipelining library: #include <recipe/recipe.cuh>.
// Usage and API reference: library/README.md.
#pragma once

#include "recipe/arrays.cuh"
#include "recipe/config.cuh"
#include "recipe/error.cuh"
#include "recipe/iterate.cuh"
#include "recipe/region.cuh"
#include "recipe/run.cuh"
#include "recipe/start.cuh"
#include "recipe/tile.cuh"
#include "recipe/tile_geometry.h"
#include "recipe/view.cuh"
#include "recipe/whole.cuh"
