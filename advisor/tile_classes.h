// tile_classes.h — the tiles of a TileGrid grouped into classes whose boxes
// have identical extents, so a 64,000-tile grid is priced with a handful of
// copy_groups_for() calls instead of 64,000. Along each dimension only the
// tiles within reach of the halo of an array edge (and the clipped last
// tile) differ from the interior ones; a class is one combination of
// per-dimension kinds, its count the product of their multiplicities.
// Exactly the boxes TileGrid::core/padded/fresh_input give (unit-tested
// against iterating every tile).
#pragma once

#include <cstdint>
#include <vector>

#include "advisor/plan.h"
#include "recipe/tile_geometry.h"

namespace recipe::advisor {

struct TileClass {
    std::int64_t count = 0;
    Index3 core{1, 1, 1};                // extents of the elements written
    std::vector<Index3> padded;          // per input array: extents read
    std::vector<Index3> fresh;           // per input array: extents not sent by an earlier tile
    bool has_first = false;              // contains tile 0
    bool has_last = false;               // contains the last tile
};

struct TileClasses {
    std::vector<TileClass> classes;
    std::int64_t tiles = 0;
    Index3 tile{1, 1, 1};                   // clipped to the extents
    Index3 tiles_per_dim{1, 1, 1};
    std::vector<Index3> input_buffers;      // per input: TileGrid::buffer_extents(halo)
    int first = 0;                          // index of the class holding tile 0
    int last = 0;                           // index of the class holding the last tile
};

TileClasses classify_tiles(const Problem& problem, const Index3& tile);

}  // namespace recipe::advisor
