// region_plan.h — which converted nests run as one region (library
// recipe::Region): the nests of a time loop whose every step runs them and
// nothing else that touches their arrays. The arrays stay on the GPU for the
// whole loop instead of crossing PCIe once per nest and step. Here: which
// nests join, which arrays move and when, the region's problem for the
// model (advisor/region.h), and where the .cu opens and closes it.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "advisor/program_time.h"
#include "advisor/region.h"
#include "analyzer/program.h"
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
    bool copy_out = false;  // the region writes it
    bool pinned = false;
};

struct RegionOutcome {
    std::vector<std::size_t> nests;  // indices into the advise result's nests, in source order
    const analyzer::TimeLoop* loop = nullptr;
    std::string function;
    std::vector<RegionHostArray> arrays;
    std::array<std::string, 3> extents_code{"1", "1", "1"};
    advisor::RegionProblem problem;
    advisor::RegionPrediction prediction;
    // The nests run step by step instead (a library call per nest and step, the arrays copied every time).
    double step_by_step_ms = 0;
    bool converted = false;  // the region is in the .cu
    bool compared = false;   // in_program is set
    advisor::ProgramTime in_program;
    std::string why;  // when the region is not converted
    std::uint32_t begin = 0, end = 0;  // the time loop's span (preprocessed text)
    std::string indent;
    int first_line = 0, last_line = 0;
    std::string name;  // the region's cu variable
};

// Regions from the converted step-by-step nests: a time loop every nest of
// which is converted, whose body does nothing else each step, whose arrays
// share one shape and are given to the library by plain pointers. `steps`
// of the loop must be known. A time loop that fails a test is no region (its
// nests stay step by step) and `rejected` gets one sentence on why.
std::vector<RegionOutcome> form_regions(const CTree& tree, const std::vector<NestOutcome>& nests,
                                        const analyzer::Program& program, const advisor::Platform& platform,
                                        const advisor::ModelOptions& options, std::vector<std::string>* rejected);

}  // namespace recipe::recipes
