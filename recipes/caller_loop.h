// caller_loop.h — the Parboil form read off the syntax tree: a function of
// this file whose body only runs loop nests, called from a loop of another
// function that does nothing else each turn but call it, swap the pointers it
// passes and count. Such a loop can keep the function's arrays on the GPU
// for all its turns (recipe::Region around the loop; the function's own
// library calls then launch on the resident arrays).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <tree_sitter/api.h>

#include "analyzer/program.h"

namespace recipe::recipes {

class CTree;

struct CallerLoop {
    TSNode loop{};             // the for statement
    std::string caller;        // the function it is in
    std::string counter;       // its loop variable
    std::optional<std::int64_t> steps;  // its turns, when its bounds are constants
    std::vector<TSNode> calls;  // the callee's calls in its body, in order
    bool swaps = false;        // the body exchanges the pointers it passes
    std::string why;           // why the body does more than call, swap and count ("" when it does not)
};

// Why the body of function `function` does more than run the statements
// `nests` (and declare variables without initialising them by a call); ""
// when it does not.
std::string callee_body_problem(const CTree& tree, TSNode function, const std::vector<analyzer::SourceSpan>& nests);

// The loops of other functions that call `callee` in their body. `pointers`
// are the indices of its parameters that receive arrays: their arguments
// must be plain names, which the body may swap.
std::vector<CallerLoop> loops_calling(const CTree& tree, const std::string& callee, const std::vector<std::size_t>& pointers);

// For each of `names` (pointers the loop's calls pass): the identifiers
// that hold its buffer once the loop has run all its turns (the names, and
// temporaries of the function the body assigns), the body's pointer
// assignments (swaps through temporaries) replayed turn by turn. Nothing
// when the turns are unknown or a name may end up holding a pointer the
// loop made some other way.
std::optional<std::map<std::string, std::vector<std::string>>> holders_after(const CTree& tree, const CallerLoop& loop,
                                                                            const std::vector<std::string>& names);

// The names of the parameters of function definition `function`, in order.
std::vector<std::string> parameter_names(const CTree& tree, TSNode function);

}  // namespace recipe::recipes
