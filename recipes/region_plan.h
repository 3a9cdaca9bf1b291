// region_plan.h — which converted nests run as one region (library
// recipe::Region), their arrays kept on the GPU between them instead of
// crossing PCIe once per nest (and step): the nests of a time loop whose
// every step runs them and nothing else that touches their arrays, or a run
// of consecutive nests in one block that share arrays (an initialisation,
// then a stencil reading what it wrote). Here: which nests join, which
// arrays move and when, the region's problem for the model
// (advisor/region.h), and where the .cu opens and closes it.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "advisor/ghost_zones.h"
#include "advisor/program_time.h"
#include "advisor/region.h"
#include "analyzer/program.h"
#include "recipes/gpu_choice.h"
#include "recipes/nest_conversion.h"

namespace recipe::recipes {

class CTree;
struct NestOutcome;

struct RegionHostArray {
    std::string name;          // as the C code names it
    std::string host_pointer;  // what the library is given
    std::string element_type;
    std::int64_t bytes = 0;
    bool copy_in = true;   // the region reads it before writing all of it
    // Copied in but for the box its first launch writes before anything reads
    // it (a stencil's interior): the loops' bounds as code, and the box
    // (recipe::Resident::written_first; advisor::RegionArray::written_first).
    bool has_written_first = false;
    std::array<std::string, 3> written_first_begin{"0", "0", "0"}, written_first_end{"0", "0", "0"};
    bool copy_out = false;  // the region writes it, and the host may read it after
    bool dead_after = false;  // written, but the host never reads it after the region (host_uses.h)
    std::vector<std::string> held_after;  // a loop that swaps pointers: the names holding it after the loop (holders_after)
    bool pinned = false;
    bool zero_pages = false;  // copied in, but its pages still are zero pages (ArrayRole::zero_pages)
    bool written_before = false;  // a nest outside the region writes it before the region runs: its pages are not fresh
};

enum class RegionKind {
    TimeLoop,     // the nests of a time loop's body, every step
    Consecutive,  // nests one after another in a block, once
    CallerLoop,   // a loop of one function calling another whose body runs the nests (caller_loop.h)
};

// "time-loop", "caller-loop", "consecutive" (plan JSON and advise --json).
const char* to_string(RegionKind k);

struct RegionOutcome {
    RegionKind kind = RegionKind::TimeLoop;
    std::vector<std::size_t> nests;  // indices into the advise result's nests, in source order
    const analyzer::TimeLoop* loop = nullptr;  // TimeLoop only
    std::string callee;          // CallerLoop: the function the loop calls
    std::int64_t calls_per_step = 1;  // CallerLoop: its calls each turn
    bool swaps = false;          // CallerLoop: the loop swaps the pointers it passes
    std::string function;  // where the region opens
    std::vector<RegionHostArray> arrays;
    std::array<std::string, 3> extents_code{"1", "1", "1"};
    advisor::RegionProblem problem;
    advisor::RegionPrediction prediction;
    // The arrays do not fit the device memory the plan may use: a loop's
    // region runs with ghost zones (seed 002) on one GPU, `prediction` is
    // ghost.prediction; over several GPUs (--gpus), where each GPU's part
    // fits, it holds its arrays as any region does.
    bool with_ghost_zones = false;
    advisor::GhostPlan ghost;
    bool runs_ghost_zones() const { return with_ghost_zones && gpus.devices <= 1; }
    // Whether the arrays' written_first boxes are left out of the copies in:
    // on one GPU without ghost zones (the library copies whole otherwise).
    bool skips_written_first(const RegionHostArray& a) const {
        return a.has_written_first && gpus.devices <= 1 && !runs_ghost_zones();
    }
    // The nests run alone instead (a library call per nest and step, the arrays copied every time).
    double step_by_step_ms = 0;
    bool converted = false;  // the region is in the .cu
    bool compared = false;   // in_program is set
    advisor::ProgramTime in_program;
    std::string why;  // when the region is not converted
    std::uint32_t begin = 0, end = 0;  // the time loop's span, or the nests' (preprocessed text)
    std::string indent;
    int first_line = 0, last_line = 0;
    std::string name;  // the region's cu variable
    GpuChoice gpus;    // the GPUs it runs on (recipe advise --gpus)
    // The region as the program runs it: on one GPU, or on gpus.devices.
    const advisor::Prediction& running() const { return gpus.devices > 1 ? gpus.region.total : prediction.total; }
    // The launches cut into pieces pipelined with the copies
    // (recipe::Config::pipelined_launches): on one GPU, arrays held whole.
    std::int64_t pipelined_launches() const {
        return gpus.devices <= 1 && !with_ghost_zones ? prediction.pipelined_launches : 0;
    }
};

// Regions from the converted nests.
// - Time loops: every nest of the body converted (step by step), the body
//   doing nothing else each step, `steps` known.
// - Caller loops: the converted nests of a function whose body runs nothing
//   else, called from a loop of another function that only calls it, swaps
//   the pointers it passes and counts, its turns known (caller_loop.h).
// - Consecutive nests: converted nests outside time loops, siblings in one
//   block, sharing an array, with nothing between them that may touch their
//   arrays (host_uses.h).
// Caller loops and consecutive nests are kept only when the model prices
// the region below the nests run alone.
// Either way the arrays share one shape and are given to the library by
// plain pointers. Nests that fail a test stay as they are (step by step, or
// alone) and `rejected` gets one sentence on why.
std::vector<RegionOutcome> form_regions(const CTree& tree, const std::vector<NestOutcome>& nests,
                                        const analyzer::Program& program, const advisor::Platform& platform,
                                        const advisor::ModelOptions& options, std::vector<std::string>* rejected);

}  // namespace recipe::recipes
