#include "recipe/tile_geometry.h"

#include <catch2/catch.hpp>

using recipe::Box;
using recipe::CopyMethod;
using recipe::DeviceLayout;
using recipe::Halo;
using recipe::TileGrid;

TEST_CASE("tiles clip at the array's edge", "[library]") {
    TileGrid g({10, 1, 1}, {4, 1, 1});
    REQUIRE(g.tile_count() == 3);
    CHECK(g.core(2).begin[0] == 8);
    CHECK(g.core(2).end[0] == 10);
    Halo h{{2, 0, 0}, {3, 0, 0}};
    CHECK(g.padded(0, h).begin[0] == 0);
    CHECK(g.padded(0, h).end[0] == 7);
    CHECK(g.padded(1, h).begin[0] == 2);
    CHECK(g.padded(1, h).end[0] == 10);
    CHECK(g.padded(2, h).end[0] == 10);
}

TEST_CASE("basic scheme sends shared halo rows once", "[library]") {
    TileGrid g({10, 1, 1}, {4, 1, 1});
    Halo h{{1, 0, 0}, {1, 0, 0}};
    CHECK(g.fresh_input(0, h).begin[0] == 0);
    CHECK(g.fresh_input(0, h).end[0] == 5);
    CHECK(g.fresh_input(1, h).begin[0] == 5);
    CHECK(g.fresh_input(1, h).end[0] == 9);
    CHECK(g.fresh_input(2, h).begin[0] == 9);
    CHECK(g.fresh_input(2, h).end[0] == 10);
    CHECK(g.first_tile_read(1, h) == 0);
    // The fresh boxes cover every element exactly once.
    std::int64_t total = 0;
    for (std::int64_t k = 0; k < g.tile_count(); ++k) total += g.fresh_input(k, h).count();
    CHECK(total == 10);
}

TEST_CASE("a tile of full rows is one contiguous copy; a narrow one is a row per copy", "[library]") {
    const recipe::Index3 ext{100, 50, 1};
    Box full{{0, 10, 0}, {100, 20, 1}};
    auto c = recipe::copies_for(full, ext, DeviceLayout{{0, 0, 0}, ext}, 4, CopyMethod::Merged);
    REQUIRE(c.size() == 1);
    CHECK(c[0].bytes() == 100 * 10 * 4);
    CHECK(c[0].host_offset == 10 * 100 * 4);

    Box narrow{{5, 10, 0}, {25, 20, 1}};
    CHECK(recipe::copies_for(narrow, ext, DeviceLayout{{0, 0, 0}, ext}, 4, CopyMethod::Merged).size() == 10);
    auto s = recipe::copies_for(narrow, ext, DeviceLayout{{5, 10, 0}, {20, 10, 1}}, 4, CopyMethod::Strided);
    REQUIRE(s.size() == 1);
    CHECK(s[0].rank() == 2);
    CHECK(s[0].width_bytes == 80);
    CHECK(s[0].height == 10);
    CHECK(s[0].host_pitch == 400);
    CHECK(s[0].device_pitch == 80);
    CHECK(s[0].device_offset == 0);
}

TEST_CASE("the part of a box outside another is disjoint, inside the box and holds every other point", "[library]") {
    // A chunk of z-planes of a 3-D stencil's array, its interior written first.
    const Box interior{{1, 1, 1}, {7, 5, 9}};
    const auto check_cover = [](const Box& box, const Box& skip, const std::vector<Box>& parts) {
        std::int64_t points = 0;
        for (std::int64_t z = box.begin[2]; z < box.end[2]; ++z)
            for (std::int64_t y = box.begin[1]; y < box.end[1]; ++y)
                for (std::int64_t x = box.begin[0]; x < box.end[0]; ++x) {
                    const auto in = [&](const Box& b) {
                        return x >= b.begin[0] && x < b.end[0] && y >= b.begin[1] && y < b.end[1] && z >= b.begin[2] &&
                               z < b.end[2];
                    };
                    int held = 0;
                    for (const Box& p : parts) held += in(p) ? 1 : 0;
                    CHECK(held == (in(skip) ? 0 : 1));  // each point outside `skip` once, none inside
                    points += held;
                }
        std::int64_t counted = 0;
        for (const Box& p : parts) counted += p.count();
        CHECK(counted == points);  // no part reaches beyond the box
    };
    for (std::int64_t z0 = 0; z0 < 10; z0 += 3) {
        const Box chunk{{0, 0, z0}, {8, 6, std::min<std::int64_t>(10, z0 + 3)}};
        check_cover(chunk, interior, recipe::boxes_outside(chunk, interior));
    }
    // Boxes that do not meet: the box itself; a box inside the other: nothing.
    const Box far{{20, 20, 20}, {30, 30, 30}};
    REQUIRE(recipe::boxes_outside(interior, far).size() == 1);
    CHECK(recipe::boxes_outside(interior, far)[0].count() == interior.count());
    CHECK(recipe::boxes_outside(Box{{2, 2, 2}, {3, 3, 3}}, interior).empty());
    // One dimension: a chunk of a signal in the middle is skipped, the ends keep one point.
    const Box signal{{1, 0, 0}, {99, 1, 1}};
    CHECK(recipe::boxes_outside(Box{{10, 0, 0}, {20, 1, 1}}, signal).empty());
    const auto head = recipe::boxes_outside(Box{{0, 0, 0}, {10, 1, 1}}, signal);
    REQUIRE(head.size() == 1);
    CHECK(head[0].begin[0] == 0);
    CHECK(head[0].count() == 1);
    CHECK(recipe::intersect(Box{{0, 0, 0}, {4, 4, 4}}, Box{{2, 5, 0}, {6, 9, 4}}).empty());
}
