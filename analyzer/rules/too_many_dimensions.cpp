// too-many-dimensions — GPUs index threads in at most three dimensions
// (thesis §5.1): a nest of four or more loops does not map onto a grid.
#include "analyzer/rules/rule.h"

namespace recipe::analyzer {

void check_too_many_dimensions(const NestFacts& f, std::vector<Diagnostic>& out) {
    if (f.headers.size() <= 3) return;
    out.push_back(reason("too-many-dimensions", f.headers.front().node,
                         "loop nest has " + std::to_string(f.headers.size()) +
                             " dimensions; at most 3 map onto a GPU grid"));
}

}  // namespace recipe::analyzer
