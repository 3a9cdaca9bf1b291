// advisor/multi_gpu.h: a call or a region over several GPUs, on the unit
// platform with the made-up "multiGpu" figures of multi_gpu_platform.h, so
// that every number can be computed by hand; and the profile's "multiGpu"
// object, loaded, checked and written back.
#include <catch2/catch.hpp>

#include "advisor/model.h"
#include "advisor/multi_gpu.h"
#include "advisor/program_time.h"
#include "tests/unit/advisor/multi_gpu_platform.h"
#include "tests/unit/advisor/region_fixtures.h"

using namespace recipe;
using namespace recipe::advisor;
using nlohmann::json;

namespace {

std::string load_error(const json& j) {
    Platform p;
    std::string error;
    if (parse_platform(j.dump(), "p.json", &p, &error)) return "";
    return error;
}

}  // namespace

TEST_CASE("the profile's multiGpu figures load, and are written back as they were read", "[advisor]") {
    const Platform pf = test::unit_multi_gpu_platform();
    const MultiGpu& m = pf.multi_gpu;
    CHECK(m.gpus == 4);
    CHECK(m.h2d_gbs == std::vector<double>{1.0, 1.6, 2.4, 3.2});
    CHECK(m.context_start_ms.back() == 130.0);
    CHECK(m.nccl_init_ms[1] == 50.0);
    CHECK(m.exchange_us == 10.0);
    CHECK(m.measured == "made up for the tests");
    CHECK(to_json(m) == test::multi_gpu_json());
    CHECK(profile_gpus(pf) == 4);
    // "measured" says how they were obtained: no source entry needed; the
    // exchanges the fit came from may come along.
    json j = test::unit_multi_gpu_platform_json();
    j["multiGpu"]["exchangeBytes"] = {4096.0, 65536.0};
    j["multiGpu"]["exchangeNs"] = {10100.0, 75000.0};
    Platform with_points;
    std::string error;
    REQUIRE(parse_platform(j.dump(), "p.json", &with_points, &error));
    CHECK(to_json(with_points.multi_gpu) == j["multiGpu"]);
    // A profile without it plans one GPU.
    CHECK(test::unit_platform().multi_gpu.gpus == 0);
    CHECK(profile_gpus(test::unit_platform()) == 1);
}

TEST_CASE("the loader names the bad multiGpu field", "[advisor]") {
    json j = test::unit_multi_gpu_platform_json();
    SECTION("a list of the wrong length") {
        j["multiGpu"]["d2hGBs"] = {1.0, 2.0, 3.0};
        CHECK(load_error(j) == "p.json: multiGpu.d2hGBs: needs one value per GPU count, 1 to gpus (4), got 3");
    }
    SECTION("a bandwidth that is not positive") {
        j["multiGpu"]["stagingGBs"][2] = 0.0;
        CHECK(load_error(j) == "p.json: multiGpu.stagingGBs[2]: must be positive");
    }
    SECTION("a negative time") {
        j["multiGpu"]["contextStartMs"][1] = -1.0;
        CHECK(load_error(j) == "p.json: multiGpu.contextStartMs[1]: must not be negative (got -1)");
    }
    SECTION("a missing figure") {
        j["multiGpu"].erase("ncclInitMs");
        CHECK(load_error(j) == "p.json: multiGpu.ncclInitMs: missing");
    }
    SECTION("an unknown field") {
        j["multiGpu"]["h2dGbs"] = 1.0;
        CHECK(load_error(j) == "p.json: multiGpu.h2dGbs: unknown field");
    }
    SECTION("no GPUs") {
        j["multiGpu"]["gpus"] = 0;
        CHECK(load_error(j) == "p.json: multiGpu.gpus: must be at least 1 (got 0)");
    }
    SECTION("neither measured nor a source") {
        j["multiGpu"].erase("measured");
        CHECK(load_error(j) == "p.json: source.multiGpu: missing: say how multiGpu was obtained (or in multiGpu.measured)");
        j["source"]["multiGpu"] = "made up";
        CHECK(load_error(j).empty());
    }
    SECTION("sizes need not ascend") {
        j["multiGpu"]["h2dGBs"] = {1.0, 0.9, 2.0, 1.5};
        CHECK(load_error(j).empty());
    }
}

TEST_CASE("more GPUs than the profile measured are named as missing figures", "[advisor]") {
    CHECK(missing_gpu_figures(test::unit_multi_gpu_platform(), 4).empty());
    CHECK(missing_gpu_figures(test::unit_platform(), 1).empty());
    const std::string none = missing_gpu_figures(test::unit_platform(), 2);
    CHECK_THAT(none, Catch::Contains("\"multiGpu\"") && Catch::Contains("recipe-profile"));
    const std::string few = missing_gpu_figures(test::unit_multi_gpu_platform(), 8);
    CHECK_THAT(few, Catch::Contains("cover 4 GPUs, not 8") && Catch::Contains("recipe-profile"));
}

TEST_CASE("each GPU's share of the links, the start-up and the exchanges, by hand", "[advisor]") {
    const Platform pf = test::unit_multi_gpu_platform();
    const DeviceShares one = device_shares(pf, 1);
    CHECK(one.h2d == 1);
    CHECK(one.d2h == 1);
    CHECK(one.staging == 1);
    // h2dGBs[0] / (h2dGBs[n-1] / n): 1 / (1.6 / 2) = 1.25; d2h 1 / (2 / 2) = 1; staging 1 / (1 / 2) = 2.
    const DeviceShares two = device_shares(pf, 2);
    CHECK(two.h2d == Approx(1.25));
    CHECK(two.d2h == Approx(1.0));
    CHECK(two.staging == Approx(2.0));
    CHECK(device_shares(pf, 4).staging == Approx(4.0));
    // A copy in of 1 MB: (10 us + 1 ms) x 1.25 on one of two GPUs.
    const Platform shared = platform_for_devices(pf, 2);
    CHECK(shared.pinned_host_to_device.ms(1e6) == Approx(1.01 * 1.25));
    CHECK(shared.device_to_pinned_host.ms(1e6) == Approx(1.01));
    CHECK(shared.pinned_host_to_pinned_host.ms(1e6) == Approx(2 * pf.pinned_host_to_pinned_host.ms(1e6)));
    // A staged region's chunks: at the slower of the staging share and the
    // direction's copy share (in: max(2, 1.25), out: max(2, 1)).
    Platform with_regions = pf;
    Measurements chunk;
    chunk.bytes = {1e6, 4e6};
    chunk.ns = {1e5, 4e5};
    with_regions.region_chunk_in.streams = {2};
    with_regions.region_chunk_in.tables = {chunk};
    with_regions.region_chunk_out = with_regions.region_chunk_in;
    const Platform shared_regions = platform_for_devices(with_regions, 2);
    CHECK(shared_regions.region_chunk_in.at(2)->ms(4e6) == Approx(2 * 0.4));
    CHECK(shared_regions.region_chunk_out.at(2)->ms(4e6) == Approx(2 * 0.4));
    CHECK(extra_contexts_ms(pf, 1) == 0);
    CHECK(extra_contexts_ms(pf, 2) == Approx(10));
    CHECK(extra_contexts_ms(pf, 4) == Approx(30));
    CHECK(nccl_init_ms(pf, 1) == 0);
    CHECK(nccl_init_ms(pf, 3) == Approx(60));
    // 10 us + 1 MB at 1 GB/s.
    CHECK(halo_exchange_ms(pf, 1e6) == Approx(1.01));
}

TEST_CASE("a call on two GPUs takes as long as its slowest slab, each slab's copies in at its GPU's share", "[advisor]") {
    const Platform pf = test::unit_multi_gpu_platform();
    // 1e6 floats, 1-D, tiles of 500,000: one tile per GPU, so each slab is
    // one tile, priced in + k + out (the basic scheme's one-tile run) plus
    // the device block (0.1 ms):
    //   in  = (10 us + 2,000,000 B x 1 ns) x 1.25 = 2.5125 ms
    //   k   = 500,000 points x 1 ns             = 0.5 ms
    //   out = (10 us + 2,000,000 B x 1 ns) x 1  = 2.01 ms
    const Problem p = test::unit_problem({1000000, 1, 1}, 1);
    Config c;
    c.scheme = Scheme::Basic;
    c.tile = {500000, 1, 1};
    c.streams = 2;
    c.host = HostStrategy::Pinned;
    DevicePrediction two;
    std::string error;
    REQUIRE(predict_devices(p, pf, {}, c, 2, &two, &error));
    REQUIRE(two.slabs.size() == 2);
    CHECK(two.slabs[0].begin[0] == 0);
    CHECK(two.slabs[0].end[0] == 500000);
    CHECK(two.slabs[1].begin[0] == 500000);
    CHECK(two.h2d_bytes == std::vector<std::int64_t>{2000000, 2000000});
    CHECK(two.prediction.phases.h2d == Approx(2.5125));
    CHECK(two.prediction.phases.kernel == Approx(0.5));
    CHECK(two.prediction.phases.d2h == Approx(2.01));
    CHECK(two.prediction.phases.alloc == Approx(0.1));
    CHECK(two.prediction.total_ms == Approx(0.1 + 2.5125 + 0.5 + 2.01));
    // The call keeps the plan's configuration and the whole problem.
    CHECK(two.prediction.config.tile == c.tile);
    CHECK(two.prediction.problem.space.end[0] == 1000000);
    // One GPU through the same function is the model's own price.
    DevicePrediction one;
    REQUIRE(predict_devices(p, pf, {}, c, 1, &one, &error));
    Prediction direct;
    REQUIRE(predict(p, pf, c, {}, &direct, &error));
    CHECK(one.prediction.total_ms == direct.total_ms);
    // Two tile rows cannot feed three GPUs.
    DevicePrediction three;
    CHECK_FALSE(predict_devices(p, pf, {}, c, 3, &three, &error));
    CHECK_THAT(error, Catch::Contains("fewer than 3 GPUs"));
}

TEST_CASE("a call that cannot be cut says why", "[advisor]") {
    Problem p = test::unit_problem({1000000, 1, 1}, 1);
    Config c;
    c.scheme = Scheme::Basic;
    c.tile = {1000000, 1, 1};
    CHECK_THAT(devices_refusal(p, c), Catch::Contains("fewer than 2 tile rows"));
    c.tile = {1000, 1, 1};
    CHECK(devices_refusal(p, c).empty());
    Config naive;
    naive.scheme = Scheme::Naive;
    CHECK_THAT(devices_refusal(p, naive), Catch::Contains("whole space as one tile"));
    p.time_steps = 10;
    CHECK_THAT(devices_refusal(p, c), Catch::Contains("recipe::iterate"));
}

namespace {

// A 2-D time loop over a and b (1000 x 1000 floats, pinned): b = f(a), then
// a = f(b), each reading one row above and below.
RegionProblem ping_pong_region(std::int64_t steps) { return test::jacobi_region(steps); }

}  // namespace

TEST_CASE("a region on two GPUs, by hand: held rows in, owned rows out, exchanges overlapped with the interior", "[advisor]") {
    // An exchange of 1 ms + 1 ns per byte, longer than a GPU's interior, and
    // 10 us per launch, so that both show.
    json m = test::multi_gpu_json();
    m["exchangeUs"] = 1000.0;
    json j = test::unit_multi_gpu_platform_json(m);
    j["kernelLaunchNs"] = 10000.0;
    Platform pf;
    std::string error;
    REQUIRE(parse_platform(j.dump(), "p.json", &pf, &error));
    const RegionProblem r = ping_pong_region(10);
    CHECK(region_halo_rows(r) == 1);
    CHECK(region_devices_refusal(r).empty());
    RegionDevicePrediction two;
    REQUIRE(predict_region_devices(r, pf, {}, 2, &two, &error));
    // Cut along y: rows [0, 500) and [500, 1000), each holding one more row of its neighbour.
    REQUIRE(two.owned.size() == 2);
    CHECK(two.split_dimension == 1);
    CHECK(two.owned[0].end[1] == 500);
    CHECK(two.held[0].end[1] == 501);
    CHECK(two.held[1].begin[1] == 499);
    // In: 501 rows of 4000 B of each array, one chunk: (10 us + 2,004,000 ns) x 1.25 = 2.5175 ms each.
    CHECK(two.in_bytes[0] == 2 * 2004000);
    CHECK(two.total.phases.h2d == Approx(2 * 2.5175));
    // Out: 500 rows of each array: 10 us + 2 ms each, at one GPU's speed.
    CHECK(two.out_bytes[1] == 2 * 2000000);
    CHECK(two.total.phases.d2h == Approx(2 * 2.01));
    // Device: each array's 2,004,000 B rounded up to 256 B.
    CHECK(two.device_bytes[0] == 2 * 2004224);
    CHECK(two.total.phases.alloc == Approx(0.1));
    // A launch without an exchange: 500,000 points at 1 ns = 0.5 ms. With
    // one: the interior (499 rows, 0.499 ms) overlaps the exchange of one
    // row of 4000 B (1 ms + 4 us = 1.004 ms), then the strip next to the
    // neighbour (1000 points, 1 us) and its launch (10 us):
    //   1.004 + 0.001 + 0.01 = 1.015 ms.
    // Step 1: the first launch reads a, which nothing wrote yet (0.5 ms);
    // the second reads b, just written (1.015 ms). Steps 2-10: both exchange.
    REQUIRE(two.launch_ms.size() == 2);
    CHECK(two.launch_ms[0] == Approx(1.015));
    CHECK(two.launch_ms[1] == Approx(1.015));
    CHECK(two.exchanges_first_step == 1);
    CHECK(two.exchanges_per_step == 2);
    CHECK(two.exchange_bytes_per_step == 8000);
    CHECK(two.exchange_ms_per_step == Approx(2 * 1.004));
    const double kernels = (0.5 + 1.015) + 9 * (1.015 + 1.015);
    CHECK(two.total.phases.kernel == Approx(kernels));
    CHECK(two.total.total_ms == Approx(0.1 + 2 * 2.5175 + kernels + 2 * 2.01));
    // NCCL's set-up is the program's, once: not in the region's time.
    CHECK(nccl_init_ms(pf, 2) == Approx(50));
}

TEST_CASE("a region on a part of an array, or swapping its pointers, is priced as the library runs it", "[advisor]") {
    const Platform pf = test::unit_multi_gpu_platform();
    RegionProblem parts = ping_pong_region(10);
    parts.uses_parts = true;
    CHECK_THAT(region_devices_refusal(parts), Catch::Contains("part of an array"));
    RegionDevicePrediction d;
    std::string error;
    CHECK_FALSE(predict_region_devices(parts, pf, {}, 2, &d, &error));
    // One nest reading a and writing b, the loop swapping them: every later step exchanges.
    RegionProblem swapping = ping_pong_region(10);
    swapping.nests.pop_back();
    swapping.swaps = true;
    REQUIRE(predict_region_devices(swapping, pf, {}, 2, &d, &error));
    CHECK(d.exchanges_first_step == 0);
    CHECK(d.exchanges_per_step == 1);
    swapping.swaps = false;
    REQUIRE(predict_region_devices(swapping, pf, {}, 2, &d, &error));
    CHECK(d.exchanges_per_step == 0);
    // Slabs thinner than the halo are not priced.
    RegionProblem thin = ping_pong_region(1);
    thin.extents = {1000, 3, 1};
    for (auto& n : thin.nests) n = test::unit_problem({1000, 3, 1}, 2, Halo{{1, 2, 0}, {1, 2, 0}});
    CHECK_FALSE(predict_region_devices(thin, pf, {}, 2, &d, &error));
    CHECK_THAT(error, Catch::Contains("halo rows"));
}

TEST_CASE("the choice takes the program's cost: its calls, its first call and the further GPUs' start-up", "[advisor]") {
    const Platform pf = test::unit_multi_gpu_platform();
    Prediction call;
    call.total_ms = 20;
    DeviceCost one = device_cost(call, pf, 1, false, 0, 100);
    call.total_ms = 12;
    DeviceCost two = device_cost(call, pf, 2, false, 0, 100);
    CHECK(one.total_ms() == Approx(2000));
    CHECK(two.startup_ms == Approx(10));
    CHECK(two.total_ms() == Approx(1210));
    CHECK(fastest({one, two}) == 1);
    // Once: 20 ms against 12 + 10 ms of the second context.
    one.calls = two.calls = 1;
    CHECK(fastest({one, two}) == 0);
    // A region also pays NCCL's communicators.
    CHECK(device_cost(call, pf, 2, true, 0, 1).startup_ms == Approx(10 + 50));
    // Ties go to fewer GPUs.
    DeviceCost same = one;
    same.devices = 2;
    CHECK(fastest({one, same}) == 0);
}

TEST_CASE("a first call's fresh pages are faulted in by every GPU's staging threads at once", "[advisor]") {
    // Fresh pages cost 1 ns a byte on one GPU (firstCall); each of n GPUs
    // faults in its slab's share at one GPU's rate, whatever the host's
    // aggregate staging rate (page faults are not the copies' bandwidth).
    Platform pf = test::unit_multi_gpu_platform();  // staging 1 GB/s whatever the count
    pf.first_call.bytes = {1e6, 1e8};
    pf.first_call.ns = {1e6, 1e8};
    Prediction call;
    call.host_strategy = HostStrategy::Staged;
    REQUIRE(first_call_extra_ms(call, pf, 8e6) == Approx(8.0));
    CHECK(first_call_extra_ms(call, pf, 8e6, 1) == Approx(8.0));
    CHECK(first_call_extra_ms(call, pf, 8e6, 2) == Approx(4.0));
    CHECK(first_call_extra_ms(call, pf, 8e6, 4) == Approx(2.0));
    // Measured (freshGBs): the host's threads together fault in pages at
    // 1 GB/s whatever the count, so n GPUs take as long as one.
    json m = test::multi_gpu_json();
    m["freshGBs"] = {1.0, 1.0, 1.0, 1.0};
    Platform shared = test::unit_multi_gpu_platform(m);
    shared.first_call = pf.first_call;
    CHECK(first_call_extra_ms(call, shared, 8e6, 2) == Approx(8.0));
    CHECK(first_call_extra_ms(call, shared, 8e6, 4) == Approx(8.0));
    CHECK(to_json(shared.multi_gpu)["freshGBs"].size() == 4);
    m["freshGBs"] = {1.0, 2.0};
    CHECK_THROWS_WITH(test::unit_multi_gpu_platform(m), Catch::Contains("multiGpu.freshGBs"));
}

TEST_CASE("the further GPUs' start-up counts only where the program's work before its first call does not hide it", "[advisor]") {
    const Platform pf = test::unit_multi_gpu_platform();
    Prediction call;
    call.total_ms = 12;
    const double own = cuda_startup_ms(pf, 2);
    const DeviceCost bare = device_cost(call, pf, 2, true, 0, 1);
    CHECK(bare.added_ms == Approx(10 + 50));
    CHECK(bare.startup_ms == Approx(60));
    // Work before the first call hides CUDA's own start-up first, then the rest.
    CHECK(device_cost(call, pf, 2, true, 0, 1, own + 25).startup_ms == Approx(35));
    CHECK(device_cost(call, pf, 2, true, 0, 1, own + 100).startup_ms == Approx(0));
    CHECK(device_cost(call, pf, 2, true, 0, 1, own + 100).added_ms == Approx(60));
    // Less than CUDA's own start-up: all of the further GPUs' is waited for.
    CHECK(device_cost(call, pf, 2, true, 0, 1, own / 2).startup_ms == Approx(60));
}

TEST_CASE("a program on a host of several GPUs starts CUDA at that host's cost", "[advisor]") {
    Platform pf = test::unit_multi_gpu_platform();
    pf.cuda_startup_ns = 200e6;
    REQUIRE_FALSE(pf.multi_gpu.context_start_ms.empty());
    CHECK(cuda_startup_ms(pf) == Approx(200));
    CHECK(cuda_startup_ms(pf, 1) == Approx(200));
    CHECK(cuda_startup_ms(pf, 2) == Approx(pf.multi_gpu.context_start_ms[0]));
    pf.multi_gpu.context_start_ms.clear();
    CHECK(cuda_startup_ms(pf, 4) == Approx(200));
}

TEST_CASE("the further GPUs' teardown at exit is priced once, with NCCL's only where a region exchanges halos", "[advisor]") {
    // Exits of 100, 140, 180, 220 ms holding 1-4 contexts, and 300, 350, 400
    // ms holding 2-4 contexts and NCCL's communicators.
    json m = test::multi_gpu_json();
    m["exitMs"] = {100.0, 140.0, 180.0, 220.0};
    m["ncclExitMs"] = {0.0, 300.0, 350.0, 400.0};
    const Platform pf = test::unit_multi_gpu_platform(m);
    CHECK(to_json(pf.multi_gpu)["exitMs"] == m["exitMs"]);
    CHECK(extra_exit_ms(pf, 1, true) == 0);
    CHECK(extra_exit_ms(pf, 2, false) == Approx(40));
    CHECK(extra_exit_ms(pf, 4, false) == Approx(120));
    // Contexts 40 more, communicators 300 - 140 more.
    CHECK(extra_exit_ms(pf, 2, true) == Approx(40 + 160));
    Prediction call;
    call.total_ms = 12;
    const DeviceCost calls = device_cost(call, pf, 2, false, 0, 1);
    CHECK(calls.exit_ms == Approx(40));
    CHECK(calls.total_ms() == Approx(12 + 10 + 40));
    CHECK(device_cost(call, pf, 2, true, 0, 1).exit_ms == Approx(200));
    // A profile without exits prices none.
    CHECK(extra_exit_ms(test::unit_multi_gpu_platform(), 4, true) == 0);
    // Both or neither, one per count.
    m.erase("ncclExitMs");
    CHECK(load_error(test::unit_multi_gpu_platform_json(m)) == "p.json: multiGpu.ncclExitMs: missing: the exits timed need both");
    m["ncclExitMs"] = {0.0, 300.0};
    CHECK(load_error(test::unit_multi_gpu_platform_json(m)) ==
          "p.json: multiGpu.ncclExitMs: needs one value per GPU count, 1 to gpus (4), got 2");
}
