// TileGrid over an iteration space smaller than the arrays (a loop from 1 to
// N-1): tiles start at the space, padding is clipped at the arrays' edges.
#include "recipe/tile_geometry.h"

#include <catch2/catch.hpp>

using recipe::Box;
using recipe::Halo;
using recipe::TileGrid;

TEST_CASE("tiles cover the iteration space, not the whole array", "[library]") {
    // for (i = 4; i < 96; i++): 92 points in tiles of 40
    TileGrid g({100, 1, 1}, {40, 1, 1}, Box{{4, 0, 0}, {96, 1, 1}});
    REQUIRE(g.tile_count() == 3);
    CHECK(g.core(0).begin[0] == 4);
    CHECK(g.core(0).end[0] == 44);
    CHECK(g.core(2).begin[0] == 84);
    CHECK(g.core(2).end[0] == 96);
    const Halo h{{4, 0, 0}, {4, 0, 0}};
    CHECK(g.padded(0, h).begin[0] == 0);    // clipped at the array, not the space
    CHECK(g.padded(2, h).end[0] == 100);
    CHECK(g.fresh_input(1, h).begin[0] == 48);  // what tile 0 sent is not sent again
    CHECK(g.first_tile_read(1, h) == 0);
}

TEST_CASE("a tile larger than the space is clipped to it", "[library]") {
    TileGrid g({10, 10, 1}, {64, 64, 1}, Box{{1, 1, 0}, {9, 9, 1}});
    REQUIRE(g.tile_count() == 1);
    CHECK(g.tile()[0] == 8);
    CHECK(g.tile()[1] == 8);
    // full-row buffers keep the x halo inside the array
    CHECK(g.buffer_extents(Halo{{1, 1, 0}, {1, 1, 0}})[0] == 10);
}

TEST_CASE("a space outside the array is refused", "[library]") {
    CHECK_THROWS_AS(TileGrid({10, 1, 1}, {4, 1, 1}, Box{{0, 0, 0}, {11, 1, 1}}), std::invalid_argument);
    CHECK_THROWS_AS(TileGrid({10, 1, 1}, {4, 1, 1}, Box{{5, 0, 0}, {5, 1, 1}}), std::invalid_argument);
}
