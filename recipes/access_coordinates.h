// access_coordinates.h — splits an array access as the user wrote it into one
// coordinate expression per dimension, x first, keeping the user's own
// sub-expressions: `in[(y - 1) * W + xp]` -> {"xp", "y - 1"},
// `u[i + 1][j]` -> {"j", "i + 1"}; the text is the preprocessor's, so an
// index macro arrives expanded: `in[((x - 1) + 400 * ((y) + 400 * (z)))]`
// -> {"x - 1", "y", "z"}.
// Keeping `xp` (a clamped neighbour) rather than rebuilding `x + 1` from the
// stencil offset is what keeps clamped borders correct in the kernel.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analyzer/program.h"

namespace recipe::recipes {

class CTree;

struct AccessShape {
    std::string array;                // the base name, e.g. "in"
    std::vector<std::string> coords;  // x first
};

// `extents` are the array's sizes, x first, as written in the
// source (used to recognise the row pitch in a flat index). Returns false with
// `why` when the access cannot be split (e.g. an index held in a variable).
bool access_coordinates(std::string_view access_text, const std::vector<analyzer::Extent>& extents, AccessShape* shape,
                        std::string* why);

}  // namespace recipe::recipes
