// cpp_compat.h — the edits that let a C file compile as C++ (nvcc compiles a
// .cu as C++): C converts void* to any object pointer implicitly, C++ needs a
// cast (`float *in = malloc(n)` -> `float *in = (float *)malloc(n)`), and
// C's `restrict` is spelled `__restrict__`. Each edit is reported so the
// recipe can list it.
#pragma once

#include <string>
#include <vector>

#include "analyzer/program.h"
#include "analyzer/source_map.h"
#include "recipes/source_rewriter.h"

namespace recipe::recipes {

class CTree;

struct CompatFix {
    Edit edit;                // or two edits for a cast around a ?: expression
    std::vector<Edit> extra;
    analyzer::SourcePos pos;  // where the change is
    std::string before;       // e.g. "malloc(...)"
    std::string after;        // e.g. "(float *)malloc(...)"
    std::string why;          // one line, for the recipe
    // A header of the user's own wrapped in extern "C", as the file spells it
    // (`<polybench.h>`): other C files of the program may define what it
    // declares, and the .cu must be linked with them (the recipe says so).
    std::string c_header;
};

// Finds the fixes in the whole file. Spans inside `skip` (the code replaced
// by library calls) are left alone.
std::vector<CompatFix> cpp_compat_fixes(const CTree& tree, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& skip);

// The same for a preprocessed `tree`: the fixes in the main file, their
// edits and positions moved into the user's text through `map`. A
// `restrict` that a macro writes becomes a `#define restrict` at the top.
// A variable-length array parameter (`float A[ni][nj]`) becomes a pointer
// to its first element where the function uses it only inside `skip`; those
// it cannot change go to `unfixable` as {function start byte, name}.
std::vector<CompatFix> cpp_compat_fixes(const CTree& tree, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& skip,
                                        const analyzer::SourceMap& map,
                                        std::vector<std::pair<std::uint32_t, std::string>>* unfixable = nullptr);

}  // namespace recipe::recipes
