// analyzer_fuzz.cpp — libFuzzer entry point: arbitrary bytes as the contents
// of a C file handed to the analyzer. analyze_source() promises never to throw
// on bad input, so an escaping exception aborts and counts as a finding, as do
// sanitizer reports and the span checks below. Built by tests/fuzz/CMakeLists.txt
// (RECIPE_ENABLE_FUZZ=ON, clang); run with scripts/fuzz.sh.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "analyzer/analyzer.h"

namespace {

using recipe::analyzer::SourceSpan;

// Every span the analyzer reports must lie inside the input: the recipe
// generator rewrites the source through these byte offsets.
void check_span(const SourceSpan& span, std::size_t size, const char* what) {
    if (span.begin_byte > span.end_byte || span.end_byte > size) {
        std::fprintf(stderr, "analyzer_fuzz: %s span [%u, %u) outside the %zu-byte input\n", what,
                     span.begin_byte, span.end_byte, size);
        std::abort();
    }
}

void check_program(const recipe::analyzer::Program& program, std::size_t size) {
    for (const auto& nest : program.nests) {
        check_span(nest.span, size, "nest");
        check_span(nest.body_span, size, "body");
        check_span(nest.function_span, size, "function");
        for (const auto& loop : nest.iteration_space) check_span(loop.span, size, "loop");
        for (const auto* arrays : {&nest.input_arrays, &nest.output_arrays})
            for (const auto& array : *arrays)
                for (const auto& access : array.accesses) check_span(access.span, size, "access");
        for (const auto& boundary : nest.boundaries) check_span(boundary.span, size, "boundary");
        if (nest.time_loop) check_span(nest.time_loop->span, size, "time loop");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view source(reinterpret_cast<const char*>(data), size);
    const recipe::analyzer::Program program = recipe::analyzer::analyze_source("fuzz.c", source, {});
    check_program(program, size);
    return 0;
}
