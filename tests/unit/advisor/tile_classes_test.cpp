// Grouping tiles into classes must price exactly what iterating every tile
// of the TileGrid would: same counts, same boxes.
#include "advisor/tile_classes.h"

#include <catch2/catch.hpp>
#include <map>

#include "tests/unit/advisor/unit_platform.h"

using namespace recipe;
using namespace recipe::advisor;

namespace {

using Key = std::tuple<Index3, Index3, Index3>;  // core, padded, fresh extents

std::map<Key, std::int64_t> brute_force(const Problem& p, const Index3& tile) {
    const TileGrid g(p.extents, tile, p.space);
    std::map<Key, std::int64_t> out;
    for (std::int64_t k = 0; k < g.tile_count(); ++k)
        ++out[{g.core(k).extents(), g.padded(k, p.inputs[0].halo).extents(), g.fresh_input(k, p.inputs[0].halo).extents()}];
    return out;
}

std::map<Key, std::int64_t> grouped(const Problem& p, const Index3& tile) {
    const TileClasses tc = classify_tiles(p, tile);
    std::map<Key, std::int64_t> out;
    for (const auto& c : tc.classes) out[{c.core, c.padded[0], c.fresh[0]}] += c.count;
    return out;
}

}  // namespace

TEST_CASE("tile classes match iterating every tile", "[advisor]") {
    struct Case {
        Index3 extents;
        int dims;
        Halo halo;
        Box space;
    };
    const std::vector<Case> cases = {
        {{1000, 1, 1}, 1, {{4, 0, 0}, {4, 0, 0}}, Box{{0, 0, 0}, {1000, 1, 1}}},
        {{1000, 1, 1}, 1, {{4, 0, 0}, {2, 0, 0}}, Box{{4, 0, 0}, {996, 1, 1}}},
        {{40, 30, 1}, 2, {{1, 1, 0}, {1, 1, 0}}, Box{{1, 1, 0}, {39, 29, 1}}},
        {{20, 18, 16}, 3, {{1, 1, 1}, {1, 1, 1}}, Box{{0, 0, 0}, {20, 18, 16}}},
        {{20, 18, 16}, 3, {{2, 0, 3}, {1, 2, 0}}, Box{{2, 0, 3}, {19, 16, 16}}},
    };
    for (const Case& c : cases) {
        Problem p = test::unit_problem(c.extents, c.dims, c.halo);
        p.space = c.space;
        const Index3 s = c.space.extents();
        for (std::int64_t tx : {1, 3, 7, 1000})
            for (std::int64_t ty : {1, 2, 5, 1000})
                for (std::int64_t tz : {1, 4, 1000}) {
                    const Index3 tile{std::min(tx, s[0]), std::min(ty, s[1]), std::min(tz, s[2])};
                    INFO("extents " << c.extents[0] << "x" << c.extents[1] << "x" << c.extents[2] << " tile " << tile[0]
                                    << "x" << tile[1] << "x" << tile[2]);
                    CHECK(grouped(p, tile) == brute_force(p, tile));
                    const TileClasses tc = classify_tiles(p, tile);
                    CHECK(tc.tiles == TileGrid(p.extents, tile, p.space).tile_count());
                    CHECK(tc.classes[static_cast<std::size_t>(tc.first)].has_first);
                    CHECK(tc.classes[static_cast<std::size_t>(tc.last)].has_last);
                }
    }
}

TEST_CASE("64,000 tiles make a handful of classes", "[advisor]") {
    const Problem p = test::unit_problem({400, 400, 400}, 3, Halo{{1, 1, 1}, {1, 1, 1}});
    const TileClasses tc = classify_tiles(p, {10, 10, 10});
    CHECK(tc.tiles == 64000);
    CHECK(tc.classes.size() <= 27);
}
