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

namespace recipe::advisor {

struct RegionArray {
    std::string name;
    int elem_bytes = 4;
    bool copy_in = true;   // read by the region before (or without) being written whole
    bool copy_out = true;  // written by the region
};

struct RegionProblem {
    int dims = 1;
    Index3 extents{1, 1, 1};          // every array's, x first
    std::vector<RegionArray> arrays;  // each once
    std::vector<Problem> nests;       // one step's nests, in order
    std::int64_t steps = 1;           // times the nests run (a time loop's steps)
    bool pinned_host = false;         // every array page-locked
};

// One nest of the region as it runs: one launch per step.
struct RegionLaunch {
    Index3 block{1, 1, 1};
    double occupancy = 0;
    double kernel_ms = 0;  // one launch, its overhead included
    KernelSource source = KernelSource::Estimate;
};

struct RegionPrediction {
    Prediction total;                  // phases, bytes and total of the whole region (config: chunk and streams)
    std::vector<RegionLaunch> launches;  // per nest
    std::int64_t chunks = 1;           // pieces each array is copied in and out in
};

// The chunk the copies are pipelined in: whole rows (planes in 3-D), about
// kRegionChunkBytes of the widest array per chunk.
constexpr std::int64_t kRegionChunkBytes = 4 << 20;
Index3 region_chunk(const RegionProblem& region);

// Fails (error set) when the arrays do not fit in the device's memory or a
// nest cannot be launched.
bool predict_region(const RegionProblem& region, const Platform& platform, const ModelOptions& options,
                    RegionPrediction* out, std::string* error);

}  // namespace recipe::advisor
