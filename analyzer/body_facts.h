// body_facts.h — one pass over the innermost loop body (and the index
// temporaries declared between perfectly nested loops) that records every
// array access with its index as an affine form, writes to scalars, calls,
// guards, fixed-size window loops, early exits and inner loops that are not
// windows. The rules and the property extraction read these facts.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "analyzer/affine.h"
#include "analyzer/declarations.h"
#include "analyzer/loop_header.h"

namespace recipe::analyzer {

// `for (d = -R; d <= R; d++) s += in[i+d];` inside the body: a window of
// the stencil, not a dimension of the iteration space.
struct WindowFact {
    std::string var;
    std::int64_t lower = 0, upper = 0;  // [lower, upper)
    std::int64_t stride = 1;
    Poly lower_bound, upper_bound;  // as written: -RADIUS, RADIUS+1
    TSNode node{};
};

struct AccessFact {
    TSNode node{};              // in the file (the macro call when inside one)
    std::string text;           // as written, one line
    std::string base;           // "in", "s->data"
    std::string selector;       // leading subscripts that do not follow a loop variable, e.g. "[iz]"
    int selector_levels = 0;    // how many subscripts the selector takes
    int subscripts = 0;         // subscripts after the selector (1 for a flat or pointer access)
    bool pointer_arithmetic = false;  // *(u + ...)
    bool in_macro = false;      // written in a macro or helper body, not in the nest's own text
    std::vector<Affine> index;  // one per subscript, outer first
    bool read = false, write = false;
    bool guarded = false;       // under an if that tests loop variables
    std::vector<std::string> windows;  // window variables active here
    std::int64_t multiplicity = 1;     // times executed per iteration (window trip counts)
    std::string key() const { return base + selector; }
};

struct ScalarWriteFact {
    std::string name;
    TSNode node{};
    bool accumulates = false;  // +=, ++, or `s = s + ...`
};

struct CallFact {
    std::string name;
    TSNode node{};
};

struct GuardFact {
    std::string text;  // "if (x < n-1)"
    TSNode node{};     // the condition
};

struct BodyFacts {
    std::vector<AccessFact> accesses;
    std::vector<WindowFact> windows;
    std::vector<ScalarWriteFact> scalar_writes;  // to variables declared outside the body
    std::vector<CallFact> calls;                 // not macros, helpers or pure math
    std::vector<GuardFact> guards;
    std::vector<TSNode> early_exits;             // break / return / goto
    std::vector<TSNode> inner_loops;             // loops that are not fixed-size windows
    std::vector<ScalarWriteFact> loop_var_writes;  // the nest's own loop variables changed in the body
    std::vector<std::pair<std::string, TSNode>> names_read;  // identifiers read, first use, in order
    std::set<std::string> locals;                // declared in the body (or between the loops)
    std::set<std::string> index_temporaries;     // integer locals that hold loop-variable indices
    std::vector<Clamp> clamps;                   // clamps in indices, in order
    OpCounts ops;                                // per iteration of the nest
    std::map<std::string, std::optional<std::int64_t>> opaque_values;  // values of symbols like "(N/2)"
    TSNode too_complex{};                        // nesting beyond the analyser's depth limit
};

struct CollectorInput {
    const FileDefinitions* defs = nullptr;
    const ConstantEvaluator* constants = nullptr;
    const Scope* scope = nullptr;
    std::vector<std::string> loop_vars;        // the nest's loops, outermost first
    std::set<std::string> forced_windows;      // chain loops treated as window loops
    std::vector<TSNode> preludes;              // declarations between perfectly nested loops
    std::vector<TSNode> window_chain;          // perfectly nested loops demoted to windows (outer first)
    TSNode body{};
};

BodyFacts collect_body_facts(const CollectorInput& in);

}  // namespace recipe::analyzer
