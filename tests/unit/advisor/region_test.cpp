// advisor/region.h: a region priced as the library's recipe::Region runs it.
// On the unit platform (copies 10 us + 1 ns/B, kernels 1 ns per element, no
// launch overhead) the phases can be computed by hand.
#include <catch2/catch.hpp>

#include "advisor/region.h"
#include "unit_platform.h"

using namespace recipe;
using namespace recipe::advisor;

namespace {

// Two nests of a 2-D time loop over two float arrays a and b (1000 x 1000).
RegionProblem two_nests(std::int64_t steps, bool pinned) {
    RegionProblem r;
    r.dims = 2;
    r.extents = {1000, 1000, 1};
    r.arrays = {{"a", 4, true, true}, {"b", 4, true, true}};
    const Problem p = test::unit_problem({1000, 1000, 1}, 2, Halo{{1, 1, 0}, {1, 1, 0}});
    r.nests = {p, p};
    r.steps = steps;
    r.pinned_host = pinned;
    return r;
}

}  // namespace

TEST_CASE("a region copies every array once each way and runs every nest once per step", "[advisor]") {
    const Platform pf = test::unit_platform();
    RegionPrediction one, many;
    std::string error;
    REQUIRE(predict_region(two_nests(1, true), pf, {}, &one, &error));
    REQUIRE(predict_region(two_nests(100, true), pf, {}, &many, &error));
    // 4 MB per array: copies in and out do not depend on the steps.
    CHECK(many.total.h2d.bytes == 8000000);
    CHECK(many.total.d2h.bytes == 8000000);
    CHECK(many.total.phases.h2d == Approx(one.total.phases.h2d));
    CHECK(many.total.phases.d2h == Approx(one.total.phases.d2h));
    // 1 ns per element: 1 ms per launch, two launches per step.
    REQUIRE(many.launches.size() == 2);
    CHECK(many.launches[0].kernel_ms == Approx(1.0).epsilon(0.01));
    CHECK(many.total.phases.kernel == Approx(200.0).epsilon(0.01));
    CHECK(many.total.total_ms - one.total.total_ms == Approx(99 * 2.0).epsilon(0.01));
    // Pinned: the copies are the DMA alone, about 8 ms each way at 1 GB/s.
    CHECK(many.total.phases.staging == 0);
    CHECK(many.total.phases.h2d == Approx(8.0).epsilon(0.05));
    CHECK(many.total.total_ms == Approx(many.total.phases.alloc + many.total.phases.h2d + 200.0 + many.total.phases.d2h).epsilon(1e-9));
}

TEST_CASE("an array the region writes whole before reading it is not copied in; one it only reads is not copied out", "[advisor]") {
    const Platform pf = test::unit_platform();
    RegionProblem r = two_nests(10, true);
    r.arrays[1].copy_in = false;   // b: written whole first
    r.arrays[0].copy_out = false;  // a: only read
    RegionPrediction p;
    std::string error;
    REQUIRE(predict_region(r, pf, {}, &p, &error));
    CHECK(p.total.h2d.bytes == 4000000);
    CHECK(p.total.d2h.bytes == 4000000);
}

TEST_CASE("pageable arrays are staged: the slower of packing and DMA sets the pace", "[advisor]") {
    const Platform pf = test::unit_platform();
    RegionPrediction pinned, staged;
    std::string error;
    REQUIRE(predict_region(two_nests(1, true), pf, {}, &pinned, &error));
    REQUIRE(predict_region(two_nests(1, false), pf, {}, &staged, &error));
    CHECK(staged.total.host_strategy == HostStrategy::Staged);
    CHECK(staged.total.phases.staging > 0);
    CHECK(staged.total.host_bytes > 0);
    CHECK(staged.total.total_ms >= pinned.total.total_ms);
    // --host-memory pinned overrides what the analyzer saw.
    ModelOptions o;
    o.host_memory = advisor::HostMemory::Pinned;
    RegionPrediction forced;
    REQUIRE(predict_region(two_nests(1, false), pf, o, &forced, &error));
    CHECK(forced.total.phases.staging == 0);
}

TEST_CASE("the copies are pipelined in chunks of whole rows of about 4 MiB", "[advisor]") {
    RegionProblem r = two_nests(1, true);
    r.extents = {4096, 4096, 1};  // 16 KiB rows of floats: 256 rows per chunk
    CHECK(region_chunk(r) == Index3{4096, 256, 1});
    r.dims = 3;
    r.extents = {512, 512, 64};  // 1 MiB planes: 4 per chunk
    CHECK(region_chunk(r) == Index3{512, 512, 4});
    r.dims = 1;
    r.extents = {100, 1, 1};  // smaller than a chunk: one
    CHECK(region_chunk(r) == Index3{100, 1, 1});
}

TEST_CASE("a region whose arrays do not fit on the device is refused", "[advisor]") {
    const Platform pf = test::unit_platform();  // 1 GB of device memory
    RegionProblem r = two_nests(1, true);
    r.extents = {20000, 20000, 1};  // 1.6 GB per array
    RegionPrediction p;
    std::string error;
    CHECK_FALSE(predict_region(r, pf, {}, &p, &error));
    CHECK_THAT(error, Catch::Contains("device memory"));
}
