// recipes/host_uses.h: whether the host reads an array after a span, and
// whether a statement between nests may touch their arrays.
#include <catch2/catch.hpp>

#include "analyzer/syntax_tree.h"
#include "recipes/c_tree.h"
#include "recipes/host_uses.h"

using namespace recipe::recipes;

namespace {

// `body` is a function's body with the span marked /*<*/ ... /*>*/.
bool dead(const std::string& body, const std::string& name, const std::string& params = "void") {
    const std::string text = "#include <stdlib.h>\nvoid f(" + params + ")\n{\n" + body + "\n}\n";
    const recipe::analyzer::SyntaxTree parsed(text);
    const CTree tree(parsed);
    const auto begin = static_cast<std::uint32_t>(text.find("/*<*/"));
    const auto end = static_cast<std::uint32_t>(text.find("/*>*/"));
    REQUIRE(begin != std::string::npos);
    REQUIRE(end != std::string::npos);
    return dead_after(tree, begin, end, name);
}

const char* kSpan = "    /*<*/ for (i = 0; i < 8; i++) a[i] = 1; /*>*/\n";

}  // namespace

TEST_CASE("an array declared in the function and only freed after the span is dead after it", "[recipes]") {
    const std::string decl = "    int i;\n    float *a = malloc(8 * sizeof *a);\n    if (!a || a == NULL) return;\n";
    CHECK(dead(decl + kSpan + "    free(a);", "a"));
    CHECK(dead("    int i;\n    float *a;\n    a = (float *)malloc(32);\n    a[0] = 3;\n" + std::string(kSpan) + "    free(a);", "a"));
    CHECK(dead("    int i;\n    float a[8];\n" + std::string(kSpan), "a"));
}

TEST_CASE("an array the host may read after the span is live", "[recipes]") {
    const std::string decl = "    int i;\n    float *a = malloc(32);\n";
    CHECK_FALSE(dead(decl + kSpan + "    a[3] += 1;", "a"));          // an element after
    CHECK_FALSE(dead(decl + kSpan + "    g(a);", "a"));               // passed on
    CHECK_FALSE(dead(decl + "    float *b = a;\n" + kSpan, "a"));    // an alias
    CHECK_FALSE(dead(decl + "    return;\n" + kSpan + "    *a = 0;", "a"));
    CHECK_FALSE(dead("    int i;\n    static float a[8];\n" + std::string(kSpan), "a"));  // lives on
    CHECK_FALSE(dead("    int i;\n" + std::string(kSpan), "a", "float *a"));            // the caller's
    CHECK_FALSE(dead("    int i;\n" + std::string(kSpan), "a"));                        // a global
    // Before the span but in a loop around it: read again on the next turn.
    CHECK_FALSE(dead(decl + "    for (int r = 0; r < 3; r++) {\n    a[0] = a[1];\n" + kSpan + "    }", "a"));
    // In a loop, even unused around it: the span's next turn reads the host's copy.
    CHECK_FALSE(dead(decl + "    for (int r = 0; r < 3; r++) {\n" + kSpan + "    }\n    free(a);", "a"));
}

TEST_CASE("statements between nests that may touch their arrays are named", "[recipes]") {
    const std::string text = "void g(void) {}\nvoid f(float *a)\n{\n    puts(\"x\");\n    a[0] = 1;\n    int k = 2;\n"
                             "    g();\n    return;\n}\n";
    const recipe::analyzer::SyntaxTree parsed(text);
    const CTree tree(parsed);
    std::vector<TSNode> statements;
    walk(tree.root(), [&](TSNode n) {
        if (is(ts_node_parent(n), "compound_statement") && ts_node_start_byte(n) > text.find("void f")) statements.push_back(n);
    });
    REQUIRE(statements.size() == 5);
    const std::set<std::string> arrays{"a"};
    CHECK(between_problem(tree, statements[0], arrays).empty());
    CHECK(between_problem(tree, statements[1], arrays) == "uses `a`");
    CHECK(between_problem(tree, statements[2], arrays) == "declares a variable");
    CHECK(between_problem(tree, statements[3], arrays) == "calls `g()`, defined in this file");
    CHECK(between_problem(tree, statements[4], arrays) == "may jump out");
}
