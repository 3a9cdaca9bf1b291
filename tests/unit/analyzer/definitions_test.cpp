// The definitions pass skips expression and declarator subtrees whose text
// cannot hold a call, an assignment, an address, an increment or a block.
// The text test may say yes wrongly, never no; and what hides in grouping
// parentheses, behind a comment or in a compound assignment is still found.
#include "analyzer/definitions.h"
#include "tests/unit/analyzer/analyzer_test_util.h"

using namespace recipe::analyzer;
using namespace recipe::analyzer::test;

TEST_CASE("definitions: the text test finds calls, assignments, addresses, increments and blocks", "[analyzer]") {
    for (const char* yes : {"f(x)", "f (x)", "f /* why */ (x)", "a[i](x)", "(*fp)(x)", "(a + g(b)) * 2", "x = 1",
                            "(x = 1) != 0", "x += 1", "x -= 1", "x *= 2", "x /= 2", "x %= 2", "x &= 1", "x |= 1", "x ^= 1",
                            "x <<= 1", "x >>= 1", "&x", "p = &x", "a & b", "i++", "--i", "a[i++]", "({ int t = 0; t; })",
                            "(struct s){ 1 }", "sizeof(x)"})
        CHECK(may_hold_definitions(yes));
    for (const char* no : {"", "x", "(a + b) * 2", "a == b", "a <= b", "a >= b", "a != b", "a && b", "p->x", "-x", "a - -b",
                           "(float)x", "a[i - 1]", "(a[(y - 1) * w + x] + a[y * w + x]) / 2.0f", "x < y ? x : y", "*in",
                           "grid[128][128]", "(const float *in, float *out, int n)"})
        CHECK_FALSE(may_hold_definitions(no));
}

TEST_CASE("definitions: a call inside grouping parentheses and behind a comment is found", "[analyzer]") {
    // `step` is called once with two distinct allocations: no alias. The
    // call sits in a comma expression inside arithmetic parentheses, with a
    // comment between the callee and its arguments.
    Program p = analyze_text(R"(
#include <stdlib.h>
static void step(const float *in, float *out, int n) {
    for (int i = 1; i < n - 1; i++) out[i] = in[i - 1] + in[i + 1];
}
int main(void) {
    float *a = malloc(64 * sizeof *a);
    float *b = calloc(64, sizeof *b);
    int k = (1 + ((step /* one sweep */ (a, b, 64)), 2) * 3);
    return k;
}
)");
    CHECK(nest_in(p, "step").accepted);
}

TEST_CASE("definitions: an assignment inside a condition's parentheses is found", "[analyzer]") {
    // `out` is set from `in` inside a comparison: the two may overlap.
    Program p = analyze_text(R"(
#include <stdlib.h>
#define N 1024
float *in, *out;
static void step(void) {
    for (int i = 1; i < N - 1; i++) out[i] = in[i - 1] + in[i + 1];
}
int main(void) {
    in = malloc(N * sizeof *in);
    out = calloc(N, sizeof *out);
    if (((out = in + 1)) != 0 && N > 2)
        step();
    return 0;
}
)");
    CHECK(rule_ids(nest_in(p, "step")) == std::vector<std::string>{"possible-aliasing"});
}
