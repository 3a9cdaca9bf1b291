// access_coordinates.h — an array access as the user wrote it, split into one
// coordinate expression per dimension, x first, keeping the user's own
// sub-expressions: `in[(y - 1) * W + xp]` -> {"xp", "y - 1"},
// `u[i + 1][j]` -> {"j", "i + 1"}; the text is the preprocessor's, so an
// index macro arrives expanded: `in[((x - 1) + 400 * ((y) + 400 * (z)))]`
// -> {"x - 1", "y", "z"}.
// Keeping `xp` (a clamped neighbour) rather than rebuilding `x + 1` from the
// stencil offset is what keeps clamped borders correct in the kernel the
// generator writes from them.
#pragma once

#include <string>
#include <vector>

#include "analyzer/program.h"
#include "analyzer/syntax_tree.h"

namespace recipe::analyzer {

// The coordinates of the access `node` of `source`. `extents` are the
// array's sizes, x first, as the user spells them (a flat index is split
// where its terms are multiplied by one). `array` gets the name the access
// indexes. False with `why` when it cannot be split (an index held in a
// variable, more subscripts than dimensions, ...).
bool access_coordinates(TSNode node, const std::string& source, const std::vector<Extent>& extents,
                        std::string* array, std::vector<std::string>* coords, std::string* why);

// Fills ArrayAccess::coordinates (or why_no_coordinates) of every access of
// `nest`, from the nodes of `source` under `within` (a node that holds the
// nest). Run once the extents have the user's spelling (map_positions,
// read_as_written): a reason names them.
void split_accesses(TSNode within, const std::string& source, LoopNest* nest);

}  // namespace recipe::analyzer
