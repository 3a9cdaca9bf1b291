#include "advisor/tile_shapes.h"

#include <algorithm>
#include <set>

namespace recipe::advisor {

std::vector<std::int64_t> sizes_along(std::int64_t extent, std::int64_t min_size) {
    std::set<std::int64_t> s;
    const std::int64_t lo = std::max<std::int64_t>(1, std::min(min_size, extent));
    for (std::int64_t p = 1; p <= extent; p *= 10)
        for (std::int64_t m10 : {10, 20, 25, 40, 50}) {
            const std::int64_t v = p * m10 / 10;
            if (v >= lo && v <= extent) s.insert(v);
        }
    for (std::int64_t v = 1; v <= extent; v *= 2)
        if (v >= lo) s.insert(v);
    // Halves, quarters, ... of the extent: tiles that divide it evenly.
    for (std::int64_t parts = 1; parts <= extent && parts <= (1 << 20); parts *= 2) {
        const std::int64_t v = (extent + parts - 1) / parts;
        if (v >= lo) s.insert(v);
    }
    s.insert(extent);
    return {s.begin(), s.end()};
}

namespace {

// Coarser steps for the narrow (not whole-row) shapes, which multiply.
std::vector<std::int64_t> coarse_sizes(std::int64_t extent) {
    std::set<std::int64_t> s;
    for (std::int64_t v = 1; v <= extent; v *= 4) s.insert(v);
    s.insert(extent);
    return {s.begin(), s.end()};
}

std::vector<std::int64_t> row_widths(std::int64_t extent) {
    std::vector<std::int64_t> w;
    for (std::int64_t v = 32; v < extent && v <= 4096; v *= 2) w.push_back(v);
    return w;
}

}  // namespace

std::vector<Index3> tile_shapes(const Index3& e, int dims) {
    std::vector<Index3> shapes;
    if (dims <= 1) {
        for (auto x : sizes_along(e[0], std::max<std::int64_t>(1, e[0] / 1000000))) shapes.push_back({x, 1, 1});
        return shapes;
    }
    if (dims == 2) {
        for (auto y : sizes_along(e[1])) shapes.push_back({e[0], y, 1});  // whole rows
        for (auto x : row_widths(e[0]))
            for (auto y : coarse_sizes(e[1])) shapes.push_back({x, y, 1});
        return shapes;
    }
    for (auto z : sizes_along(e[2])) shapes.push_back({e[0], e[1], z});  // whole planes
    for (auto y : sizes_along(e[1]))
        if (y < e[1])
            for (auto z : sizes_along(e[2])) shapes.push_back({e[0], y, z});  // whole rows
    for (auto x : row_widths(e[0]))
        for (auto y : coarse_sizes(e[1]))
            for (auto z : coarse_sizes(e[2])) shapes.push_back({x, y, z});
    return shapes;
}

int varying_dimension(const Index3& tile, const Index3& extents, int dims) {
    for (int d = std::min(dims, 3) - 1; d >= 0; --d)
        if (tile[d] < extents[d]) return d;
    return 0;
}

}  // namespace recipe::advisor
