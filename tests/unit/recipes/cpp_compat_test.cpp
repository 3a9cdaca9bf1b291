#include <catch2/catch.hpp>

#include "analyzer/syntax_tree.h"
#include "recipes/c_tree.h"
#include "recipes/cpp_compat.h"

using namespace recipe::recipes;

namespace {
std::string fixed(const std::string& src) {
    const recipe::analyzer::SyntaxTree parsed(src);
    CTree tree(parsed);
    std::vector<Edit> edits;
    for (const auto& f : cpp_compat_fixes(tree, {})) {
        edits.push_back(f.edit);
        edits.insert(edits.end(), f.extra.begin(), f.extra.end());
    }
    return apply_edits(src, edits);
}
}  // namespace

TEST_CASE("void* from allocators is cast to the declared type", "[recipes]") {
    CHECK(fixed("void f(void) { float *in = malloc(8); }") == "void f(void) { float *in = (float *)malloc(8); }");
    CHECK(fixed("#define N 4\nvoid f(void) { double (*u)[N + 2] = calloc(N + 2, sizeof *u); }") ==
          "#define N 4\nvoid f(void) { double (*u)[N + 2] = (double (*)[N + 2])calloc(N + 2, sizeof *u); }");
    CHECK(fixed("void f(void) { const float *p = malloc(8); }") == "void f(void) { const float *p = (const float *)malloc(8); }");
    CHECK(fixed("void f(void) { void *p = malloc(8); int n = abs(3); }") == "void f(void) { void *p = malloc(8); int n = abs(3); }");
}

TEST_CASE("assignments of void* are cast to the target's type", "[recipes]") {
    const std::string src =
        "static void *make(void) { return 0; }\n"
        "void f(int z) {\n"
        "    float **rows = malloc(4 * sizeof *rows);\n"
        "    double (*r)[6];\n"
        "    rows[0] = z ? calloc(4, 4) : malloc(16);\n"
        "    r = make();\n"
        "}\n";
    const std::string want =
        "static void *make(void) { return 0; }\n"
        "void f(int z) {\n"
        "    float **rows = (float **)malloc(4 * sizeof *rows);\n"
        "    double (*r)[6];\n"
        "    rows[0] = (float *)(z ? calloc(4, 4) : malloc(16));\n"
        "    r = (double (*)[6])make();\n"
        "}\n";
    CHECK(fixed(src) == want);
}

TEST_CASE("restrict becomes __restrict__, and skipped spans are left alone", "[recipes]") {
    CHECK(fixed("void f(float *restrict a) {}") == "void f(float *__restrict__ a) {}");
    const std::string src = "void f(void) { float *a = malloc(4); }";
    const recipe::analyzer::SyntaxTree parsed(src);
    CTree tree(parsed);
    CHECK(cpp_compat_fixes(tree, {{0, static_cast<std::uint32_t>(src.size())}}).empty());
}
