// A large file is parsed, collected, searched and analysed in parts on two
// threads: the report and the JSON must be byte for byte those of one tree
// on one thread, including what one part needs from the other (a helper
// called across the cut, sizes defined before it).
#include <sstream>

#include "analyzer/program_json.h"
#include "analyzer/report.h"
#include "analyzer/syntax_tree.h"
#include "tests/unit/analyzer/analyzer_test_util.h"

using namespace recipe::analyzer;
using namespace recipe::analyzer::test;

namespace {

std::string json_of(const Program& p) {
    std::ostringstream out;
    write_json(out, p);
    return out.str();
}

// Blocks of stencils with unique names. `scale_K` is called in block K with
// a constant size but defined only in the last block, far past the middle
// of the file, so its bounds are known only from calls in the other part.
std::string large_file(std::size_t bytes) {
    std::string code = "#define N 4096\nenum { ROWS = 64, COLS = 96 };\nstatic const int HALO = 1;\n";
    int blocks = 0;
    while (code.size() < bytes) {
        std::string k = std::to_string(blocks++);
        code += "static void scale_" + k + "(const float *in, float *out, int n);\n"
                "void smooth_" + k + "(const float *in, float *out)\n{\n"
                "    for (int i = HALO; i < N - HALO; i++)\n"
                "        out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0f;\n"
                "    scale_" + k + "(in, out, 512);\n}\n"
                "float grid_" + k + "[ROWS][COLS], next_" + k + "[ROWS][COLS];\n"
                "void relax_" + k + "(int steps)\n{\n"
                "    for (int t = 0; t < steps; t++)\n"
                "        for (int y = 1; y < ROWS - 1; y++)\n"
                "            for (int x = 1; x < COLS - 1; x++)\n"
                "                next_" + k + "[y][x] = 0.25f * (grid_" + k + "[y - 1][x] + grid_" + k +
                "[y + 1][x] + grid_" + k + "[y][x - 1] + grid_" + k + "[y][x + 1]);\n}\n"
                "double dot_" + k + "(const double *a, const double *b, int n)\n{\n"
                "    double s = 0;\n    for (int i = 0; i < n; i++)\n        s += a[i] * b[i];\n    return s;\n}\n";
    }
    for (int b = 0; b < blocks; ++b) {
        std::string k = std::to_string(b);
        code += "static void scale_" + k + "(const float *in, float *out, int n)\n{\n"
                "    for (int i = 1; i < n - 1; i++)\n        out[i] = 2.0f * in[i];\n}\n";
    }
    return code;
}

void check_same_both_ways(const std::string& code) {
    AnalyzeOptions one;
    one.parallel = false;
    Program split = analyze_source("big.c", code, {});
    Program whole = analyze_source("big.c", code, one);
    REQUIRE(split.nests.size() == whole.nests.size());
    CHECK(format_report(split, code) == format_report(whole, code));
    CHECK(json_of(split) == json_of(whole));
}

}  // namespace

TEST_CASE("a large file split in two parses, collects and analyses to the same report and JSON as one tree", "[analyzer]") {
    std::string code = large_file(900u << 10);
    SyntaxTree tree(code);
    REQUIRE(tree.parts() >= 2);
    check_same_both_ways(code);

    // Many nests: the JSON is written in runs side by side, still exactly
    // what the tree prints.
    Program p0 = analyze_source("big.c", code, {});
    REQUIRE(p0.nests.size() > 1000);
    CHECK(json_of(p0) == to_json(p0).dump(2));

    // The helpers' bounds come from calls in the other part.
    Program p = analyze_source("big.c", code, {});
    const LoopNest& helper = nest_in(p, "scale_0");
    CHECK(helper.iteration_space.at(0).upper.value == 511);
}

TEST_CASE("a large file with no safe place to cut is parsed as one tree, with the same results", "[analyzer]") {
    // One function body larger than the threshold: no top-level boundary
    // near the middle.
    std::string code = "void big(float *a, const float *b, int n)\n{\n";
    for (int i = 0; code.size() < (700u << 10); ++i)
        code += "    for (int i" + std::to_string(i) + " = 1; i" + std::to_string(i) + " < n - 1; i" + std::to_string(i) +
                "++) a[i" + std::to_string(i) + "] = b[i" + std::to_string(i) + " - 1] + b[i" + std::to_string(i) + " + 1];\n";
    code += "}\n";
    SyntaxTree tree(code);
    CHECK(tree.parts() == 1);
    check_same_both_ways(code);
}

TEST_CASE("a file is cut at several places in one scan, each the first safe line after its place", "[analyzer]") {
    std::string code =
        "int a;\n/* x\nint b; */\nvoid f(void) {\n  int c;\n}\n#if X\nint d;\n#endif\n"
        "char *s = \"{ unclosed\";\nint e;\nint g;\n";
    std::vector<std::size_t> wanted{2, code.find("int c"), code.find("int e") + 1};
    std::vector<std::size_t> cuts = top_level_cuts(code, wanted);
    REQUIRE(cuts.size() == 3);
    CHECK(code.substr(cuts[0], 6) == "void f");
    CHECK(code.substr(cuts[1], 9) == "char *s =");
    CHECK(code.substr(cuts[2], 5) == "int g");
    for (std::size_t k = 0; k < wanted.size(); ++k) CHECK(cuts[k] == top_level_cut(code, wanted[k]));
    // Two wanted places before the same safe line give one cut.
    CHECK(top_level_cuts(code, {2, 3}).size() == 1);
    // A comment left open stops the scan with the cuts found before it.
    std::string open = "int a;\nint b;\n/* never closed\nint c;\n";
    CHECK(top_level_cuts(open, {1, open.find("int c")}) == std::vector<std::size_t>{open.find("int b")});
}
