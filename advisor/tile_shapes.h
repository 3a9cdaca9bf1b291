// tile_shapes.h — the tile shapes the search tries (thesis §6.1: in 2D/3D
// shape matters as well as size; §6.2.3: tiles spanning whole rows or
// planes copy in one piece).
#pragma once

#include <cstdint>
#include <vector>

#include "recipe/tile_geometry.h"

namespace recipe::advisor {

// Sizes tried along a dimension of `extent` elements: 1, 2, 2.5, 4, 5 x 10^k
// and the powers of two up to the extent, plus the extent itself, no less
// than `min_size`. Ascending, unique.
std::vector<std::int64_t> sizes_along(std::int64_t extent, std::int64_t min_size = 1);

// Tile shapes for a `dims`-dimensional space: 1D sizes; in 2D and 3D whole
// planes, whole rows, and shapes narrower than a row (x a multiple of 32).
std::vector<Index3> tile_shapes(const Index3& extents, int dims);

// The dimension a tile divides most coarsely: the outermost one whose
// tile is smaller than the extent (0 when the tile is the whole space).
int varying_dimension(const Index3& tile, const Index3& extents, int dims);

}  // namespace recipe::advisor
