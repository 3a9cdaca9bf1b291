// vectorization.h — which loops of the file the user's C compiler
// vectorises, and how wide, as its own report says (GCC:
// -fopt-info-vec-optimized; Clang: -Rpass=loop-vectorize), compiled with
// their flags at their optimisation level (-O2 when they give none: what the
// recipe assumes the C program is built with). A C loop's arithmetic on the
// host runs at the rate of its vector width (advisor/program_time.h
// cpu_time): a stencil gcc -O2 vectorises four floats wide ran 2.2-2.9× the
// flops per second of the same stencil left scalar because its two pointers
// may overlap (bench/host/cpu_loops.c). The compiler knows which it did; the
// analyzer does not guess.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analyzer/preprocessor.h"
#include "analyzer/program.h"

namespace recipe::analyzer {

// A loop the compiler reports vectorised: where (the file as the report
// names it: "<stdin>" for the input itself, which is compiled from its text
// as read), and the width, in bytes per vector (GCC) or lanes (Clang).
struct VectorizedLoop {
    std::string file;
    int line = 0;
    int vector_bytes = 0;
    int lanes = 0;
};

struct VectorReport {
    bool known = false;    // the compiler ran, compiled the file and is one whose report is read
    std::string command;   // the command, as a user would type it for the file
    std::string why_unknown;
    std::vector<VectorizedLoop> loops;
};

// The loops of a report's text. GCC: `FILE:LINE:COL: optimized: loop
// vectorized using N byte vectors`; Clang: `FILE:LINE:COL: remark:
// vectorized loop (vectorization width: N, ...)`.
std::vector<VectorizedLoop> parse_vector_report(std::string_view report);

// How long the report's compile may take: GCC at -O2 takes 6 s on 50,000
// nested braces and 26 s on 100,000 (its scopes are popped in quadratic
// time), where a PolyBench kernel takes well under one; stopped, the report
// is unknown and the analysis goes on without it.
constexpr double kVectorReportSeconds = 10;

// Compiles `text` (the content of `path`) with the user's compiler and
// flags to no output, with the compiler's vectorisation report on; never
// fails: a compiler that cannot be run, is neither GCC nor Clang, does not
// compile the file or takes longer than kVectorReportSeconds gives known ==
// false and why.
VectorReport vectorization_report(const std::string& path, std::string_view text, const BuildFlags& flags);

// Sets every nest's host_vector_lanes from the report (loops whose line lies
// in the nest's span, in the nest's file): the most lanes of them, a GCC
// width in bytes divided by the nest's widest element; 1 where the compiler
// vectorised none, or where the nest clamps its contiguous index (its lanes
// are then loaded one by one); 0 (not known) without a report.
void apply_vector_report(const VectorReport& report, Program* program);

}  // namespace recipe::analyzer
