// Thread-block choice (advisor/occupancy.cpp): the shapes in the order they
// ran fastest, a later one only where it keeps clearly more threads busy.
#include <catch2/catch.hpp>

#include "advisor/plan.h"
#include "tests/unit/advisor/unit_platform.h"

using namespace recipe;
using namespace recipe::advisor;

namespace {

Index3 block_for(int dims, Index3 space) {
    Problem p;
    p.dims = dims;
    double occupancy = 0;
    const Index3 b = choose_block(p, test::unit_platform(), space, &occupancy);
    CHECK(occupancy > 0);
    return b;
}

}  // namespace

TEST_CASE("choose_block keeps the fastest shape where the others waste about as many threads", "[advisor]") {
    // jacobi-2d's LARGE interior: 32x8 wastes 1.5% of its threads, 32x4 1.2%;
    // 32x8 ran 7.6 us a launch and 32x4 10.4 on an H200.
    CHECK(block_for(2, {1298, 1298, 1}) == Index3{32, 8, 1});
    // heat-3d's EXTRALARGE interior: 32x4x2 wastes 12.5%, 16x8x4 7.4%; 32x4x2 ran 10% faster.
    CHECK(block_for(3, {198, 198, 198}) == Index3{32, 4, 2});
    CHECK(block_for(1, {1000000, 1, 1}) == Index3{128, 1, 1});
}

TEST_CASE("choose_block takes a later shape where it keeps clearly more threads busy", "[advisor]") {
    // 8 points wide: a 32-wide block leaves 3/4 of its threads idle, 16x16 half.
    CHECK(block_for(2, {8, 1000, 1}) == Index3{16, 16, 1});
    // 100 points: 128 threads leave 22% idle; 64- and 32-thread blocks launch 128 too.
    CHECK(block_for(1, {100, 1, 1}) == Index3{128, 1, 1});
    // 40 points: 128 leave 69% idle; 64 leave 37.5%; 32 (64 launched) no better than 64.
    CHECK(block_for(1, {40, 1, 1}) == Index3{64, 1, 1});
}
