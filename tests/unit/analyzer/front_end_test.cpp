// The front end: the user's preprocessor, its line markers, the map back to
// the user's text, the compile database, macro values and the parentheses
// that macro expansion leaves around names.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "analyzer/compile_database.h"
#include "analyzer/macro_values.h"
#include "analyzer/parenthesized_names.h"
#include "analyzer/preprocessor.h"
#include "analyzer/source_map.h"
#include "analyzer/translation_unit.h"

using namespace recipe::analyzer;

namespace {

// A directory with the given files, removed at the end of the test.
struct TempTree {
    std::filesystem::path root;
    TempTree() {
        root = std::filesystem::temp_directory_path() / ("recipe-front-end-" + std::to_string(::getpid()) + "-" +
                                                         std::to_string(reinterpret_cast<std::uintptr_t>(this)));
        std::filesystem::create_directories(root);
    }
    ~TempTree() { std::filesystem::remove_all(root); }
    std::string put(const std::string& name, const std::string& text) const {
        const auto p = root / name;
        std::filesystem::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary) << text;
        return p.string();
    }
};

const LoopNest* nest_in(const Program& p, const std::string& function) {
    for (const auto& n : p.nests)
        if (n.function == function) return &n;
    return nullptr;
}

}  // namespace

TEST_CASE("line markers map every line back; system headers and directives are blanked", "[analyzer]") {
    const std::string out =
        "# 0 \"<stdin>\"\n"
        "# 1 \"/usr/include/stdio.h\" 1 3 4\n"
        "extern int printf (const char *__restrict __format, ...);\n"
        "# 2 \"<stdin>\" 2\n"
        "#define N 100\n"
        "# 1 \"grid.h\" 1\n"
        "#define IDX(x, y) ((x) + 100 * (y))\n"
        "typedef double real;\n"
        "# 4 \"<stdin>\" 2\n"
        "void f(real *a) {\n"
        "  fprintf(\n"
        "# 5 \"<stdin>\" 3 4\n"
        "          stderr\n"
        "# 5 \"<stdin>\"\n"
        "                , \"x\");\n"
        "}\n";
    const Preprocessed p = read_preprocessor_output(out, "src/heat.c");
    REQUIRE(p.lines.main_file >= 0);
    CHECK(p.lines.file_name(p.lines.main_file) == "src/heat.c");
    CHECK(p.text.find("extern int printf") == std::string::npos);  // the system header's declaration
    CHECK(p.text.find("#define") == std::string::npos);
    CHECK(p.macros.at("N") == "100");
    CHECK(p.macros.count("IDX") == 0);  // function-like: not a size
    CHECK(p.text.find("stderr") != std::string::npos);  // a system macro's tokens in the user's line stay
    const int typedef_line = 8;
    CHECK(p.lines.file_name(p.lines.origin(typedef_line).file) == "grid.h");
    CHECK(p.lines.origin(typedef_line).line == 2);
    CHECK(p.lines.origin(10).line == 4);  // void f(...)
    CHECK(p.lines.in_main_file(13));      // stderr, on line 5 of the input
    CHECK(p.lines.origin(13).line == 5);
    REQUIRE(p.lines.includes.size() == 2);
    CHECK(p.lines.has_user_headers());
}

TEST_CASE("token alignment maps offsets through macro expansions", "[analyzer]") {
    const std::string original = "#define W 8000\nint f(float *in) { return in[y * W + x] + SCALE(2); }\n";
    const std::string expanded = "\nint f(float *in) { return in[y * 8000 + x] + 2.0f; }\n";
    LineMap lines;
    lines.files = {"a.c"};
    lines.system = {false};
    lines.main_file = 0;
    lines.lines = {{0, 1}, {0, 2}, {0, 3}};
    const SourceMap map(expanded, lines, original);
    const auto at = static_cast<std::uint32_t>(expanded.find("in[y"));
    const auto end = static_cast<std::uint32_t>(expanded.find("] +") + 1);
    REQUIRE(map.original_text(at, end));
    CHECK(*map.original_text(at, end) == "in[y * W + x]");
    // A whole expansion maps to the whole invocation.
    const auto lit = static_cast<std::uint32_t>(expanded.find("2.0f"));
    CHECK(*map.original_text(lit, lit + 4) == "SCALE(2)");
    const auto eight = static_cast<std::uint32_t>(expanded.find("8000"));
    CHECK(*map.original_text(eight, eight + 4) == "W");
    // Columns for diagnostics point at what the user wrote.
    CHECK(map.place(2, static_cast<int>(lit - expanded.find("int")) + 1).column ==
          static_cast<int>(original.find("SCALE") - original.find("int")) + 1);
}

TEST_CASE("the preprocessor runs with the user's flags; its errors are the compiler's", "[analyzer]") {
    TempTree t;
    const std::string header = t.put("inc/sizes.h", "#ifndef N\n#define N 64\n#endif\n#define IDX(i, j) ((i) * N + (j))\n");
    const std::string file = t.put("k.c",
                                   "#include \"sizes.h\"\n"
                                   "#if defined(BIG)\n"
                                   "#define SCALE 4.0f\n"
                                   "#else\n"
                                   "#define SCALE 2.0f\n"
                                   "#endif\n"
                                   "void k(const float *restrict a, float *restrict b)\n"
                                   "{\n"
                                   "    for (int i = 0; i < N; i++)\n"
                                   "        for (int j = 0; j < N; j++)\n"
                                   "            b[IDX(i, j)] = SCALE * a[IDX(i, j)];\n"
                                   "}\n");
    std::string text;
    {
        std::ifstream in(file, std::ios::binary);
        text.assign(std::istreambuf_iterator<char>(in), {});
    }
    BuildFlags flags;
    flags.args = {"-I", (t.root / "inc").string(), "-DN=32"};
    TranslationUnit unit;
    std::string error;
    REQUIRE(analyze_translation_unit(file, text, flags, {}, &unit, &error));
    const LoopNest* n = nest_in(unit.program, "k");
    REQUIRE(n);
    CHECK(n->accepted);
    CHECK(n->span.begin.line == 9);  // lines of the user's file
    CHECK(n->iteration_space[0].upper.value == 32);  // -D reached the preprocessor
    CHECK(n->iteration_space[0].upper.expr == "N");  // and is spelled as the user wrote it
    CHECK(n->output_arrays.at(0).accesses.at(0).text == "b[IDX(i, j)]");
    CHECK(unit.program.preprocessor.find("-DN=32") != std::string::npos);

    // A missing header: the compiler's own message, in the compiler's form.
    flags.args = {};
    TranslationUnit missing;
    CHECK_FALSE(analyze_translation_unit(file, text, flags, {}, &missing, &error));
    CHECK(error.rfind(file + ":1:10: error: sizes.h: No such file or directory", 0) == 0);

    flags.cc = "no-such-compiler-anywhere";
    CHECK_FALSE(analyze_translation_unit(file, text, flags, {}, &missing, &error));
    CHECK(error.find("cannot run the C compiler 'no-such-compiler-anywhere'") != std::string::npos);
}

TEST_CASE("the unit keeps its one parse and reads what the generator copies as written", "[analyzer]") {
    TempTree t;
    const std::string file = t.put("k.c",
                                   "#define N 64\n"
                                   "typedef long idx_t;\n"
                                   "void k(const float *restrict a, float *restrict b)\n"
                                   "{\n"
                                   "    idx_t j;\n"
                                   "    for (int i = 1; i <= N - 2; i++)\n"
                                   "        for (j = 0; j < N; j++)\n"
                                   "            b[i * N + j] = a[(i + 1) * N + j];\n"
                                   "}\n");
    std::string text;
    {
        std::ifstream in(file, std::ios::binary);
        text.assign(std::istreambuf_iterator<char>(in), {});
    }
    TranslationUnit unit;
    std::string error;
    REQUIRE(analyze_translation_unit(file, text, {}, {}, &unit, &error));
    REQUIRE(unit.tree);
    CHECK(unit.tree->source() == unit.preprocessed());
    const LoopNest* n = nest_in(unit.program, "k");
    REQUIRE(n);
    REQUIRE(n->iteration_space.size() == 2);
    const LoopProperties& x = n->iteration_space[0];  // x first: the inner loop
    CHECK(x.lower_written == "0");
    CHECK(x.upper_written == "N");
    CHECK(x.counter_type == "idx_t");
    const LoopProperties& y = n->iteration_space[1];
    CHECK(y.lower_written == "1");
    CHECK(y.upper_written == "N - 2 + 1");
    CHECK(y.counter_type == "int");
    // The coordinates are the preprocessed text's: N arrives as 64.
    CHECK(n->input_arrays.at(0).accesses.at(0).coordinates == std::vector<std::string>{"j", "i + 1"});
}

TEST_CASE("compile_commands.json gives a file its flags, paths made absolute", "[analyzer]") {
    const std::string db = R"([
      {"directory": "/src/proj", "file": "other.c", "command": "cc -DX=1 -c other.c"},
      {"directory": "/src/proj/build", "file": "../kernels/heat.c",
       "arguments": ["gcc", "-Iinclude", "-I", "/opt/inc", "-DSIZE=512", "-D", "MODE=2", "-std=c99", "-O2", "-march=native",
                     "-ffast-math", "-Wall", "-fPIC", "-include", "cfg.h", "-c", "../kernels/heat.c"]}
    ])";
    CompileEntry e;
    std::string error;
    REQUIRE(find_compile_entry(db, "build/compile_commands.json", "/src/proj/kernels/heat.c", &e, &error));
    CHECK(e.compiler == "gcc");
    CHECK(e.flags == std::vector<std::string>{"-I/src/proj/build/include", "-I", "/opt/inc", "-DSIZE=512", "-D", "MODE=2",
                                              "-std=c99", "-O2", "-march=native", "-ffast-math", "-include",
                                              "/src/proj/build/cfg.h"});  // what the compiler vectorises: kept; warnings, -fPIC: not
    CHECK_FALSE(find_compile_entry(db, "db.json", "/src/proj/none.c", &e, &error));
    CHECK(error.find("no entry for /src/proj/none.c") != std::string::npos);
    CHECK_FALSE(find_compile_entry("{}", "db.json", "x.c", &e, &error));
    CHECK(split_command("cc -DNAME='\"a b\"' -I\"my dir\" x.c") == std::vector<std::string>{"cc", "-DNAME=\"a b\"", "-Imy dir", "x.c"});
}

TEST_CASE("macro values and the user's spelling of folded numbers", "[analyzer]") {
    const auto values = macro_values({{"N", "1024"}, {"M", "(N + 2)"}, {"SHIFT", "(1 << 4)"}, {"F", "2.5"}, {"SELF", "SELF"}});
    CHECK(values.at("N") == 1024);
    CHECK(values.at("M") == 1026);
    CHECK(values.at("SHIFT") == 16);
    CHECK(values.count("F") == 0);
    CHECK(values.count("SELF") == 0);
    CHECK(spell_with_macro(1026, {"N"}, values) == "N+2");
    CHECK(spell_with_macro(1022, {"N"}, values) == "N-2");
    CHECK(spell_with_macro(1026, {"M", "N"}, values) == "M");
    CHECK(spell_with_macro(7, {"N"}, values).empty());
    CHECK(integer_value("1300 + 0") == 1300);
}

TEST_CASE("a macro beyond 64 bits is not a constant, and spelling near the limits does not overflow", "[analyzer]") {
    const auto values = macro_values({{"HUGE", "10009223372036854775807"},
                                      {"BIG", "9223372036854775807"},
                                      {"SUM", "(BIG + 1)"},
                                      {"PRODUCT", "(BIG * 2)"},
                                      {"NEGATED", "(-(-BIG - 1))"},
                                      {"SHIFTED", "(1 << 62) << 2"},
                                      {"QUOTIENT", "((-BIG - 1) / -1)"}});
    CHECK(values.count("HUGE") == 0);
    CHECK(values.at("BIG") == INT64_MAX);
    for (const char* name : {"SUM", "PRODUCT", "NEGATED", "SHIFTED", "QUOTIENT"}) {
        INFO(name);
        CHECK(values.count(name) == 0);
    }
    CHECK(spell_with_macro(INT64_MAX, {"BIG"}, values) == "BIG");
    CHECK(spell_with_macro(INT64_MIN, {"BIG"}, values).empty());
    CHECK(spell_with_macro(INT64_MAX - 3, {"BIG"}, values) == "BIG-3");
}

TEST_CASE("parentheses macro expansion puts around names are blanked, a cast's are not", "[analyzer]") {
    std::string text = "typedef float real;\nx = a[((i) + 10 * ((j)))] + (real)(k) + f(n) + (size_t)m + g((p));\n";
    const auto types = type_names(text);
    CHECK(types.count("real"));
    const std::string before = text;
    blank_name_parentheses(&text, types);
    CHECK(text.size() == before.size());
    CHECK(text.find("( i  + 10 * ( j ))") != std::string::npos);
    CHECK(text.find("(real)") != std::string::npos);
    CHECK(text.find("(size_t)m") != std::string::npos);
    CHECK(text.find("f(n)") != std::string::npos);
    CHECK(text.find("g( p )") != std::string::npos);
}

TEST_CASE("an inner loop that accumulates is a reduction, and that is the reason given", "[analyzer]") {
    const char* src = R"(#define N 100
void mv(int n, double A[N][N], double *restrict x, double *restrict y)
{
    int i, j;
    for (i = 0; i < n; i++) {
        y[i] = 0;
        for (j = 0; j < n; j++)
            y[i] = y[i] + A[i][j] * x[j];
    }
}
)";
    const Program p = analyze_source("mv.c", src, {});
    REQUIRE(p.nests.size() >= 1);
    const LoopNest& n = p.nests.front();
    CHECK_FALSE(n.accepted);
    REQUIRE_FALSE(n.reasons.empty());
    CHECK(n.reasons.front().rule_id == "reduction");
    CHECK(n.reasons.front().message.rfind("reduction over 'j' into 'y[i]'", 0) == 0);
    for (const auto& r : n.reasons) CHECK(r.rule_id != "strided-access");
}

TEST_CASE("a temporary declared at the top of the function is private to each iteration", "[analyzer]") {
    const char* src = R"(#define N 1000
void step(const float *restrict t, float *restrict r)
{
    float delta;
    int i;
    for (i = 1; i < N - 1; i++) {
        delta = t[i - 1] + t[i + 1] - 2.f * t[i];
        r[i] = t[i] + delta;
    }
}
float last(const float *restrict t, float *restrict r)
{
    float delta = 0;
    int i;
    for (i = 1; i < N - 1; i++) {
        delta = t[i - 1] - t[i];
        r[i] = delta;
    }
    return delta;
}
)";
    const Program p = analyze_source("t.c", src, {});
    const LoopNest* step = nest_in(p, "step");
    const LoopNest* last = nest_in(p, "last");
    REQUIRE(step);
    REQUIRE(last);
    CHECK(step->accepted);
    CHECK_FALSE(last->accepted);
    REQUIRE_FALSE(last->reasons.empty());
    CHECK(last->reasons.front().message ==
          "writes 'delta', declared outside the loop nest, and reads its last value after the loop (line 19): which "
          "iteration ran last decides it");
}

TEST_CASE("sizes held in struct fields are planned with --assume g->nx=VALUE", "[analyzer]") {
    const char* src = R"(typedef struct { int nx, ny; double *u; } grid_t;
void heat(const grid_t *in, grid_t *out)
{
    for (int j = 1; j < in->ny - 1; j++)
        for (int i = 1; i < in->nx - 1; i++)
            out->u[j * in->nx + i] = 0.25 * (in->u[j * in->nx + i - 1] + in->u[j * in->nx + i + 1]);
}
)";
    AnalyzeOptions o;
    o.assumptions = {{"in->nx", "2048"}, {"in->ny", "1024"}};
    o.assume_no_alias = true;
    const Program p = analyze_source("g.c", src, o);
    REQUIRE(p.nests.size() == 1);
    const LoopNest& n = p.nests.front();
    INFO((n.reasons.empty() ? std::string() : n.reasons.front().message));
    CHECK(n.accepted);
    CHECK(n.iteration_space[0].upper.value == 2047);
    CHECK(n.iteration_space[1].upper.value == 1023);
}

TEST_CASE("an array reached through (*B) is rejected for that, not for a guess about aliasing", "[analyzer]") {
    const char* src = R"(#include <stdlib.h>
void init(int n, double A[100][100])
{
    double (*B)[100][100] = malloc(sizeof *B);
    for (int r = 0; r < 100; ++r)
        for (int s = 0; s < 100; ++s)
            A[r][s] = (*B)[r][s];
    free(B);
}
)";
    const Program p = analyze_source("b.c", src, {});
    REQUIRE(p.nests.size() == 1);
    const LoopNest& n = p.nests.front();
    CHECK_FALSE(n.accepted);
    REQUIRE_FALSE(n.reasons.empty());
    CHECK(n.reasons.front().rule_id == "dereferenced-array");
    for (const auto& r : n.reasons) CHECK(r.rule_id != "possible-aliasing");
}
