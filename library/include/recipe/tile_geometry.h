// tile_geometry.h — which bytes each tile copies, decided in one place.
//
// The advisor includes this header to price a tile's transfers and the CUDA
// library includes it to issue them, so the model can never describe a
// different transfer pattern than the code runs. Pure C++17, no CUDA.
//
// Conventions: dimension 0 is x, the contiguous one; an array of extents
// (X, Y, Z) stores element (x, y, z) at x + X*(y + Y*z) (thesis §6.4.3).
// Boxes are half-open [begin, end) in elements. Unused dimensions have
// extent 1.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace recipe {

using Index3 = std::array<std::int64_t, 3>;

struct Box {
    Index3 begin{0, 0, 0};
    Index3 end{1, 1, 1};

    std::int64_t extent(int d) const { return end[d] > begin[d] ? end[d] - begin[d] : 0; }
    std::int64_t count() const { return extent(0) * extent(1) * extent(2); }
    bool empty() const { return count() == 0; }
    Index3 extents() const { return {extent(0), extent(1), extent(2)}; }
};

// Elements read beyond a tile on each side, per dimension: the stencil's
// padding (thesis §6.4.3, "PX, PY, PZ", split into the low and high side).
struct Halo {
    Index3 lo{0, 0, 0};
    Index3 hi{0, 0, 0};
};

// How a box that is not contiguous in host memory is moved (thesis §6.2.3).
enum class CopyMethod {
    RowByRow,  // one copy per x-row, as the thesis's first schemes did
    Merged,    // rows that are adjacent in both memories merged into one copy
    Strided,   // merged, then one cudaMemcpy2DAsync/3DAsync for what is left
};

inline const char* to_string(CopyMethod m) {
    switch (m) {
        case CopyMethod::RowByRow: return "row-by-row";
        case CopyMethod::Merged: return "merged";
        case CopyMethod::Strided: return "strided";
    }
    return "?";
}

// Where a box lives on the device side of a copy: element p of the box is at
// linear index of (p - origin) in an array of the given extents. A full-size
// device array (naive, basic) has origin 0 and the host extents; a tile buffer
// (scalable, buffered) has origin at the padded box's begin and fixed extents.
struct DeviceLayout {
    Index3 origin{0, 0, 0};
    Index3 extents{1, 1, 1};
};

// One transfer between host and device memory, strided in up to three
// dimensions. rank() 1 is a plain cudaMemcpyAsync, 2 a cudaMemcpy2DAsync,
// 3 a cudaMemcpy3DAsync. Pitches are in bytes.
struct Copy {
    std::int64_t host_offset = 0;    // bytes from the host array's base
    std::int64_t device_offset = 0;  // bytes from the device buffer's base
    std::int64_t width_bytes = 0;    // contiguous bytes per row
    std::int64_t height = 1;         // rows
    std::int64_t depth = 1;          // slices
    std::int64_t host_pitch = 0;     // bytes between rows on the host
    std::int64_t host_slice_pitch = 0;
    std::int64_t device_pitch = 0;
    std::int64_t device_slice_pitch = 0;

    std::int64_t bytes() const { return width_bytes * height * depth; }
    int rank() const { return depth > 1 ? 3 : (height > 1 ? 2 : 1); }
};

inline std::int64_t linear_index(const Index3& p, const Index3& extents) {
    return p[0] + extents[0] * (p[1] + extents[1] * p[2]);
}

namespace detail {
inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }
}  // namespace detail

// The copies that move `box` between a host array of `host_extents` and a
// device buffer laid out as `dev`. Rows are merged when they are adjacent in
// both memories (the box spans the full x extent of both); with
// CopyMethod::Strided whatever is left becomes one 2D or 3D copy.
inline std::vector<Copy> copies_for(const Box& box, const Index3& host_extents, const DeviceLayout& dev,
                                    std::int64_t elem_bytes, CopyMethod method) {
    std::vector<Copy> out;
    if (box.empty()) return out;
    const std::int64_t nx = box.extent(0), ny = box.extent(1), nz = box.extent(2);
    const std::int64_t hpitch = host_extents[0] * elem_bytes;
    const std::int64_t hslice = hpitch * host_extents[1];
    const std::int64_t dpitch = dev.extents[0] * elem_bytes;
    const std::int64_t dslice = dpitch * dev.extents[1];
    auto host_off = [&](std::int64_t y, std::int64_t z) {
        return linear_index({box.begin[0], y, z}, host_extents) * elem_bytes;
    };
    auto dev_off = [&](std::int64_t y, std::int64_t z) {
        return linear_index({box.begin[0] - dev.origin[0], y - dev.origin[1], z - dev.origin[2]}, dev.extents) *
               elem_bytes;
    };
    const bool rows_merge = method != CopyMethod::RowByRow && nx == host_extents[0] && nx == dev.extents[0];
    const bool planes_merge = rows_merge && ny == host_extents[1] && ny == dev.extents[1];

    auto plain = [&](std::int64_t y, std::int64_t z, std::int64_t bytes) {
        Copy c;
        c.host_offset = host_off(y, z);
        c.device_offset = dev_off(y, z);
        c.width_bytes = bytes;
        c.host_pitch = hpitch;
        c.host_slice_pitch = hslice;
        c.device_pitch = dpitch;
        c.device_slice_pitch = dslice;
        return c;
    };

    if (planes_merge) {
        out.push_back(plain(box.begin[1], box.begin[2], nx * ny * nz * elem_bytes));
    } else if (rows_merge) {
        if (method == CopyMethod::Strided && nz > 1) {
            Copy c = plain(box.begin[1], box.begin[2], nx * ny * elem_bytes);
            c.height = nz;  // each z-slab is contiguous: one 2D copy, slab by slab
            c.host_pitch = hslice;
            c.device_pitch = dslice;
            c.host_slice_pitch = hslice * nz;
            c.device_slice_pitch = dslice * nz;
            out.push_back(c);
        } else {
            for (std::int64_t z = box.begin[2]; z < box.end[2]; ++z)
                out.push_back(plain(box.begin[1], z, nx * ny * elem_bytes));
        }
    } else if (method == CopyMethod::Strided) {
        Copy c = plain(box.begin[1], box.begin[2], nx * elem_bytes);
        c.height = ny;
        c.depth = nz;
        out.push_back(c);
    } else {
        out.reserve(static_cast<std::size_t>(ny * nz));
        for (std::int64_t z = box.begin[2]; z < box.end[2]; ++z)
            for (std::int64_t y = box.begin[1]; y < box.end[1]; ++y) out.push_back(plain(y, z, nx * elem_bytes));
    }
    return out;
}

// copies_for() summarised without listing every row: `count` copies of the
// same shape. The advisor prices tiles with this (a row-by-row tile can make
// 10,000 copies); a unit test checks it against copies_for() box by box.
struct CopyGroup {
    std::int64_t count = 0;
    std::int64_t width_bytes = 0;
    std::int64_t height = 1;
    std::int64_t depth = 1;

    std::int64_t bytes() const { return width_bytes * height * depth; }
    int rank() const { return depth > 1 ? 3 : (height > 1 ? 2 : 1); }
};

inline std::vector<CopyGroup> copy_groups_for(const Box& box, const Index3& host_extents, const DeviceLayout& dev,
                                              std::int64_t elem_bytes, CopyMethod method) {
    if (box.empty()) return {};
    const std::int64_t nx = box.extent(0), ny = box.extent(1), nz = box.extent(2);
    const bool rows_merge = method != CopyMethod::RowByRow && nx == host_extents[0] && nx == dev.extents[0];
    const bool planes_merge = rows_merge && ny == host_extents[1] && ny == dev.extents[1];
    if (planes_merge) return {{1, nx * ny * nz * elem_bytes, 1, 1}};
    if (rows_merge) {
        if (method == CopyMethod::Strided && nz > 1) return {{1, nx * ny * elem_bytes, nz, 1}};
        return {{nz, nx * ny * elem_bytes, 1, 1}};
    }
    if (method == CopyMethod::Strided) return {{1, nx * elem_bytes, ny, nz}};
    return {{ny * nz, nx * elem_bytes, 1, 1}};
}

// The tiling of an iteration space: tiles of a fixed shape, x fastest, the
// last tile along each dimension clipped at the array's edge.
class TileGrid {
public:
    TileGrid(Index3 extents, Index3 tile) : TileGrid(extents, tile, Box{{0, 0, 0}, extents}) {}

    // Tiles that cover only `space`, a box inside the arrays (a loop that runs
    // from 1 to N-1, say): the first tile starts at space.begin, the last one
    // is clipped at space.end, and padded boxes are still clipped at the
    // array's edges, not at the space's.
    TileGrid(Index3 extents, Index3 tile, Box space) : extents_(extents), tile_(tile), space_(space) {
        for (int d = 0; d < 3; ++d) {
            if (extents_[d] < 1) throw std::invalid_argument("array extent must be positive in dimension " + std::to_string(d));
            if (tile_[d] < 1) throw std::invalid_argument("tile size must be positive in dimension " + std::to_string(d));
            if (space_.begin[d] < 0 || space_.end[d] > extents_[d] || space_.extent(d) < 1)
                throw std::invalid_argument("iteration space must be a non-empty box inside the array in dimension " +
                                            std::to_string(d));
            tile_[d] = std::min(tile_[d], space_.extent(d));
            count_[d] = detail::ceil_div(space_.extent(d), tile_[d]);
        }
    }

    const Index3& extents() const { return extents_; }
    const Index3& tile() const { return tile_; }
    const Box& space() const { return space_; }
    const Index3& tiles_per_dim() const { return count_; }
    std::int64_t tile_count() const { return count_[0] * count_[1] * count_[2]; }

    Index3 coords(std::int64_t k) const {
        return {k % count_[0], (k / count_[0]) % count_[1], k / (count_[0] * count_[1])};
    }

    // The elements tile k writes.
    Box core(std::int64_t k) const {
        const Index3 c = coords(k);
        Box b;
        for (int d = 0; d < 3; ++d) {
            b.begin[d] = space_.begin[d] + c[d] * tile_[d];
            b.end[d] = std::min(b.begin[d] + tile_[d], space_.end[d]);
        }
        return b;
    }

    // The elements tile k reads: its core grown by the halo and clipped at the
    // array's edges, so edge tiles copy less (the inaccuracy thesis §8.1 names).
    Box padded(std::int64_t k, const Halo& h) const {
        Box b = core(k);
        for (int d = 0; d < 3; ++d) {
            b.begin[d] = std::max<std::int64_t>(0, b.begin[d] - h.lo[d]);
            b.end[d] = std::min(extents_[d], b.end[d] + h.hi[d]);
        }
        return b;
    }

    // The dimension along which the tiles are stacked when only one dimension
    // has more than one tile (slabs), else -1.
    int slab_dimension() const {
        int dim = -1;
        for (int d = 0; d < 3; ++d)
            if (count_[d] > 1) {
                if (dim >= 0) return -1;
                dim = d;
            }
        return dim < 0 ? 0 : dim;
    }

    // The part of padded(k) that no earlier tile has sent: when the tiles
    // are slabs and the device holds the whole array (basic scheme), halo
    // rows shared with the previous tile are sent once (thesis §8.1, first
    // item of future work). Otherwise the whole padded box.
    Box fresh_input(std::int64_t k, const Halo& h) const {
        Box b = padded(k, h);
        const int d = slab_dimension();
        if (d < 0 || k == 0) return b;
        const Box prev = padded(k - 1, h);
        b.begin[d] = std::max(b.begin[d], prev.end[d]);
        if (b.begin[d] > b.end[d]) b.begin[d] = b.end[d];
        return b;
    }

    // With fresh_input, tile k's kernel also reads what tiles
    // first_tile_read(k)..k-1 sent; it must wait for their copies.
    std::int64_t first_tile_read(std::int64_t k, const Halo& h) const {
        const int d = slab_dimension();
        if (d < 0) return k;
        const std::int64_t need = padded(k, h).begin[d];
        std::int64_t j = k;
        while (j > 0 && fresh_input(j, h).begin[d] > need) --j;
        return j;
    }

    // Extents of a tile buffer that holds any tile's padded input (scalable and
    // buffered schemes). Where the tile spans the whole array the padding
    // vanishes by clipping, keeping full rows contiguous on both sides
    // (thesis §6.4.1, footnote 1).
    Index3 buffer_extents(const Halo& h) const {
        Index3 e;
        for (int d = 0; d < 3; ++d) e[d] = std::min(extents_[d], tile_[d] + h.lo[d] + h.hi[d]);
        return e;
    }

private:
    Index3 extents_;
    Index3 tile_;
    Box space_;
    Index3 count_{1, 1, 1};
};

// The points both boxes hold (an empty box where they do not meet).
inline Box intersect(const Box& a, const Box& b) {
    Box out;
    for (int d = 0; d < 3; ++d) {
        out.begin[d] = std::max(a.begin[d], b.begin[d]);
        out.end[d] = std::max(out.begin[d], std::min(a.end[d], b.end[d]));
    }
    return out;
}

// `box` counted from `origin` (a part of a chunk in the chunk's coordinates).
inline Box relative_to(const Box& box, const Index3& origin) {
    return Box{{box.begin[0] - origin[0], box.begin[1] - origin[1], box.begin[2] - origin[2]},
               {box.end[0] - origin[0], box.end[1] - origin[1], box.end[2] - origin[2]}};
}

// The part of `outer` that is not in `inner` (inner inside outer), as at
// most six disjoint boxes: the boundary frame recipe::iterate copies into
// the written array before step 2 (the advisor prices the same boxes).
inline std::vector<Box> frame_boxes(const Box& outer, const Box& inner) {
    std::vector<Box> out;
    for (int d = 2; d >= 0; --d) {
        Box lo, hi;
        for (int e = 0; e < 3; ++e) {
            const bool within_inner = e > d;
            lo.begin[e] = hi.begin[e] = within_inner ? inner.begin[e] : outer.begin[e];
            lo.end[e] = hi.end[e] = within_inner ? inner.end[e] : outer.end[e];
        }
        lo.begin[d] = outer.begin[d];
        lo.end[d] = inner.begin[d];
        hi.begin[d] = inner.end[d];
        hi.end[d] = outer.end[d];
        if (!lo.empty()) out.push_back(lo);
        if (!hi.empty()) out.push_back(hi);
    }
    return out;
}

// The part of `box` outside `skip` (any two boxes), as at most six disjoint
// boxes: what a region packs of a chunk of an array whose `skip` box it
// writes before reading it (recipe::Resident::written_first).
inline std::vector<Box> boxes_outside(const Box& box, const Box& skip) {
    const Box inner = intersect(box, skip);
    if (inner.empty()) return box.empty() ? std::vector<Box>{} : std::vector<Box>{box};
    return frame_boxes(box, inner);
}

// What reaching a row far from the last one costs the host's staging
// threads (a cache and often a TLB miss, ~100 ns), in the bytes a thread
// copies meanwhile: where rows are short, the threads share out and the
// model prices each row at its bytes plus this (detail/host_copy.cuh,
// advisor/region.cpp).
constexpr std::int64_t kRowReachBytes = 512;

// The runs of consecutive host addresses the points of `box` outside
// `skip` make (box full in x and y where it spans several rows: a region's
// chunk), rows that continue each other joined, as the staging threads copy
// them (detail/host_copy.cuh, join_segments).
inline std::int64_t runs_outside(const Box& box, const Box& skip, const Index3& extents) {
    std::int64_t runs = 0;
    std::int64_t end = -1;  // one past the last run's last point, as a linear index
    for (std::int64_t z = box.begin[2]; z < box.end[2]; ++z)
        for (std::int64_t y = box.begin[1]; y < box.end[1]; ++y) {
            const bool crosses = y >= skip.begin[1] && y < skip.end[1] && z >= skip.begin[2] && z < skip.end[2];
            const std::int64_t row = (z * extents[1] + y) * extents[0];
            auto piece = [&](std::int64_t x0, std::int64_t x1) {
                if (x1 <= x0) return;
                if (row + x0 != end) ++runs;
                end = row + x1;
            };
            if (!crosses || skip.end[0] <= box.begin[0] || skip.begin[0] >= box.end[0]) {
                piece(box.begin[0], box.end[0]);
            } else {
                piece(box.begin[0], std::max(box.begin[0], skip.begin[0]));
                piece(std::min(box.end[0], skip.end[0]), box.end[0]);
            }
        }
    return runs;
}

}  // namespace recipe
