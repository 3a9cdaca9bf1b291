// Elements read at one place for the whole nest (InvariantRead) and parts of
// arrays picked by constant leading subscripts: the FDTD forms (PolyBench's
// fdtd-2d drives `ey[0][j]` with `_fict_[t]`).
#include "analyzer_test_util.h"

using namespace recipe::analyzer;
using namespace recipe::analyzer::test;

namespace {

const char* kDriven = R"(#define N 1000
#define M 800
#define T 50
double e[M][N], h[M][N], pulse[T], coef[4];
void f(int k)
{
    int t, i, j;
    for (t = 0; t < T; t++) {
        for (j = 0; j < N; j++)
            e[0][j] = pulse[t] * coef[0];
        for (i = 1; i < M; i++)
            for (j = 0; j < N; j++)
                h[i][j] = h[i][j] + coef[k] * e[i - 1][j];
    }
}
)";

std::vector<std::string> texts(const LoopNest& n) {
    std::vector<std::string> out;
    for (const auto& r : n.invariant_reads) out.push_back(r.text);
    return out;
}

}  // namespace

TEST_CASE("an element read at one place for the whole nest is a value, not an array of the nest", "[analyzer]") {
    const Program p = analyze_text(kDriven);
    const LoopNest& drive = nest_in(p, "f", 0);
    REQUIRE(drive.accepted);
    CHECK(texts(drive) == std::vector<std::string>{"pulse[t]", "coef[0]"});
    CHECK(drive.invariant_reads[0].array == "pulse");
    CHECK(drive.invariant_reads[0].element_type == "double");
    CHECK(drive.invariant_reads[0].span.begin.line == 10);
    CHECK(drive.input_arrays.empty());
    // Its index's names are the host's: not the kernel's scalars.
    for (const auto& s : drive.scalars_read) {
        CHECK(s.name != "t");
        CHECK(s.name != "pulse");
    }
    const LoopNest& update = nest_in(p, "f", 1);
    REQUIRE(update.accepted);
    CHECK(texts(update) == std::vector<std::string>{"coef[k]"});
}

TEST_CASE("a one-place read that runs on some iterations only, or of an array the nest writes, stays an access", "[analyzer]") {
    const Program p = analyze_text(R"(#define N 1000
double a[N], b[N], c[8];
void f(int k)
{
    for (int i = 0; i < N; i++)
        b[i] = i > 0 ? c[k] : a[i];
    for (int i = 0; i < N; i++)
        a[i] = a[i] + a[k];
}
)");
    const LoopNest& guarded = nest_in(p, "f", 0);
    CHECK(guarded.invariant_reads.empty());
    CHECK_FALSE(guarded.accepted);  // c[k] is read as an array with an offset it cannot place
    const LoopNest& written = nest_in(p, "f", 1);
    CHECK(written.invariant_reads.empty());
    CHECK_FALSE(written.accepted);
}

TEST_CASE("a one-place read of memory that may be the output's is a possible alias", "[analyzer]") {
    const Program p = analyze_text(R"(void f(double *out, const double *src, int n, int t)
{
    for (int i = 0; i < n; i++)
        out[i] = src[t] * 2.0;
}
)");
    const LoopNest& n = nest_in(p, "f");
    CHECK_FALSE(n.accepted);
    CHECK(has_rule(n, "possible-aliasing"));
}

TEST_CASE("a row the nest reads from an array it writes whole is an overlap, rows apart are not", "[analyzer]") {
    const Program p = analyze_text(R"(#define N 1000
#define M 800
double a[M][N];
void f(void)
{
    int i, j;
    for (i = 0; i < M; i++)
        for (j = 0; j < N; j++)
            a[i][j] = a[0][j] + 1.0;
    for (j = 0; j < N; j++)
        a[M - 1][j] = a[M - 2][j];
}
)");
    const LoopNest& overlap = nest_in(p, "f", 0);
    CHECK_FALSE(overlap.accepted);
    REQUIRE(has_rule(overlap, "possible-aliasing"));
    bool named = false;
    for (const auto& d : overlap.reasons) named = named || d.message.find("'a[0]' is a part of 'a'") != std::string::npos;
    CHECK(named);
    const LoopNest& rows = nest_in(p, "f", 1);
    CHECK(rows.accepted);
    CHECK(rows.input_arrays.size() == 1);
    CHECK(rows.output_arrays.size() == 1);
}
