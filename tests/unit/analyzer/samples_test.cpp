// The properties the analyzer extracts from every bundled sample, exactly.
#include "analyzer/program_json.h"
#include "tests/unit/analyzer/analyzer_test_util.h"

using namespace recipe::analyzer;
using namespace recipe::analyzer::test;

namespace {

// Every access span must cover exactly the text it reports (the recipe
// generator rewrites the source by these byte offsets).
void check_spans(const Program& p, const std::string& source) {
    for (const auto& n : p.nests) {
        CHECK(source.compare(n.span.begin_byte, 3, "for") == 0);
        CHECK(n.span.end_byte <= source.size());
        CHECK(n.body_span.begin_byte >= n.span.begin_byte);
        CHECK(n.body_span.end_byte <= n.span.end_byte);
        CHECK(n.function_span.begin_byte <= n.span.begin_byte);
        CHECK(n.function_span.end_byte >= n.span.end_byte);
        for (const auto* list : {&n.input_arrays, &n.output_arrays})
            for (const auto& a : *list)
                for (const auto& acc : a.accesses) {
                    std::string covered = source.substr(acc.span.begin_byte, acc.span.end_byte - acc.span.begin_byte);
                    std::string squeezed;
                    bool space = false;
                    for (char c : covered) {
                        if (c == ' ' || c == '\n' || c == '\t') { space = true; continue; }
                        if (space && !squeezed.empty()) squeezed += ' ';
                        space = false;
                        squeezed += c;
                    }
                    CHECK(squeezed == acc.text);
                }
    }
}

}  // namespace

TEST_CASE("emboss: 2D, 0..W-1 x 0..H-1, one 4-byte input with the thesis's 6-point stencil", "[analyzer]") {
    Program p = analyze_sample("emboss.c");
    check_spans(p, read_text(sample_path("emboss.c")));
    REQUIRE(p.nests.size() == 3);
    const LoopNest& n = nest_in(p, "emboss");
    CHECK(n.accepted);
    CHECK(n.kind == NestKind::Map);
    CHECK(n.dimensionality == 2);
    REQUIRE(n.iteration_space.size() == 2);
    check_loop(n.iteration_space[0], "x", 0, "0", 8000, "W", 1);
    check_loop(n.iteration_space[1], "y", 0, "0", 8000, "H", 0);
    CHECK(n.innermost_is_contiguous);
    REQUIRE(n.input_arrays.size() == 1);
    const ArrayProperties& in = n.input_arrays[0];
    CHECK(in.name == "in");
    CHECK(in.element_type == "float");
    CHECK(in.bytes_per_element == 4);
    CHECK(in.layout == ArrayLayout::Flat);
    CHECK(in.linear_index == "y*W + x");
    REQUIRE(in.size.size() == 2);
    check_extent(in.size[0], 8000, "W");
    check_extent(in.size[1], 8000, "H");
    CHECK(in.mapping == std::vector<std::vector<int>>{{1, 0}, {0, 1}});
    CHECK(in.stencil == Offsets{{-1, -1}, {0, -1}, {-1, 0}, {1, 0}, {0, 1}, {1, 1}});
    CHECK(in.halo().lo == std::array<std::int64_t, 3>{1, 1, 0});  // the stencil's reach, per side
    CHECK(in.halo().hi == std::array<std::int64_t, 3>{1, 1, 0});
    CHECK(in.accesses.size() == 6);
    for (const auto& a : in.accesses) CHECK(a.clamped);
    REQUIRE(n.output_arrays.size() == 1);
    const ArrayProperties& out = n.output_arrays[0];
    CHECK(out.name == "out");
    CHECK(out.bytes_per_element == 4);
    CHECK(out.stencil.empty());
    CHECK(out.halo().hi == std::array<std::int64_t, 3>{0, 0, 0});
    CHECK_FALSE(out.reads_own_element);
    REQUIRE(out.accesses.size() == 1);
    CHECK(out.accesses[0].text == "out[y * W + x]");
    CHECK(out.accesses[0].write);
    CHECK(out.accesses[0].span.begin.line == 28);
    CHECK(out.accesses[0].span.begin.column == 13);
    CHECK(n.function_span.begin.line == 17);
    CHECK(n.span.begin.line == 20);
    CHECK(n.span.end.line == 30);
    REQUIRE(n.boundaries.size() == 4);
    CHECK(n.boundaries[0].kind == Boundary::Kind::Clamp);
    CHECK(n.boundaries[0].text == "x > 0 ? x - 1 : 0");
    CHECK(n.boundaries[3].text == "y < H - 1 ? y + 1 : H - 1");
    CHECK(n.scalars_read.empty());
    CHECK_FALSE(n.time_loop);
    CHECK(n.ops.adds == 6);
    CHECK(n.ops.muls == 0);
    CHECK(n.ops.divs == 1);
    CHECK(n.ops.reads == 6);
    CHECK(n.ops.writes == 1);
    // main's initialisation is a map with no input; the checksum a reduction.
    CHECK(nest_in(p, "main", 0).accepted);
    CHECK(nest_in(p, "main", 0).input_arrays.empty());
    CHECK(rule_ids(nest_in(p, "main", 1)) == std::vector<std::string>{"reduction"});
}

TEST_CASE("moving average: 1D window of radius RADIUS is the stencil, not a dimension", "[analyzer]") {
    Program p = analyze_sample("moving_average.c");
    check_spans(p, read_text(sample_path("moving_average.c")));
    const LoopNest& n = nest_in(p, "moving_average");
    CHECK(n.accepted);
    CHECK(n.dimensionality == 1);
    REQUIRE(n.iteration_space.size() == 1);
    check_loop(n.iteration_space[0], "i", 4, "RADIUS", 67108860, "N-RADIUS", 0);
    REQUIRE(n.input_arrays.size() == 1);
    CHECK(n.input_arrays[0].stencil == Offsets{{-4}, {-3}, {-2}, {-1}, {0}, {1}, {2}, {3}, {4}});
    CHECK(n.input_arrays[0].halo().lo == std::array<std::int64_t, 3>{4, 0, 0});
    check_extent(n.input_arrays[0].size[0], 67108864, "N");
    check_extent(n.output_arrays[0].size[0], 67108864, "N");
    REQUIRE(n.window_loops.size() == 1);
    CHECK(n.window_loops[0].var == "d");
    CHECK(n.window_loops[0].lower == -4);
    CHECK(n.window_loops[0].upper == 5);
    REQUIRE(n.boundaries.size() == 1);
    CHECK(n.boundaries[0].kind == Boundary::Kind::ShrunkBounds);
    CHECK(n.boundaries[0].text == "i from RADIUS to N-RADIUS-1");
    CHECK(n.ops.adds == 9);
    CHECK(n.ops.divs == 1);
    CHECK(n.ops.reads == 9);
    // -D changes the radius, and with it the stencil.
    AnalyzeOptions o;
    o.assumptions = {{"RADIUS", "1"}, {"N", "1000"}};
    Program small_program = analyze_sample("moving_average.c", o);
    const LoopNest& small = nest_in(small_program, "moving_average");
    CHECK(small.input_arrays[0].stencil == Offsets{{-1}, {0}, {1}});
    check_extent(small.iteration_space[0].upper, 999, "N-RADIUS");
    CHECK(rule_ids(nest_in(p, "fill_series")) == std::vector<std::string>{"reduction", "reduction", "scalar-write"});
}

TEST_CASE("jacobi 3D: 7-point stencil through the IDX macro, x fastest", "[analyzer]") {
    Program p = analyze_sample("jacobi3d.c");
    check_spans(p, read_text(sample_path("jacobi3d.c")));
    const LoopNest& n = nest_in(p, "jacobi_sweep");
    CHECK(n.accepted);
    CHECK(n.dimensionality == 3);
    REQUIRE(n.iteration_space.size() == 3);
    check_loop(n.iteration_space[0], "x", 1, "1", 399, "NX-1", 2);
    check_loop(n.iteration_space[1], "y", 1, "1", 399, "NY-1", 1);
    check_loop(n.iteration_space[2], "z", 1, "1", 399, "NZ-1", 0);
    const ArrayProperties& in = array_named(n.input_arrays, "in");
    CHECK(in.linear_index == "z*NX*NY + y*NX + x");
    check_extent(in.size[0], 400, "NX");
    check_extent(in.size[1], 400, "NY");
    check_extent(in.size[2], 400, "NZ");
    CHECK(in.stencil == Offsets{{0, 0, -1}, {0, -1, 0}, {-1, 0, 0}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
    CHECK(in.mapping == std::vector<std::vector<int>>{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
    CHECK(in.accesses[1].text == "in[IDX(x - 1, y, z)]");
    CHECK(in.accesses[1].offset == std::vector<int>{-1, 0, 0});
    CHECK(n.output_arrays[0].name == "out");
    CHECK(n.boundaries.size() == 3);
    CHECK(n.ops.adds == 6);
    CHECK(n.ops.divs == 1);
    CHECK(n.ops.reads == 7);
}

TEST_CASE("vector add: a zip of two inputs", "[analyzer]") {
    Program p = analyze_sample("vector_add.c");
    check_spans(p, read_text(sample_path("vector_add.c")));
    const LoopNest& n = nest_in(p, "vector_add");
    CHECK(n.accepted);
    CHECK(n.kind == NestKind::Zip);
    check_loop(n.iteration_space[0], "i", 0, "0", 67108864, "N", 0);
    REQUIRE(n.input_arrays.size() == 2);
    CHECK(n.input_arrays[0].name == "a");
    CHECK(n.input_arrays[1].name == "b");
    CHECK(n.input_arrays[0].stencil == Offsets{{0}});
    CHECK(n.output_arrays[0].name == "c");
    CHECK(n.boundaries.empty());
    CHECK(n.ops.adds == 1);
    CHECK(n.ops.reads == 2);
    CHECK(n.ops.writes == 1);
}

TEST_CASE("unzip: one input, two outputs", "[analyzer]") {
    Program p = analyze_sample("unzip.c");
    check_spans(p, read_text(sample_path("unzip.c")));
    const LoopNest& n = nest_in(p, "gradient");
    CHECK(n.accepted);
    CHECK(n.kind == NestKind::Unzip);
    REQUIRE(n.input_arrays.size() == 1);
    CHECK(n.input_arrays[0].stencil == Offsets{{0, -1}, {-1, 0}, {1, 0}, {0, 1}});
    REQUIRE(n.output_arrays.size() == 2);
    CHECK(n.output_arrays[0].name == "gx");
    CHECK(n.output_arrays[1].name == "gy");
    check_loop(n.iteration_space[0], "x", 1, "1", 4095, "W-1", 1);
    check_loop(n.iteration_space[1], "y", 1, "1", 4095, "H-1", 0);
    check_extent(n.output_arrays[1].size[1], 4096, "H");
    CHECK(n.ops.writes == 2);
    CHECK(n.ops.reads == 4);
}

TEST_CASE("hotspot: clamped neighbours through MIN/MAX, time loop with pointer swap", "[analyzer]") {
    Program p = analyze_sample("hotspot.c");
    check_spans(p, read_text(sample_path("hotspot.c")));
    const LoopNest& n = nest_in(p, "simulate");
    CHECK(n.accepted);
    CHECK(n.kind == NestKind::Zip);
    check_loop(n.iteration_space[0], "c", 0, "0", 1024, "COLS", 1);
    check_loop(n.iteration_space[1], "r", 0, "0", 1024, "ROWS", 0);
    const ArrayProperties& temp = array_named(n.input_arrays, "temp");
    CHECK(temp.stencil == Offsets{{0, -1}, {-1, 0}, {0, 0}, {1, 0}, {0, 1}});
    CHECK(temp.linear_index == "r*COLS + c");
    CHECK(array_named(n.input_arrays, "power").stencil == Offsets{{0, 0}});
    CHECK(n.output_arrays[0].name == "next");
    REQUIRE(n.boundaries.size() == 4);
    for (const auto& b : n.boundaries) CHECK(b.kind == Boundary::Kind::Clamp);
    CHECK(n.boundaries[1].text == "MIN(r + 1, ROWS - 1)");
    REQUIRE(n.time_loop);
    CHECK(n.time_loop->form == TimeLoop::Form::For);
    CHECK(n.time_loop->exchange == TimeLoop::Exchange::PointerSwap);
    CHECK(n.time_loop->var == "t");
    check_extent(n.time_loop->iterations, 100, "STEPS");
    CHECK(n.time_loop->arrays == std::vector<std::string>{"temp", "next"});
    std::vector<std::string> scalars;
    for (const auto& s : n.scalars_read) scalars.push_back(s.name + ":" + s.type);
    CHECK(scalars == std::vector<std::string>{"step_cap:float", "ry_inv:float", "rx_inv:float", "AMBIENT:const float",
                                              "rz_inv:float"});
    CHECK(n.ops.reads == 6);
    CHECK(n.ops.writes == 1);
}

TEST_CASE("poisson 2D: pointer-to-array rows, while time loop with swap", "[analyzer]") {
    Program p = analyze_sample("poisson2d.c");
    check_spans(p, read_text(sample_path("poisson2d.c")));
    const LoopNest& n = nest_in(p, "jacobi");
    CHECK(n.accepted);
    check_loop(n.iteration_space[0], "j", 1, "1", 1025, "N+1", 1);
    check_loop(n.iteration_space[1], "i", 1, "1", 1025, "N+1", 0);
    const ArrayProperties& u = array_named(n.input_arrays, "u");
    CHECK(u.layout == ArrayLayout::MultiDim);
    CHECK(u.element_type == "double");
    CHECK(u.bytes_per_element == 8);
    check_extent(u.size[0], 1026, "N+2");
    check_extent(u.size[1], 1026, "N+2");
    CHECK(u.stencil == Offsets{{0, -1}, {-1, 0}, {1, 0}, {0, 1}});
    CHECK(array_named(n.input_arrays, "f").stencil == Offsets{{0, 0}});
    CHECK(n.output_arrays[0].name == "unew");
    REQUIRE(n.time_loop);
    CHECK(n.time_loop->form == TimeLoop::Form::While);
    CHECK(n.time_loop->exchange == TimeLoop::Exchange::PointerSwap);
    CHECK(n.time_loop->var == "iter");
    check_extent(n.time_loop->iterations, 100, "ITERATIONS");
    CHECK(n.time_loop->condition == "iter < ITERATIONS");
    CHECK(n.time_loop->arrays == std::vector<std::string>{"u", "unew"});
    REQUIRE(n.scalars_read.size() == 1);
    CHECK(n.scalars_read[0].name == "h2");
    CHECK(n.scalars_read[0].type == "double");
    CHECK(n.boundaries.size() == 2);
}

TEST_CASE("SOR 1D: rejected as DOACROSS with distance 1 both ways", "[analyzer]") {
    Program p = analyze_sample("sor1d.c");
    const LoopNest& n = nest_in(p, "sor");
    CHECK_FALSE(n.accepted);
    CHECK(rule_ids(n) == std::vector<std::string>{"doacross"});
    REQUIRE(n.reasons.size() == 1);
    CHECK(n.reasons[0].pos.line == 22);
    CHECK(n.reasons[0].pos.column == 21);
    CHECK(n.reasons[0].message ==
          "loop-carried dependence on 'a' (distance 1 in i): 'a[i - 1]' reads what an earlier iteration writes (flow); "
          "'a[i + 1]' is overwritten by a later iteration (anti); iterations cannot run independently (DOACROSS)");
    REQUIRE(n.dependences.size() == 2);
    CHECK(n.dependences[0].kind == Dependence::Kind::Flow);
    CHECK(n.dependences[0].distance == std::vector<int>{1});
    CHECK(n.dependences[1].kind == Dependence::Kind::Anti);
    CHECK(n.dependences[1].distance == std::vector<int>{1});
    REQUIRE(n.time_loop);
    CHECK(n.time_loop->exchange == TimeLoop::Exchange::None);
    check_extent(n.time_loop->iterations, 10, "SWEEPS");
    for (const auto& m : p.nests) CHECK_FALSE(m.accepted);
}

TEST_CASE("blur on float** rows: pointer-to-pointer layout, 3x3 stencil", "[analyzer]") {
    Program p = analyze_sample("blur_rows.c");
    check_spans(p, read_text(sample_path("blur_rows.c")));
    const LoopNest& n = nest_in(p, "box_blur");
    CHECK(n.accepted);
    const ArrayProperties& src = n.input_arrays.at(0);
    CHECK(src.name == "src");
    CHECK(src.layout == ArrayLayout::PointerToPointer);
    CHECK(src.element_type == "float");
    CHECK(src.linear_index.empty());
    check_extent(src.size[0], 4096, "W");
    check_extent(src.size[1], 4096, "H");
    CHECK(src.stencil == Offsets{{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {0, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}});
    const ArrayProperties& dst = n.output_arrays.at(0);
    CHECK(dst.layout == ArrayLayout::PointerToPointer);
    check_extent(dst.size[0], 4096, "W");
    // The rows come from alloc_rows(), an allocating function of the file.
    CHECK_FALSE(has_rule(n, "possible-aliasing"));
    CHECK(rule_ids(nest_in(p, "alloc_rows")) == std::vector<std::string>{"early-exit", "side-effect-call", "side-effect-call"});
}

TEST_CASE("Program JSON round-trips every sample", "[analyzer]") {
    for (const char* name : {"emboss.c", "hotspot.c", "poisson2d.c", "sor1d.c", "moving_average.c", "blur_rows.c"}) {
        INFO(name);
        Program p = analyze_sample(name);
        nlohmann::json j = to_json(p);
        CHECK(j["schema_version"] == kProgramSchemaVersion);
        Program back = program_from_json(j);
        CHECK(to_json(back) == j);
        REQUIRE(back.nests.size() == p.nests.size());
        CHECK(back.nests[0].input_arrays.size() == p.nests[0].input_arrays.size());
    }
}
