// analyzer/vectorization.h: which of the file's loops the user's compiler
// vectorises, and how wide, from its own report; the nests' lanes.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "analyzer/compiler_run.h"
#include "analyzer/translation_unit.h"
#include "analyzer/vectorization.h"

using namespace recipe::analyzer;

namespace {

// Analyses `text` as the file k.c of a fresh directory, with `flags`.
Program analyzed(const std::string& text, const BuildFlags& flags = {}) {
    const auto dir = std::filesystem::temp_directory_path() / ("recipe-vectorization-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string file = (dir / "k.c").string();
    std::ofstream(file, std::ios::binary) << text;
    TranslationUnit unit;
    std::string error;
    const bool ok = analyze_translation_unit(file, text, flags, {}, &unit, &error);
    std::filesystem::remove_all(dir);
    REQUIRE(ok);
    return std::move(unit.program);
}

const LoopNest& nest_in(const Program& p, const std::string& function) {
    for (const auto& n : p.nests)
        if (n.function == function) return n;
    FAIL("no nest in " << function);
    return p.nests.front();
}

// Two nests the compiler treats differently: a float loop through restrict
// pointers, its trip count a multiple of four (vectorised at -O2 by GCC 12
// and later, and by Clang), and one whose iterations depend on each other.
const char* kTwoLoops =
    "#define N 1024\n"
    "void scale(float *restrict out, const float *restrict in)\n"
    "{\n"
    "    for (int i = 0; i < N; i++)\n"
    "        out[i] = 2.0f * in[i];\n"
    "}\n"
    "void running(float *a, const float *b)\n"
    "{\n"
    "    for (int i = 1; i < N; i++)\n"
    "        a[i] = a[i - 1] * 0.5f + b[i];\n"
    "}\n";

}  // namespace

TEST_CASE("the compiler's vectorisation report is read line by line, GCC's and Clang's", "[analyzer]") {
    const auto loops = parse_vector_report(
        "<stdin>:4:23: optimized: loop vectorized using 16 byte vectors\n"
        "<stdin>:9:5: missed: couldn't vectorize loop\n"
        "inc/./k.h:12:3: optimized: loop vectorized using 32 byte vectors\n"
        "<stdin>:5:4: optimized: basic block part vectorized using 16 byte vectors\n"
        "k.c:20:5: remark: vectorized loop (vectorization width: 8, interleaved count: 2) [-Rpass=loop-vectorize]\n");
    REQUIRE(loops.size() == 3);
    CHECK(loops[0].file == "<stdin>");
    CHECK(loops[0].line == 4);
    CHECK(loops[0].vector_bytes == 16);
    CHECK(loops[1].file == "inc/k.h");  // the path made normal, as the nests' files are
    CHECK(loops[1].vector_bytes == 32);
    CHECK(loops[2].line == 20);
    CHECK(loops[2].lanes == 8);
    CHECK(loops[2].vector_bytes == 0);
}

TEST_CASE("a nest's lanes: its widest vectorised loop over its widest element; 1 when none; 0 without a report", "[analyzer]") {
    Program p;
    LoopNest a, b;
    a.span.begin.line = 10;
    a.span.end.line = 14;
    a.input_arrays.push_back({});
    a.input_arrays.back().bytes_per_element = 8;  // doubles: 16-byte vectors hold two
    a.iteration_space.push_back({});
    a.iteration_space.back().var = "x";
    b = a;
    b.span.begin.line = 20;
    b.span.end.line = 22;
    p.nests = {a, b};
    VectorReport report;
    report.known = true;
    report.command = "cc -O2 -fopt-info-vec-optimized k.c";
    report.loops = {{"<stdin>", 12, 16, 0}, {"<stdin>", 30, 16, 0}, {"other.h", 21, 16, 0}};
    apply_vector_report(report, &p);
    CHECK(p.nests[0].host_vector_lanes == 2);
    CHECK(p.nests[1].host_vector_lanes == 1);  // the loop at line 21 is another file's
    CHECK(p.vector_report == report.command);

    // A clamped contiguous index: its elements are loaded lane by lane.
    p.nests[0].boundaries.push_back({Boundary::Kind::Clamp, "x > 0 ? x - 1 : 0", {}});
    apply_vector_report(report, &p);
    CHECK(p.nests[0].host_vector_lanes == 1);
    p.nests[0].boundaries.back().text = "xy > 0 ? xy - 1 : 0";  // another variable: not the contiguous index
    apply_vector_report(report, &p);
    CHECK(p.nests[0].host_vector_lanes == 2);

    report = {};
    report.why_unknown = "the C compiler 'tcc' is neither GCC nor Clang";
    apply_vector_report(report, &p);
    CHECK(p.nests[0].host_vector_lanes == 0);
    CHECK(p.vector_report.empty());
    CHECK(p.vector_report_missing == report.why_unknown);
}

TEST_CASE("the user's compiler says which nests it vectorises, at their optimisation level (-O2 when none)", "[analyzer]") {
    const Program p = analyzed(kTwoLoops);
    CHECK(p.vector_report.find("-O2") != std::string::npos);
    CHECK(p.vector_report.find("k.c") != std::string::npos);
    CHECK(nest_in(p, "scale").host_vector_lanes >= 4);   // 16-byte vectors or wider hold four floats or more
    CHECK(nest_in(p, "running").host_vector_lanes == 1);  // a carried dependence: not vectorised

    BuildFlags unoptimised;
    unoptimised.args = {"-O0"};
    const Program o0 = analyzed(kTwoLoops, unoptimised);
    CHECK(o0.vector_report.find("-O2") == std::string::npos);
    CHECK(nest_in(o0, "scale").host_vector_lanes == 1);

    BuildFlags not_a_c_compiler;
    not_a_c_compiler.cc = "cat";  // runs and fails: no report is read, and the model keeps one rate
    const VectorReport none = vectorization_report("k.c", kTwoLoops, not_a_c_compiler);
    CHECK_FALSE(none.known);
    CHECK(none.why_unknown == "'cat -E' failed (exit 1): its vectorisation report is not read");
    not_a_c_compiler.cc = "no-such-compiler-anywhere";
    CHECK(vectorization_report("k.c", kTwoLoops, not_a_c_compiler).why_unknown.find("could not be run") != std::string::npos);
}

TEST_CASE("a compiler run that outlasts its time is stopped; one that does not is left alone", "[analyzer]") {
    CompilerRun run;
    std::string error;
    const auto t0 = std::chrono::steady_clock::now();
    REQUIRE(run_compiler({"sleep", "30"}, "", &run, &error, 0.2));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(run.timed_out);
    CHECK(run.exit_status == -1);
    CHECK(seconds < 5);
    REQUIRE(run_compiler({"cat"}, "int x;\n", &run, &error, 10));
    CHECK_FALSE(run.timed_out);
    CHECK(run.exit_status == 0);
    CHECK(run.out == "int x;\n");
}

TEST_CASE("a nest that clamps its contiguous index keeps its compiler's width and counts the reads loaded lane by lane", "[analyzer]") {
    // emboss's form: four of its six reads have a clamped contiguous
    // coordinate (xm, xp); in[yp * W + x] and in[ym * W + x] clamp only y.
    const Program p = analyzed(
        "#define W 512\n"
        "#define H 512\n"
        "void emboss(const float *restrict in, float *restrict out)\n"
        "{\n"
        "    for (int y = 0; y < H; y++)\n"
        "        for (int x = 0; x < W; x++) {\n"
        "            int xm = x > 0 ? x - 1 : 0;\n"
        "            int xp = x < W - 1 ? x + 1 : W - 1;\n"
        "            int ym = y > 0 ? y - 1 : 0;\n"
        "            int yp = y < H - 1 ? y + 1 : H - 1;\n"
        "            float lit = in[y * W + xp] + in[yp * W + x] + in[yp * W + xp];\n"
        "            float shade = in[y * W + xm] + in[ym * W + x] + in[ym * W + xm];\n"
        "            out[y * W + x] = 0.5f + (lit - shade) / 6.0f;\n"
        "        }\n"
        "}\n"
        "void rows(const float *restrict in, float *restrict out)\n"
        "{\n"
        "    for (int y = 0; y < H; y++)\n"
        "        for (int x = 0; x < W; x++) {\n"
        "            int yp = y < H - 1 ? y + 1 : H - 1;\n"
        "            out[y * W + x] = in[y * W + x] + in[yp * W + x];\n"
        "        }\n"
        "}\n");
    REQUIRE_FALSE(p.vector_report.empty());
    const LoopNest& e = nest_in(p, "emboss");
    CHECK(e.host_vector_lanes == 1);
    CHECK(e.host_lane_loads == 4);
    CHECK(e.host_reported_lanes >= 1);
    const LoopNest& r = nest_in(p, "rows");  // only y clamped: vectorised as usual
    CHECK(r.host_lane_loads == 0);
    CHECK(r.host_reported_lanes == 0);
}
