// unused_counters.h — what the converted nests leave unused in the host
// code: loop counters (and other plain variables, and pointers such as a
// swap's temporary) that only the replaced loops used. Their declarations are taken out of the .cu (the whole
// declaration when nothing of it is left), so it compiles without
// "declared but never referenced" warnings. A variable with an initialiser,
// or used anywhere else, stays.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "analyzer/source_map.h"
#include "recipes/source_rewriter.h"

namespace recipe::recipes {

class CTree;

// Edits in the user's text (through `map`) that remove the declarators of
// variables used inside `replaced` (the spans the library calls replace,
// in the preprocessed text) and nowhere else in their function.
std::vector<Edit> unused_declaration_edits(const CTree& tree, const analyzer::SourceMap& map,
                                           const std::vector<std::pair<std::uint32_t, std::uint32_t>>& replaced);

}  // namespace recipe::recipes
