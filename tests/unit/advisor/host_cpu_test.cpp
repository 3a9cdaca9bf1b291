#include "advisor/host_cpu.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace recipe::advisor;

TEST_CASE("the arithmetic windows keep the best rate of each kind seen", "[advisor]") {
    detail::ArithmeticWindows windows;
    double gflops = 0, math_ns = 1e30;
    for (int w = 1; w <= 4; ++w) {
        windows.sample();
        CHECK(windows.windows() == w);
        CHECK(std::isfinite(windows.gflops()));
        CHECK(std::isfinite(windows.math_call_ns()));
        CHECK(std::isfinite(windows.convert_ns()));
        CHECK(std::isfinite(windows.lane_load_ns()));
        CHECK(windows.lane_load_ns() >= 0);
        // The best so far: never worse than the window before.
        CHECK(windows.gflops() >= gflops);
        CHECK(windows.math_call_ns() <= math_ns);
        gflops = windows.gflops();
        math_ns = windows.math_call_ns();
    }
    // A few ms of sweeps of 158 k flops and of math calls: rates a CPU can
    // have, not a timer's artefact.
    CHECK(gflops > 0.05);
    CHECK(gflops < 1000);
    CHECK(math_ns > 0.1);
    CHECK(math_ns < 10000);
}

TEST_CASE("a quick host measurement gives every figure, the stream by working set", "[advisor]") {
    const HostCpu h = measure_host_cpu(true);
    CHECK(h.gflops > 0);
    CHECK(h.gflops_vector2 > 0);
    CHECK(h.gflops_vector4 > 0);
    CHECK(h.math_call_ns > 0);
    CHECK(h.convert_ns > 0);
    CHECK(h.convert_ns < 1000);
    REQUIRE(h.chain_ns.size() == h.stream_bytes.size());  // a chained sum over each working set
    for (std::size_t i = 0; i < h.chain_ns.size(); ++i) {
        CHECK(h.chain_ns[i] > 0);
        CHECK(h.chain_ns[i] / (h.stream_bytes[i] / 8) < 1000);  // ns an add
    }
    CHECK(h.stream_gbs > 0);
    CHECK(h.first_touch_gbs > 0);
    REQUIRE(h.stream_bytes.size() == 4);  // 3, 12, 48 and 192 MiB: quick stops before 768
    REQUIRE(h.stream_ns.size() == h.stream_bytes.size());
    for (std::size_t i = 1; i < h.stream_bytes.size(); ++i) {
        CHECK(h.stream_bytes[i] > h.stream_bytes[i - 1]);
        CHECK(h.stream_ns[i] > 0);
    }
}
