// advisor/region.h: a region priced as the library's recipe::Region runs it.
// On the unit platform (copies 10 us + 1 ns/B, kernels 1 ns per element, no
// launch overhead) the phases can be computed by hand.
#include <catch2/catch.hpp>

#include "advisor/region.h"
#include "tests/unit/advisor/region_fixtures.h"
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

namespace {

// A region table: `fixed_us` per chunk plus bytes at `gbs`, on 1..64 MiB.
Measurements chunk_table(double fixed_us, double gbs) {
    Measurements m;
    for (double mib = 1; mib <= 64; mib *= 2) {
        m.bytes.push_back(mib * (1 << 20));
        m.ns.push_back(fixed_us * 1e3 + mib * (1 << 20) / gbs);
    }
    return m;
}

// The unit platform with region tables over 2 streams each way: a chunk
// costs 100 us plus its bytes at 10 GB/s.
Platform staged_unit_platform() {
    Platform pf = test::unit_platform();
    pf.region_chunk_in.streams = {2};
    pf.region_chunk_in.tables = {chunk_table(100, 10)};
    pf.region_chunk_out = pf.region_chunk_in;
    return pf;
}

}  // namespace

TEST_CASE("a staged region's chunk and streams are the fastest the profile's region tables price", "[advisor]") {
    Platform pf = test::unit_platform();
    RegionProblem r = two_nests(1, false);
    r.extents = {8192, 8192, 1};  // 256 MiB per array, 32 KiB rows
    RegionPrediction fixed;
    std::string error;
    REQUIRE(predict_region(r, pf, {}, &fixed, &error));
    CHECK(fixed.total.config.tile == Index3{8192, 128, 1});  // no tables: 4 MiB, 2 streams
    CHECK(fixed.total.config.streams == 2);

    // Slower than the unit platform's DMA (1 GB/s), so they set the pace.
    // In: 0.5 GB/s whatever the streams, 2 ms a chunk; out: 20 ms a chunk
    // over 2 streams, 5 over 3 and 4 (and 4 slower per byte).
    pf.region_chunk_in.streams = {2, 3, 4};
    pf.region_chunk_in.tables = {chunk_table(2000, 0.5), chunk_table(2000, 0.5), chunk_table(2000, 0.5)};
    pf.region_chunk_out.streams = {2, 3, 4};
    pf.region_chunk_out.tables = {chunk_table(20000, 0.5), chunk_table(5000, 0.5), chunk_table(5000, 0.4)};
    const RegionCopyChoice c = choose_region_copies(r, pf, true);
    CHECK(c.streams == 3);
    // Fewer, larger chunks pay less of the per-chunk cost, until the fill (one
    // chunk's DMA at 1 GB/s on the unit platform) outweighs it: the least
    // total is in between.
    CHECK(c.chunk[1] > region_chunk_of(r, 1 << 20)[1]);
    CHECK(c.chunk[1] < region_chunk_of(r, std::int64_t(64) << 20)[1]);
    double least = 1e300;
    for (std::int64_t mib = 1; mib <= 64; mib *= 2)
        for (int s : {2, 3, 4}) {
            const Index3 chunk = region_chunk_of(r, mib << 20);
            const double t = advisor::detail::region_copies(r, pf, chunk, s, true, true, 0, 8192).total_ms +
                             advisor::detail::region_copies(r, pf, chunk, s, false, true, 0, 8192).total_ms;
            least = std::min(least, t);
        }
    CHECK(c.copy_ms <= 1.02 * least);
    CHECK(c.copy_ms == Approx(advisor::detail::region_copies(r, pf, c.chunk, c.streams, true, true, 0, 8192).total_ms +
                              advisor::detail::region_copies(r, pf, c.chunk, c.streams, false, true, 0, 8192).total_ms));
    RegionPrediction chosen;
    REQUIRE(predict_region(r, pf, {}, &chosen, &error));
    CHECK(chosen.total.config.tile == c.chunk);
    CHECK(chosen.total.config.streams == 3);
    CHECK(chosen.total.host_bytes <= kRegionStagingLimit);
    // Pinned arrays keep the fixed chunk: the tables are the staged path's.
    RegionProblem pinned = r;
    pinned.pinned_host = true;
    RegionPrediction p;
    REQUIRE(predict_region(pinned, pf, {}, &p, &error));
    CHECK(p.total.config.tile == Index3{8192, 128, 1});
}

TEST_CASE("with region tables a staged chunk costs its table time at its bytes, plus the first chunk's DMA once", "[advisor]") {
    Platform pf = staged_unit_platform();
    RegionProblem r = two_nests(1, false);
    r.extents = {1024, 4096, 1};  // 4 KiB rows; chunks of 1024 rows = 4 MiB per array
    const Index3 chunk{1024, 1024, 1};
    const advisor::detail::RegionCopies in = advisor::detail::region_copies(r, pf, chunk, 2, true, true, 0, 4096);
    // 4 chunks of 8 MiB (both arrays' pieces together).
    const double per_chunk = pf.region_chunk_in.tables[0].ms(8.0 * (1 << 20));
    CHECK(in.staging_ms == Approx(4 * per_chunk));
    CHECK(in.stats.bytes == 2 * 4096 * 4096);
    CHECK(in.stats.copies == 8);
    const double first_dma = 2 * pf.pinned_host_to_device.ms(4.0 * (1 << 20));
    CHECK(in.total_ms == Approx(std::max(in.dma_ms, in.staging_ms) + first_dma));
    // No table for 3 streams: the staged pipeline's tile, as before.
    const advisor::detail::RegionCopies other = advisor::detail::region_copies(r, pf, chunk, 3, true, true, 0, 4096);
    CHECK(other.staging_ms != Approx(in.staging_ms));
}

TEST_CASE("a staged pass adds what the profile's single passes paid beyond their chunks, at least the first chunk's DMA", "[advisor]") {
    Platform pf = staged_unit_platform();
    RegionProblem r = two_nests(1, false);
    r.extents = {1024, 4096, 1};
    const Index3 chunk{1024, 1024, 1};
    const auto without = advisor::detail::region_copies(r, pf, chunk, 2, true, true, 0, 4096);
    // A pass that paid 13, 14 and 15 ms beyond its chunks at 1, 8 and 64
    // MiB: at the first chunk's 8 MiB, 14 ms, in place of the first chunk's
    // DMA (8.4 ms on this platform).
    pf.region_pass_in.streams = {2};
    pf.region_pass_in.tables = {Measurements{{1 << 20, 8 << 20, 64 << 20}, {13e6, 14e6, 15e6}}};
    const auto with = advisor::detail::region_copies(r, pf, chunk, 2, true, true, 0, 4096);
    CHECK(with.staging_ms == Approx(without.staging_ms));
    CHECK(with.total_ms == Approx(std::max(with.dma_ms, with.staging_ms) + 14.0));
    // A pass table below the first chunk's DMA (a noisy profile) leaves the DMA.
    pf.region_pass_in.tables = {Measurements{{1 << 20, 64 << 20}, {0, 0}}};
    CHECK(advisor::detail::region_copies(r, pf, chunk, 2, true, true, 0, 4096).total_ms == Approx(without.total_ms));
    // The other direction has no pass table: as before.
    CHECK(advisor::detail::region_copies(r, pf, chunk, 2, false, true, 0, 4096).total_ms ==
          Approx(without.total_ms));
}

TEST_CASE("a region of fewer chunks than the chosen streams is priced from the tables at the streams asked for", "[advisor]") {
    Platform pf = test::unit_platform();
    pf.region_chunk_in.streams = {4};
    pf.region_chunk_in.tables = {chunk_table(2000, 0.5)};
    pf.region_chunk_out = pf.region_chunk_in;
    RegionProblem r = two_nests(1, false);
    r.extents = {1024, 2, 1};  // 4 KiB rows: at most 2 chunks
    const RegionCopyChoice c = choose_region_copies(r, pf, true);
    CHECK(c.priced_streams == 4);
    CHECK(c.streams <= 2);
    RegionPrediction p;
    std::string error;
    REQUIRE(predict_region(r, pf, {}, &p, &error));
    CHECK(p.total.config.streams == c.streams);
    const double in = advisor::detail::region_copies(r, pf, c.chunk, 4, true, true, 0, 2).staging_ms;
    const double out = advisor::detail::region_copies(r, pf, c.chunk, 4, false, true, 0, 2).staging_ms;
    CHECK(p.total.phases.staging == Approx(in + out));
    CHECK(in == Approx(pf.region_chunk_in.tables[0].ms(2 * 4096.0 * static_cast<double>(c.chunk[1])) *
                       static_cast<double>(2 / c.chunk[1])));
}

TEST_CASE("staged in, an array's points its first launch writes are not packed, and chunks of them alone are not copied", "[advisor]") {
    Platform pf = staged_unit_platform();
    RegionProblem r = two_nests(1, false);
    r.extents = {1024, 4096, 1};
    const Index3 chunk{1024, 1024, 1};
    RegionProblem framed = r;
    framed.arrays[1].written_first = Box{{1, 1, 0}, {1023, 4095, 1}};  // b: its interior, a 2-D stencil's output
    const auto whole = advisor::detail::region_copies(r, pf, chunk, 2, true, true, 0, 4096);
    const auto in = advisor::detail::region_copies(framed, pf, chunk, 2, true, true, 0, 4096);
    // Of b only the frame crosses: rows 0 and 4095 and the two columns
    // between them, each chunk's parts one strided copy each (a row and two
    // columns in the first and last chunk, two columns in the others)...
    CHECK(in.stats.bytes == 1024LL * 4096 * 4 + (2 * 1024 + 2 * 4094) * 4);
    CHECK(in.stats.copies == 4 + 3 + 2 + 2 + 3);
    CHECK(in.dma_ms < whole.dma_ms);
    // ...and only a's chunk and b's frame are packed: the first chunk holds
    // b's row 0 and two columns of 1023 rows, the middle ones two columns,
    // each frame row's end joined with the next row's start: 1024 runs
    // (1025 in the middle chunks), each priced a reach (kRowReachBytes).
    const double first = 4.0 * (1024 * 1024 + 1024 + 2 * 1023) + 1024.0 * kRowReachBytes,
                 middle = 4.0 * (1024 * 1024 + 2 * 1024) + 1025.0 * kRowReachBytes;
    const auto& table = pf.region_chunk_in.tables[0];
    CHECK(in.staging_ms == Approx(2 * table.ms(first) + 2 * table.ms(middle)));
    CHECK(in.staging_ms < whole.staging_ms);
    // With the profile's stagingRowNs, each run costs that instead, beside
    // the frame's bytes at the table's pace.
    pf.staging_row_ns = 50;
    const auto measured_rows = advisor::detail::region_copies(framed, pf, chunk, 2, true, true, 0, 4096);
    CHECK(measured_rows.staging_ms ==
          Approx(2 * table.ms(4.0 * (1024 * 1024 + 1024 + 2 * 1023)) + 2 * table.ms(4.0 * (1024 * 1024 + 2 * 1024)) +
                 (2 * 1024 + 2 * 1025) * 50e-6));
    pf.staging_row_ns = 0;
    // Out, nothing changes.
    CHECK(advisor::detail::region_copies(framed, pf, chunk, 2, false, true, 0, 4096).staging_ms ==
          Approx(advisor::detail::region_copies(r, pf, chunk, 2, false, true, 0, 4096).staging_ms));
    // One dimension: the chunks inside the written part are not copied at all.
    RegionProblem line = two_nests(1, false);
    line.dims = 1;
    line.extents = {4096, 1, 1};
    line.arrays[1].written_first = Box{{2, 0, 0}, {4094, 1, 1}};
    const auto signal = advisor::detail::region_copies(line, pf, Index3{1024, 1, 1}, 2, true, true, 0, 4096);
    CHECK(signal.stats.copies == 4 + 2);  // a's four chunks, b's two points at either end
    CHECK(signal.stats.bytes == 4 * 4096 + 4 * 4);
    // Over several GPUs and with ghost zones the arrays are copied whole.
    CHECK(copied_whole(framed).arrays[1].written_first.empty());
}

TEST_CASE("a region's launches run as the chunks land when that hides them behind the copies", "[advisor]") {
    Platform pf = test::unit_platform();
    // Two steps of jacobi-2d on 1000 x 4000 floats, 16 MB per array (four
    // chunks): 32 ms of copies each way, 4 ms per launch.
    RegionProblem r = test::jacobi_region(2, {1000, 4000, 1});
    RegionPrediction p;
    std::string error;
    REQUIRE(predict_region(r, pf, {}, &p, &error));
    const Prediction& t = p.total;
    REQUIRE(p.pipelined_launches > 0);
    CHECK(p.pieces > 4);  // the launches in pieces
    const double in_order = t.phases.alloc + t.phases.h2d + t.phases.kernel + t.phases.d2h;
    CHECK(t.total_ms < in_order - 1.0);
    // Never below the copies, which do not overlap each other (every chunk in
    // is issued before the first chunk out).
    CHECK(t.total_ms >= t.phases.alloc + t.phases.h2d + t.phases.d2h - 1e-9);
    // The pieces take a stream of their own besides the copies' two.
    CHECK(t.config.streams == 3);
}

TEST_CASE("with launches in pieces, the chunks are chosen with the pieces' issuing priced, not by the copies alone", "[advisor]") {
    Platform pf = test::unit_platform();
    // Staged copies at 2 GB/s a chunk, whatever its size: by the copies
    // alone the smallest chunks win (their first chunk, the pipeline's fill,
    // is shortest). Each piece costs the host 50 us to issue between chunks.
    for (StreamTables* t : {&pf.region_chunk_in, &pf.region_chunk_out}) {
        t->streams = {2};
        t->tables = {chunk_table(0, 2)};
    }
    pf.kernel_launch_ns = 50e3;
    RegionProblem r = test::jacobi_region(8, {1024, 8192, 1});  // 32 MiB per array
    r.pinned_host = false;
    const RegionCopyChoice copies_only = choose_region_copies(r, pf, true);
    RegionPrediction p;
    std::string error;
    REQUIRE(predict_region(r, pf, {}, &p, &error));
    REQUIRE(p.pipelined_launches > 0);
    CHECK(p.total.config.tile[1] > copies_only.chunk[1]);
}

TEST_CASE("a launch shorter than the host's Region::run waits for it", "[advisor]") {
    Platform pf = test::unit_platform();
    RegionProblem r = test::jacobi_region(10, {100, 100, 1});  // 10,000 points: 10 us a launch on this platform
    RegionPrediction before;
    std::string error;
    REQUIRE(predict_region(r, pf, {}, &before, &error));
    pf.region_run_ns = 50e3;  // 50 us a run
    RegionPrediction after;
    REQUIRE(predict_region(r, pf, {}, &after, &error));
    CHECK(after.total.phases.kernel == Approx(10 * 2 * 0.05));
    CHECK(after.total.phases.kernel > before.total.phases.kernel);
    // Launches longer than a run are their kernels, as before.
    pf.region_run_ns = 1e3;
    RegionPrediction longer;
    REQUIRE(predict_region(r, pf, {}, &longer, &error));
    CHECK(longer.total.phases.kernel == Approx(before.total.phases.kernel));
}

TEST_CASE("a kernel-bound region is not cut into pieces that cost more launches than the copies they hide", "[advisor]") {
    Platform pf = test::unit_platform();
    pf.kernel_launch_ns = 200000;  // 0.2 ms a launch
    RegionProblem r = test::jacobi_region(50);
    RegionPrediction p;
    std::string error;
    REQUIRE(predict_region(r, pf, {}, &p, &error));
    CHECK(p.pipelined_launches == 0);
    const Prediction& t = p.total;
    CHECK(t.total_ms == Approx(t.phases.alloc + t.phases.h2d + t.phases.kernel + t.phases.d2h).epsilon(1e-9));
}

TEST_CASE("the pipelined timeline with no launch cut is copies in, every launch, copies out", "[advisor]") {
    const Platform pf = test::unit_platform();
    const RegionProblem r = test::jacobi_region(3);
    const std::vector<LaunchRows> launches = advisor::detail::region_launch_rows(r);
    REQUIRE(launches.size() == 6);
    CHECK(launches[0].reads.front().array == 0);
    CHECK(launches[0].writes.front() == 1);
    CHECK(launches[1].reads.front().array == 1);
    CHECK(launches[0].reads.front().hi == 1);
    advisor::detail::RegionCopies in, back;
    in.total_ms = 8;
    in.chunk_ms = {2, 2, 2, 2};
    back.total_ms = 6;
    back.chunk_ms = {1, 1, 1, 1};
    std::vector<RegionLaunch> per_nest(2);
    for (RegionLaunch& l : per_nest) l.run_ms = l.kernel_ms = 1;
    std::int64_t pieces = 0;
    CHECK(advisor::detail::pipelined_region_ms(r, launches, per_nest, 250, in, back, 0, 0.0, &pieces) == Approx(8 + 6 + 6));
    CHECK(pieces == 6);
    const double cut = advisor::detail::pipelined_region_ms(r, launches, per_nest, 250, in, back, 6, 0.0, &pieces);
    CHECK(cut < 20);
    CHECK(cut >= 8 + 6 * 0.25);  // at least the last chunk out after the copies in
    CHECK(pieces > 6);
}

TEST_CASE("under swapped pointers the launches trade their arrays every step; other swaps are not cut", "[advisor]") {
    // stencil7's form: one nest reading `a` and writing `b`, the pointers swapped after each call.
    RegionProblem r = test::jacobi_region(4);
    r.nests.resize(1);
    r.swaps = true;
    const std::vector<LaunchRows> launches = advisor::detail::region_launch_rows(r);
    REQUIRE(launches.size() == 4);
    for (std::size_t t = 0; t < launches.size(); ++t) {
        INFO("step " << t);
        CHECK(launches[t].reads.front().array == static_cast<int>(t % 2));
        CHECK(launches[t].writes.front() == static_cast<int>(1 - t % 2));
    }
    // Two nests under swapped pointers: which buffer each name holds is not followed.
    RegionProblem two = test::jacobi_region(4);
    two.swaps = true;
    CHECK(advisor::detail::region_launch_rows(two).empty());
    // A launch naming what the region does not hold whole (a part) runs whole.
    RegionProblem part = test::jacobi_region(1);
    part.nests[1].inputs[0].name = "b[0]";
    const std::vector<LaunchRows> with_part = advisor::detail::region_launch_rows(part);
    REQUIRE(with_part.size() == 2);
    CHECK_FALSE(with_part[0].whole);
    CHECK(with_part[1].whole);
}
