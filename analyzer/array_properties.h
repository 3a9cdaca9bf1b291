// array_properties.h — the arrays of a nest (thesis §5.1 arrayProperties):
// grouping accesses by array, element type and size, layout, extents (x
// first), mapping onto the iteration space and stencil offsets.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "analyzer/rules/rule.h"

namespace recipe::analyzer {

// Arrays in order of first access; `outputs` are those written.
struct ArrayGroups {
    std::vector<std::string> order;                  // keys (base + selector)
    std::map<std::string, std::vector<std::size_t>> accesses;  // key -> indices into body.accesses
    std::map<std::string, bool> written;
};

ArrayGroups group_arrays(const BodyFacts& body);

// Fills nest.input_arrays and nest.output_arrays. `iteration_vars` is the
// iteration space order (x first); `upper` the exclusive upper bound of each
// loop variable, to size arrays whose declaration does not.
void fill_arrays(const NestFacts& facts, const ArrayGroups& groups, const std::vector<std::string>& iteration_vars,
                 const std::map<std::string, Poly>& upper, const ValueLookup& values, LoopNest& nest);

// The largest offset each loop variable reaches in unguarded, unclamped
// accesses (0 when none is positive): a loop to N-1 reading x+1 touches N.
// `symbolic` is the same offset as written (RADIUS rather than 4).
struct MaxOffset {
    std::int64_t value = 0;
    Poly symbolic;
};
std::map<std::string, MaxOffset> max_offsets(const NestFacts& facts);

}  // namespace recipe::analyzer
