// host_uses.h — what the host code around a region does with its arrays,
// read from the syntax tree: whether an array's values are ever looked at
// after the region (when not, the region need not copy it back), and
// whether a statement between two nests may touch their arrays (when it may
// not, the nests can share the arrays on the GPU across it).
#pragma once

#include <cstdint>
#include <set>
#include <string>

#include <tree_sitter/api.h>

namespace recipe::recipes {

class CTree;

// Whether the host never reads array `name` after the span [begin, end) of
// its function: the array is declared in that function (not static, not a
// parameter), and outside the span the function only declares it, points it
// at new memory (malloc, calloc, aligned_alloc), frees it, takes its size,
// or uses its elements before the span; and the span is in no loop (whose
// next turn would read the host's copy). Anything else (an element read
// after the span, the pointer passed to a function or copied) keeps it
// live: the answer is false.
bool dead_after(const CTree& tree, std::uint32_t begin, std::uint32_t end, const std::string& name);

// Why statement `s` may touch the arrays named in `arrays`, as a verb
// phrase ("uses `a`"; "" when it cannot): it names one of them, declares a
// variable (which a region's block would hide from the code after it),
// jumps (return, break, goto, continue), or calls a function defined in
// this file (which may reach the arrays through a global or an alias).
std::string between_problem(const CTree& tree, TSNode s, const std::set<std::string>& arrays);

}  // namespace recipe::recipes
