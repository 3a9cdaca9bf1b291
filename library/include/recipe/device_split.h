// device_split.h — how a call's work is cut over several GPUs, decided in
// one place: the library runs these slabs and the advisor prices them.
// Pure C++17, no CUDA (like tile_geometry.h).
//
// Block-row partitioning (seed 004 §4.1, Figure 13): the work is cut along
// one dimension into contiguous slabs, one per GPU, so that each GPU's part
// of every array is one contiguous range of host memory and neighbours share
// only the rows at their slabs' edges.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "recipe/tile_geometry.h"

namespace recipe {

// The dimension work is cut along: the slowest one with more than one unit
// (tile rows for recipe::run, array rows for a Region); 0 when none has.
inline int split_dimension(const Index3& units) {
    for (int d = 2; d > 0; --d)
        if (units[d] > 1) return d;
    return 0;
}

// [begin, end) of part `i` when `count` units are cut into `parts` as evenly
// as whole units allow (the first parts never smaller than the last).
inline std::int64_t part_begin(std::int64_t count, int parts, int i) { return count * i / parts; }

// recipe::run over `devices` GPUs: the iteration space cut into slabs of
// whole tiles along split_dimension(tiles per dimension), so every GPU runs
// the one tile shape of the plan. Fewer slabs than devices when the space
// has fewer tile rows; one slab (the whole space) for one device.
inline std::vector<Box> device_slabs(const Box& space, const Index3& tile, int devices) {
    Index3 t = tile, rows{1, 1, 1};
    for (int d = 0; d < 3; ++d) {
        if (t[d] <= 0 || t[d] > space.extent(d)) t[d] = std::max<std::int64_t>(space.extent(d), 1);
        rows[d] = detail::ceil_div(std::max<std::int64_t>(space.extent(d), 1), t[d]);
    }
    const int s = split_dimension(rows);
    const int n = static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(devices, rows[s])));
    std::vector<Box> slabs;
    for (int i = 0; i < n; ++i) {
        Box b = space;
        b.begin[s] = space.begin[s] + part_begin(rows[s], n, i) * t[s];
        b.end[s] = std::min(space.end[s], space.begin[s] + part_begin(rows[s], n, i + 1) * t[s]);
        slabs.push_back(b);
    }
    return slabs;
}

// A Region over `devices` GPUs: the rows each GPU owns (computes and copies
// out), the arrays cut along split_dimension(extents). Each GPU also holds
// up to `halo_rows` rows of its neighbours on each side (region_held).
inline std::vector<Box> region_slabs(const Index3& extents, int devices) {
    const int s = split_dimension(extents);
    const int n = static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(devices, extents[s])));
    std::vector<Box> slabs;
    for (int i = 0; i < n; ++i) {
        Box b{{0, 0, 0}, extents};
        b.begin[s] = part_begin(extents[s], n, i);
        b.end[s] = part_begin(extents[s], n, i + 1);
        slabs.push_back(b);
    }
    return slabs;
}

// The rows a Region's GPU holds: its own slab and `halo_rows` of each
// neighbour's, clipped at the arrays' edges.
inline Box region_held(const Box& owned, const Index3& extents, std::int64_t halo_rows) {
    const int s = split_dimension(extents);
    Box b = owned;
    b.begin[s] = std::max<std::int64_t>(0, owned.begin[s] - halo_rows);
    b.end[s] = std::min(extents[s], owned.end[s] + halo_rows);
    return b;
}

}  // namespace recipe
