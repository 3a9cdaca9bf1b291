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
