// pipeline.h — how long a pipeline of tiles takes, given each tile's step
// times: the thesis's formulas (§6.4.4) and seed 003's (§5.5, Figure 5.7).
// Pure arithmetic on milliseconds; the scheme models in model.cpp feed them.
#pragma once

#include <cstdint>
#include <vector>

namespace recipe::advisor {

// The steps one tile goes through (ms). buffer_in/out are host staging
// copies (buffered scheme, or pageable memory staged through pinned buffers).
struct StepTimes {
    double buffer_in = 0;
    double in = 0;
    double kernel = 0;
    double out = 0;
    double buffer_out = 0;
    double issue = 0;  // host time to issue the tile's asynchronous calls
    // What the copy out loses while copies in run beside it, beyond the
    // duplex factor (rows that begin or end inside a host cache line:
    // StridedCopyCost): paid where the tile's copies meet the other
    // direction's, not where it copies alone.
    double out_beside = 0;
};

struct WeightedSteps {
    StepTimes t;
    std::int64_t count = 0;
};

struct PipelineShape {
    int copy_engines = 1;
    double duplex_factor = 1;  // thesis §6.4.4 (0.57 on the Tesla C2050)
    int buffers = 3;           // tiles in flight (tile buffers / streams)
    // Our library (detail/pipeline.cuh): tile k runs on stream k % buffers,
    // which copies it in, runs it and copies it out in that order. While a
    // stream copies one way the other streams copy the other way, so the
    // buffer bound's copies run at the duplex-slowed rate (measured: with 2
    // streams on an H200 the steady step is (1.09 in + k + 1.09 out) / 2).
    bool streams_in_order = false;
    // Our library packs, issues and unpacks on one host thread, one after
    // the other, so a staged tile's host time is their sum (the thesis's
    // buffered step takes only the packing).
    bool serial_host = false;
    // Each engine's own work is a floor under the pipeline: the copy-out
    // engine cannot finish before the first tile is in and computed and then
    // every tile's output has gone out (likewise for the other engines). The
    // thesis's formula prices the step where the last kernel runs with the
    // LAST tile's output, which is far too little when that tile is a thin
    // edge tile; these floors keep such predictions physical. Equal to the
    // formula for identical tiles.
    bool engine_floors = false;
};

// thesis §6.4.4: an input and an output copy at the same time take
// max(in, out) + duplex * min(in, out) with two copy engines; one engine
// does them one after the other.
double copy_pair(double in, double out, const PipelineShape& s);

// One step of the steady state, where tile i+2 comes in, tile i+1 computes
// and tile i goes out (thesis §6.4.4), bounded below by the buffers: a
// buffer is busy for its tile's whole journey, so `buffers` tiles take at
// least the sum of one tile's steps (our addition; with 3 buffers it never
// binds for basic/scalable), and by the host thread that issues every
// tile's copies, launch and events one after the other (our addition:
// with small tiles it is the bottleneck on today's GPUs).
double steady_step(const StepTimes& t, const PipelineShape& s);
double steady_step_buffered(const StepTimes& t, const PipelineShape& s);

// thesis §6.4.4, basic and scalable schemes, one or two copy engines:
//   in + max(in, k) + (n-2) * max(pair(in, out), k) + max(k, out) + out
// with the steady-state term summed over the tile classes (edge tiles copy
// less) and the start-up/shutdown steps taken from the first and last tile.
// One tile is in + k + out (the thesis's formula, used as printed with
// n - 2 = -1, drops the kernel there).
double thesis_pipeline(const std::vector<WeightedSteps>& tiles, const StepTimes& first, const StepTimes& last,
                       const PipelineShape& s);

// thesis §6.4.4, buffered scheme: four start-up and four shutdown steps
// around (n-4) * max(bIn + bOut, pair(in, out), k). Fewer than four
// tiles: the first tile's whole journey plus (n-1) steady steps.
// The busiest engine's own work: the host thread's packing and unpacking,
// each copy engine's copies (one engine: both directions), the kernels. No
// pipeline of these tiles can take less (an engine does its work in series).
double busiest_engine(const std::vector<WeightedSteps>& tiles, const PipelineShape& s);

double thesis_buffered_pipeline(const std::vector<WeightedSteps>& tiles, const StepTimes& first, const StepTimes& last,
                                const PipelineShape& s);

// Two stages only (a then b on another engine), e.g. the first step of an
// iterative stencil (copy in, compute) or its last (compute, copy out):
//   a_first + sum of max(a, b) over the other tiles + b_last.
double two_stage_pipeline(const std::vector<WeightedSteps>& tiles, const StepTimes& first, const StepTimes& last,
                          double StepTimes::*a, double StepTimes::*b);

// seed 003 §5.4: LogGP parameters of one direction, in ms.
struct LinkCost {
    double latency = 0;      // L + o
    double gap = 0;          // g
    double per_byte = 0;     // G
};

struct StreamsInput {
    double bytes_in = 0;          // Bhd, all streams
    double bytes_out = 0;         // Bdh
    double max_bytes_in = 0;      // the largest stream's share (replaces Bhd / n)
    double max_bytes_out = 0;
    double kernel = 0;            // tE, all streams
    double max_kernel = 0;        // the largest stream's share (replaces tE / n)
    int streams = 1;
    LinkCost hd, dh;
};

enum class StreamsEquation { Eq51, Eq52, Eq53, Eq54, Eq55 };
const char* to_string(StreamsEquation e);

// seed 003 Figure 5.7: implicit synchronization with 1 copy engine (5.1
// kernel-dominant, 5.2 transfer-dominant), no implicit synchronization with
// 1 engine (5.3, 5.4) or 2 engines (5.5). A device with implicit
// synchronization and 2 engines is priced with 5.1/5.2: its streams are
// serialised anyway.
double streams_model(const StreamsInput& in, bool implicit_synchronization, int copy_engines, StreamsEquation* used);

// seed 003 eq. 5.6: device-mapped host memory, everything overlaps.
double mapped_model(double bytes_in, double bytes_out, double kernel, const LinkCost& hd, const LinkCost& dh);

}  // namespace recipe::advisor
