// The many ways real C writes the same stencil, each accepted with the
// properties it really has (inputs under tests/unit/analyzer/inputs/).
#include "tests/unit/analyzer/analyzer_test_util.h"

using namespace recipe::analyzer;
using namespace recipe::analyzer::test;

TEST_CASE("subscripts A[1+i] and A[i+0] are offsets +1 and 0", "[analyzer]") {
    Program p = analyze_input("subscript_styles.c");
    const LoopNest& n = nest_in(p, "shift_add");
    CHECK(n.accepted);
    CHECK(n.input_arrays[0].stencil == Offsets{{0}, {1}});
    CHECK(n.input_arrays[0].accesses.size() == 3);
    CHECK(n.input_arrays[0].accesses[0].offset == std::vector<int>{1});
    CHECK(n.output_arrays[0].accesses[0].offset == std::vector<int>{0});
}

TEST_CASE("flat i*N + j with the row loop outside: j is x", "[analyzer]") {
    const LoopNest n = nest_in(analyze_input("flat_ij.c"), "laplace");
    CHECK(n.accepted);
    check_loop(n.iteration_space[0], "j", 1, "1", 511, "N-1", 1);
    check_loop(n.iteration_space[1], "i", 1, "1", 511, "N-1", 0);
    const ArrayProperties& u = n.input_arrays[0];
    CHECK(u.linear_index == "i*N + j");
    CHECK(u.element_type == "double");
    CHECK(u.bytes_per_element == 8);
    CHECK(u.stencil == Offsets{{0, -1}, {-1, 0}, {0, 0}, {1, 0}, {0, 1}});
    check_extent(u.size[0], 512, "N");
    check_extent(u.size[1], 512, "N");
}

TEST_CASE("pointer arithmetic *(u + ix*ny + iy)", "[analyzer]") {
    const LoopNest n = nest_in(analyze_input("pointer_arith.c"), "smooth");
    CHECK(n.accepted);
    CHECK(n.input_arrays[0].name == "u");
    CHECK(n.input_arrays[0].linear_index == "ix*ny + iy");
    CHECK(n.input_arrays[0].stencil == Offsets{{0, -1}, {-1, 0}, {1, 0}, {0, 1}});
    CHECK(n.output_arrays[0].name == "v");
    CHECK(n.output_arrays[0].accesses[0].text == "*(v + ix * ny + iy)");
    // Sizes passed as parameters and never called: symbolic, not guessed.
    check_extent(n.input_arrays[0].size[0], std::nullopt, "ny");
    check_extent(n.input_arrays[0].size[1], std::nullopt, "nx");
    check_extent(n.iteration_space[0].upper, std::nullopt, "ny-1");
}

TEST_CASE("static inline index helper idx2(x, y, size)", "[analyzer]") {
    const LoopNest n = nest_in(analyze_input("inline_helper.c"), "blur");
    CHECK(n.accepted);
    CHECK(n.input_arrays[0].linear_index == "y*size + x");
    CHECK(n.input_arrays[0].stencil == Offsets{{-1, 0}, {0, 0}, {1, 0}});
    REQUIRE(n.scalars_read.size() == 1);
    CHECK(n.scalars_read[0].name == "size");
    CHECK(n.scalars_read[0].type == "int");
}

TEST_CASE("index temporaries on a padded grid: int c = i*(ny+2) + j", "[analyzer]") {
    const LoopNest n = nest_in(analyze_input("index_temporary.c"), "heat");
    CHECK(n.accepted);
    CHECK_FALSE(n.time_loop);
    check_loop(n.iteration_space[0], "j", 1, "1", std::nullopt, "ny+1", 1);
    check_loop(n.iteration_space[1], "i", 1, "1", std::nullopt, "nx+1", 0);
    const ArrayProperties& p = n.input_arrays[0];
    CHECK(p.linear_index == "i*(ny+2) + j");
    check_extent(p.size[0], std::nullopt, "ny+2");
    check_extent(p.size[1], std::nullopt, "nx+2");
    CHECK(p.stencil == Offsets{{0, -1}, {-1, 0}, {0, 0}, {1, 0}, {0, 1}});
    // Index arithmetic is not counted as work.
    CHECK(n.ops.adds == 5);
    CHECK(n.ops.muls == 2);
}

TEST_CASE("window loops are stencil offsets; guards on them are boundaries", "[analyzer]") {
    const LoopNest n = nest_in(analyze_input("window_guard.c"), "box");
    CHECK(n.accepted);
    CHECK(n.dimensionality == 1);
    CHECK(n.input_arrays[0].stencil == Offsets{{-2}, {-1}, {0}, {1}, {2}});
    REQUIRE(n.window_loops.size() == 1);
    CHECK(n.window_loops[0].var == "d");
    REQUIRE(n.boundaries.size() == 1);
    CHECK(n.boundaries[0].kind == Boundary::Kind::Guard);
    CHECK(n.boundaries[0].text == "if (j >= 0 && j < n)");
    CHECK(n.input_arrays[0].accesses[0].guarded);
    CHECK(n.input_arrays[0].accesses[0].window_offsets == Offsets{{-2}, {-1}, {0}, {1}, {2}});
    CHECK(n.ops.reads == 5);
    CHECK(n.ops.adds == 5);

    const LoopNest m = nest_in(analyze_input("window_2d.c"), "mean3x3");
    CHECK(m.accepted);
    CHECK(m.dimensionality == 2);
    CHECK(m.window_loops.size() == 2);
    CHECK(m.input_arrays[0].stencil ==
          Offsets{{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {0, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}});
    CHECK(m.ops.reads == 9);
    check_extent(m.output_arrays[0].size[1], 480, "H");
}

TEST_CASE("a window loop perfectly nested inside the nest is still a window", "[analyzer]") {
    Program p = analyze_text(R"(
#define R 3
void conv(const float *restrict in, float *restrict out, int n) {
    for (int i = R; i < n - R; i++)
        for (int k = -R; k <= R; k++)
            out[i] += in[i + k];
}
)");
    const LoopNest& n = nest_in(p, "conv");
    CHECK(n.accepted);
    CHECK(n.dimensionality == 1);
    CHECK(n.input_arrays[0].stencil == Offsets{{-3}, {-2}, {-1}, {0}, {1}, {2}, {3}});
    CHECK(n.output_arrays[0].reads_own_element);
}

TEST_CASE("clamps by ternaries, min/max and ifs keep the neighbour offset", "[analyzer]") {
    const LoopNest n = nest_in(analyze_input("clamp_minmax.c"), "edge");
    CHECK(n.accepted);
    CHECK(n.input_arrays[0].stencil == Offsets{{0, -1}, {-1, 0}, {0, 1}});
    REQUIRE(n.boundaries.size() == 3);
    CHECK(n.boundaries[0].text == "max(i - 1, 0)");
    CHECK(n.boundaries[1].text == "min(i + 1, rows - 1)");
    CHECK(n.boundaries[2].text == "j == 0 ? 0 : j - 1");
    for (const auto& b : n.boundaries) CHECK(b.kind == Boundary::Kind::Clamp);

    const LoopNest m = nest_in(analyze_input("clamp_if.c"), "diffuse");
    CHECK(m.accepted);
    CHECK(m.input_arrays[0].stencil == Offsets{{-1}, {0}, {1}});
    REQUIRE(m.boundaries.size() == 2);
    CHECK(m.boundaries[0].kind == Boundary::Kind::Clamp);
    CHECK(m.boundaries[0].text == "if (left < 0) left = 0;");
    CHECK(m.boundaries[0].span.begin.line == 7);
}

TEST_CASE("an output that reads its own element is still DOALL", "[analyzer]") {
    const LoopNest n = nest_in(analyze_input("own_element.c"), "ey_update");
    CHECK(n.accepted);
    const ArrayProperties& e = n.output_arrays.at(0);
    CHECK(e.name == "e");
    CHECK(e.reads_own_element);
    CHECK(e.layout == ArrayLayout::MultiDim);
    check_extent(e.size[0], 300, "NY");
    check_extent(e.size[1], 200, "NX");
    CHECK(n.input_arrays.at(0).stencil == Offsets{{0, -1}, {0, 0}});
    CHECK(has_rule(n, "reads-own-element"));
    CHECK(n.dependences.empty());
}

TEST_CASE("a neighbour read several times is one stencil point", "[analyzer]") {
    const LoopNest n = nest_in(analyze_input("repeated_neighbour.c"), "sharpen");
    CHECK(n.accepted);
    CHECK(n.input_arrays[0].stencil == Offsets{{-1}, {0}, {1}});
    CHECK(n.input_arrays[0].accesses.size() == 6);
    CHECK(n.ops.reads == 6);
}

TEST_CASE("innermost loop not walking the contiguous dimension is reported", "[analyzer]") {
    const LoopNest n = nest_in(analyze_input("column_order.c"), "transpose_order");
    CHECK(n.accepted);
    CHECK_FALSE(n.innermost_is_contiguous);
    check_loop(n.iteration_space[0], "j", 0, "0", 200, "COLS", 0);
    check_loop(n.iteration_space[1], "i", 1, "1", 99, "ROWS-1", 1);
    CHECK(n.input_arrays[0].stencil == Offsets{{0, -1}, {0, 1}});
    CHECK(has_rule(n, "loop-order"));
}

TEST_CASE("bounds from 0, 1 and 2 with < and <=", "[analyzer]") {
    Program p = analyze_input("bounds.c");
    REQUIRE(p.nests.size() == 3);
    check_loop(p.nests[0].iteration_space[0], "i", 0, "0", 1000, "N", 0);
    CHECK(p.nests[0].boundaries.empty());
    check_loop(p.nests[1].iteration_space[0], "i", 1, "1", 999, "N-1", 0);
    CHECK(p.nests[1].boundaries.at(0).text == "i from 1 to N-2");
    check_loop(p.nests[2].iteration_space[0], "i", 2, "2", 998, "N-2", 0);
    CHECK(p.nests[2].input_arrays[0].stencil == Offsets{{-2}, {2}});
    check_extent(p.nests[2].input_arrays[0].size[0], 1000, "N");
    for (const auto& n : p.nests) CHECK(n.accepted);
}

TEST_CASE("sizes from literals, #define, enum, const, -D; symbolic stays symbolic", "[analyzer]") {
    AnalyzeOptions o;
    o.assumptions = {{"OVERRIDE", "24"}};
    Program p = analyze_input("sizes.c", o);
    REQUIRE(p.nests.size() == 6);
    check_extent(p.nests[0].iteration_space[0].upper, 10, "10");
    check_extent(p.nests[1].iteration_space[0].upper, 64, "WIDTH");
    check_extent(p.nests[2].iteration_space[0].upper, 33, "DEPTH");
    check_extent(p.nests[3].iteration_space[0].upper, 128, "LEN");
    check_extent(p.nests[4].iteration_space[0].upper, 24, "OVERRIDE");
    check_extent(p.nests[5].iteration_space[0].upper, std::nullopt, "n");
    Program q = analyze_input("sizes.c");
    check_extent(q.nests[4].iteration_space[0].upper, 16, "OVERRIDE");
}

TEST_CASE("row pointers set up in the body resolve to the array they point into", "[analyzer]") {
    const LoopNest n = nest_in(analyze_input("row_pointer.c"), "rows");
    CHECK(n.accepted);
    REQUIRE(n.input_arrays.size() == 1);
    CHECK(n.input_arrays[0].name == "in");
    CHECK(n.input_arrays[0].stencil == Offsets{{0, -1}, {0, 1}});
    CHECK(n.ops.adds == 1);
}

TEST_CASE("time loops: for + swap, while + toggle, do-while mirrored, copy-back, t%2", "[analyzer]") {
    {
        const LoopNest n = nest_in(analyze_input("time_for_swap.c"), "main");
        CHECK(n.accepted);
        REQUIRE(n.time_loop);
        CHECK(n.time_loop->form == TimeLoop::Form::For);
        CHECK(n.time_loop->exchange == TimeLoop::Exchange::PointerSwap);
        CHECK(n.time_loop->arrays == std::vector<std::string>{"a", "b"});
        check_extent(n.time_loop->iterations, 50, "STEPS");
    }
    {
        const LoopNest n = nest_in(analyze_input("time_while_toggle.c"), "run");
        CHECK(n.accepted);
        CHECK(n.input_arrays.at(0).name == "u[iz]");
        CHECK(n.output_arrays.at(0).name == "u[1 - iz]");
        CHECK(n.input_arrays[0].layout == ArrayLayout::MultiDim);
        check_extent(n.input_arrays[0].size[0], 256, "NX");
        REQUIRE(n.time_loop);
        CHECK(n.time_loop->form == TimeLoop::Form::While);
        CHECK(n.time_loop->exchange == TimeLoop::Exchange::IndexToggle);
        CHECK(n.time_loop->toggle == "iz");
        CHECK(n.time_loop->var == "step");
        check_extent(n.time_loop->iterations, std::nullopt, "steps");
    }
    {
        Program p = analyze_input("time_do_mirrored.c");
        REQUIRE(p.nests.size() == 2);
        for (const auto& n : p.nests) {
            CHECK(n.accepted);
            REQUIRE(n.time_loop);
            CHECK(n.time_loop->form == TimeLoop::Form::DoWhile);
            CHECK(n.time_loop->exchange == TimeLoop::Exchange::MirroredNests);
            CHECK(n.time_loop->arrays == std::vector<std::string>{"a", "b"});
            check_extent(n.time_loop->iterations, 20, "20");
        }
    }
    {
        Program p = analyze_input("time_copy_back.c");
        REQUIRE(p.nests.size() == 2);
        REQUIRE(p.nests[0].time_loop);
        CHECK(p.nests[0].time_loop->exchange == TimeLoop::Exchange::CopyBack);
        CHECK(p.nests[0].time_loop->arrays == std::vector<std::string>{"grid", "next"});
        check_extent(p.nests[0].time_loop->iterations, std::nullopt, "steps");
        CHECK(p.nests[1].input_arrays.at(0).stencil == Offsets{{0, 0}});
    }
    {
        const LoopNest n = nest_in(analyze_input("time_modulo.c"), "steps");
        CHECK(n.accepted);
        REQUIRE(n.time_loop);
        CHECK(n.time_loop->exchange == TimeLoop::Exchange::IndexToggle);
        CHECK(n.time_loop->toggle == "t");
        CHECK(n.input_arrays.at(0).name == "buf[t % 2]");
        CHECK(n.output_arrays.at(0).name == "buf[(t + 1) % 2]");
    }
}

TEST_CASE("conversions of varying 64-bit integers to floating types are counted, others not", "[analyzer]") {
    const Program p = analyze_input("conversions.c");
    CHECK(nest_in(p, "sawtooth").ops.conversions == 2);
    CHECK(nest_in(p, "ramp_int").ops.conversions == 0);
    CHECK(nest_in(p, "coords").ops.conversions == 2);
    CHECK(nest_in(p, "assign").ops.conversions == 2);
    CHECK(nest_in(p, "invariant").ops.conversions == 0);
    CHECK(nest_in(p, "local").ops.conversions == 1);
    CHECK(nest_in(p, "initialised").ops.conversions == 1);
    // Not flops: the flop count is as before.
    CHECK(nest_in(p, "sawtooth").ops.flops() == 6);
}

TEST_CASE("C math calls gcc inlines are arithmetic, not libm calls", "[analyzer]") {
    // fabsf is a sign mask at -O2 on x86-64 and abs an integer instruction;
    // expf and sqrtf stay priced as library calls.
    const Program p = analyze_text(R"(#include <math.h>
#include <stdlib.h>
void inlined(const float *restrict a, float *restrict b, const int *restrict k, int n)
{
    for (int i = 0; i < n; i++)
        b[i] = fabsf(a[i]) + copysignf(1.0f, a[i]) + (float)abs(k[i]);
}
void called(const float *restrict a, float *restrict b, int n)
{
    for (int i = 0; i < n; i++)
        b[i] = expf(a[i]) + sqrtf(a[i]);
}
)");
    REQUIRE(p.nests.size() == 2);
    CHECK(nest_in(p, "inlined").ops.math_calls == 0);
    CHECK(nest_in(p, "inlined").ops.other >= 3);
    CHECK(nest_in(p, "called").ops.math_calls == 2);
}

TEST_CASE("a floating variable accumulated across the iterations is one chain of adds; other updates are not", "[analyzer]") {
    // gcc -O2 keeps `sum += c[i]` in order (no -ffast-math): the adds of all
    // iterations wait for each other (OpCounts::serial_adds). A window's
    // local accumulator, reset every point, and an integer count are not.
    const Program p = analyze_text(R"(
double total(const float *c, int n)
{
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += c[i];
    return sum;
}
float both(const float *a, const float *b, int n)
{
    float s = 0.0f, t = 1.0f;
    for (int i = 0; i < n; i++) {
        s = s + a[i];
        t *= b[i];
    }
    return s + t;
}
long count(const int *k, int n)
{
    long hits = 0;
    for (int i = 0; i < n; i++)
        hits += k[i];
    return hits;
}
void window(const float *restrict in, float *restrict out, int n)
{
    for (int i = 4; i < n - 4; i++) {
        float s = 0.0f;
        for (int d = -4; d <= 4; d++)
            s += in[i + d];
        out[i] = s / 9.0f;
    }
}
)");
    CHECK_FALSE(nest_in(p, "total").accepted);
    CHECK(nest_in(p, "total").ops.serial_adds == 1);
    CHECK(nest_in(p, "both").ops.serial_adds == 2);
    CHECK(nest_in(p, "count").ops.serial_adds == 0);
    CHECK(nest_in(p, "window").accepted);
    CHECK(nest_in(p, "window").ops.serial_adds == 0);
}
