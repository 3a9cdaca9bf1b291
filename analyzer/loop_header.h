// loop_header.h — reading a `for` header as the thesis's loopProperties:
// variable, lower bound (inclusive), upper bound (exclusive), stride.
// `for (i = 1; i <= N-2; i++)` is i in [1, N-1) step 1; `for (i = N-1;
// i >= 0; i--)` is i in [0, N) walked downwards.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "analyzer/affine.h"
#include "analyzer/poly.h"
#include "analyzer/syntax_tree.h"

namespace recipe::analyzer {

struct LoopHeader {
    TSNode node{};  // the for_statement
    TSNode body{};
    bool canonical = false;
    std::string problem;       // why not canonical (when !canonical)
    TSNode problem_node{};
    bool constant_stride = true;  // false: `i += s` with s unknown
    std::string var;
    Affine lower, upper;       // upper exclusive
    std::string lower_text, upper_text;  // readable: "1", "N-1"
    std::int64_t stride = 1;   // magnitude
    bool descending = false;
    SourceSpan header_span;    // from `for` to the closing parenthesis
};

// Parses the header of `for_stmt`. `eval` evaluates bounds (it knows which
// names are loop variables of enclosing loops, so bounds that depend on them
// are seen as such).
LoopHeader read_loop_header(TSNode for_stmt, const std::string& src, AffineEvaluator& eval,
                            const ConstantEvaluator& constants);

}  // namespace recipe::analyzer
