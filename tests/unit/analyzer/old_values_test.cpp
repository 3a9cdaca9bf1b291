// Whether a nest needs an output's old values (analyzer/old_values.h): the
// forms teaching codes and PolyBench write.
#include "analyzer_test_util.h"

using namespace recipe::analyzer;
using namespace recipe::analyzer::test;

namespace {

const ArrayProperties& output(const LoopNest& n, const std::string& name) {
    for (const auto& a : n.output_arrays)
        if (a.name == name) return a;
    FAIL("no output " << name);
    throw;
}

// The output `array` of the nest in `fn`, a function `main` calls: `kernel`
// holds it, `main_body` is main's body before its return.
ArrayProperties called_output(const std::string& kernel, const std::string& main_body, const std::string& fn,
                              const std::string& array) {
    const Program p = analyze_text("#include <stdlib.h>\n" + kernel + "int main(void)\n{\n" + main_body + "\n    return 0;\n}\n");
    const LoopNest& n = nest_in(p, fn);
    REQUIRE(n.accepted);
    return output(n, array);
}

LoopNest nest_of(const std::string& body) {
    const Program p = analyze_text("void f(float *restrict a, float *restrict b, const float *restrict c, int n) {\n"
                                   "    for (int i = 0; i < n; i++) {\n" +
                                   body + "\n    }\n}\n");
    const LoopNest n = nest_in(p, "f");
    REQUIRE(n.accepted);
    return n;
}

}  // namespace

TEST_CASE("a point written on every path before it is read needs no old values", "[analyzer]") {
    // heat2d's initialisation: t is written, then read back into tnew.
    LoopNest n = nest_of("a[i] = i == 0 ? 100.0f : c[i];\n b[i] = a[i];");
    CHECK(output(n, "a").reads_own_element);
    CHECK_FALSE(output(n, "a").needs_old_values);
    CHECK_FALSE(output(n, "b").needs_old_values);

    n = nest_of("if (c[i] > 0) a[i] = 1; else a[i] = 2;\n b[i] = a[i] * 2;");
    CHECK_FALSE(output(n, "a").needs_old_values);
}

TEST_CASE("a read of the point before every path wrote it needs the old values", "[analyzer]") {
    CHECK(output(nest_of("a[i] += c[i];"), "a").needs_old_values);
    CHECK(output(nest_of("a[i] = a[i] * 2;"), "a").needs_old_values);
    CHECK(output(nest_of("b[i] = a[i];\n a[i] = c[i];"), "a").needs_old_values);
    const LoopNest n = nest_of("if (c[i] > 0) a[i] = 1;\n b[i] = a[i];");
    const ArrayProperties& a = output(n, "a");
    CHECK(a.needs_old_values);
    CHECK(a.partial_write == -1);  // the read decides it
}

TEST_CASE("a write on some points only needs the old values of the others", "[analyzer]") {
    // poisson2d's first guess: the interior only.
    const LoopNest n = nest_of("b[i] = c[i];\n if (i > 0 && i < n - 1) a[i] = c[i] * 2;");
    const ArrayProperties& a = output(n, "a");
    CHECK(a.needs_old_values);
    REQUIRE(a.partial_write == 0);
    CHECK(a.accesses[0].span.begin.line == 4);
    CHECK_FALSE(output(nest_of("a[i] = c[i] > 0 ? 1 : 2;"), "a").needs_old_values);
    CHECK(output(nest_of("c[i] > 0 && (a[i] = 1);"), "a").needs_old_values);
}

TEST_CASE("a read of a neighbour needs the old values even after the point is written", "[analyzer]") {
    // On the CPU a[i + 1] still holds its old value when iteration i reads it.
    const Program p = analyze_text("void f(float *restrict a, float *restrict b, const float *restrict c, int n) {\n"
                                   "    for (int i = 0; i < n - 1; i++) {\n"
                                   "        a[i] = c[i];\n        b[i] = a[i + 1];\n    }\n}\n");
    const LoopNest& n = nest_in(p, "f");
    for (const auto& a : n.output_arrays)
        if (a.name == "a") CHECK(a.needs_old_values);
}

TEST_CASE("an output copied in whose memory is zero-filled and written by no other nest keeps its zero pages", "[analyzer]") {
    const std::string kernel = "static void relax(double *u, const double *f, int n)\n"
                               "{\n"
                               "    for (int i = 1; i < n - 1; i++)\n"
                               "        if (f[i] > 0) u[i] = f[i];\n"
                               "}\n";
    auto zero = [&](const std::string& main_body) {
        const ArrayProperties u = called_output(kernel, main_body, "relax", "u");
        REQUIRE(u.needs_old_values);
        return u.zero_pages;
    };
    // calloc'd and passed: the nest is its first writer.
    CHECK(zero("    double *u = calloc(100, sizeof *u), *f = malloc(100 * sizeof *f);\n"
               "    for (int i = 0; i < 100; i++) f[i] = i - 50;\n"
               "    relax(u, f, 100);"));
    // malloc'd: the program must have written it before the nest reads it.
    CHECK_FALSE(zero("    double *u = malloc(100 * sizeof *u), *f = malloc(100 * sizeof *f);\n"
                     "    for (int i = 0; i < 100; i++) { f[i] = i - 50; u[i] = 1; }\n"
                     "    relax(u, f, 100);"));
    // calloc'd, but another nest writes it first.
    CHECK_FALSE(zero("    double *u = calloc(100, sizeof *u), *f = malloc(100 * sizeof *f);\n"
                     "    for (int i = 0; i < 100; i++) { f[i] = i - 50; u[i] = 1; }\n"
                     "    relax(u, f, 100);"));
    // An array of static storage without an initialiser starts as zero pages.
    const Program g = analyze_text("static double u[100], f[100];\n"
                                   "void relax(void)\n{\n    for (int i = 1; i < 99; i++)\n        if (f[i] > 0) u[i] = f[i];\n}\n");
    CHECK(output(nest_in(g, "relax"), "u").zero_pages);
    const Program h = analyze_text("static double u[4] = {1, 2, 3, 4}, f[4];\n"
                                   "void relax(void)\n{\n    for (int i = 1; i < 3; i++)\n        if (f[i] > 0) u[i] = f[i];\n}\n");
    CHECK_FALSE(output(nest_in(h, "relax"), "u").zero_pages);
}

TEST_CASE("an output another nest writes before the nest first runs is marked written before", "[analyzer]") {
    // heat2d's form: main fills both grids, then calls the time loop's
    // function; a kernel called before the filling, or a nest earlier in the
    // same function than its writer, finds the pages fresh.
    const std::string kernel = "static void step(float *out, const float *in, int n)\n"
                               "{\n"
                               "    for (int i = 1; i < n - 1; i++)\n"
                               "        out[i] = 0.5f * (in[i - 1] + in[i + 1]);\n"
                               "}\n";
    auto writers = [&](const std::string& main_body) { return called_output(kernel, main_body, "step", "out").written_before_by; };
    const std::string arrays = "    float *a = malloc(100 * sizeof *a), *b = malloc(100 * sizeof *b);\n";
    const std::string fill = "    for (int i = 0; i < 100; i++) { a[i] = i; b[i] = 0; }\n";
    // Filled, then called: written before by main's nest (nest 2, after step's).
    CHECK(writers(arrays + fill + "    step(b, a, 100);") == std::vector<int>{2});
    // Called before the filling: fresh.
    CHECK(writers(arrays + "    for (int i = 0; i < 100; i++) a[i] = i;\n    step(b, a, 100);\n" +
                  "    for (int i = 0; i < 100; i++) b[i] = 0;")
              .empty());
    // Another array filled: fresh.
    CHECK(writers(arrays + "    for (int i = 0; i < 100; i++) a[i] = i;\n    step(b, a, 100);").empty());
    // In one function: the nest after its writer, not the one before.
    const Program q = analyze_text("#include <stdlib.h>\nint main(void) {\n" + arrays +
                                   "    for (int i = 0; i < 100; i++) b[i] = 2 * a[i];\n"
                                   "    for (int i = 0; i < 100; i++) a[i] = 1;\n"
                                   "    for (int i = 0; i < 100; i++) b[i] = a[i];\n    return 0;\n}\n");
    REQUIRE(q.nests.size() == 3);
    CHECK(output(q.nests[0], "b").written_before_by.empty());
    CHECK(output(q.nests[1], "a").written_before_by.empty());
    CHECK(output(q.nests[2], "b").written_before_by == std::vector<int>{1});
    // A pointer parameter of a function called from nowhere: the file does not tell.
    const Program r = analyze_text("void g(float *restrict a, float *restrict b, int n) {\n"
                                   "    for (int i = 0; i < n; i++) a[i] = 1;\n"
                                   "    for (int i = 0; i < n; i++) b[i] = a[i];\n    for (int i = 0; i < n; i++) b[i] = 2;\n}\n");
    REQUIRE(r.nests.size() == 3);
    CHECK(output(r.nests[2], "b").written_before_by.empty());
}
