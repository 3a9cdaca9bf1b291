// region.h — a region: loop nests run one after another, every step of a
// time loop, on arrays that stay on the GPU between them (the library's
// recipe::Region). Priced as the library runs it: the arrays copied in
// whole, in chunks pipelined over two streams (staged through pinned
// buffers when the host arrays are pageable), each nest one launch over its
// space per step, the arrays the region writes copied out. Formulas:
// docs/model.md, "Regions".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "advisor/plan.h"
#include "advisor/platform.h"
#include "recipe/wavefront.h"

namespace recipe::advisor {

struct RegionArray {
    std::string name;
    int elem_bytes = 4;
    bool copy_in = true;   // read by the region before (or without) being written whole
    bool copy_out = true;  // written by the region
    // Copied in, but for this box (array coordinates), which the first launch
    // naming the array writes before any reads it: of each chunk only the
    // parts outside it cross (recipe::Resident::written_first; one GPU, no
    // ghost zones).
    Box written_first{{0, 0, 0}, {0, 0, 0}};
};

struct RegionProblem {
    int dims = 1;
    Index3 extents{1, 1, 1};          // every array's, x first
    std::vector<RegionArray> arrays;  // each once
    // One step's nests (launches), in order; their arrays named as `arrays`
    // names them, so that which launch reads what another wrote is known.
    std::vector<Problem> nests;
    std::int64_t steps = 1;           // times the nests run (a time loop's steps)
    bool pinned_host = false;         // every array page-locked
    // Some launch names a part of an array (`ey[0]`): the library runs such a
    // region on one GPU only (advisor/multi_gpu.h).
    bool uses_parts = false;
    // The loop swaps the pointers it hands the launches between steps: which
    // buffer a name holds changes, so any array a launch wrote may be read
    // under another name in a later step.
    bool swaps = false;
};

// The region with every array copied in whole (written_first dropped): how a
// region over several GPUs, or one with ghost zones, copies.
RegionProblem copied_whole(RegionProblem region);

// One nest of the region as it runs: one launch per step.
struct RegionLaunch {
    Index3 block{1, 1, 1};
    double occupancy = 0;
    double kernel_ms = 0;  // one launch, its overhead included
    double run_ms = 0;       // one launch's kernel, no overhead
    double overhead_ms = 0;  // what issuing a launch costs at least
    KernelSource source = KernelSource::Estimate;
};

struct RegionPrediction {
    Prediction total;                  // phases, bytes and total of the whole region (config: chunk and streams)
    std::vector<RegionLaunch> launches;  // per nest
    std::int64_t chunks = 1;           // pieces each array is copied in and out in
    // How many of the first and of the last launches are cut into pieces of
    // rows pipelined with the copies (recipe::Config::pipelined_launches,
    // recipe/wavefront.h); 0: none. Then config.streams counts the stream the
    // pieces run on besides the copies'.
    std::int64_t pipelined_launches = 0;
    std::int64_t pieces = 0;  // launches issued, pieces counted
};
// Regions of more launches (steps × nests) are not priced pipelined: the
// timeline would cost the search more than the few copies it could hide.
constexpr std::int64_t kMostPipelinedLaunches = 20000;

// The chunk the copies are pipelined in: whole rows (planes in 3-D), about
// kRegionChunkBytes of the widest array per chunk.
// Used where the profile has no region chunk figures, for pinned arrays,
// and for regions over several GPUs and with ghost zones.
constexpr std::int64_t kRegionChunkBytes = 4 << 20;
Index3 region_chunk(const RegionProblem& region);
// Whole rows (planes) of about `widest_bytes` of the widest array.
Index3 region_chunk_of(const RegionProblem& region, std::int64_t widest_bytes);

// The chunk and streams a region's copies run over. Staged regions, with the
// profile's regionChunkIn/Out: the fastest measured way (chunks of 1 to 64
// MiB of the widest array, the tables' stream counts), its page-locked
// staging at most kRegionStagingLimit; otherwise region_chunk over 2 streams.
struct RegionCopyChoice {
    Index3 chunk{1, 1, 1};
    std::int64_t streams = 2;  // what the library runs: at most one per chunk
    // The stream count the copies are asked for and priced at (the tables'
    // count), which a region of fewer chunks runs fewer of.
    std::int64_t priced_streams = 2;
    double copy_ms = 0;  // in and out, priced (staged with the tables only)
};
// The most the profiler measured a region's staging at (64 MiB chunks of
// one array over 4 streams, tools/profiler/library_costs.cuh).
constexpr std::int64_t kRegionStagingLimit = std::int64_t(256) << 20;
RegionCopyChoice choose_region_copies(const RegionProblem& region, const Platform& platform, bool staged);
// Every chunk and stream count the profile's region tables price (staged),
// each with its copies' price; the fixed choice otherwise.
std::vector<RegionCopyChoice> region_copy_candidates(const RegionProblem& region, const Platform& platform, bool staged);

// The page-locked staging a staged region's copies take: one chunk of every
// array per stream, whole pages.
std::int64_t region_staging_bytes(const RegionProblem& region, const Index3& chunk, std::int64_t streams);

// The device memory the region's arrays take, held whole.
std::int64_t region_device_bytes(const RegionProblem& region);

// Fails (error set) when the arrays do not fit in the device's memory or a
// nest cannot be launched.
bool predict_region(const RegionProblem& region, const Platform& platform, const ModelOptions& options,
                    RegionPrediction* out, std::string* error);

// The pieces of predict_region that a region over several GPUs prices per GPU
// (advisor/multi_gpu.cpp).
namespace detail {
// One direction's copies: pinned, one DMA per chunk; staged, packing and DMA
// overlapped (the slower sets the pace, the other adds its first chunk).
struct RegionCopies {
    double dma_ms = 0;
    double staging_ms = 0;
    double total_ms = 0;
    TransferStats stats;
    // Per chunk, in order: the longer of its DMA and its packing (the share
    // of total_ms it takes in the pipeline).
    std::vector<double> chunk_ms;
};
// The arrays' rows [row_begin, row_end) of the slowest dimension, in chunks
// of `chunk` over `streams` streams.
RegionCopies region_copies(const RegionProblem& region, const Platform& platform, const Index3& chunk, std::int64_t streams,
                           bool in, bool staged, std::int64_t row_begin, std::int64_t row_end);
// The region's launches, every step's nests in order, as recipe::Wavefront
// cuts them: rows of the slowest dimension, arrays by their index in
// region.arrays. A launch naming a part of an array runs whole. Empty when
// the launches cannot be told apart this way (pointers swapped among more
// than one nest's arrays): such a region is not pipelined.
std::vector<LaunchRows> region_launch_rows(const RegionProblem& region);
// The region's copies in, launches and copies out on one GPU's timeline with
// the first and last `cut` launches pipelined (the order recipe::Region
// issues them in): when each chunk lands (its share of in.total_ms), the
// pieces it lets run, one after another on the GPU, the chunks out each
// after the pieces they need (back.total_ms shared out the same way). A
// launch run whole costs its kernel time, at least a launch's overhead; a
// piece its share of the kernel time plus that overhead (a small launch
// still fills and drains the GPU). The host issues every piece between its
// copies: `issue_ms` each, which delays the chunks after it. cut 0: in +
// every launch + out. Returns the pipeline's ms; *pieces, the launches issued.
double pipelined_region_ms(const RegionProblem& region, const std::vector<LaunchRows>& launches,
                           const std::vector<RegionLaunch>& per_nest, std::int64_t chunk_rows, const RegionCopies& in,
                           const RegionCopies& back, std::int64_t cut, double issue_ms, std::int64_t* pieces);
// The library's alloc phase for a device block of these bytes (and a staging block, staged).
double region_alloc_ms(const Platform& platform, std::int64_t device_bytes, std::int64_t host_bytes, std::int64_t streams,
                       bool staged);
}  // namespace detail

}  // namespace recipe::advisor
