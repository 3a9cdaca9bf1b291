#include "advisor/tile_classes.h"

#include <algorithm>

namespace recipe::advisor {

namespace {

// One kind of tile along one dimension.
struct DimKind {
    std::int64_t count = 0;
    std::int64_t core = 0;
    std::vector<std::int64_t> padded;  // per input
    std::vector<std::int64_t> fresh;   // per input
    bool first = false;
    bool last = false;

    bool same_shape(const DimKind& o) const { return core == o.core && padded == o.padded && fresh == o.fresh; }
};

Halo halo_along(const Halo& h, int d) {
    Halo one;
    one.lo = {h.lo[d], 0, 0};
    one.hi = {h.hi[d], 0, 0};
    return one;
}

DimKind kind_at(const TileGrid& line, std::int64_t i, const std::vector<Halo>& halos) {
    DimKind k;
    k.count = 1;
    k.core = line.core(i).extent(0);
    for (const Halo& h : halos) {
        k.padded.push_back(line.padded(i, h).extent(0));
        k.fresh.push_back(line.fresh_input(i, h).extent(0));
    }
    k.first = i == 0;
    k.last = i == line.tile_count() - 1;
    return k;
}

void add_kind(std::vector<DimKind>* kinds, DimKind k) {
    for (auto& existing : *kinds)
        if (existing.same_shape(k)) {
            existing.count += k.count;
            existing.first = existing.first || k.first;
            existing.last = existing.last || k.last;
            return;
        }
    kinds->push_back(std::move(k));
}

// The kinds of tile along dimension d: the tiles near either edge one by
// one, the interior as one representative.
std::vector<DimKind> kinds_along(const Problem& p, const Index3& tile, int d) {
    const TileGrid line({p.extents[d], 1, 1}, {tile[d], 1, 1}, Box{{p.space.begin[d], 0, 0}, {p.space.end[d], 1, 1}});
    std::vector<Halo> halos;
    std::int64_t max_lo = 0, max_hi = 0;
    for (const auto& in : p.inputs) {
        halos.push_back(halo_along(in.halo, d));
        max_lo = std::max(max_lo, in.halo.lo[d]);
        max_hi = std::max(max_hi, in.halo.hi[d]);
    }
    const std::int64_t n = line.tile_count();
    const std::int64_t t = line.tile()[0];
    // Tiles whose padding or predecessor's padding reaches the low edge, and
    // those whose padding or core reaches the high edge.
    const std::int64_t low = std::min(n, (max_lo + t - 1) / t + 2);
    const std::int64_t high = std::min(n - low, (max_hi + t - 1) / t + 2);
    std::vector<DimKind> kinds;
    for (std::int64_t i = 0; i < low; ++i) add_kind(&kinds, kind_at(line, i, halos));
    const std::int64_t middle = n - low - high;
    if (middle > 0) {
        DimKind k = kind_at(line, low, halos);
        k.count = middle;
        add_kind(&kinds, std::move(k));
    }
    for (std::int64_t i = n - high; i < n; ++i) add_kind(&kinds, kind_at(line, i, halos));
    return kinds;
}

}  // namespace

TileClasses classify_tiles(const Problem& p, const Index3& tile) {
    TileClasses out;
    const TileGrid grid(p.extents, tile, p.space);
    out.tile = grid.tile();
    out.tiles_per_dim = grid.tiles_per_dim();
    out.tiles = grid.tile_count();
    for (const auto& in : p.inputs) out.input_buffers.push_back(grid.buffer_extents(in.halo));
    const int slab = grid.slab_dimension();

    std::vector<DimKind> kinds[3];
    for (int d = 0; d < 3; ++d) kinds[d] = kinds_along(p, tile, d);

    const std::size_t arrays = p.inputs.size();
    for (const auto& kz : kinds[2])
        for (const auto& ky : kinds[1])
            for (const auto& kx : kinds[0]) {
                const DimKind* k[3] = {&kx, &ky, &kz};
                TileClass c;
                c.count = kx.count * ky.count * kz.count;
                c.padded.assign(arrays, Index3{1, 1, 1});
                c.fresh.assign(arrays, Index3{1, 1, 1});
                for (int d = 0; d < 3; ++d) {
                    c.core[d] = k[d]->core;
                    for (std::size_t a = 0; a < arrays; ++a) {
                        c.padded[a][d] = k[d]->padded[a];
                        // Only tiles stacked along one dimension share halo
                        // with their predecessor (TileGrid::fresh_input).
                        c.fresh[a][d] = d == slab ? k[d]->fresh[a] : k[d]->padded[a];
                    }
                }
                c.has_first = kx.first && ky.first && kz.first;
                c.has_last = kx.last && ky.last && kz.last;
                if (c.has_first) out.first = static_cast<int>(out.classes.size());
                if (c.has_last) out.last = static_cast<int>(out.classes.size());
                out.classes.push_back(std::move(c));
            }
    return out;
}

}  // namespace recipe::advisor
