// Our library's pricing (library_pricing.h): library/README.md and
// library/include/recipe/detail/ say what it does; the profile's library
// figures (pipelineTile, stagingTile, librarySetup, asyncCallNs) were
// measured on it by recipe-profile.
#include "advisor/library_pricing.h"

#include <algorithm>
#include <string>

#include "advisor/copy_costs.h"
#include "advisor/sizes.h"

namespace recipe::advisor {

namespace {

// Host-side packing priced by the library's own staged pipeline (profile
// "stagingTile": a staged run's time per tile, so the copy engines slowed by
// the packing, which shares the host's memory with them, are in it; over the
// run's stream count where the profile has it, "stagingTileStreams"): each
// group's bytes at the rate of a tile box of its size, plus "stagingRowNs"
// per row. This makes the host the staged pipeline's pace, as measured.
double library_staging_ms(const std::vector<CopyGroup>& groups, const Platform& pf, int streams, TransferStats* stats) {
    const Measurements& tile = pf.staging_tile_for(streams);
    double ms = 0;
    for (const CopyGroup& g : groups) {
        const std::int64_t rows = g.count * g.height * g.depth;
        const double box_bytes = static_cast<double>(g.width_bytes * g.height * g.depth);
        const double pair_ms = tile.ms(box_bytes);  // pack + unpack of one such box
        ms += static_cast<double>(rows * g.width_bytes) * (box_bytes > 0 ? pair_ms / (2 * box_bytes) : 0) +
              static_cast<double>(rows) * pf.staging_row_ns * 1e-6;
        if (stats) {
            stats->bytes += rows * g.width_bytes;
            stats->copies += rows;
        }
    }
    return ms;
}


// thesis §6.4.4's duplex factor as the library's pinned pipeline meets it,
// for tiles copying `bytes` each way: the profile's "pipelineTile" (a pinned
// run's steady time per tile, one input and one output tile of b bytes)
// beyond the longer copy, over the shorter one, both priced from the copy
// tables as the model prices a tile's copies. On an H200 tiles of a few MB
// going both ways slow each other more than two whole-array copies do
// (docs/model.md, "Schemes").
double pipeline_duplex(const Platform& pf, double bytes) {
    if (pf.pipeline_tile.empty() || bytes <= 0) return pf.duplex_factor;
    // Below the smallest tile measured, that tile's factor: the table's
    // first time held constant would say that small copies never overlap.
    bytes = std::max(bytes, pf.pipeline_tile.bytes.front());
    const double in = pf.pinned_host_to_device.ms(bytes), out = pf.device_to_pinned_host.ms(bytes);
    if (std::min(in, out) <= 0) return pf.duplex_factor;
    return std::clamp((pf.pipeline_tile.ms(bytes) - std::max(in, out)) / std::min(in, out), 0.0, 1.0);
}

class OurLibrary final : public LibraryPricing {
public:
    // Whole arrays on the device: tile k sends only what earlier tiles have not.
    bool sends_shared_halo_once(Scheme scheme) const override { return scheme_traits(scheme).pipelined; }

    // No more buffer sets than there are tiles.
    std::int64_t streams_used(int streams, std::int64_t tiles) const override {
        return std::min<std::int64_t>(streams, tiles);
    }

    // Host threads pack in parallel; the library's measured staged pipeline
    // where the profile has it.
    double packing_ms(const std::vector<CopyGroup>& rows, const Measurements& table, const Platform& pf, int streams,
                      TransferStats* stats) const override {
        return !pf.staging_tile.empty()
                   ? library_staging_ms(rows, pf, streams, stats)
                   : host_copy_ms(rows, table, pf.host_copy_parallel_speedup, pf.host_copy_row_ns, stats);
    }

    // The tile's bytes cross the link at the mapped rate (seed 003 §5.6.1).
    void mapped_writes(std::int64_t bytes, const Platform& pf, double* out_ms, TransferStats* out) const override {
        const double per_byte = pf.mapped_ns_per_byte > 0 ? pf.mapped_ns_per_byte : pf.loggp_device_to_host.ns_per_byte;
        *out_ms += static_cast<double>(bytes) * per_byte * 1e-6;
        out->bytes += bytes;
    }

    // The issuing thread: every copy, the launch, and an event record and
    // wait per tile.
    double issue_ms(std::int64_t copies, const Platform& pf) const override {
        return static_cast<double>(copies + 3) * pf.async_call_ns * 1e-6;
    }

    void shape_pipeline(const Platform& pf, double typical_tile_bytes, bool host_bound_copies,
                        PipelineShape* shape) const override {
        if (!host_bound_copies) shape->duplex_factor = pipeline_duplex(pf, typical_tile_bytes);
        shape->streams_in_order = true;
        shape->serial_host = true;
        shape->engine_floors = true;
    }

    // Our library runs streams and hybrid as basic with a stream per tile
    // (library/README.md), issuing exactly the copies priced per tile, so
    // the thesis's pipeline prices them (§6.4.4) with one buffer per tile.
    // Hybrid's output step is the kernel's mapped writes; they share the
    // link with the copies in without overlapping them (measured on an
    // H200: hybrid's total is the copies in plus the mapped writes,
    // docs/results-h200.md), as on one copy engine.
    double stream_per_tile_pipeline(const TilePipeline& tiles, const Platform&, Prediction* pred,
                                    bool explain) const override {
        PipelineShape ps = tiles.shape;
        if (maps_host_memory(tiles.scheme)) ps.copy_engines = 1;
        const double pipeline = thesis_pipeline(tiles.weighted, tiles.first, tiles.last, ps);
        pred->startup_steps = 2;
        if (explain)
            pred->notes.push_back("pipeline: thesis §6.4.4 with a stream per tile (" + std::to_string(tiles.tiles) +
                                  " streams), every copy the library issues priced");
        return pipeline;
    }

    // library/README.md, detail/resources.cuh: one cudaMalloc, 256-byte
    // aligned parts; staging buffers in one page-aligned host block
    // (aligned_alloc, rounded up to 4096 bytes) that cudaHostRegister
    // page-locks and cudaHostUnregister releases at the end.
    void price_allocations(const std::vector<std::int64_t>& device_buffers, const std::vector<std::int64_t>& host_buffers,
                           std::int64_t streams_used, const Platform& pf, Prediction* pred) const override {
        for (auto b : device_buffers) pred->device_bytes += aligned(b);
        for (auto b : host_buffers) pred->host_bytes += aligned(b);
        if (pred->host_bytes > 0) pred->host_bytes = (pred->host_bytes + 4095) / 4096 * 4096;
        if (!pf.library_setup.empty()) {
            // The library's alloc phase as recipe-profile measured it: a
            // one-stream run with a device block of this size, then each
            // further stream.
            const double block = std::max(static_cast<double>(pred->device_bytes), pf.library_setup.bytes.front());
            pred->phases.alloc += pf.library_setup.ms(block) +
                                  static_cast<double>(std::max<std::int64_t>(0, streams_used - 1)) * pf.stream_setup_ns * 1e-6;
        } else {
            if (pred->device_bytes > 0)
                pred->phases.alloc += pf.malloc_free_device.ms(static_cast<double>(pred->device_bytes));
            // Estimated from the library's alloc phase: the run's own setup
            // and teardown, and a stream with its events per stream in flight.
            pred->phases.alloc += (pf.run_setup_ns + static_cast<double>(streams_used) * pf.stream_setup_ns) * 1e-6;
        }
        // The staging block and threads stay in the library's pool between
        // runs (detail/pool.cuh): a warm run pays neither; the program's
        // first run does (first_call_extra_ms, advisor/program_time.cpp).
        // A profile without the library's measured costs prices the block's
        // registration per run, as the library did before it pooled.
        if (pred->host_bytes > 0 && pf.staging_setup.empty())
            pred->phases.alloc += pf.host_register.ms(static_cast<double>(pred->host_bytes)) +
                                  pf.host_unregister.ms(static_cast<double>(pred->host_bytes));
    }
};

}  // namespace

const LibraryPricing& our_library() {
    static const OurLibrary library;
    return library;
}

}  // namespace recipe::advisor
