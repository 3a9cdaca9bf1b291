// library_costs.cuh — the costs of the pipelining library's own machinery,
// measured by running the library (recipe::run), so that the model prices
// what the emitted program really does: its setup and teardown per run, per
// stream, its pinned staging block, and its host staging of tiles while the
// copy engines run (docs/model.md, "Library costs").
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <recipe/recipe.cuh>

#include "sample_kernels.cuh"

namespace profiler {

struct LibraryCosts {
    // librarySetup: alloc phase (setup + teardown) of a one-stream pinned run
    // against the bytes of its device block.
    std::vector<double> setup_bytes, setup_ns;
    double stream_setup_ns = 0;  // each further stream, with its events
    // regionRunNs: one recipe::Region::run of a kernel that does nothing,
    // back to back on resident arrays, as a time loop's steps are issued.
    double region_run_ns = 0;
    // stagingSetup: staging threads and the pinned staging block, got and released.
    std::vector<double> staging_setup_bytes, staging_setup_ns;
    // stagingTile: steady time per tile of a staged run's pipeline with one
    // input and one output tile of b bytes: the host's packing and
    // unpacking, its calls, and its waits for copy engines that the packing
    // slows down (they share the host's memory).
    std::vector<double> staging_tile_bytes, staging_tile_ns;
    // stagingTileStreams: the same over each of staging_tile_streams (2, 3
    // and 4): staging_tile_ns_by_streams[stream index][tile index];
    // staging_tile_ns is its 2-stream row.
    std::vector<int> staging_tile_streams;
    std::vector<std::vector<double>> staging_tile_ns_by_streams;
    // pipelineTile: steady time per tile of a pinned run's pipeline, one
    // input and one output tile of b bytes, 3 streams: both copy directions
    // at once as the library's pipeline meets them (the model derives its
    // duplex factor from it).
    std::vector<double> pipeline_tile_bytes, pipeline_tile_ns;
    double staging_row_ns = 0;  // each further row of a strided tile box
    // regionChunkIn / regionChunkOut: time per chunk of a staged
    // recipe::Region's copies of one array of floats, in as the region
    // starts, out as it finishes, each direction alone (as a region runs
    // them), over arrays the host has just written, chunks of
    // region_chunk_bytes over each of region_streams:
    // region_chunk_*_ns[stream index][chunk index]; regionPassIn /
    // regionPassOut: what one such pass pays beyond its chunks.
    std::vector<int> region_streams;
    std::vector<double> region_chunk_bytes;
    std::vector<std::vector<double>> region_chunk_in_ns, region_chunk_out_ns, region_pass_in_ns, region_pass_out_ns;
    // The staging thread counts tried, and each one's steady time per 4 MiB
    // tile (pack and unpack while both copy directions run); the fastest
    // count is the one the generated code asks for and the one stagingTile
    // and stagingSetup are measured with.
    std::vector<int> thread_counts;
    std::vector<double> thread_tile_ns;
    int staging_threads = 0;
};

namespace detail {

inline double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

inline recipe::Config config_1d(std::int64_t n, std::int64_t tile, int streams, recipe::HostMemory host) {
    recipe::Config c;
    c.scheme = recipe::Scheme::Scalable;
    c.extents = {n, 1, 1};
    c.space = recipe::Box{{0, 0, 0}, {n, 1, 1}};
    c.tile = {tile, 1, 1};
    c.copy = recipe::CopyMethod::Merged;
    c.streams = streams;
    c.block = dim3(256, 1, 1);
    c.host = host;
    c.measure = true;
    c.name = "recipe-profile";
    return c;
}

// One pass of a copy through the library (moving average of radius 0).
inline recipe::Measured run_1d(const recipe::Config& c, const float* in, float* out) {
    return recipe::run(c, samples::moving_average, recipe::inputs(recipe::input(in)), recipe::outputs(recipe::output(out)),
                       0, 1);
}

// Steady time per tile (ns) of a 1-D pipeline of `tile` floats: the
// difference between runs of `tiles` and `tiles / 2` tiles, taken in turns
// so that drift falls on both, over the tiles between; setup, teardown, the
// pipeline's fill and its drain cancel. No timing events (measure off), as
// in a user's run.
inline double steady_tile_ns(int reps, std::int64_t tile, std::int64_t tiles, int streams, recipe::HostMemory host,
                             const float* in, float* out, int threads = 0) {
    recipe::Config shorter = config_1d(tiles / 2 * tile, tile, streams, host);
    recipe::Config longer = config_1d(tiles * tile, tile, streams, host);
    shorter.measure = longer.measure = false;
    shorter.host_threads = longer.host_threads = threads;
    run_1d(shorter, in, out);
    run_1d(longer, in, out);
    std::vector<double> a, b;
    for (int r = 0; r < reps; ++r) {
        a.push_back(run_1d(shorter, in, out).total * 1e6);
        b.push_back(run_1d(longer, in, out).total * 1e6);
    }
    return std::max(0.0, (median_of(b) - median_of(a)) / static_cast<double>(tiles - tiles / 2));
}

// A launch that writes nothing: a region's copies out alone (the library
// copies out what a launch names as its output).
__global__ void region_untouched(recipe::Tile, recipe::InView<float>, recipe::OutView<float>) {}

// The Config of a staged region over n floats in chunks of `chunk` over
// `streams` (bench/region/chunk_probe.cu times the same).
inline recipe::Config region_config(std::int64_t n, std::int64_t chunk, int streams, int threads) {
    recipe::Config c;
    c.extents = {n, 1, 1};
    c.space = recipe::Box{{0, 0, 0}, {n, 1, 1}};
    c.tile = {chunk, 1, 1};
    c.streams = streams;
    c.host = recipe::HostMemory::Staged;
    c.host_threads = threads;
    c.name = "recipe-profile region";
    return c;
}

// One such region: `in` copied in (nothing out, no launch), or `out` copied
// out after one launch that names it as its output (nothing in). Its whole
// time, ns.
inline double region_once(std::int64_t n, std::int64_t chunk, int streams, bool copy_in, float* source, float* out,
                          int threads) {
    const recipe::Config c = region_config(n, chunk, streams, threads);
    const auto t0 = std::chrono::steady_clock::now();
    if (copy_in) {
        recipe::Region r(c, recipe::resident(source, true, false));
        r.finish();
    } else {
        recipe::Region r(c, recipe::resident(source, false, false), recipe::resident(out, false, true));
        recipe::Config nest = c;
        nest.block = dim3(256, 1, 1);
        r.run(nest, region_untouched, recipe::inputs(recipe::input(source)), recipe::outputs(recipe::output(out)));
        r.finish();
    }
    return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
}

// A program's host code writes its arrays just before its region copies
// them, and that is what the region's pace is measured on: one thread
// writes the array before each pass, as a program's initialisation does.
// (bench/region/first_pass_probe.cu, on an H200 host: a region's copies out
// into freshly written memory took 237 us per 8 MiB chunk, into memory the
// previous pass had filled 164; copies in 287 and 279 us.)
inline void write_as_program(float* p, std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i) p[i] = static_cast<float>(i & 127) * 0.01f;
}

// One direction of a staged region as a program pays it: `chunk_ns`, the
// time per chunk, and `pass_ns`, what a pass pays beyond its chunks (the
// pipeline's fill and drain, waking the staging threads, the last wait).
struct RegionPace {
    double chunk_ns = 0, pass_ns = 0;
};

// Single regions of `chunks` and `chunks / 2` chunks, taken in turns, each
// over an array written just before (write_as_program): the difference of
// their medians over the chunks between is the pace. What a pass pays beyond
// its chunks is taken from passes of 4 chunks, less 4 chunks at that pace:
// from the longer passes it is a small difference of large times, which
// their noise swamps (an H200 host's profile taken that way read 0 to 3 ms
// from one chunk size to the next). The device and staging blocks stay in
// the library's pool, sized for the larger, after the first.
inline RegionPace region_chunk_pace(int reps, std::int64_t chunk, std::int64_t chunks, int streams, bool copy_in, float* in,
                                    float* out, int threads) {
    region_once(chunks * chunk, chunk, streams, copy_in, in, out, threads);
    const std::int64_t sizes[3] = {std::min<std::int64_t>(4, chunks / 2), chunks / 2, chunks};
    std::vector<double> times[3];
    for (int r = 0; r < reps; ++r)
        for (int i = 0; i < 3; ++i) {
            write_as_program(copy_in ? in : out, sizes[i] * chunk);
            times[i].push_back(region_once(sizes[i] * chunk, chunk, streams, copy_in, in, out, threads));
        }
    RegionPace p;
    p.chunk_ns = std::max(0.0, (median_of(times[2]) - median_of(times[1])) / static_cast<double>(chunks - chunks / 2));
    p.pass_ns = std::max(0.0, median_of(times[0]) - static_cast<double>(sizes[0]) * p.chunk_ns);
    return p;
}

// One Region::run (ns) issued back to back on a resident array: regions of
// `runs` and `2 * runs` launches of a kernel that writes nothing over 1024
// floats, differenced (setup and finish cancel), medians. What a time loop's
// launch costs the host where its kernel is shorter (on an H200 host
// jacobi-1d's 1000 launches of 2,000 points took 6.7 us each through the
// region, where empty kernels launched bare took 3.4).
inline double region_run_ns(int reps, int runs, float* a, float* b) {
    const recipe::Config c = region_config(1024, 1024, 1, 0);
    recipe::Config nest = c;
    nest.block = dim3(256, 1, 1);
    auto once = [&](int n) {
        const auto t0 = std::chrono::steady_clock::now();
        recipe::Region r(c, recipe::resident(a, false, false), recipe::resident(b, false, false));
        for (int i = 0; i < n; ++i)
            r.run(nest, region_untouched, recipe::inputs(recipe::input(static_cast<const float*>(a))),
                  recipe::outputs(recipe::output(b)));
        r.finish();
        return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    };
    once(2 * runs);
    std::vector<double> shorter, longer;
    for (int r = 0; r < reps; ++r) {
        shorter.push_back(once(runs));
        longer.push_back(once(2 * runs));
    }
    return std::max(0.0, (median_of(longer) - median_of(shorter)) / runs);
}

// Median over `reps` runs after one warm-up of what `pick` takes from a run.
inline double median_run(int reps, const std::function<recipe::Measured()>& run,
                         const std::function<double(const recipe::Measured&)>& pick) {
    run();
    std::vector<double> v;
    for (int r = 0; r < reps; ++r) v.push_back(pick(run()));
    return median_of(v);
}

}  // namespace detail

// The fastest rate (GB/s) any chunk and stream count of a region table reached.
inline double best_region_rate(const LibraryCosts& lc, const std::vector<std::vector<double>>& ns) {
    double best = 0;
    for (const auto& row : ns)
        for (std::size_t i = 0; i < row.size() && i < lc.region_chunk_bytes.size(); ++i)
            if (row[i] > 0) best = std::max(best, lc.region_chunk_bytes[i] / row[i]);
    return best;
}

// pinned_a/pinned_b: pinned host buffers, pageable: a malloc'd, touched
// buffer; each at least 1 GB.
inline LibraryCosts measure_library_costs(char* pinned_a, char* pinned_b, char* pageable, bool quick) {
    using detail::config_1d;
    using detail::median_run;
    using detail::run_1d;
    LibraryCosts lc;
    const int reps = quick ? 3 : 5;
    auto alloc_of = [](const recipe::Measured& m) { return m.alloc * 1e6; };

    // Setup and teardown against the device block: one stream, two tiles.
    const float* pin_in = reinterpret_cast<const float*>(pinned_a);
    float* pin_out = reinterpret_cast<float*>(pinned_b);
    for (double bytes : {1e5, 1e6, 1e7, 1e8, 1e9}) {
        const std::int64_t tile = static_cast<std::int64_t>(bytes / 8);  // one input and one output tile buffer
        const recipe::Config c = config_1d(2 * tile, tile, 1, recipe::HostMemory::Pinned);
        lc.setup_bytes.push_back(bytes);
        lc.setup_ns.push_back(median_run(bytes >= 1e9 ? 3 : reps, [&] { return run_1d(c, pin_in, pin_out); }, alloc_of));
    }
    {
        const std::int64_t n = 1 << 20, tile = 1 << 14;
        const recipe::Config one = config_1d(n, tile, 1, recipe::HostMemory::Pinned);
        const recipe::Config many = config_1d(n, tile, 65, recipe::HostMemory::Pinned);
        const double a1 = median_run(reps, [&] { return run_1d(one, pin_in, pin_out); }, alloc_of);
        const double a65 = median_run(reps, [&] { return run_1d(many, pin_in, pin_out); }, alloc_of);
        lc.stream_setup_ns = std::max(0.0, (a65 - a1) / 64);
    }
    lc.region_run_ns = detail::region_run_ns(reps, 1000, reinterpret_cast<float*>(pinned_a), reinterpret_cast<float*>(pinned_b));

    // A pinned pipeline's steady time per tile: 256 KiB .. 32 MiB tiles of
    // floats, up to 512 MiB each way, 3 streams.
    for (std::int64_t tile : {std::int64_t(1) << 16, std::int64_t(1) << 18, std::int64_t(1) << 20, std::int64_t(1) << 22,
                              std::int64_t(1) << 23}) {
        const std::int64_t bytes = tile * static_cast<std::int64_t>(sizeof(float));
        const std::int64_t tiles = std::min<std::int64_t>(64, (std::int64_t(512) << 20) / bytes);
        lc.pipeline_tile_bytes.push_back(static_cast<double>(bytes));
        lc.pipeline_tile_ns.push_back(
            detail::steady_tile_ns(reps, tile, tiles, 3, recipe::HostMemory::Pinned, pin_in, pin_out));
    }

    // A staged run's steady time per tile, whole rows: pageable floats, up
    // to 256 MiB each way, tiles of 256 KiB .. 64 MiB, 2 streams. Measured
    // before the staging block's cost, whose 1 GB pinned blocks leave the
    // host's memory management busy for a while after.
    const float* in = reinterpret_cast<const float*>(pageable);
    float* out = reinterpret_cast<float*>(pageable + (std::size_t(512) << 20));
    // The thread count first: with the copy engines busy, more threads can
    // pack slower (the host's memory is shared with the engines; on one
    // H100 host 16 threads packed at 1 GB/s where 12 reached 24 GB/s).
    {
        const std::int64_t tile = std::int64_t(1) << 20;  // 4 MiB of floats
        // Up to the library's limit, one fewer than the cores (all 16 cores
        // of an H100 host staging measured fastest here, and then stalled
        // real runs whenever one worker lost its core).
        for (int n : {1, 2, 4, 6, 8, 12, 16}) {
            if (n > recipe::detail::staging_thread_limit()) break;
            lc.thread_counts.push_back(n);
            lc.thread_tile_ns.push_back(detail::steady_tile_ns(quick ? 1 : 3, tile, 64, 2, recipe::HostMemory::Staged, in, out, n));
        }
        // The fewest threads within 3% of the fastest: more threads than
        // that buy nothing measurable and take cores from the program (on
        // an H100 host 8 and 16 threads differed by 0.3%). Nor do they pay
        // on a first run, whose unpacking faults fresh pages in: the same
        // eight samples' first calls on an H200 whose profile chose 6, run
        // on 6 and on 8 threads (medians of 5 processes each), were faster
        // on 6 for four and on 8 for the other four.
        const double best = *std::min_element(lc.thread_tile_ns.begin(), lc.thread_tile_ns.end());
        for (std::size_t i = 0; i < lc.thread_counts.size() && lc.staging_threads == 0; ++i)
            if (lc.thread_tile_ns[i] <= 1.03 * best) lc.staging_threads = lc.thread_counts[i];
    }
    // Over 2, 3 and 4 streams: with more tile buffers in flight the host
    // packs ahead and waits less, or its buffers leave its caches sooner
    // (on two H200 hosts 16 MiB tiles took 0.82 and 1.23 ms a tile over 2
    // streams, 1.00 and 1.49 over 3); the model prices a staged run by the
    // buffer sets it keeps.
    for (int streams : {2, 3, 4}) {
        lc.staging_tile_streams.push_back(streams);
        lc.staging_tile_ns_by_streams.emplace_back();
        // 2 and 8 MiB as well: on three H200 hosts the moving average's
        // staged run was fastest in 8 MiB tiles (13.5 ms against 15.1 at 4
        // and 16.1 at 16 MiB on one), which a line between 4 and 16 MiB
        // priced above both (docs/results-h200.md).
        for (std::int64_t tile : {std::int64_t(1) << 16, std::int64_t(1) << 18, std::int64_t(1) << 19, std::int64_t(1) << 20,
                                  std::int64_t(1) << 21, std::int64_t(1) << 22, std::int64_t(1) << 24}) {
            const std::int64_t bytes = tile * static_cast<std::int64_t>(sizeof(float));
            const std::int64_t tiles = std::min<std::int64_t>(64, (std::int64_t(256) << 20) / bytes);
            if (streams == 2) lc.staging_tile_bytes.push_back(static_cast<double>(bytes));
            lc.staging_tile_ns_by_streams.back().push_back(detail::steady_tile_ns(
                quick ? 1 : 5, tile, tiles, streams, recipe::HostMemory::Staged, in, out, lc.staging_threads));
        }
    }
    lc.staging_tile_ns = lc.staging_tile_ns_by_streams.front();

    // A staged region's copies, each direction alone, over 2 to 4 streams:
    // chunks of 1 .. 64 MiB of one array, up to 512 MiB (128 chunks), on the
    // staging threads chosen above. On an H200 host 4 MiB chunks went out
    // at 20 GB/s over 2 streams and 32 over 4, 16 MiB ones at 43-54, while
    // the copies in packed at 25-30 whatever the streams
    // (bench/region/chunk_probe.cu): the region's chunk and streams are the
    // model's choice (advisor/region.cpp).
    float* region_in = reinterpret_cast<float*>(pageable);
    for (int streams : {2, 3, 4}) {
        lc.region_streams.push_back(streams);
        for (auto* t : {&lc.region_chunk_in_ns, &lc.region_chunk_out_ns, &lc.region_pass_in_ns, &lc.region_pass_out_ns})
            t->emplace_back();
        for (std::int64_t mib = 1; mib <= 64; mib *= quick ? 4 : 2) {
            const std::int64_t chunk = (mib << 20) / static_cast<std::int64_t>(sizeof(float));
            const std::int64_t chunks = std::min<std::int64_t>(128, 512 / mib);
            if (streams == 2) lc.region_chunk_bytes.push_back(static_cast<double>(mib << 20));
            const detail::RegionPace in_pace =
                detail::region_chunk_pace(quick ? 1 : 5, chunk, chunks, streams, true, region_in, out, lc.staging_threads);
            const detail::RegionPace out_pace =
                detail::region_chunk_pace(quick ? 1 : 5, chunk, chunks, streams, false, region_in, out, lc.staging_threads);
            lc.region_chunk_in_ns.back().push_back(in_pace.chunk_ns);
            lc.region_pass_in_ns.back().push_back(in_pace.pass_ns);
            lc.region_chunk_out_ns.back().push_back(out_pace.chunk_ns);
            lc.region_pass_out_ns.back().push_back(out_pace.pass_ns);
        }
    }

    // The staging block: threads and pinned block as a staged run gets them.
    for (double bytes : {1e5, 1e6, 1e7, 1e8, 1e9}) {
        std::vector<double> t;
        for (int r = 0; r < (bytes >= 1e9 ? 3 : reps); ++r) {
            const auto t0 = std::chrono::steady_clock::now();
            {
                recipe::detail::CopyThreads threads(lc.staging_threads);
                recipe::detail::PinnedBlock block;
                auto where = [] { return std::string("recipe-profile"); };
                block.allocate(static_cast<std::size_t>(bytes), where, [&](char* p, std::size_t n) {
                    recipe::detail::touch_pages(p, n, threads);
                });
                block.release(where);
            }
            t.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count());
        }
        lc.staging_setup_bytes.push_back(bytes);
        lc.staging_setup_ns.push_back(detail::median_of(t));
    }

    // The cost of a row: an 8192 x 8192 image in tiles 128 floats wide, so
    // every tile box is 8192 rows of 512-520 B.
    {
        const std::int64_t W = 8192, H = 8192, tw = 128;
        recipe::Config c;
        c.scheme = recipe::Scheme::Scalable;
        c.extents = {W, H, 1};
        c.space = recipe::Box{{0, 0, 0}, {W, H, 1}};
        c.tile = {tw, H, 1};
        c.copy = recipe::CopyMethod::Strided;
        c.streams = 2;
        c.block = dim3(32, 8, 1);
        c.host = recipe::HostMemory::Staged;
        c.host_threads = lc.staging_threads;
        c.measure = true;
        c.name = "recipe-profile";
        const recipe::Halo halo{{1, 1, 0}, {1, 1, 0}};
        const double per_tile = median_run(
            quick ? 1 : 3,
            [&] {
                return recipe::run(c, samples::emboss, recipe::inputs(recipe::input(in, halo)),
                                   recipe::outputs(recipe::output(out)), static_cast<int>(W), static_cast<int>(H), 1);
            },
            [](const recipe::Measured& m) { return (m.total - m.alloc) * 1e6 / static_cast<double>(m.tiles); });
        // Whole-row rate at this tile's bytes, interpolated in log(bytes).
        const double tile_bytes = static_cast<double>(tw) * H * sizeof(float);
        const auto& b = lc.staging_tile_bytes;
        const auto& t = lc.staging_tile_ns;
        std::size_t i = 0;
        while (i + 2 < b.size() && b[i + 1] < tile_bytes) ++i;
        const double f = (std::log(tile_bytes) - std::log(b[i])) / (std::log(b[i + 1]) - std::log(b[i]));
        const double rate = (t[i] / b[i]) * (1 - f) + (t[i + 1] / b[i + 1]) * f;  // ns per byte of a pack + unpack pair
        const double bytes = (static_cast<double>(tw + 2) + tw) / 2 * H * sizeof(float);
        lc.staging_row_ns = std::max(0.0, (per_tile - bytes * rate) / (2.0 * H));
    }
    return lc;
}

}  // namespace profiler
