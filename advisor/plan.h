// plan.h — the advisor's public interface: predict how long one way of
// running a loop nest on a GPU takes (a Prediction that explains itself),
// and search all ways for the best (a Plan). Model: docs/model.md; sources:
// thesis §6.4 (pipelines, allocation, transfers), seed 003 ch. 5 (streams,
// mapped and hybrid overlap, LogGP transfers), seed 001 Table 1 (occupancy).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "advisor/platform.h"
#include "analyzer/program.h"
#include "recipe/scheme.h"
#include "recipe/tile_geometry.h"

namespace recipe::advisor {

class LibraryPricing;

// The schemes, their names and their traits: recipe/scheme.h, shared with
// the library and the generator.
using recipe::Scheme;
using recipe::parse_scheme;
using recipe::scheme_traits;
using recipe::to_string;
bool parse_copy_method(const std::string& text, CopyMethod* method);

enum class HostMemory { Pageable, Pinned };
const char* to_string(HostMemory m);

// How the user's host arrays are made fit for asynchronous copies: the
// library's own modes (library/include/recipe/scheme.h), one spelling
// everywhere (pinned, register, staged, pageable).
using HostStrategy = recipe::HostMemory;

// Where the kernel time came from.
enum class KernelSource { Measured, UserGiven, Estimate };
const char* to_string(KernelSource k);

// The operation that sets the pace of the pipeline (thesis §6.4.4).
enum class Operation { TransferIn, Kernel, TransferOut, Staging, Setup };
const char* to_string(Operation o);

// What a nest asks of the GPU, taken from the analyzer's LoopNest with all
// extents evaluated. Built by problem_from().
struct ArrayUse {
    std::string name;
    int elem_bytes = 4;
    Index3 extents{1, 1, 1};  // the host array, x first
    Halo halo;                // inputs: stencil reach per side
    // An output the kernel also reads at its own point (library `inout`):
    // each tile's core is copied in before its kernel.
    bool copy_in = false;
    // An output exchanged with an input between time steps (library
    // `ping_pong`): its boundary frame is copied in once before step 2.
    bool exchanged = false;
    // Copied in, yet its pages are still unmapped zero pages (the analyzer's
    // ArrayProperties::zero_pages): the first call's writes fault them in,
    // as an output's not copied in.
    bool zero_pages = false;
    // An output another nest of the program writes before this one first
    // runs (ArrayProperties::written_before_by): its pages are present, not
    // fresh, at the first call.
    bool written_before = false;
    // Rows allocated one by one (`float **`), each smaller than the C
    // library's threshold for mapping an allocation on its own (glibc's
    // M_MMAP_THRESHOLD, 128 KiB by default): they come from its heap, whose
    // pages the allocator's own chunk headers between the rows and earlier
    // frees have touched, so they are priced present, not fresh, at the
    // first call. Measured: blur_rows.c's 4096 calloc'd 16 KiB rows, priced
    // fresh, cost its C nest 27-37 ms on three hosts against 57-58 predicted
    // (docs/model.md, "The program's run").
    bool heap_rows = false;
    // Reached through row pointers (`float **`, ArrayLayout::PointerToPointer):
    // the emitted call gathers the rows into one block before the library
    // call and copies an output's back after it (gather_cost,
    // advisor/program_time.h).
    bool gathered = false;
};
// glibc's default M_MMAP_THRESHOLD: smaller allocations come from its heap.
constexpr std::int64_t kHeapRowBytes = 128 * 1024;
struct Problem {
    std::string kernel_name;  // key into Platform::kernels (default: the nest's function)
    int dims = 1;
    Index3 extents{1, 1, 1};  // every array's extents, x first
    // The iteration space, a box inside the arrays (a loop from 1 to N-1
    // gives begin 1, end N-1); tiles cover it (TileGrid's `space`).
    Box space{{0, 0, 0}, {1, 1, 1}};
    std::vector<ArrayUse> inputs;
    std::vector<ArrayUse> outputs;
    // Inputs read whole (whole_input): copied to the GPU once before the
    // tiles, from host memory as the tiled inputs are.
    std::vector<ArrayUse> whole_inputs;
    std::int64_t time_steps = 1;  // an enclosing time loop repeats the nest
    bool reads_twice = false;     // some input element is read by two iterations
    int flops_per_point = 0;
    int math_calls_per_point = 0;  // of the flops: C math library calls (priced apart on the CPU)
    int conversions_per_point = 0;  // 64-bit integers converted to floating (not flops; priced apart on the CPU)
    // Of the flops: updates of one floating variable chained across the
    // iterations (analyzer OpCounts::serial_adds; a rejected reduction's).
    int serial_adds_per_point = 0;
    // How wide the user's C compiler vectorises the nest (LoopNest::
    // host_vector_lanes: 0 not known, 1 scalar): the C loop's arithmetic rate.
    int host_vector_lanes = 0;
    // A nest that clamps its contiguous index (host_vector_lanes 1): the
    // width its compiler vectorises it all the same, and its reads per point
    // loaded one lane at a time (LoopNest::host_reported_lanes,
    // host_lane_loads): priced at hostLaneLoadNs each where the profile has it.
    int host_reported_lanes = 0;
    int lane_loads_per_point = 0;
    int bytes_per_point = 0;      // reads + writes, in bytes
    // Distinct array elements each point reads (every input's stencil
    // points, an output that reads its own element once): what the
    // library's kernels' cost per point grows with (advisor/kernel_time.h).
    // 0: not known (then one per input).
    int reads_per_point = 0;
    bool pinned_host = false;     // the analyzer saw cudaMallocHost/cudaHostAlloc
    // The user's measured kernel time for this nest's whole problem, one
    // step (advise's --kernel-ms NEST=MS); before ModelOptions::kernel_ms.
    std::optional<double> kernel_ms;
};
// Fails (with `error`) when an extent or time-loop count is symbolic, the
// nest was rejected, or its shape is outside what the model covers.
bool problem_from(const analyzer::LoopNest& nest, Problem* problem, std::string* error);
// The C loop's work as the CPU side prices it (program_time.h cpu_time), for
// any nest whose loop bounds are known, also one the analyzer rejected (a
// fill with a carried state, an impure call): its points, the bytes of its
// arrays' elements per point (no halo) and its counted operations. What it
// does not count (calls, work the analyzer could not read) makes it a lower
// bound, which is what the start-up a program hides needs. False for more
// than three loops or a bound not known.
bool cpu_problem_from(const analyzer::LoopNest& nest, Problem* problem);

// A one-dimensional input of a 2- or 3-D nest (`mean[j]`, a coefficient
// row): it is not tiled but copied to the GPU whole, once, and
// the kernel reads it as the C code does. The advisor, which prices that
// copy, and the generator, which emits it, ask this one question.
bool whole_input(const analyzer::ArrayProperties& array, const analyzer::LoopNest& nest);

// One way to run the nest.
struct Config {
    Scheme scheme = Scheme::Naive;
    Index3 tile{1, 1, 1};   // elements per tile, x first (naive: the whole space)
    CopyMethod copy = CopyMethod::Merged;
    int streams = 3;        // tile buffers / CUDA streams in flight
    Index3 block{0, 0, 0};  // thread block; {0,0,0}: the best by occupancy (choose_block)
    std::optional<HostStrategy> host;  // unset: the cheapest allowed
};

// Options of one prediction, shared by predict() and the search.
struct ModelOptions {
    std::optional<HostMemory> host_memory;  // unset: pinned if Problem::pinned_host, else pageable
    std::optional<double> kernel_ms;        // whole problem, one step; overrides the profile's table
    // The library whose buffers, copies and allocations are priced
    // (advisor/library_pricing.h). Null: ours (library/include/recipe);
    // &thesis_library() (advisor/thesis_library.h): the thesis's 2012 library,
    // to reproduce its Appendix A.
    const LibraryPricing* library = nullptr;
    // --gpu-memory: the device memory a plan may use, bytes (0: the profile's
    // deviceMemoryBytes). Plans that need more are not candidates.
    std::int64_t gpu_memory_bytes = 0;
};

// The device memory a plan may use: --gpu-memory (at most the profile's), else the profile's (0: no limit known).
std::int64_t device_budget(const Platform& platform, const ModelOptions& options);

struct TransferStats {
    std::int64_t bytes = 0;
    std::int64_t copies = 0;  // cudaMemcpy*Async calls
};

// Busy time per phase, summed over the run (ms). The pipeline overlaps
// h2d/kernel/d2h/staging, so they add up to more than the total.
struct PhaseTimes {
    double alloc = 0;       // cudaMalloc/cudaMallocHost (+ their frees, thesis §6.4.1 measures the pair)
    double free = 0;        // kept 0 when the profile measures malloc+free together
    double h2d = 0;
    double kernel = 0;      // incl. launch overhead
    double d2h = 0;
    double host_register = 0;
    double host_unregister = 0;
    double staging = 0;     // host memcpy to/from pinned buffers
    double whole_in = 0;    // inputs copied whole before the tiles (not overlapped)
    double pipeline = 0;    // the overlapped part, as the scheme's formula gives it
};

// Times of one step of the pipeline for a typical (interior) tile, and the
// tiles, so a timeline can be drawn (see timeline()).
struct TileTimes {
    double buffer_in = 0;     // host staging into pinned buffer (ms)
    double transfer_in = 0;   // H2D
    double kernel = 0;
    double transfer_out = 0;  // D2H
    double buffer_out = 0;    // host staging out of pinned buffer
};

struct Prediction {
    Config config;
    Problem problem;            // what was predicted (extents, arrays)
    double total_ms = 0;
    PhaseTimes phases;
    Operation dominant = Operation::TransferIn;
    TransferStats h2d;          // what moves in over the whole run
    TransferStats d2h;
    std::int64_t tiles = 1;
    int startup_steps = 0;      // thesis §6.4.4: 2 per side (basic/scalable), 4 (buffered)
    HostStrategy host_strategy = HostStrategy::Pinned;
    KernelSource kernel_source = KernelSource::Estimate;
    std::int64_t device_bytes = 0;  // device memory the scheme allocates
    std::int64_t host_bytes = 0;    // extra (pinned) host memory it allocates
    double occupancy = 0;       // resident threads / max threads per SM for config.block
    TileTimes typical_tile;     // interior tile, for the timeline
    std::vector<std::string> notes;  // assumptions and why (human-readable)
    std::string kernel_note;         // of the notes, where the kernel time comes from (KernelModel::description)
};

// Predicts one configuration. Fails (error set) when the configuration is
// impossible: tile larger than the space or zero, wrong number of dims,
// a scheme not allowed for this nest (mapped with reused inputs), a block
// the device cannot run.
bool predict(const Problem& problem, const Platform& platform, const Config& config, const ModelOptions& options,
             Prediction* prediction, std::string* error);

// The baseline every plan is measured against (advise, predict, sweep and
// the break-even search): the naive scheme with its cheapest copy method
// (whole arrays in one piece where the space allows). Fails (error set) when
// it cannot run, e.g. when the arrays do not fit in the device memory.
bool naive_baseline(const Problem& problem, const Platform& platform, const ModelOptions& options,
                    Prediction* naive, std::string* error);

// The thread block for tiles of this shape with the highest occupancy
// (seed 001 Table 1 limits; 32 registers per thread assumed), preferring
// blocks that waste fewer threads at the tile's edge. Sets *occupancy.
Index3 choose_block(const Problem& problem, const Platform& platform, const Index3& tile, double* occupancy);
// Occupancy of `block` (0 when the device cannot run it; *why says which limit).
double block_occupancy(const Platform& platform, const Index3& block, std::string* why);

// A picture of the pipeline: when each engine works on which tile.
struct TimelineEvent {
    // "H2D", "kernel", "D2H" or "host"; "break": steps not drawn, which take
    // start_ms to end_ms in the model (`note` says which); "total": a mark at
    // the prediction's total (start_ms == end_ms; `note` says why the bars
    // end elsewhere, empty when they end there).
    std::string engine;
    std::int64_t tile = 0;  // -1: no tile (setup, teardown, break, total)
    double start_ms = 0;
    double end_ms = 0;
    std::int64_t step = 0;  // a time loop's step (1-based; 0: not a time loop)
    std::string note;
};
// Lays the typical tile's steps out in the steps of the scheme's formula
// (one or two copy engines, duplex slow-down applied), after the setup
// phase (alloc/register, inputs read whole) and before the teardown. With
// more than `max_tiles` tiles (0 = no limit), or a time loop, the steps of
// the first and the last max_tiles/2 tiles are drawn and a "break" event
// holds the model's time for the rest, so the last event ends at the total.
std::vector<TimelineEvent> timeline(const Prediction& prediction, const Platform& platform,
                                    std::int64_t max_tiles = 0);

struct SearchOptions {
    ModelOptions model;
    std::vector<Scheme> schemes;  // empty: every scheme the nest allows
    std::vector<CopyMethod> copy_methods;  // empty: all three
    std::vector<int> stream_counts;        // empty: {2, 3, 4, 8}
    double tolerance = 0.05;               // "within 5% of the best"
    bool find_break_even = true;
    std::size_t keep = 0;                  // ranked list length (0 = all)
};

// Predicted time vs tile size for one scheme (for the chart): the tile
// shape of the scheme's best plan, varied along its tiled dimension.
struct CurvePoint {
    Index3 tile;
    double total_ms = 0;
};
struct SchemeCurve {
    Scheme scheme = Scheme::Basic;
    CopyMethod copy = CopyMethod::Merged;
    int streams = 3;
    int dimension = 0;  // the dimension whose size varies
    std::vector<CurvePoint> points;
};

struct Plan {
    std::vector<Prediction> ranked;  // best first; deterministic order
    Prediction naive;                // the baseline (when naive_fits)
    // Whether the naive scheme (and basic, with full-size device arrays) fits
    // in the device memory the plan may use; when not, naive_why says why and
    // only schemes that keep a few tiles on the device are candidates.
    bool naive_fits = true;
    std::string naive_why;
    double speedup = 1;              // naive.total_ms / ranked[0].total_ms; 0 when naive does not fit
    // Tiles of the best plan's scheme/copy/streams predicted within
    // `tolerance` of the best (users run other sizes than the one asked about).
    std::vector<Index3> tiles_within_tolerance;
    double tolerance = 0.05;
    // The problem scale below which the best pipelined plan no longer beats
    // naive: the iteration space scaled by `break_even_scale` in every tiled
    // dimension (1 = as given). Unset when pipelining wins at every scale
    // searched or never wins.
    std::optional<double> break_even_scale;
    std::optional<Index3> break_even_extents;
    std::vector<SchemeCurve> curves;
    std::int64_t candidates_evaluated = 0;
    std::vector<std::string> notes;
};

// Searches schemes x tile shapes x copy methods x streams (blocks checked
// against the occupancy limits). Fails only on a problem the model cannot
// handle at all.
bool advise(const Problem& problem, const Platform& platform, const SearchOptions& options, Plan* plan,
            std::string* error);
// Convenience: problem_from() then advise().
bool advise(const analyzer::LoopNest& nest, const Platform& platform, const SearchOptions& options, Plan* plan,
            std::string* error);

// JSON for tools and <stem>.plan.json (docs/model.md, "Plan JSON").
nlohmann::json to_json(const Prediction& prediction);
nlohmann::json to_json(const Plan& plan);
nlohmann::json to_json(const std::vector<TimelineEvent>& events);

// "400x400x25" -> {400,400,25}; the number of sizes must equal `dims`.
bool parse_tile(const std::string& text, int dims, Index3* tile, std::string* error);
std::string format_tile(const Index3& tile, int dims);

}  // namespace recipe::advisor
