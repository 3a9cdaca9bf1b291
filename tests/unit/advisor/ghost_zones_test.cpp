// Ghost zones (advisor/ghost_zones.h), cases computed by hand on the unit
// platform: copies 10 us + 1 ns per byte, kernels 1 ns per element, no
// launch overhead.
#include <catch2/catch.hpp>

#include "advisor/ghost_zones.h"
#include "tests/unit/advisor/region_fixtures.h"

using namespace recipe;
using namespace recipe::advisor;

namespace {

advisor::RegionProblem jacobi(std::int64_t steps) { return test::jacobi_region(steps); }

}  // namespace

TEST_CASE("ghost zones by hand: tiles with k steps' halos in, the launches on shrinking rows, the tiles' own rows out", "[advisor]") {
    const Platform pf = test::unit_platform();
    GhostPlan g;
    std::string error;
    REQUIRE(predict_ghost_region(jacobi(4), pf, {}, 2, 100, &g, &error));
    // Two steps a pass, two launches a step, each reading 1 row each side.
    CHECK(g.ghost_below == 4);
    CHECK(g.ghost_above == 4);
    CHECK(g.tiles == 10);
    CHECK(g.passes == 2);
    CHECK(g.launches_per_pass == 4);
    // A tile of 100 rows and 8 of ghost zone, of both arrays (256-byte aligned).
    CHECK(g.prediction.total.device_bytes == 2 * 432128);
    // In, per pass: the end tiles hold 104 rows, the 8 others 108, of 8000 bytes (two arrays).
    CHECK(g.prediction.total.h2d.bytes == 2 * (2 * 104 + 8 * 108) * 8000);
    // Out: every tile's own rows once a pass.
    CHECK(g.prediction.total.d2h.bytes == 2 * 1000 * 8000);
    // Launches: an inner tile's 4 launches cover 106, 104, 102 and 100 rows
    // of 1000 points, an end tile's 103, 102, 101, 100: 4108 rows a pass.
    CHECK(g.prediction.total.phases.kernel == Approx(2 * 4108 * 1000 * 1e-6).epsilon(0.01));
    CHECK(g.redundant == Approx(108.0 / 4000.0).epsilon(0.01));
    // The copies go in the region's chunks within a tile: 4 MB of rows, at most the tile's 100.
    CHECK(g.prediction.total.config.tile == Index3{1000, 100, 1});
    CHECK(g.core_rows == 100);
    const PhaseTimes& ph = g.prediction.total.phases;
    CHECK(g.prediction.total.total_ms >= ph.h2d + ph.kernel + ph.d2h);
}

TEST_CASE("ghost zones: fewer passes move fewer bytes; a tile must fit the budget and be as tall as its ghost zone below", "[advisor]") {
    const Platform pf = test::unit_platform();
    GhostPlan one, four;
    std::string error;
    REQUIRE(predict_ghost_region(jacobi(4), pf, {}, 1, 100, &one, &error));
    REQUIRE(predict_ghost_region(jacobi(4), pf, {}, 4, 100, &four, &error));
    CHECK(one.passes == 4);
    CHECK(four.passes == 1);
    CHECK(one.prediction.total.h2d.bytes > four.prediction.total.h2d.bytes);
    CHECK(one.redundant < four.redundant);
    // 3 rows are thinner than 2 steps' 4 rows below them.
    CHECK_FALSE(predict_ghost_region(jacobi(4), pf, {}, 2, 3, &one, &error));
    CHECK_THAT(error, Catch::Contains("thinner"));
    ModelOptions small;
    small.gpu_memory_bytes = 800000;  // below the 864,256 bytes of a 108-row tile
    CHECK_FALSE(predict_ghost_region(jacobi(4), pf, small, 2, 100, &one, &error));
    CHECK_THAT(error, Catch::Contains("device memory"));
    // A last pass shorter than the others: 5 steps, 2 a pass.
    GhostPlan odd;
    REQUIRE(predict_ghost_region(jacobi(5), pf, {}, 2, 100, &odd, &error));
    CHECK(odd.passes == 3);
}

TEST_CASE("ghost zones: the plan takes, for each k, the tallest tile the budget holds, and the fastest k", "[advisor]") {
    const Platform pf = test::unit_platform();
    ModelOptions budget;
    budget.gpu_memory_bytes = 2000000;  // 250 rows of both arrays; the arrays need 8 MB
    GhostPlan g;
    std::string error;
    REQUIRE(plan_ghost_region(jacobi(20), pf, budget, &g, &error));
    REQUIRE_FALSE(g.curve.empty());
    CHECK(g.curve.front().steps_per_pass == 1);
    for (const GhostPlan::Point& p : g.curve) {
        CHECK(p.total_ms >= g.prediction.total.total_ms);
        // 249 rows fit with the alignment; k steps take 4k of them as ghost zone.
        CHECK(p.core_rows == 249 - 4 * p.steps_per_pass);
    }
    CHECK(g.prediction.total.device_bytes <= 2000000);
    CHECK(g.core_rows + g.ghost_below + g.ghost_above <= 249);
    // Nothing fits: not even one row and its ghost zone.
    budget.gpu_memory_bytes = 10000;
    CHECK_FALSE(plan_ghost_region(jacobi(20), pf, budget, &g, &error));
}
