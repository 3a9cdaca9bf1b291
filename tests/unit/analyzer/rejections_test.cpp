// Every rejection rule, on small inputs that carry their expected
// diagnostics beside the line they are about:
//   a[i] = a[i-1];  // expect-warning[doacross]: loop-carried dependence on 'a'
// The diagnostic must be on that line, from that rule, and its message must
// start with the text given. Every warning the analyzer gives must be
// expected: nothing more, nothing less.
#include <filesystem>
#include <regex>
#include <set>

#include "tests/unit/analyzer/analyzer_test_util.h"

using namespace recipe::analyzer;
using namespace recipe::analyzer::test;

namespace {

struct Expectation {
    int line;
    std::string severity, rule, message;
};

std::vector<Expectation> expectations_in(const std::string& source) {
    static const std::regex marker(R"(//\s*expect-(warning|error)\[([a-z-]+)\]:\s*(.*)$)");
    std::vector<Expectation> out;
    std::istringstream in(source);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        std::smatch m;
        if (std::regex_search(line, m, marker)) out.push_back({n, m[1], m[2], m[3]});
    }
    return out;
}

}  // namespace

TEST_CASE("rejection inputs give exactly the diagnostics written beside their lines", "[analyzer]") {
    std::filesystem::path dir = std::filesystem::path(RECIPE_SOURCE_DIR) / "tests/unit/analyzer/inputs/rejections";
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.path().extension() == ".c") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    REQUIRE(files.size() >= 9);
    std::set<std::string> rules_seen;
    for (const auto& file : files) {
        SECTION(file.filename().string()) {
            std::string source = read_text(file.string());
            Program p = analyze_source(file.filename().string(), source, {});
            std::vector<Diagnostic> got = p.diagnostics;
            for (const auto& n : p.nests)
                for (const auto& d : n.reasons)
                    if (d.severity == Severity::Warning) got.push_back(d);
            std::vector<Expectation> want = expectations_in(source);
            REQUIRE_FALSE(want.empty());
            for (const auto& w : want) {
                INFO(file.filename().string() << ":" << w.line << " expects [" << w.rule << "] " << w.message);
                bool found = false;
                for (const auto& d : got)
                    if (d.pos.line == w.line && d.rule_id == w.rule && to_string(d.severity) == w.severity &&
                        d.message.compare(0, w.message.size(), w.message) == 0)
                        found = true;
                CHECK(found);
                rules_seen.insert(w.rule);
            }
            for (const auto& d : got) {
                INFO(file.filename().string() << ":" << d.pos.line << ":" << d.pos.column << ": " << d.message << " ["
                                              << d.rule_id << "]");
                bool expected = false;
                for (const auto& w : want)
                    if (d.pos.line == w.line && d.rule_id == w.rule) expected = true;
                CHECK(expected);
            }
        }
    }
}

TEST_CASE("every rule that can reject a nest has a test input", "[analyzer]") {
    std::filesystem::path dir = std::filesystem::path(RECIPE_SOURCE_DIR) / "tests/unit/analyzer/inputs/rejections";
    std::set<std::string> covered;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        for (const auto& w : expectations_in(read_text(e.path().string()))) covered.insert(w.rule);
    for (const char* rule : {"doacross", "non-affine-index", "data-dependent-index", "possible-aliasing", "side-effect-call",
                             "too-many-dimensions", "non-constant-stride", "reduction", "scalar-write", "not-perfectly-nested",
                             "early-exit", "non-canonical-loop", "strided-access", "offset-write", "no-output", "too-complex",
                             "syntax"}) {
        INFO(rule);
        CHECK(covered.count(rule));
    }
}

TEST_CASE("restrict, distinct allocations and --assume-no-alias make pointer parameters legal", "[analyzer]") {
    Program p = analyze_input("rejections/aliasing.c");
    CHECK(nest_in(p, "restricted").accepted);
    AnalyzeOptions o;
    o.assume_no_alias = true;
    Program q = analyze_input("rejections/aliasing.c", o);
    CHECK(nest_in(q, "never_called").accepted);
    CHECK(nest_in(q, "called_with_overlap").accepted);

    // Distinct mallocs at every call site in the file: no alias.
    Program r = analyze_text(R"(
#include <stdlib.h>
static void step(const float *in, float *out, int n) {
    for (int i = 1; i < n - 1; i++) out[i] = in[i - 1] + in[i + 1];
}
int main(void) {
    float *a = malloc(64 * sizeof *a);
    float *b = calloc(64, sizeof *b);
    step(a, b, 64);
    step(b, a, 64);
    return 0;
}
)");
    CHECK(nest_in(r, "step").accepted);
    // The same pointer on both sides: an alias.
    Program s = analyze_text(R"(
#include <stdlib.h>
static void step(const float *in, float *out, int n) {
    for (int i = 1; i < n - 1; i++) out[i] = in[i - 1] + in[i + 1];
}
int main(void) {
    float *a = malloc(64 * sizeof *a);
    float *b = a;
    step(a, b, 64);
    return 0;
}
)");
    CHECK(rule_ids(nest_in(s, "step")) == std::vector<std::string>{"possible-aliasing"});
}

TEST_CASE("global pointers set only from allocations are distinct", "[analyzer]") {
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
    step();
    return 0;
}
)");
    CHECK(nest_in(p, "step").accepted);
    Program q = analyze_text(R"(
#include <stdlib.h>
#define N 1024
float *in, *out;
static void step(void) {
    for (int i = 1; i < N - 1; i++) out[i] = in[i - 1] + in[i + 1];
}
int main(void) {
    in = malloc(N * sizeof *in);
    out = in + 1;
    step();
    return 0;
}
)");
    CHECK(rule_ids(nest_in(q, "step")) == std::vector<std::string>{"possible-aliasing"});
}
