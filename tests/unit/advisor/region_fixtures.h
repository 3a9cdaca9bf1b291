// region_fixtures.h — regions the advisor's unit tests price by hand.
#pragma once

#include <cstdint>

#include "advisor/region.h"
#include "tests/unit/advisor/unit_platform.h"

namespace recipe::test {

// PolyBench's jacobi-2d on 1000 x 1000 floats (or `extents`), pinned:
// B = f(A); A = f(B), halo 1, `steps` steps.
inline advisor::RegionProblem jacobi_region(std::int64_t steps, Index3 extents = {1000, 1000, 1}) {
    advisor::RegionProblem r;
    r.dims = 2;
    r.extents = extents;
    r.arrays = {{"a", 4, true, true}, {"b", 4, true, true}};
    advisor::Problem first = unit_problem(extents, 2, Halo{{1, 1, 0}, {1, 1, 0}});
    first.inputs[0].name = "a";
    first.outputs[0].name = "b";
    advisor::Problem second = first;
    second.inputs[0].name = "b";
    second.outputs[0].name = "a";
    r.nests = {first, second};
    r.steps = steps;
    r.pinned_host = true;
    return r;
}

}  // namespace recipe::test
