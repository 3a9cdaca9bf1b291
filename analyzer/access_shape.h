// access_shape.h — an access's index turned into the thesis's mapping and
// stencil offsets: which loop variable each array dimension follows (x, the
// contiguous dimension, first) and the constant offset in each. A flat index
// `(y-1)*W + x+1` is split by its strides: dims (x: stride 1, y: stride W),
// offsets (+1, -1).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "analyzer/body_facts.h"
#include "analyzer/poly.h"

namespace recipe::analyzer {

struct AccessShape {
    enum class Problem { None, NonAffine, DataDependent, Strided, TooManyOffsets };
    Problem problem = Problem::None;
    std::string why;
    SourceSpan where;

    std::vector<std::string> dim_var;  // per array dimension, x first ("" = follows no loop variable)
    std::vector<Poly> stride;          // flat accesses: elements between neighbours in each dimension
    std::vector<std::int64_t> offset;  // per dimension, window variables at 0
    std::vector<std::vector<std::int64_t>> window_offsets;  // every offset the window loops make; empty without windows
    std::vector<Poly> max_offset;      // per dimension, the largest offset as written (RADIUS for in[i+d], d <= RADIUS)
    bool clamped = false;

    bool ok() const { return problem == Problem::None; }
    // Every offset this access reads or writes (a view: the rules ask
    // for it per dimension and per access).
    std::span<const std::vector<std::int64_t>> all_offsets() const {
        if (window_offsets.empty()) return {&offset, 1};
        return window_offsets;
    }
};

using ValueLookup = std::function<std::optional<std::int64_t>(const std::string&)>;

// `nest_vars` are the dimensions of the iteration space; `windows` the
// window loops in effect for the body.
AccessShape shape_of(const AccessFact& access, const std::set<std::string>& nest_vars,
                     const std::vector<WindowFact>& windows, const ValueLookup& values);

}  // namespace recipe::analyzer
