// advisor/program_time.h: the C loop on one CPU thread, the GPU plan's first
// and later calls, and what CUDA's start-up the program's own work hides
// (docs/model.md, "The program's run"). Hand-computed on the unit platform.
#include <catch2/catch.hpp>

#include "advisor/program_time.h"
#include "unit_platform.h"

using namespace recipe;
using namespace recipe::advisor;

namespace {

// The unit platform with host figures: 1 GB/s streaming, 1 GFLOP/s, fresh
// pages written at 0.5 GB/s; start-up 200 ms, teardown 100 ms; the first
// run costs 1 ms more per MB of output.
nlohmann::json host_platform_json() {
    nlohmann::json j = test::unit_platform_json();
    j["hostStreamGBs"] = 1.0;
    j["hostGflops"] = 1.0;
    j["hostFirstTouchGBs"] = 0.5;
    j["cudaStartupNs"] = 200e6;
    j["cudaTeardownNs"] = 100e6;
    j["firstCall"] = {{"bytes", {1e6, 1e8}}, {"ns", {1e6, 1e8}}};
    for (const char* k : {"hostStreamGBs", "hostGflops", "hostFirstTouchGBs", "cudaStartupNs", "cudaTeardownNs", "firstCall"})
        j["source"][k] = "made up for the tests";
    return j;
}
Platform host_platform(const nlohmann::json& j = host_platform_json()) {
    Platform p;
    std::string error;
    REQUIRE(parse_platform(j.dump(), "unit", &p, &error));
    return p;
}

}  // namespace

TEST_CASE("the C loop's time: bytes at the host's bandwidth and flops at its rate, added", "[advisor]") {
    const Platform pf = host_platform();
    // 1000 floats in (reach 1 each side), 1000 out, 2 flops a point.
    Problem p = test::unit_problem({1000, 1, 1}, 1, Halo{{1, 0, 0}, {1, 0, 0}});
    p.space = Box{{1, 0, 0}, {999, 1, 1}};  // the loop runs 1 .. 998
    CpuEstimate e;
    std::string error;
    REQUIRE(cpu_time(p, pf, &e, &error));
    // Reads 0 .. 999 (1000 floats), writes 998.
    CHECK(e.bytes == Approx(1000 * 4 + 998 * 4));
    CHECK(e.memory_ms == Approx(7992 / 1e9 * 1e3));
    CHECK(e.flops == Approx(998 * 2));
    CHECK(e.compute_ms == Approx(1996 / 1e9 * 1e3));
    CHECK(e.ms == Approx(e.memory_ms + e.compute_ms));
    // The first call writes 3992 fresh bytes at 0.5 GB/s instead of 1 GB/s.
    CHECK(e.first_ms == Approx(e.ms + 3992 / 0.5e9 * 1e3 - 3992 / 1e9 * 1e3));

    p.flops_per_point = 100;  // now the arithmetic takes most of it
    REQUIRE(cpu_time(p, pf, &e, &error));
    CHECK(e.ms == Approx(99800 / 1e9 * 1e3 + 7992 / 1e9 * 1e3));

    p.time_steps = 10;  // every step streams the arrays again
    CpuEstimate ten;
    REQUIRE(cpu_time(p, pf, &ten, &error));
    CHECK(ten.ms == Approx(10 * e.ms));
}

TEST_CASE("64-bit integers converted to floating are priced at the host's conversion cost, on top of the flops", "[advisor]") {
    Platform pf = host_platform();
    Problem p = test::unit_problem({1000, 1, 1}, 1);
    p.flops_per_point = 100;  // arithmetic-bound: 1000 points x 100 flops at 1 GFLOP/s = 0.1 ms
    p.conversions_per_point = 2;
    CpuEstimate e;
    std::string error;
    REQUIRE(cpu_time(p, pf, &e, &error));
    CHECK(e.compute_ms == Approx(0.1));  // no hostConvertNs: not priced
    pf.host_convert_ns = 5;              // 2000 conversions x 5 ns = 0.01 ms
    REQUIRE(cpu_time(p, pf, &e, &error));
    CHECK(e.compute_ms == Approx(0.11));
    CHECK(e.ms == Approx(0.11 + e.memory_ms));
}

TEST_CASE("a chained floating accumulation runs no faster than its adds one after another", "[advisor]") {
    Platform pf = host_platform();
    Problem p = test::unit_problem({1000000, 1, 1}, 1);
    p.outputs.clear();  // a checksum: 4 MB of floats read, nothing written
    p.flops_per_point = 1;
    p.serial_adds_per_point = 1;
    CpuEstimate e;
    std::string error;
    REQUIRE(cpu_time(p, pf, &e, &error));
    const double unchained = e.memory_ms + e.compute_ms;  // 4 ms + 1 ms at 1 GB/s and 1 GFLOP/s
    CHECK(e.chain_ms == 0);  // no hostChainedSum: not priced
    CHECK(e.ms == Approx(unchained));
    // A chained sum: 1 ns an add over 1 MB of doubles (125,000 adds), 10
    // over 100 MB: at the nest's 4 MB, the pass's time on the line between
    // them, over 4 MB's 500,000 doubles.
    pf.host_chained_sum.bytes = {1e6, 1e8};
    pf.host_chained_sum.ns = {125000, 12500000 * 10.0};
    REQUIRE(cpu_time(p, pf, &e, &error));
    const double per_add = pf.host_chained_sum.ms(4e6) * 1e6 / (4e6 / 8);
    CHECK(per_add > 1);
    CHECK(per_add < 10);
    CHECK(e.chain_ms == Approx(1e6 * per_add * 1e-6));
    CHECK(e.ms == Approx(std::max(unchained, e.chain_ms)));
    // Slower adds: the chain is the nest's time.
    pf.host_chained_sum.ns = {125000 * 8.0, 12500000 * 80.0};
    REQUIRE(cpu_time(p, pf, &e, &error));
    CHECK(e.chain_ms > unchained);
    CHECK(e.ms == Approx(e.chain_ms));
    CHECK(e.first_ms >= e.ms);
    const double one_step = e.chain_ms;
    p.time_steps = 4;  // every step's adds join the chain
    REQUIRE(cpu_time(p, pf, &e, &error));
    CHECK(e.chain_ms == Approx(4 * one_step));
}

TEST_CASE("a loop that clamps its contiguous index: its arithmetic vectorised, each clamped read a lane load", "[advisor]") {
    nlohmann::json j = host_platform_json();
    j["hostGflopsVector4"] = 4.0;
    j["source"]["hostGflopsVector4"] = "made up for the tests";
    Platform pf = host_platform(j);
    std::string error;
    Problem p = test::unit_problem({1000, 1, 1}, 1);
    p.flops_per_point = 100;
    p.host_vector_lanes = 1;  // the analyzer's width for such a loop
    p.host_reported_lanes = 4;
    p.lane_loads_per_point = 4;
    CpuEstimate e;
    REQUIRE(cpu_time(p, pf, &e, &error));
    CHECK(e.compute_ms == Approx(0.1));  // no hostLaneLoadNs: the scalar rate, 1 GFLOP/s
    pf.host_lane_load_ns = 2;            // 4000 lane loads x 2 ns = 0.008 ms
    REQUIRE(cpu_time(p, pf, &e, &error));
    CHECK(e.gflops == Approx(4.0));
    CHECK(e.compute_ms == Approx(0.025 + 0.008));
}

TEST_CASE("the C loop's arithmetic runs at the rate of the width its compiler vectorises it", "[advisor]") {
    Platform pf = host_platform();
    Problem p = test::unit_problem({1000, 1, 1}, 1);
    p.flops_per_point = 100;  // arithmetic-bound: 1000 points x 100 flops
    CpuEstimate e;
    std::string error;
    p.host_vector_lanes = 4;
    REQUIRE(cpu_time(p, pf, &e, &error));
    CHECK(e.compute_ms == Approx(0.1));  // no vectorised rates measured: hostGflops, 1 GFLOP/s
    // The profile's measured rates of the stencil vectorised two and four wide.
    nlohmann::json j = host_platform_json();
    j["hostGflopsVector2"] = 2.0;
    j["hostGflopsVector4"] = 4.0;
    j["source"]["hostGflopsVector2"] = j["source"]["hostGflopsVector4"] = "made up for the tests";
    pf = host_platform(j);
    CHECK(pf.host_gflops_vector4 == 4);
    REQUIRE(cpu_time(p, pf, &e, &error));
    CHECK(e.gflops == 4);
    CHECK(e.compute_ms == Approx(0.025));
    p.host_vector_lanes = 8;  // wider than measured: the four-lane rate
    REQUIRE(cpu_time(p, pf, &e, &error));
    CHECK(e.compute_ms == Approx(0.025));
    p.host_vector_lanes = 2;
    REQUIRE(cpu_time(p, pf, &e, &error));
    CHECK(e.compute_ms == Approx(0.05));
    for (int lanes : {0, 1}) {  // not known, and scalar: hostGflops
        p.host_vector_lanes = lanes;
        REQUIRE(cpu_time(p, pf, &e, &error));
        CHECK(e.compute_ms == Approx(0.1));
    }
}

TEST_CASE("without host figures the C loop cannot be priced, and the error says what to measure", "[advisor]") {
    const Platform pf = test::unit_platform();
    CpuEstimate e;
    std::string error;
    CHECK_FALSE(cpu_time(test::unit_problem({1000, 1, 1}, 1), pf, &e, &error));
    CHECK_THAT(error, Catch::Contains("hostStreamGBs") && Catch::Contains("recipe-profile"));
    CHECK(cuda_startup_ms(pf) == 0);
    CHECK(hidden_startup_ms(test::unit_problem({1000, 1, 1}, 1), pf) == 0);
}

TEST_CASE("an older profile's first run is priced without the allocations its own run made", "[advisor]") {
    // firstRun (before firstCall) was measured on a first run that allocated
    // its own device and staging blocks: what that run allocated comes off,
    // whatever the plan's own blocks (its start-up thread allocates them).
    nlohmann::json j = host_platform_json();
    j.erase("firstCall");
    j["source"].erase("firstCall");
    j["firstRun"] = {{"bytes", {1e6, 1e8}}, {"ns", {1e6, 1e8}}};
    j["stagingSetup"] = {{"bytes", {1e6, 1e8}}, {"ns", {1e5, 1e7}}};  // 0.1 ms a MB
    j["source"]["firstRun"] = j["source"]["stagingSetup"] = "made up for the tests";
    const Platform pf = host_platform(j);
    REQUIRE(pf.first_call.empty());
    const PoolReservation profiled = profiled_first_run_pool(16e6, pf);
    // 16 MB out: 16 tiles of 250,000 floats, a tile in and a tile out on
    // each of 2 streams, 4 MB.
    CHECK(profiled.pinned_bytes >= 4000000);
    CHECK(profiled.pinned_bytes < 4100000);
    Prediction small, large;
    small.host_strategy = large.host_strategy = HostStrategy::Staged;
    small.host_bytes = 1000000;
    large.host_bytes = 100000000;
    const double expected = 16.0 - pool_setup_ms(profiled, pf);
    CHECK(expected == Approx(16.0 - 0.4).epsilon(0.01));
    CHECK(first_call_extra_ms(small, pf, 16e6) == Approx(expected));
    CHECK(first_call_extra_ms(large, pf, 16e6) == Approx(expected));
}

TEST_CASE("the program's first call pays the first call's extra; later calls are warm", "[advisor]") {
    const Platform pf = host_platform();
    Prediction best;
    best.host_strategy = HostStrategy::Staged;  // malloc'd arrays
    best.total_ms = 5;
    best.d2h.bytes = 10000000;
    best.problem = test::unit_problem({2500000, 1, 1}, 1);  // 10 MB of fresh output: 10 ms more on the first call
    CpuEstimate cpu;
    cpu.first_ms = 30;
    cpu.ms = 20;
    const ProgramTime t = program_time(best, cpu, pf, 4);
    CHECK(t.gpu_first_ms == Approx(15));
    CHECK(t.gpu_warm_ms == Approx(5));
    CHECK(t.gpu_total_ms() == Approx(15 + 3 * 5));
    CHECK(t.cpu_total_ms() == Approx(30 + 3 * 20));
    CHECK(t.saving_ms() == Approx(90 - 30));
    CHECK(cuda_startup_ms(pf) == Approx(200));
    CHECK(cuda_teardown_ms(pf) == Approx(100));
    // An output another nest wrote before this one runs: its pages are not fresh.
    CHECK(fresh_output_bytes(best.problem) == Approx(10e6));
    for (auto& a : best.problem.outputs) a.written_before = true;
    CHECK(fresh_output_bytes(best.problem) == 0);
    for (auto& a : best.problem.outputs) a.written_before = false;
    // An output the nest reads too was written by the host before: its pages are not fresh.
    for (auto& a : best.problem.outputs) a.copy_in = true;
    CHECK(fresh_output_bytes(best.problem) == 0);
    CHECK(program_time(best, cpu, pf, 4).gpu_first_ms < 15);
}

TEST_CASE("the C loop's first call faults in only the output pages no nest wrote before", "[advisor]") {
    const Platform pf = host_platform();
    Problem p = test::unit_problem({2500000, 1, 1}, 1);  // 10 MB of output
    CpuEstimate fresh, written;
    std::string error;
    REQUIRE(cpu_time(p, pf, &fresh, &error));
    for (auto& a : p.outputs) a.written_before = true;
    REQUIRE(cpu_time(p, pf, &written, &error));
    CHECK(fresh.first_ms > fresh.ms);
    CHECK(written.first_ms == Approx(written.ms));
    CHECK(written.ms == Approx(fresh.ms));
}

TEST_CASE("the program's filling of a nest's inputs hides that much of CUDA's start-up", "[advisor]") {
    const Platform pf = host_platform();
    Problem p = test::unit_problem({1000000, 1, 1}, 1);  // 4 MB of input at 0.5 GB/s: 8 ms
    CHECK(hidden_startup_ms(p, pf) == Approx(8));
    ArrayUse coefficients;
    coefficients.extents = {250000, 1, 1};
    p.whole_inputs = {coefficients};  // 1 MB more
    CHECK(hidden_startup_ms(p, pf) == Approx(10));
}

TEST_CASE("a first call over page-locked arrays pays no fresh pages", "[advisor]") {
    // firstCall is measured on malloc'd arrays, whose output pages the first
    // call faults in; cudaMallocHost'd (or registered) arrays have every page
    // present already. Registered for the call, or staged, they are faulted in.
    const Platform pf = host_platform();  // firstCall: 1 ns a byte
    Prediction call;
    call.host_strategy = HostStrategy::Staged;
    CHECK(first_call_extra_ms(call, pf, 16e6) == Approx(16.0));
    call.host_strategy = HostStrategy::Register;
    CHECK(first_call_extra_ms(call, pf, 16e6) == Approx(16.0));
    call.host_strategy = HostStrategy::Pinned;
    CHECK(first_call_extra_ms(call, pf, 16e6) == 0);
}
