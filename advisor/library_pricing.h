// library_pricing.h — what the model leaves to the library that runs a plan.
//
// The formulas (thesis §6.4, seed 003 ch. 5, advisor/pipeline.h) price
// tiles, pipelines and allocations; how many buffers the library keeps,
// whether it sends shared halo once, how it packs on the host, how it
// allocates and how it runs a stream per tile are the library's own. The
// model prices ours (library/include/recipe, our_library()) unless
// ModelOptions::library names another: thesis_library()
// (advisor/thesis_library.h), the thesis's 2012 library, which reproduces
// its Appendix A.
#pragma once

#include <cstdint>
#include <vector>

#include "advisor/pipeline.h"
#include "advisor/plan.h"
#include "advisor/platform.h"
#include "recipe/tile_geometry.h"

namespace recipe::advisor {

// Sums over a configuration's tiles that the pipeline formulas take.
struct TileTotals {
    double kernel_sum = 0;          // every tile's kernel, ms
    double max_kernel = 0;          // the longest tile's kernel
    double max_in_bytes = 0;        // the largest tile's copies in
    double max_out_bytes = 0;       // the largest tile's copies out
    std::int64_t all_in_bytes = 0;  // every input whole (what mapped memory reads)
    std::int64_t all_out_bytes = 0; // every output over the space (what mapped memory writes)
    double whole_kernel = 0;        // one launch over the whole space
    std::int64_t steps = 1;         // time steps of an enclosing time loop
};

// One configuration's tiles as a pipeline formula takes them.
struct TilePipeline {
    Scheme scheme = Scheme::Basic;
    std::vector<WeightedSteps> weighted;  // each tile class's steps and count
    StepTimes first, last;                // the first and the last tile
    PipelineShape shape;
    std::int64_t tiles = 1;
    bool staging = false;  // tiles packed on the host (buffered, or staged host memory)
    TileTotals totals;
};

class LibraryPricing {
public:
    virtual ~LibraryPricing() = default;

    // Whether a scheme with whole arrays on the device sends the halo it
    // shares with earlier tiles once (TileGrid::fresh_input), not per tile.
    virtual bool sends_shared_halo_once(Scheme scheme) const = 0;
    // The tile buffer sets (and streams) a pipelined run of `tiles` tiles keeps.
    virtual std::int64_t streams_used(int streams, std::int64_t tiles) const = 0;
    // Host packing of one box into or out of a pinned buffer, its rows as
    // copy_groups_for lists them; `table` prices one memcpy from the user's
    // memory; `streams`: the tile buffer sets the run keeps.
    virtual double packing_ms(const std::vector<CopyGroup>& rows, const Measurements& table, const Platform& pf,
                              int streams, TransferStats* stats) const = 0;
    // A tile's outputs the kernel writes through mapped memory (hybrid):
    // added to the tile's output step and bytes.
    virtual void mapped_writes(std::int64_t bytes, const Platform& pf, double* out_ms, TransferStats* out) const = 0;
    // Host time to issue a tile's `copies` copies, its launch and its events.
    virtual double issue_ms(std::int64_t copies, const Platform& pf) const = 0;
    // Settles the pipeline's shape: the duplex factor for tiles of
    // `typical_tile_bytes` each way (unless the copies are bound to the host:
    // packed, or from pageable memory) and how the library orders streams.
    virtual void shape_pipeline(const Platform& pf, double typical_tile_bytes, bool host_bound_copies,
                                PipelineShape* shape) const = 0;
    // The pipeline of a scheme with a stream per tile (streams, hybrid).
    virtual double stream_per_tile_pipeline(const TilePipeline& tiles, const Platform& pf, Prediction* pred,
                                            bool explain) const = 0;
    // What allocating these device and host buffers costs and takes: adds to
    // pred's phases.alloc, device_bytes and host_bytes.
    virtual void price_allocations(const std::vector<std::int64_t>& device_buffers,
                                   const std::vector<std::int64_t>& host_buffers, std::int64_t streams_used,
                                   const Platform& pf, Prediction* pred) const = 0;
};

// Ours: library/include/recipe as library/README.md describes it.
const LibraryPricing& our_library();

}  // namespace recipe::advisor
