// Whole predictions on the made-up unit platform (copy of b bytes: 10 us +
// b ns; kernel: 1 ns per element; allocation 0.1 ms), computed by hand.
#include <catch2/catch.hpp>

#include "advisor/copy_costs.h"
#include "advisor/kernel_time.h"
#include "advisor/plan.h"
#include "advisor/thesis_library.h"
#include "advisor/program_time.h"
#include "tests/unit/advisor/unit_platform.h"
#include "tests/unit/analyzer/analyzer_test_util.h"

using namespace recipe;
using namespace recipe::advisor;

namespace {

Prediction run(const Problem& p, const Platform& pf, Config c, ModelOptions o = {}) {
    Prediction out;
    std::string error;
    INFO(error);
    if (!predict(p, pf, c, o, &out, &error)) FAIL(error);
    return out;
}

Config cfg(Scheme s, Index3 tile, CopyMethod m = CopyMethod::Merged, int streams = 3) {
    Config c;
    c.scheme = s;
    c.tile = tile;
    c.copy = m;
    c.streams = streams;
    return c;
}

}  // namespace

TEST_CASE("naive: everything in, the kernel, everything out", "[advisor]") {
    const Problem p = test::unit_problem({1000000, 1, 1}, 1);
    const Prediction n = run(p, test::unit_platform(), cfg(Scheme::Naive, {1, 1, 1}));
    // in 10 us + 4e6 ns = 4.01 ms, kernel 1 ms, out 4.01 ms, one allocation 0.1 ms
    CHECK(n.total_ms == Approx(4.01 + 1 + 4.01 + 0.1));
    CHECK(n.tiles == 1);
    CHECK(n.h2d.bytes == 4000000);
    CHECK(n.h2d.copies == 1);
    CHECK(n.device_bytes == 8000000);
    CHECK(n.kernel_source == KernelSource::Measured);
}

TEST_CASE("basic scheme, two copy engines, transfer dominant", "[advisor]") {
    const Problem p = test::unit_problem({1000000, 1, 1}, 1);
    const Prediction b = run(p, test::unit_platform(2), cfg(Scheme::Basic, {250000, 1, 1}));
    // 4 tiles: in = out = 1.01 ms, kernel 0.25 ms, duplex 0.5:
    // 1.01 + 1.01 + 2*(1.01 + 0.505) + 1.01 + 1.01 + alloc 0.1
    CHECK(b.total_ms == Approx(7.07 + 0.1));
    CHECK(b.phases.pipeline == Approx(7.07));
    CHECK(b.phases.h2d == Approx(4.04));
    CHECK(b.dominant == Operation::TransferIn);
    CHECK(b.startup_steps == 2);
    CHECK(b.h2d.copies == 4);
    CHECK(b.d2h.bytes == 4000000);
}

TEST_CASE("basic scheme, one copy engine", "[advisor]") {
    const Problem p = test::unit_problem({1000000, 1, 1}, 1);
    const Prediction b = run(p, test::unit_platform(1), cfg(Scheme::Basic, {250000, 1, 1}));
    // 1.01 + 1.01 + 2*(1.01 + 1.01) + 1.01 + 1.01 + 0.1
    CHECK(b.total_ms == Approx(8.08 + 0.1));
}

TEST_CASE("kernel dominant with --kernel-ms", "[advisor]") {
    const Problem p = test::unit_problem({1000000, 1, 1}, 1);
    ModelOptions o;
    o.kernel_ms = 20;  // 5 ms per quarter
    const Prediction b = run(p, test::unit_platform(2), cfg(Scheme::Basic, {250000, 1, 1}), o);
    CHECK(b.total_ms == Approx(1.01 + 5 + 2 * 5 + 5 + 1.01 + 0.1));
    CHECK(b.dominant == Operation::Kernel);
    CHECK(b.kernel_source == KernelSource::UserGiven);
}

TEST_CASE("transfer out dominant", "[advisor]") {
    Problem p = test::unit_problem({1000000, 1, 1}, 1);
    p.outputs.push_back(p.outputs[0]);
    p.outputs[1].name = "out2";
    const Prediction b = run(p, test::unit_platform(2), cfg(Scheme::Basic, {250000, 1, 1}));
    // out = 2 copies of 1 MB = 2.02 ms: 1.01 + 1.01 + 2*(2.02 + 0.505) + 2.02 + 2.02 + 0.1
    CHECK(b.total_ms == Approx(1.01 + 1.01 + 2 * 2.525 + 2.02 + 2.02 + 0.1));
    CHECK(b.dominant == Operation::TransferOut);
}

TEST_CASE("edge tiles copy less: halo clipped at the array's edges", "[advisor]") {
    const Problem p = test::unit_problem({1000000, 1, 1}, 1, Halo{{2, 0, 0}, {2, 0, 0}});
    const Platform pf = test::unit_platform(2);
    // Scalable sends each padded box: 250002 + 250004 + 250004 + 250002 elements.
    const Prediction s = run(p, pf, cfg(Scheme::Scalable, {250000, 1, 1}));
    CHECK(s.h2d.bytes == 4 * (250002 + 250004 + 250004 + 250002));
    // Basic sends shared halo once (TileGrid::fresh_input): exactly the array.
    const Prediction b = run(p, pf, cfg(Scheme::Basic, {250000, 1, 1}));
    CHECK(b.h2d.bytes == 4000000);
    // The thesis's 2012 library re-sent it.
    ModelOptions thesis;
    thesis.library = &advisor::thesis_library();
    CHECK(run(p, pf, cfg(Scheme::Basic, {250000, 1, 1}), thesis).h2d.bytes == s.h2d.bytes);
    // Pipeline by hand, scalable: edge in 1.010008, inner in 1.010016, out 1.01, k .25, duplex .5:
    // startup 1.010008*2; steady: inner tiles 2*(1.010016+.505); shutdown 1.01*2 (last is an edge tile).
    const double expect = 2 * 1.010008 + 2 * (1.010016 + 0.505) + 2 * 1.01;
    CHECK(s.phases.pipeline == Approx(expect));
}

TEST_CASE("row-by-row, merged and strided copies of a 2D tile", "[advisor]") {
    const Problem p = test::unit_problem({1000, 1000, 1}, 2);
    const Platform pf = test::unit_platform(2);
    // Half-width tiles: 1000 rows of 2000 B each, 12 us a row.
    const Prediction rows = run(p, pf, cfg(Scheme::Scalable, {500, 1000, 1}, CopyMethod::RowByRow));
    CHECK(rows.typical_tile.transfer_in == Approx(12.0));
    CHECK(rows.h2d.copies == 2000);
    const Prediction merged = run(p, pf, cfg(Scheme::Scalable, {500, 1000, 1}, CopyMethod::Merged));
    CHECK(merged.typical_tile.transfer_in == Approx(12.0));  // rows not adjacent: nothing to merge
    // One cudaMemcpy2DAsync: 10 us + 2e6 ns + 1 ns per row.
    const Prediction strided = run(p, pf, cfg(Scheme::Scalable, {500, 1000, 1}, CopyMethod::Strided));
    CHECK(strided.typical_tile.transfer_in == Approx(0.01 + 2.0 + 0.001));
    CHECK(strided.h2d.copies == 2);
    // Whole rows merge: one copy of 4 MB per half.
    const Prediction full = run(p, pf, cfg(Scheme::Scalable, {1000, 500, 1}, CopyMethod::Merged));
    CHECK(full.typical_tile.transfer_in == Approx(2.01));
}

TEST_CASE("copies out whose rows split host cache lines pay their own per-row cost, and more beside copies in", "[advisor]") {
    // Which rows split 64-byte lines: any narrower than the host's (the
    // model does not know where a box begins; interiors begin an element
    // in), runs of whole rows where a row is not whole lines, never a
    // whole-plane run.
    CHECK(host_rows_split_lines({398, 398, 13}, {400, 400, 400}, 4));
    CHECK(host_rows_split_lines({64, 398, 398}, {400, 400, 400}, 4));  // 256 B, but an element in
    CHECK_FALSE(host_rows_split_lines({400, 398, 13}, {400, 400, 400}, 4));  // runs of 1600-B rows
    CHECK(host_rows_split_lines({100, 50, 1}, {100, 100, 1}, 4));            // runs of 400-B rows
    CHECK_FALSE(host_rows_split_lines({400, 400, 13}, {400, 400, 400}, 4));

    auto platform = [](double alone, double beside, int engines = 2) {
        nlohmann::json j = test::unit_platform_json(engines);
        j["stridedCopy"]["outPartialLineRowNs"] = alone;
        j["stridedCopy"]["outPartialLineBesideRowNs"] = beside;
        Platform pf;
        std::string error;
        INFO(error);
        REQUIRE(parse_platform(j.dump(), "unit", &pf, &error));
        return pf;
    };
    const Problem p = test::unit_problem({1000, 1000, 1}, 2);
    // Half-width tiles, one cudaMemcpy2DAsync each way: 1000 rows of 2000 B.
    // In: 10 us + 2e6 ns + 1 ns a row (perRowNs); out: 3 ns a row.
    const Prediction half = run(p, platform(3, 10), cfg(Scheme::Scalable, {500, 1000, 1}, CopyMethod::Strided));
    CHECK(half.typical_tile.transfer_in == Approx(0.01 + 2.0 + 0.001));
    CHECK(half.typical_tile.transfer_out == Approx(0.01 + 2.0 + 0.003));
    // Whole rows merge into one contiguous copy: nothing split.
    const Prediction rows = run(p, platform(3, 10), cfg(Scheme::Scalable, {1000, 500, 1}, CopyMethod::Strided));
    CHECK(rows.typical_tile.transfer_out == Approx(2.01));
    // Four quarter-width tiles (in 1.011 ms, out 1.013, kernel 0.25): the
    // two steady steps each pay beside - alone = 7 ns a row on their 1000
    // rows out, on top of max(in, out) + 0.5 min(in, out).
    const Config quarter = cfg(Scheme::Basic, {250, 1000, 1}, CopyMethod::Strided);
    const double besides = run(p, platform(3, 10), quarter).phases.pipeline;
    CHECK(besides == Approx(1.011 + 1.011 + 2 * (1.013 + 0.5 * 1.011 + 0.007) + 1.013 + 1.013));
    CHECK(besides - run(p, platform(3, 3), quarter).phases.pipeline == Approx(2 * 0.007));
    // One copy engine: the directions never run at once, nothing beside.
    CHECK(run(p, platform(3, 10, 1), quarter).phases.pipeline ==
          Approx(run(p, platform(3, 3, 1), quarter).phases.pipeline));
    // Pageable copies reach the user's rows through the driver's buffers:
    // priced as perRowNs, with or without the figures.
    Problem pageable = p;
    pageable.pinned_host = false;
    Config through_driver = cfg(Scheme::Scalable, {500, 1000, 1}, CopyMethod::Strided);
    through_driver.host = HostStrategy::Pageable;
    CHECK(run(pageable, platform(3, 10), through_driver).typical_tile.transfer_out ==
          Approx(run(pageable, test::unit_platform(2), through_driver).typical_tile.transfer_out));
    // A profile without the figures prices them as perRowNs.
    CHECK(run(p, test::unit_platform(2), cfg(Scheme::Scalable, {500, 1000, 1}, CopyMethod::Strided))
              .typical_tile.transfer_out == Approx(0.01 + 2.0 + 0.001));
}

TEST_CASE("buffered packs on the host, then one copy", "[advisor]") {
    const Problem p = test::unit_problem({1000, 1000, 1}, 2);
    const Prediction b = run(p, test::unit_platform(2), cfg(Scheme::Buffered, {500, 1000, 1}, CopyMethod::RowByRow));
    // Packing: 1000 rows of 2000 B at 0.1 us + 0.1 ns/B = 0.3 us each.
    CHECK(b.typical_tile.buffer_in == Approx(1000 * 0.0003));
    CHECK(b.typical_tile.transfer_in == Approx(2.01));
    CHECK(b.startup_steps == 4);
    CHECK(b.host_bytes > 0);
    CHECK(b.host_strategy == HostStrategy::Pinned);
}

TEST_CASE("pageable host memory: the cheapest of registering, staging and pageable copies", "[advisor]") {
    Problem p = test::unit_problem({1000000, 1, 1}, 1);
    p.pinned_host = false;
    const Platform pf = test::unit_platform(2);
    Config c = cfg(Scheme::Naive, {1, 1, 1});
    c.host = HostStrategy::Register;
    // + cudaHostRegister 1 ms and Unregister 0.5 ms per array
    CHECK(run(p, pf, c).total_ms == Approx(9.12 + 3));
    c.host = HostStrategy::Pageable;
    CHECK(run(p, pf, c).total_ms == Approx(8.02 + 1 + 8.02 + 0.1));  // pageable copies take twice as long
    c.host = HostStrategy::Staged;
    // pack 0.1 us + 0.4 ms, copy 4.01, kernel 1, copy 4.01, unpack; device 0.1 +
    // the staging block registered (1 ms) and unregistered (0.5 ms), as the library does
    CHECK(run(p, pf, c).total_ms == Approx(2 * 0.4001 + 4.01 + 1 + 4.01 + 0.1 + 1.5));
    c.host.reset();
    const Prediction best = run(p, pf, c);
    CHECK(best.host_strategy == HostStrategy::Staged);
    // Pinned by the user's own allocation: nothing to do.
    ModelOptions pinned;
    pinned.host_memory = advisor::HostMemory::Pinned;
    CHECK(run(p, pf, c, pinned).host_strategy == HostStrategy::Pinned);
}

TEST_CASE("the library's measured costs replace the estimates when the profile has them", "[advisor]") {
    nlohmann::json j = test::unit_platform_json(2);
    j["librarySetup"] = {{"bytes", {1e3, 1e9}}, {"ns", {3e5, 3e5}}};                  // 0.3 ms a run
    j["streamSetupNs"] = 0;
    j["stagingSetup"] = {{"bytes", {1e3, 1e9}}, {"ns", {2e6, 2e6}}};                  // 2 ms
    j["stagingTile"] = {{"bytes", {1e6, 1e7}}, {"ns", {2e6, 2e7}}};                   // 1 ns a byte packed or unpacked
    j["stagingRowNs"] = 0;
    for (const char* k : {"librarySetup", "streamSetupNs", "stagingSetup", "stagingTile", "stagingRowNs"})
        j["source"][k] = "made up for the tests";
    Platform pf;
    std::string error;
    REQUIRE(parse_platform(j.dump(), "unit", &pf, &error));
    Problem p = test::unit_problem({1000000, 1, 1}, 1);
    Config c = cfg(Scheme::Naive, {1, 1, 1});
    // pinned: the library's setup (0.3 ms) instead of cudaMalloc's 0.1 ms
    CHECK(run(p, pf, c).total_ms == Approx(4.01 + 1 + 4.01 + 0.3));
    // staged: pack 4 MB at 1 ns/B, copy, kernel, copy, unpack 4 MB; the
    // staging block and threads stay in the library's pool, so a run pays
    // neither: the block (2 ms) is allocated once, instead of registering
    // (1 ms) and unregistering (0.5 ms) it every run, and by the emitted
    // program's start-up thread (pool_setup_ms), not by its first call
    p.pinned_host = false;
    c.host = HostStrategy::Staged;
    const Prediction staged = run(p, pf, c);
    CHECK(staged.total_ms == Approx(4 + 4.01 + 1 + 4.01 + 4 + 0.3));
    CHECK(staged.phases.alloc == Approx(0.3));
    CHECK(first_call_extra_ms(staged, pf) == Approx(0));
    CHECK(pool_setup_ms(pool_reservation({&staged}), pf) == Approx(2 + pf.malloc_free_device.ms(static_cast<double>(staged.device_bytes))));
    CHECK(staged.phases.staging == Approx(8));
}

TEST_CASE("a staged run's packing is priced from the table of its own stream count", "[advisor]") {
    nlohmann::json j = test::unit_platform_json(2);
    j["librarySetup"] = {{"bytes", {1e3, 1e9}}, {"ns", {3e5, 3e5}}};
    j["streamSetupNs"] = 0;
    j["stagingTile"] = {{"bytes", {1e6, 1e7}}, {"ns", {2e6, 2e7}}};  // 1 ns a byte: the 2-stream table
    j["stagingRowNs"] = 0;
    for (const char* k : {"librarySetup", "streamSetupNs", "stagingTile", "stagingRowNs"}) j["source"][k] = "made up for the tests";
    Platform plain;
    std::string error;
    REQUIRE(parse_platform(j.dump(), "unit", &plain, &error));
    // Over 3 streams packing costs half as much, over 4 a quarter.
    j["stagingTileStreams"] = {{"2", {{"bytes", {1e6, 1e7}}, {"ns", {2e6, 2e7}}}},
                               {"3", {{"bytes", {1e6, 1e7}}, {"ns", {1e6, 1e7}}}},
                               {"4", {{"bytes", {1e6, 1e7}}, {"ns", {5e5, 5e6}}}}};
    j["source"]["stagingTileStreams"] = "made up for the tests";
    Platform pf;
    REQUIRE(parse_platform(j.dump(), "unit", &pf, &error));
    CHECK(&pf.staging_tile_for(1) == &pf.staging_tile_streams.tables[0]);  // below the fewest: the fewest
    CHECK(&pf.staging_tile_for(3) == &pf.staging_tile_streams.tables[1]);
    CHECK(&pf.staging_tile_for(8) == &pf.staging_tile_streams.tables[2]);  // beyond the most: the most
    CHECK(&plain.staging_tile_for(3) == &plain.staging_tile);               // an older profile: stagingTile
    Problem p = test::unit_problem({1000000, 1, 1}, 1);
    p.pinned_host = false;
    // Four tiles of 1 MB: 4 MB packed and 4 MB unpacked, 8 ms at the 2-stream
    // rate, 4 at the 3-stream one, 2 at the 4-stream one.
    Config c = cfg(Scheme::Scalable, {250000, 1, 1}, CopyMethod::Merged, 3);
    c.host = HostStrategy::Staged;
    CHECK(run(p, plain, c).phases.staging == Approx(8));
    CHECK(run(p, pf, c).phases.staging == Approx(4));
    c.streams = 4;
    CHECK(run(p, pf, c).phases.staging == Approx(2));
    c.streams = 2;
    CHECK(run(p, pf, c).phases.staging == Approx(8));
    // Eight streams asked for, four tiles: the library keeps four buffer sets.
    c.streams = 8;
    CHECK(run(p, pf, c).phases.staging == Approx(2));
    // A scheme that does not pipeline stages through one buffer set: the
    // fewest streams' table.
    Config naive = cfg(Scheme::Naive, {1, 1, 1}, CopyMethod::Merged, 4);
    naive.host = HostStrategy::Staged;
    CHECK(run(p, pf, naive).phases.staging == Approx(8));
}

TEST_CASE("a pinned pipeline's duplex factor comes from the library's pipelined tiles when measured", "[advisor]") {
    nlohmann::json j = test::unit_platform_json(2);
    // 1.8 times one copy per tile: both directions at once cost 0.8 of the
    // shorter copy beyond the longer one, not the raw duplexFactor's 0.5.
    j["pipelineTile"] = {{"bytes", {1e5, 1e7}}, {"ns", {1.8 * 110000, 1.8 * 10010000}}};
    j["source"]["pipelineTile"] = "made up for the tests";
    Platform pf;
    std::string error;
    REQUIRE(parse_platform(j.dump(), "unit", &pf, &error));
    const Problem p = test::unit_problem({1000000, 1, 1}, 1);
    // 4 tiles of 1e6 bytes each way, in = out = 1.01 ms:
    // 1.01 + 1.01 + 2 * (1.01 + 0.8 * 1.01) + 1.01 + 1.01, alloc 0.1
    CHECK(run(p, pf, cfg(Scheme::Basic, {250000, 1, 1})).phases.pipeline == Approx(4.04 + 2 * 1.818));
    // Tiles smaller than the smallest measured (4e4 bytes < 1e5) take that
    // size's factor, 0.8: in = out = 0.05 ms, 0.05 + 0.05 + 2 * (0.05 + 0.04) + 0.05 + 0.05
    const Problem small = test::unit_problem({40000, 1, 1}, 1);
    CHECK(run(small, pf, cfg(Scheme::Basic, {10000, 1, 1})).phases.pipeline == Approx(0.2 + 2 * 0.09));
    // The thesis's library keeps the raw factor (same as without the field).
    ModelOptions thesis;
    thesis.library = &advisor::thesis_library();
    CHECK(run(p, pf, cfg(Scheme::Basic, {250000, 1, 1}), thesis).phases.pipeline ==
          Approx(run(p, test::unit_platform(2), cfg(Scheme::Basic, {250000, 1, 1}), thesis).phases.pipeline));
    // Staged copies are priced by the staging measurements, not by this one.
    Problem pageable = p;
    pageable.pinned_host = false;
    Config staged = cfg(Scheme::Basic, {250000, 1, 1});
    staged.host = HostStrategy::Staged;
    CHECK(run(pageable, pf, staged).phases.pipeline ==
          Approx(run(pageable, test::unit_platform(2), staged).phases.pipeline));
}

TEST_CASE("iterative stencil: copies overlap only the first and last step", "[advisor]") {
    Problem p = test::unit_problem({1000000, 1, 1}, 1, Halo{{1, 0, 0}, {1, 0, 0}});
    p.time_steps = 10;
    p.outputs[0].exchanged = true;
    const Prediction b = run(p, test::unit_platform(2), cfg(Scheme::Basic, {250000, 1, 1}));
    // step 1: in 1.010004 (first), 1.01, 1.01, 1.009996 against kernels of 0.25:
    //   1.010004 + (1.010004 + 2.02 + 1.009996) - 1.010004 + 0.25 = 4.29
    // steps 2-9: 8 whole-array kernels of 1 ms; step 10: 0.25 + 4*1.01 - 1.01 + 1.01 = 4.29
    CHECK(b.phases.pipeline == Approx(4.29 + 8 + 4.29));
    CHECK(b.total_ms == Approx(16.58 + 0.1));
    // Streams would copy every step: refused.
    Prediction x;
    std::string error;
    CHECK_FALSE(predict(p, test::unit_platform(2), cfg(Scheme::Streams, {250000, 1, 1}), {}, &x, &error));
    CHECK(error == "the streams scheme does not keep the arrays on the device between the time steps of an "
                   "iterative stencil; use basic or naive");
}

TEST_CASE("impossible configurations are errors, not crashes", "[advisor]") {
    const Problem p = test::unit_problem({1000, 1000, 1}, 2, Halo{{1, 1, 0}, {1, 1, 0}});
    const Platform pf = test::unit_platform();
    Prediction x;
    std::string e;
    CHECK_FALSE(predict(p, pf, cfg(Scheme::Basic, {2000, 10, 1}), {}, &x, &e));
    CHECK(e == "tile 2000x10 is larger than the arrays (1000x1000) in dimension x");
    CHECK_FALSE(predict(p, pf, cfg(Scheme::Basic, {0, 10, 1}), {}, &x, &e));
    CHECK(e == "tile size must be at least 1 in every dimension");
    CHECK_FALSE(predict(p, pf, cfg(Scheme::Basic, {10, 10, 10}), {}, &x, &e));
    CHECK(e == "a 2-dimensional nest takes a tile of 2 sizes");
    CHECK_FALSE(predict(p, pf, cfg(Scheme::Mapped, {1, 1, 1}), {}, &x, &e));
    CHECK(e.find("mapped memory fetches an element over PCIe every time it is read") == 0);
    Config big = cfg(Scheme::Basic, {100, 100, 1});
    big.block = {2048, 1, 1};
    CHECK_FALSE(predict(p, pf, big, {}, &x, &e));
    CHECK(e == "thread block 2048x1x1: block exceeds the device's maximum block dimensions (1024x1024x64)");
    Index3 t;
    CHECK_FALSE(parse_tile("400x400", 3, &t, &e));
    CHECK(e == "tile '400x400' has 2 sizes but the nest is 3-dimensional");
    CHECK_FALSE(parse_tile("400xx4", 2, &t, &e));
    CHECK_FALSE(parse_tile("0x4", 2, &t, &e));
    CHECK(parse_tile("400X25", 2, &t, &e));
    CHECK(t == Index3{400, 25, 1});
}

TEST_CASE("device memory is checked against the profile", "[advisor]") {
    const Problem p = test::unit_problem({200000000, 1, 1}, 1);  // two 800 MB arrays, 1 GB device
    Prediction x;
    std::string e;
    CHECK_FALSE(predict(p, test::unit_platform(), cfg(Scheme::Basic, {1000000, 1, 1}), {}, &x, &e));
    CHECK(e == "the basic scheme with tile 1000000 needs 1.6e+03 MB of device memory; unit has 1e+03 MB");
    CHECK(predict(p, test::unit_platform(), cfg(Scheme::Scalable, {1000000, 1, 1}), {}, &x, &e));
}

TEST_CASE("seed 003 schemes: streams, mapped, hybrid", "[advisor]") {
    const Platform pf = test::unit_platform(2);
    const Problem map = test::unit_problem({1000000, 1, 1}, 1);  // no stencil: mapped allowed
    const Prediction m = run(map, pf, cfg(Scheme::Mapped, {1, 1, 1}));
    // eq. 5.6 with both directions at once, G slowed by 1 + duplex = 1.5:
    // max(L+o + 4e6*1.5 ns + L+o, 2(L+o) + tE, 2(L+o) + 4e6*1.5 ns) = 0.01 + 6 + 0.01
    CHECK(m.total_ms == Approx(6.02));
    CHECK(m.device_bytes == 0);
    // The profile's mapped rates, where it has them: reads at their own.
    nlohmann::json j = test::unit_platform_json(2);
    j["logGP"]["mappedNsPerByte"] = 1.0;
    j["logGP"]["mappedReadNsPerByte"] = 2.0;
    Platform rates;
    std::string error;
    REQUIRE(parse_platform(j.dump(), "unit", &rates, &error));
    // max(0.01 + 4e6 * 2 ns + 0.01, 0.02 + tE, 0.02 + 4e6 * 1 ns) = 8.02
    CHECK(run(map, rates, cfg(Scheme::Mapped, {1, 1, 1})).total_ms == Approx(8.02));
    j["logGP"].erase("mappedReadNsPerByte");  // reads as writes
    REQUIRE(parse_platform(j.dump(), "unit", &rates, &error));
    CHECK(run(map, rates, cfg(Scheme::Mapped, {1, 1, 1})).total_ms == Approx(4.02));
    const Prediction s = run(map, pf, cfg(Scheme::Streams, {250000, 1, 1}));
    CHECK(s.config.streams == 4);
    // Our library runs streams as basic with a stream per tile: the thesis's
    // pipeline over the copies it issues (1 MB in 1.01 ms each way, kernel
    // 0.25, duplex 0.5): 2 in + 2 * 1.5 in + 2 out = 7 * 1.01.
    CHECK(s.phases.pipeline == Approx(7 * 1.01));
    CHECK(s.h2d.copies == 4);
    // The thesis-library mode keeps seed 003's eq. 5.5, 4 streams of 1 MB,
    // G = 1.5 ns/B under two-way traffic:
    // max(0.01+6+0.006+0.25+0.01+1.5, 0.01+1.5+1+0.01+1.5, 0.01+1.5+0.25+0.01+6+0.006)
    ModelOptions thesis;
    thesis.library = &advisor::thesis_library();
    CHECK(run(map, pf, cfg(Scheme::Streams, {250000, 1, 1}), thesis).phases.pipeline == Approx(7.776));
    const Prediction h = run(map, pf, cfg(Scheme::Hybrid, {250000, 1, 1}));
    CHECK(h.device_bytes == 4000000);  // inputs only
}

TEST_CASE("the roofline estimate is labelled", "[advisor]") {
    Problem p = test::unit_problem({1000000, 1, 1}, 1);
    p.kernel_name = "unknown";
    Platform pf = test::unit_platform();
    // The platform's kernel table runs 1 point per ns at its largest size: a
    // kernel of the library's is no faster, whatever its bytes.
    CHECK(library_points_per_ns(pf) == Approx(1));
    const Prediction n = run(p, pf, cfg(Scheme::Naive, {1, 1, 1}));
    CHECK(n.kernel_source == KernelSource::Estimate);
    CHECK(n.phases.kernel == Approx(1.0));  // 1e6 points at 1 per ns
    CHECK(n.notes.front().find("ESTIMATE") != std::string::npos);
    // Without a table large enough to tell: 8 bytes per point at 1000 GB/s
    // beats 2 flops at 10 TFLOP/s: 8e6 B / 1e12 B/s = 8 us.
    pf.kernels.clear();
    CHECK(library_points_per_ns(pf) == 0);
    CHECK(run(p, pf, cfg(Scheme::Naive, {1, 1, 1})).phases.kernel == Approx(0.008));
}

TEST_CASE("the estimate grows with the elements a point reads, as the profile's view kernels show", "[advisor]") {
    Platform pf = test::unit_platform();
    // 2-D: 3 ns a point reading one element, 7 reading nine: 5 reading five.
    // 3-D: one read count only, so a 3-D nest is priced from all three.
    pf.view_kernels = {{"copy2d", 2, 1, 2, 1e6, 3e6}, {"box9", 2, 9, 2, 1e6, 7e6}, {"copy3d", 3, 1, 2, 1e6, 4e6}};
    const LibraryPointCost two = library_point_cost(pf, 2);
    REQUIRE(two.measured);
    CHECK(two.by_reads == std::vector<std::pair<int, double>>{{1, 3.0}, {9, 7.0}});
    CHECK(two.ns(5) == Approx(5));
    // All three: one read 3 and 4 ns (3.5), nine 7.
    const LibraryPointCost three = library_point_cost(pf, 3);
    CHECK(three.by_reads == std::vector<std::pair<int, double>>{{1, 3.5}, {9, 7.0}});
    CHECK(three.ns(5) == Approx(5.25));

    Problem p = test::unit_problem({1000, 1000, 1}, 2);
    p.kernel_name = "unknown";
    p.reads_per_point = 5;  // a 5-point star
    const Prediction star = run(p, pf, cfg(Scheme::Naive, {1, 1, 1}));
    CHECK(star.kernel_source == KernelSource::Estimate);
    CHECK(star.phases.kernel == Approx(1e6 * 5.0 * 1e-6));  // (2.5 + 5 * 0.5) ns a point
    bool said = false;
    for (const auto& n : star.notes)
        said = said || n.find("at least as long as the library's kernels reading 5 elements a point (floats) run on this device: 5000.00 ns "
                              "per 1000 points at 1.0 million") != std::string::npos;
    CHECK(said);
    p.reads_per_point = 0;  // not known: one per input
    CHECK(reads_per_point(p) == 1);
    CHECK(run(p, pf, cfg(Scheme::Naive, {1, 1, 1})).phases.kernel == Approx(1e6 * 3.0 * 1e-6));
}

TEST_CASE("a launch whose bytes exceed the L2 cache is priced no faster than the view kernels moved bytes from DRAM", "[advisor]") {
    Platform pf = test::unit_platform();
    // 1 ns a point whatever the reads; the zip moves 4 arrays of 4 bytes a
    // point in 2 ns: 0.125 ns a byte, the fastest (the copy: 8 bytes in 1.5 ns).
    pf.view_kernels = {{"copy2d", 2, 1, 2, 16e6, 16e6}, {"zip3", 2, 3, 4, 16e6, 16e6 * 2}};
    REQUIRE(dram_ns_per_byte(pf) == Approx(0.125));
    Problem p = test::unit_problem({1000, 1000, 1}, 2);
    p.kernel_name = "unknown";
    p.reads_per_point = 1;
    p.flops_per_point = 0;
    p.bytes_per_point = 24;  // doubles: 24 MB a launch
    pf.device_bandwidth_gbs = 1e6;  // the roofline's copy rate out of the way
    const double view_ms = library_kernel_ns(library_size_costs(pf, 2), 1, 1e6) * 1e-6;
    // Without the cache's size: the view line.
    CHECK(run(p, pf, cfg(Scheme::Naive, {1, 1, 1})).phases.kernel == Approx(view_ms));
    // A cache larger than the launch's bytes: the same.
    pf.l2_cache_bytes = 50000000;
    CHECK(run(p, pf, cfg(Scheme::Naive, {1, 1, 1})).phases.kernel == Approx(view_ms));
    // Smaller: the bytes at 0.125 ns each, 3 ms, above the view line's 1.
    pf.l2_cache_bytes = 10000000;
    const Prediction beyond = run(p, pf, cfg(Scheme::Naive, {1, 1, 1}));
    CHECK(beyond.phases.kernel == Approx(24e6 * 0.125 * 1e-6));
    bool said = false;
    for (const auto& n : beyond.notes) said = said || n.find("exceed the L2 cache (10 MB)") != std::string::npos;
    CHECK(said);
}

TEST_CASE("a nest of doubles is estimated from the view kernels timed in doubles, where the profile has them", "[advisor]") {
    Platform pf = test::unit_platform();
    // Floats: 3 ns a point reading one element, 7 reading nine; doubles: 4 and 12.
    pf.view_kernels = {{"copy2d", 2, 1, 2, 1e6, 3e6}, {"box9", 2, 9, 2, 1e6, 7e6}};
    Problem p = test::unit_problem({1000, 1000, 1}, 2);
    p.kernel_name = "unknown";
    p.reads_per_point = 5;
    for (auto* list : {&p.inputs, &p.outputs})
        for (auto& a : *list) a.elem_bytes = 8;
    p.bytes_per_point = 16;
    // Without tables in doubles, the floats' (and the notes say so).
    REQUIRE(view_kernel_element_bytes(pf, 8) == 4);
    const Prediction floats = run(p, pf, cfg(Scheme::Naive, {1, 1, 1}));
    CHECK(floats.phases.kernel == Approx(1e6 * 5.0 * 1e-6));
    bool said = false;
    for (const auto& n : floats.notes) said = said || n.find("5 elements a point (floats, the profile's only kernels)") != std::string::npos;
    CHECK(said);
    pf.view_kernels.push_back({"copy2d", 2, 1, 2, 1e6, 4e6, 8});
    pf.view_kernels.push_back({"box9", 2, 9, 2, 1e6, 12e6, 8});
    REQUIRE(view_kernel_element_bytes(pf, 8) == 8);
    CHECK(library_size_costs(pf, 2, 8).back().cost.ns(5) == Approx(8));
    CHECK(library_size_costs(pf, 2, 4).back().cost.ns(5) == Approx(5));
    const Prediction doubles = run(p, pf, cfg(Scheme::Naive, {1, 1, 1}));
    CHECK(doubles.phases.kernel == Approx(1e6 * 8.0 * 1e-6));
    said = false;
    for (const auto& n : doubles.notes) said = said || n.find("5 elements a point (doubles) run") != std::string::npos;
    CHECK(said);
    // A nest of floats keeps the floats' kernels.
    Problem f = test::unit_problem({1000, 1000, 1}, 2);
    f.kernel_name = "unknown";
    f.reads_per_point = 5;
    CHECK(run(f, pf, cfg(Scheme::Naive, {1, 1, 1})).phases.kernel == Approx(1e6 * 5.0 * 1e-6));
}

TEST_CASE("the view kernels price reads piecewise: flat below the fewest, on the last slope beyond the most, never falling", "[advisor]") {
    Platform pf = test::unit_platform();
    pf.view_kernels = {{"a", 2, 2, 2, 1e6, 1e6}, {"b", 2, 4, 2, 1e6, 5e6}};
    const LibraryPointCost c = library_point_cost(pf, 2);
    CHECK(c.ns(1) == Approx(1));
    CHECK(c.ns(3) == Approx(3));
    CHECK(c.ns(6) == Approx(9));
    // More reads timed faster (noise): beyond them no cheaper than the last.
    pf.view_kernels = {{"a", 2, 1, 2, 1e6, 3e6}, {"b", 2, 5, 2, 1e6, 2e6}};
    CHECK(library_point_cost(pf, 2).ns(9) == Approx(2));
}

TEST_CASE("each array a point reads or writes beyond one of each costs what the zip costs over the copy", "[advisor]") {
    Platform pf = test::unit_platform();
    // ns a point: copy 2, zip of three 3 (two arrays more: 0.5 each), 5-point star 2.4, 3x3 box 4.
    pf.view_kernels = {{"copy2d", 2, 1, 2, 1e6, 2e6}, {"zip3", 2, 3, 4, 1e6, 3e6}, {"star5", 2, 5, 2, 1e6, 2.4e6},
                       {"box9", 2, 9, 2, 1e6, 4e6}};
    const LibraryPointCost c = library_point_cost(pf, 2);
    CHECK(c.ns_per_array == Approx(0.5));
    CHECK(c.ns(5) == Approx(2.4));        // the star itself: its reads are one array's neighbours
    CHECK(c.ns(3, 3, 1) == Approx(3));    // the zip itself: one read of each of three arrays
    CHECK(c.ns(5, 3, 1) == Approx(3.2));  // fdtd-2d's hz: 5 reads of 3 arrays, so 3 as neighbours (2.2) + 2 x 0.5
    CHECK(c.ns(1, 0, 1) == Approx(1.5));  // writing only: a copy less one array
    // A nest's arrays: inputs, and outputs it reads at its own point, against outputs.
    Problem p = test::unit_problem({1000, 1000, 1}, 2);
    p.outputs.front().copy_in = true;
    CHECK(arrays_read(p) == 2);
    CHECK(arrays_written(p) == 1);
    p.kernel_name = "unknown";
    p.reads_per_point = 3;
    p.bytes_per_point = 12;
    CHECK(run(p, pf, cfg(Scheme::Naive, {1, 1, 1})).phases.kernel == Approx(1e6 * (2.1 + 0.5) * 1e-6));
}

TEST_CASE("view kernels timed at two sizes price a launch between them on the line through their times", "[advisor]") {
    Platform pf = test::unit_platform();
    // 2-D: at 1e6 points 3 ns a point reading one element and 7 reading
    // nine; at 1e7 points 2 and 4 (a launch's own cost weighs less).
    pf.view_kernels = {{"copy2d", 2, 1, 2, 1e7, 2e7}, {"box9", 2, 9, 2, 1e7, 4e7},
                       {"copy2d", 2, 1, 2, 1e6, 3e6}, {"box9", 2, 9, 2, 1e6, 7e6}};
    const std::vector<LibrarySizeCost> sizes = library_size_costs(pf, 2);
    REQUIRE(sizes.size() == 2);
    CHECK(sizes[0].points == Approx(1e6));
    CHECK(sizes[0].cost.ns(9) == Approx(7));
    CHECK(sizes[1].cost.ns(1) == Approx(2));
    // The largest size is the per-point line of library_point_cost.
    CHECK(library_point_cost(pf, 2).ns(9) == Approx(4));
    // A 9-read launch: 7e6 ns at 1e6 points, 4e7 at 1e7, the line between;
    // below and beyond, each size's cost per point.
    CHECK(library_kernel_ns(sizes, 9, 1e6) == Approx(7e6));
    CHECK(library_kernel_ns(sizes, 9, 5.5e6) == Approx(7e6 + (4e7 - 7e6) * 0.5));
    CHECK(library_kernel_ns(sizes, 9, 5e5) == Approx(3.5e6));
    CHECK(library_kernel_ns(sizes, 9, 2e7) == Approx(8e7));
    // A nest's estimate follows it.
    Problem p = test::unit_problem({2000, 1000, 1}, 2);  // 2e6 points
    p.kernel_name = "unknown";
    p.reads_per_point = 9;
    const Prediction box = run(p, pf, cfg(Scheme::Naive, {1, 1, 1}));
    CHECK(box.kernel_source == KernelSource::Estimate);
    CHECK(box.phases.kernel == Approx((7e6 + (4e7 - 7e6) / 9.0) * 1e-6));
    // One size only: every launch at its cost per point, as before.
    pf.view_kernels.resize(2);
    CHECK(library_kernel_ns(library_size_costs(pf, 2), 9, 2e6) == Approx(8e6));
}

TEST_CASE("a nest's reads per point are its inputs' stencil points", "[advisor]") {
    // heat2d.c: the 5-point update, then the copy back (one read), then the
    // initialisation, which reads back the element of `t` it has just written.
    const analyzer::Program heat = analyzer::test::analyze_sample("heat2d.c");
    std::vector<int> reads;
    for (const auto& nest : heat.nests) {
        Problem p;
        std::string error;
        if (problem_from(nest, &p, &error)) reads.push_back(p.reads_per_point);
    }
    CHECK(reads == std::vector<int>{5, 1, 1});
    // jacobi3d.c's sweep: the point and its six neighbours.
    const analyzer::Program jacobi = analyzer::test::analyze_sample("jacobi3d.c");
    bool seven = false;
    for (const auto& nest : jacobi.nests) {
        Problem p;
        std::string error;
        seven = seven || (problem_from(nest, &p, &error) && p.reads_per_point == 7);
    }
    CHECK(seven);
}

TEST_CASE("rows allocated one by one below the heap's threshold are priced present, larger rows fresh", "[advisor]") {
    auto dst = [](const analyzer::AnalyzeOptions& options) {
        const analyzer::Program blur = analyzer::test::analyze_sample("blur_rows.c", options);
        for (const auto& nest : blur.nests) {
            Problem p;
            std::string error;
            if (problem_from(nest, &p, &error)) return p.outputs.at(0);
        }
        FAIL("blur_rows.c has no nest the model prices");
        return ArrayUse{};
    };
    // 4096 floats a row: 16 KiB, from the C library's heap.
    CHECK(dst({}).heap_rows);
    // 65536 floats a row: 256 KiB, above glibc's 128 KiB threshold: each row
    // is mapped on its own, its pages fresh.
    analyzer::AnalyzeOptions wide;
    wide.assumptions = {{"W", "65536"}};
    CHECK_FALSE(dst(wide).heap_rows);
    // The C side prices the fresh pages' first touch only for the latter.
    Problem p = test::unit_problem({1000, 1000, 1}, 2);
    CHECK(fresh_output_bytes(p) == Approx(4e6));
    p.outputs[0].heap_rows = true;
    CHECK(fresh_output_bytes(p) == 0);
}

TEST_CASE("arrays reached through row pointers are gathered before each call and outputs copied back after", "[advisor]") {
    const analyzer::Program blur = analyzer::test::analyze_sample("blur_rows.c");
    Problem p;
    bool found = false;
    for (const auto& nest : blur.nests) {
        std::string error;
        if (!found && problem_from(nest, &p, &error)) found = true;
    }
    REQUIRE(found);
    CHECK(p.inputs.at(0).gathered);
    CHECK(p.outputs.at(0).gathered);
    Platform pf = test::unit_platform(1);
    pf.host_first_touch_gbs = 2;
    pf.host_stream_gbs = 10;
    // Each array: a fresh block written at the first-touch rate, its rows
    // copied in (read + written at the stream rate); the output's copied back.
    const double bytes = 4096.0 * 4096 * 4;
    const double block_ms = bytes / 2e9 * 1e3, copy_ms = 2 * bytes / 10e9 * 1e3;
    const GatherCost g = gather_cost(p, pf);
    CHECK(g.before_ms == Approx(2 * (block_ms + copy_ms)));
    CHECK(g.after_ms == Approx(copy_ms));
    // What comes before the call's wait hides that much of CUDA's start-up,
    // after the input's filling.
    CHECK(hidden_startup_ms(p, pf) == Approx(bytes / 2e9 * 1e3 + g.before_ms));
    // Every GPU call pays it; arrays in one block pay nothing.
    Problem flat = test::unit_problem({1000, 1000, 1}, 2);
    CHECK(gather_cost(flat, pf).ms() == 0);
    const Prediction b = run(flat, pf, cfg(Scheme::Basic, {1000, 250, 1}));
    flat.outputs[0].gathered = true;
    Prediction gathered = b;
    gathered.problem = flat;
    const ProgramTime t = program_time(gathered, CpuEstimate{}, pf, 3);
    CHECK(t.gather_ms == Approx(4e6 / 2e9 * 1e3 + 2 * 2 * 4e6 / 10e9 * 1e3));
    CHECK(t.gpu_warm_ms == Approx(b.total_ms + t.gather_ms));
    CHECK(t.gpu_first_ms >= t.gpu_warm_ms);
}

TEST_CASE("timeline of a pipeline", "[advisor]") {
    const Problem p = test::unit_problem({1000000, 1, 1}, 1);
    const Platform pf = test::unit_platform(1);
    const Prediction b = run(p, pf, cfg(Scheme::Basic, {250000, 1, 1}));
    const auto ev = timeline(b, pf);
    int h2d = 0, kernels = 0, d2h = 0;
    double end = 0;
    for (const auto& e : ev) {
        CHECK(e.end_ms >= e.start_ms);
        if (e.engine == "H2D") ++h2d;
        if (e.engine == "kernel") ++kernels;
        if (e.engine == "D2H") ++d2h;
        end = std::max(end, e.end_ms);
    }
    CHECK(h2d == 4);
    CHECK(kernels == 4);
    CHECK(d2h == 4);
    // One engine: the schedule the formula describes (setup 0.1 ms first).
    CHECK(end == Approx(b.total_ms));
}

TEST_CASE("small tiles: the host issuing calls sets the pace", "[advisor]") {
    auto j = test::unit_platform_json(2);
    j["asyncCallNs"] = 10000.0;  // 10 us per asynchronous call
    j["source"]["asyncCallNs"] = "made up";
    Platform pf;
    std::string error;
    REQUIRE(parse_platform(j.dump(), "unit", &pf, &error));
    const Problem p = test::unit_problem({1000000, 1, 1}, 1);
    const Prediction b = run(p, pf, cfg(Scheme::Basic, {1000, 1, 1}));
    // 1000 tiles; in = out = 14 us, pair 21 us, but 5 calls (copy in, copy
    // out, launch, event record and wait) of 10 us: 50 us a tile.
    CHECK(b.phases.pipeline == Approx(0.028 + 998 * 0.05 + 0.028));
    // The thesis's model has no such bound.
    ModelOptions thesis;
    thesis.library = &advisor::thesis_library();
    CHECK(run(p, pf, cfg(Scheme::Basic, {1000, 1, 1}), thesis).phases.pipeline == Approx(0.028 + 998 * 0.021 + 0.028));
    // Without asyncCallNs: the smaller of the launch overhead and a 10-byte copy.
    CHECK(test::unit_platform().async_call_ns == 0);
}

TEST_CASE("host packing streams the user's array from memory", "[advisor]") {
    auto j = test::unit_platform_json(2);
    // Small copies look free (cache-warm), 10 MB take 10 ms: 1.11 ns/B at scale.
    j["pinnedHostToPinnedHost"] = {1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1e7};
    Platform pf;
    std::string error;
    REQUIRE(parse_platform(j.dump(), "unit", &pf, &error));
    const Problem p = test::unit_problem({1000000, 1, 1}, 1);
    const Prediction b = run(p, pf, cfg(Scheme::Buffered, {250000, 1, 1}));
    CHECK(b.typical_tile.buffer_in == Approx(1e6 * (1e7 - 1) / 9e6 * 1e-6));
}

TEST_CASE("a kernel table prices a nest only when it times work of the nest's shape", "[advisor]") {
    const Platform pf = test::unit_platform();  // table "k": 1-D, one float input without halo, one output
    Problem p = test::unit_problem({1000000, 1, 1}, 1);
    std::string why;
    CHECK(find_kernel(pf, p, &why) == &pf.kernels.at("k"));
    CHECK(why.empty());
    // Same name, other work: a stencil reaching 2 points out.
    p = test::unit_problem({1000000, 1, 1}, 1, Halo{{2, 0, 0}, {2, 0, 0}});
    CHECK(find_kernel(pf, p, &why) == nullptr);
    CHECK(why == "the profile's 'k' table times other work (1-D, 1 input of 4-byte elements with reach 0 | 0, 1 output; "
                 "this nest: 1-D, 1 input of 4-byte elements with reach 2 | 2, 1 output), so it is not used");
    const Prediction n = run(p, pf, cfg(Scheme::Naive, {1, 1, 1}));
    CHECK(n.kernel_source == KernelSource::Estimate);
    CHECK(n.notes.front().find("the profile's 'k' table times other work") != std::string::npos);
    // Doubles, two outputs, a second dimension: each is other work too.
    p = test::unit_problem({1000000, 1, 1}, 1);
    p.inputs[0].elem_bytes = p.outputs[0].elem_bytes = 8;
    CHECK(find_kernel(pf, p) == nullptr);
    p = test::unit_problem({1000000, 1, 1}, 1);
    p.outputs.push_back(p.outputs[0]);
    CHECK(find_kernel(pf, p) == nullptr);
    p = test::unit_problem({1000, 1000, 1}, 2);
    CHECK(find_kernel(pf, p) == nullptr);
    // A table that records no shape prices nothing.
    Platform unshaped = pf;
    unshaped.kernels.at("k").shape = KernelShape{};
    CHECK(find_kernel(unshaped, test::unit_problem({1000000, 1, 1}, 1), &why) == nullptr);
    CHECK(why == "the profile's 'k' table times a kernel whose shape it does not record, so it is not used");
}
