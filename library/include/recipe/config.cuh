// config.cuh — how one loop nest is run: scheme, tile, copies, streams,
// host memory, and the times the model predicted for it.
//
// Filled by the emitted .cu from the advisor's plan, then passed to
// recipe::run or recipe::iterate. Shapes are x first (dimension 0 is the
// contiguous one); unused dimensions have extent 1.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "recipe/scheme.h"
#include "recipe/tile_geometry.h"

namespace recipe {

// Scheme and HostMemory, the fields below that say how to run, are in
// recipe/scheme.h with the table of what each scheme does.

// The model's per-phase times for this run, in ms, each summed over the run
// (so they add up to more than `total` where the pipeline overlaps them).
// A negative value means "not predicted". With RECIPE_REPORT=1 the run prints
// its measured times beside these.
struct Predicted {
    double alloc = -1;    // allocations and frees (+ host register/unregister)
    double h2d = -1;      // host-to-device copies
    double kernel = -1;   // kernel launches
    double d2h = -1;      // device-to-host copies
    double total = -1;    // the whole run, as the caller sees it
    double staging = -1;  // host memcpy into/out of pinned buffers
    double first = -1;    // total of the nest's first run in the process (its output pages fresh; the
                          // library's buffers new when it is the process's first), CUDA's start-up excluded
};

struct Config {
    Scheme scheme = Scheme::Scalable;
    // Extents of every array, x first.
    Index3 extents{1, 1, 1};
    // The iteration space: the points the loop nest visits (one kernel
    // thread each), a box inside the arrays. An end below 0 stands for the
    // array's extent, so the default is the whole array.
    Box space{{0, 0, 0}, {-1, -1, -1}};
    // Elements per tile, x first; 0 or more than the space: the whole space
    // in that dimension. Ignored by the naive scheme.
    Index3 tile{0, 0, 0};
    CopyMethod copy = CopyMethod::Strided;
    int streams = 3;             // CUDA streams = tile buffer sets in flight
    dim3 block = dim3(256, 1, 1);  // thread block; the grid covers one tile
    HostMemory host = HostMemory::Pinned;
    int host_threads = 0;        // staging threads (Staged, Buffered); 0: up to 8, one fewer than the cores
    // Device memory the run may allocate, bytes (0: as much as it needs). A
    // plan made for a shared GPU (recipe advise --gpu-memory) carries it; a
    // run that would need more throws recipe::Error instead of allocating.
    std::int64_t device_memory = 0;
    // GPUs the call runs on: devices 0..devices-1 of those the process sees
    // (CUDA_VISIBLE_DEVICES picks them). 1: one GPU, the current one. More
    // (recipe::run): the iteration space is cut into one slab per GPU along
    // its slowest dimension, each slab pipelined by its own GPU, its own link
    // and staging threads; (recipe::Region): each GPU holds its slab of every
    // array plus `halo_rows` rows of its neighbours', exchanged with NCCL
    // after a nest writes them, overlapped with the next nest's interior.
    int devices = 1;
    // A Region over several devices: the rows along the slowest dimension a
    // nest reads beyond its own (the deepest halo of the region's inputs in
    // that dimension). A run reading deeper is refused.
    std::int64_t halo_rows = 0;
    // A Region over arrays larger than the device memory it may use, with
    // ghost zones (seed 002, Meng & Skadron): its runs are replayed every
    // `ghost_launches` runs (k steps of the time loop), tile by tile:
    // `ghost_tile_rows` rows along the slowest dimension (0: all) plus the
    // rows those runs read beyond them (the sum of their halos, k·r, the
    // ghost zone) copied in (in chunks of `tile`, as a region's copies are),
    // the runs replayed on rows that shrink by each run's halo, the tile's
    // own rows copied out. Only the tile lives on the device. 0: the arrays
    // are held whole.
    std::int64_t ghost_launches = 0;
    std::int64_t ghost_tile_rows = 0;
    // A Region on one GPU holding its arrays whole: how many of its first and
    // of its last runs are cut into pieces of rows that run as the chunks land
    // and ahead of the chunks out (recipe/wavefront.h), so that the kernels
    // overlap the copies. 0: every run waits for the last chunk in and every
    // chunk out for the last run. The runs are then issued at finish(), on
    // stream 0, the copies on the other streams (so `streams` is at least 2;
    // with fewer, or chunks that cut more than one dimension, or several GPUs
    // or ghost zones, the runs are not cut). Every input must declare the
    // halo its kernel reads (recipe::input(p, Halo)): the pieces follow it.
    std::int64_t pipelined_launches = 0;
    std::string name;            // names the nest in errors and reports
    Predicted predicted;
    // Measure per-phase times with CUDA events even without RECIPE_REPORT
    // (benchmarks); costs an event pair around every operation.
    bool measure = false;

    // The iteration space with the "-1 = whole extent" ends resolved.
    Box iteration_space() const {
        Box b = space;
        for (int d = 0; d < 3; ++d)
            if (b.end[d] < 0) b.end[d] = extents[d];
        return b;
    }
};

// What a run measured, in ms. `total` (host clock around the whole call) is
// always filled; the per-phase sums only when measuring (Config::measure or
// RECIPE_REPORT=1), else negative. Phase sums are event intervals in each
// stream, so a copy that waits for a busy copy engine counts its wait.
struct Measured {
    double alloc = -1;    // allocation, registration, frees (host clock)
    double h2d = -1;
    double kernel = -1;
    double d2h = -1;
    double total = -1;
    double staging = -1;  // host memcpy into/out of pinned buffers (host clock)
    double pages = 0;     // of staging: making the written-back arrays' pages present (a first run; host clock)
    double startup = 0;   // waiting for CUDA to start (recipe/start.cuh), within total; 0 after the first run
    std::int64_t tiles = 0;
    std::int64_t h2d_copies = 0;  // cudaMemcpy*Async calls host->device
    std::int64_t d2h_copies = 0;
    std::int64_t h2d_bytes = 0;
    std::int64_t d2h_bytes = 0;
};

}  // namespace recipe
