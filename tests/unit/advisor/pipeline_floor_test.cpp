#include "advisor/pipeline.h"

#include <catch2/catch.hpp>

using recipe::advisor::PipelineShape;
using recipe::advisor::StepTimes;
using recipe::advisor::WeightedSteps;

// Two tiles, no input (a nest that only generates values): a full tile that
// takes 1.0 ms to copy out and a thin edge tile that takes 0.01 ms. The
// formula alone prices the step where the last kernel runs with the edge
// tile's output: 0.005 + max(0.005, 0.01) + 0.01 = 0.025 ms. The copy-out
// engine needs at least first.in + first.kernel + 1.0 + 0.01 = 1.015 ms.
TEST_CASE("engine floors keep a pipeline with a thin last tile physical", "[advisor]") {
    StepTimes full{0, 0, 0.005, 1.0, 0};
    StepTimes edge{0, 0, 0.005, 0.01, 0};
    std::vector<WeightedSteps> tiles{{full, 1}, {edge, 1}};
    PipelineShape shape;
    shape.copy_engines = 2;
    shape.buffers = 2;
    CHECK(recipe::advisor::thesis_pipeline(tiles, full, edge, shape) == Approx(0.025));
    shape.engine_floors = true;
    CHECK(recipe::advisor::thesis_pipeline(tiles, full, edge, shape) == Approx(1.015));
}

TEST_CASE("engine floors leave identical tiles at the thesis's formula", "[advisor]") {
    // thesis §6.4.4, two engines, out dominant: in + max(in, k) + (n-2) * out
    // + max(k, out) + out = 0.1 + 0.2 + 3 * 1.0 + 1.0 + 1.0 = 5.3 ms for 5 tiles.
    StepTimes t{0, 0.1, 0.2, 1.0, 0};
    std::vector<WeightedSteps> tiles{{t, 5}};
    PipelineShape shape;
    shape.copy_engines = 2;
    shape.duplex_factor = 0;
    shape.buffers = 5;
    const double formula = recipe::advisor::thesis_pipeline(tiles, t, t, shape);
    CHECK(formula == Approx(5.3));
    shape.engine_floors = true;
    CHECK(recipe::advisor::thesis_pipeline(tiles, t, t, shape) == Approx(formula));
}
