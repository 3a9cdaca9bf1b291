// sizes.h — element counts and device bytes as the library counts them.
#pragma once

#include <cstdint>

#include "recipe/tile_geometry.h"

namespace recipe::advisor {

// Elements of a box of these extents.
inline std::int64_t volume(const Index3& e) { return e[0] * e[1] * e[2]; }

// A buffer's bytes in the library's device block: each buffer 256-byte
// aligned (library/include/recipe/detail/resources.cuh, DeviceBlock).
inline std::int64_t aligned(std::int64_t bytes) { return (bytes + 255) / 256 * 256; }

}  // namespace recipe::advisor
