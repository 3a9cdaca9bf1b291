// The pipeline formulas against cases computed by hand.
#include "advisor/pipeline.h"

#include <catch2/catch.hpp>

using namespace recipe::advisor;

namespace {

std::vector<WeightedSteps> uniform(StepTimes t, std::int64_t n) { return {{t, n}}; }

}  // namespace

TEST_CASE("thesis §6.4.4, two copy engines, each dominant operation", "[advisor]") {
    PipelineShape dual{2, 0.57, 3};
    SECTION("transfer in dominant") {
        StepTimes t{0, 4, 1, 2, 0};
        // 4 + max(4,1) + 3*max(4 + 0.57*2, 1) + max(1,2) + 2
        CHECK(thesis_pipeline(uniform(t, 5), t, t, dual) == Approx(4 + 4 + 3 * 5.14 + 2 + 2));
    }
    SECTION("kernel dominant") {
        StepTimes t{0, 1, 5, 2, 0};
        CHECK(thesis_pipeline(uniform(t, 5), t, t, dual) == Approx(1 + 5 + 3 * 5 + 5 + 2));
    }
    SECTION("transfer out dominant") {
        StepTimes t{0, 1, 1, 6, 0};
        CHECK(thesis_pipeline(uniform(t, 5), t, t, dual) == Approx(1 + 1 + 3 * (6 + 0.57) + 6 + 6));
    }
    SECTION("full duplex and no overlap at all") {
        StepTimes t{0, 3, 1, 3, 0};
        CHECK(copy_pair(3, 3, PipelineShape{2, 0.0, 3}) == 3);
        CHECK(copy_pair(3, 3, PipelineShape{2, 1.0, 3}) == 6);
        CHECK(thesis_pipeline(uniform(t, 4), t, t, PipelineShape{2, 0.0, 3}) == Approx(3 + 3 + 2 * 3 + 3 + 3));
    }
}

TEST_CASE("thesis §6.4.4, one copy engine", "[advisor]") {
    PipelineShape single{1, 0.57, 3};
    StepTimes t{0, 2, 3, 2, 0};
    // 2 + max(2,3) + 2*max(2+2, 3) + max(3,2) + 2
    CHECK(thesis_pipeline(uniform(t, 4), t, t, single) == Approx(2 + 3 + 2 * 4 + 3 + 2));
    StepTimes k{0, 1, 5, 1, 0};
    CHECK(thesis_pipeline(uniform(k, 4), k, k, single) == Approx(1 + 5 + 2 * 5 + 5 + 1));
}

TEST_CASE("one and two tiles", "[advisor]") {
    PipelineShape dual{2, 0.57, 3};
    StepTimes t{0, 4, 1, 2, 0};
    // One tile runs in, kernel, out one after the other (not the thesis's
    // formula with n - 2 = -1; see docs/model-reproduction.md).
    CHECK(thesis_pipeline(uniform(t, 1), t, t, dual) == Approx(7));
    CHECK(thesis_pipeline(uniform(t, 2), t, t, dual) == Approx(4 + 4 + 2 + 2));
}

TEST_CASE("edge tiles: steady steps summed per class", "[advisor]") {
    PipelineShape single{1, 1, 3};
    StepTimes edge{0, 1, 0.5, 1, 0}, inner{0, 2, 0.5, 2, 0};
    // first/last are the edge tiles: 1 + max(1,.5) + [2*(1+1) + 3*(2+2)] - 2*(1+1) + max(.5,1) + 1
    const std::vector<WeightedSteps> tiles = {{edge, 2}, {inner, 3}};
    CHECK(thesis_pipeline(tiles, edge, edge, single) == Approx(1 + 1 + 12 + 1 + 1));
}

TEST_CASE("too few buffers bound the steady state", "[advisor]") {
    StepTimes t{0, 2, 2, 2, 0};
    // With one buffer each tile's journey (6) is serial.
    CHECK(steady_step(t, PipelineShape{2, 0, 1}) == Approx(6));
    CHECK(steady_step(t, PipelineShape{2, 0, 2}) == Approx(3));
    CHECK(steady_step(t, PipelineShape{2, 0, 3}) == Approx(2));
}

TEST_CASE("thesis §6.4.4, buffered scheme's four start-up and shutdown steps", "[advisor]") {
    StepTimes t{1, 2, 3, 2, 1};
    PipelineShape single{1, 1, 3};
    // 1 + max(1,2) + max(1,2,3) + max(1,4,3) + (n-4)*max(2,4,3) + max(1,4,3) + max(1,2,3) + max(1,2) + 1
    const double expect = 1 + 2 + 3 + 4 + 3 * 4 + 4 + 3 + 2 + 1;
    CHECK(thesis_buffered_pipeline(uniform(t, 7), t, t, single) == Approx(expect));
    // Dual engines: in + out becomes max(in,out) + f*min(in,out) = 2 + 0.5*2 = 3.
    PipelineShape dual{2, 0.5, 3};
    const double expect2 = 1 + 2 + 3 + 3 + 3 * 3 + 3 + 3 + 2 + 1;
    CHECK(thesis_buffered_pipeline(uniform(t, 7), t, t, dual) == Approx(expect2));
}

TEST_CASE("two stages: copy in then compute", "[advisor]") {
    StepTimes t{0, 2, 1, 0, 0};
    CHECK(two_stage_pipeline(uniform(t, 4), t, t, &StepTimes::in, &StepTimes::kernel) == Approx(2 + 4 * 2 - 2 + 1));
}

TEST_CASE("seed 003 eqs. 5.1-5.6 by hand", "[advisor]") {
    StreamsInput in;
    in.bytes_in = 1000;
    in.bytes_out = 500;
    in.max_bytes_in = 250;
    in.max_bytes_out = 125;
    in.streams = 4;
    in.hd = {1, 0.5, 0.01};  // L+o 1 ms, g 0.5 ms, G 0.01 ms/B
    in.dh = {1, 0.5, 0.01};
    StreamsEquation eq;
    SECTION("transfers dominate") {
        in.kernel = 4;
        in.max_kernel = 1;
        // 5.2: 1 + 10 + 1.5 + 1 + 1 + 5 + 1.5
        CHECK(streams_model(in, true, 1, &eq) == Approx(21));
        CHECK(eq == StreamsEquation::Eq52);
        // 5.4: max(1+10+1.5+1+5+1.5, 1+10+1.5+1+1+1.25, 1+2.5+1+1+5+1.5)
        CHECK(streams_model(in, false, 1, &eq) == Approx(20));
        CHECK(eq == StreamsEquation::Eq54);
        // 5.5: max(1+10+1.5+1+1+1.25, 1+2.5+4+1+1.25, 1+2.5+1+1+5+1.5)
        CHECK(streams_model(in, false, 2, &eq) == Approx(15.75));
        CHECK(eq == StreamsEquation::Eq55);
    }
    SECTION("kernel dominates") {
        in.kernel = 40;
        in.max_kernel = 10;
        // 5.1: 1 + 2.5 + 40 + 1 + 5 + 1.5
        CHECK(streams_model(in, true, 1, &eq) == Approx(51));
        CHECK(eq == StreamsEquation::Eq51);
        // 5.3: 1 + 2.5 + 40 + 1 + 1.25
        CHECK(streams_model(in, false, 1, &eq) == Approx(45.75));
        CHECK(eq == StreamsEquation::Eq53);
    }
    // 5.6: max(1 + 10 + 1, 2 + 4, 2 + 5)
    CHECK(mapped_model(1000, 500, 4, in.hd, in.dh) == Approx(12));
}

TEST_CASE("the issuing thread bounds the steady state", "[advisor]") {
    StepTimes t{0, 1, 1, 1, 0};
    t.issue = 4;  // e.g. five calls of 0.8 ms
    CHECK(steady_step(t, PipelineShape{2, 0, 3}) == Approx(4));
    CHECK(steady_step_buffered(t, PipelineShape{2, 0, 3}) == Approx(4));
}

TEST_CASE("buffered: edge tiles that cost more than the rest never make the middle negative", "[advisor]") {
    // Four tiles, the first and the last packing 27 times more than the two
    // between (a row-by-row 3-D grid cut at its edges): taking tiles 2 and
    // n - 2 for copies of the edge ones went below zero.
    PipelineShape s;
    s.copy_engines = 2;
    s.duplex_factor = 1;
    s.buffers = 2;
    StepTimes edge{134.0, 0, 0.005, 0.13, 0, 0};
    StepTimes inner{5.0, 0, 0.005, 0.13, 0, 0};
    const std::vector<WeightedSteps> tiles = {{edge, 1}, {inner, 2}, {edge, 1}};
    const double t = thesis_buffered_pipeline(tiles, edge, edge, s);
    CHECK(t > 0);
    CHECK(t >= 2 * 134.0);  // at least the first tile's packing and the last tile's unpacking steps
    // With uniform tiles the thesis's formula holds as it was: the test above.
}
