// recipes/region_plan.h through advise(): which time loops become one
// region (their nests run with the arrays resident), which arrays move,
// and what the .cu does with them.
#include <catch2/catch.hpp>

#include "../advisor/unit_platform.h"
#include "recipes/advise.h"

using namespace recipe;
using namespace recipe::recipes;

namespace {

// PolyBench's Jacobi form: B = f(A); A = f(B) on fixed arrays, every step.
const char* kMirrored = R"(#define N 2000
#define T 50

static void kernel(double A[N][N], double B[N][N])
{
    int t, i, j;
    for (t = 0; t < T; t++) {
        for (i = 1; i < N - 1; i++)
            for (j = 1; j < N - 1; j++)
                B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i - 1][j] + A[i + 1][j]);
        for (i = 1; i < N - 1; i++)
            for (j = 1; j < N - 1; j++)
                A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][j + 1] + B[i - 1][j] + B[i + 1][j]);
    }
}
)";

// A step that fills `tmp` whole, then reads it back into `u`.
const char* kFillThenCopy = R"(#define N 4000000
#define T 20

void step(const float *f, float *u, float *tmp)
{
    int t, i;
    for (t = 0; t < T; t++) {
        for (i = 0; i < N; i++)
            tmp[i] = 0.5f * u[i] + f[i];
        for (i = 0; i < N; i++)
            u[i] = tmp[i];
    }
}
)";

AdviseResult advise_text(const std::string& text, AdviseOptions o = {}) {
    MemoryFileSystem fs;
    fs.files["loop.c"] = text;
    o.input = "loop.c";
    o.platform = "h200";
    o.convert_all = true;
    o.assume_no_alias = true;  // the functions are not called in these files
    AdviseResult r;
    std::string error;
    REQUIRE(advise(fs, o, &r, &error));
    return r;
}

std::string cu_of(const AdviseResult& r) {
    for (const auto& f : r.files)
        if (f.name == "loop.cu") return f.content;
    return "";
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

TEST_CASE("a time loop of mirrored nests becomes one region with both arrays copied each way once", "[recipes]") {
    const AdviseResult r = advise_text(kMirrored);
    REQUIRE(r.regions.size() == 1);
    const RegionOutcome& region = r.regions[0];
    CHECK(region.converted);
    CHECK(region.nests.size() == 2);
    CHECK(region.problem.steps == 50);
    REQUIRE(region.arrays.size() == 2);
    for (const auto& a : region.arrays) {
        CHECK(a.copy_in);  // the interior is written; the boundary must come from the host
        CHECK(a.copy_out);
        CHECK(a.bytes == 2000LL * 2000 * 8);
    }
    CHECK(region.prediction.total.h2d.bytes == 2 * 2000LL * 2000 * 8);
    CHECK(region.prediction.total.total_ms < region.step_by_step_ms);
    for (const auto& n : r.nests) {
        CHECK(n.verdict == Verdict::Converted);
        CHECK(n.region == 0);
    }
    const std::string cu = cu_of(r);
    CHECK(count(cu, "recipe::Region recipe_region(") == 1);
    CHECK(count(cu, "recipe_region.run(") == 2);
    CHECK(count(cu, "recipe_region.finish()") == 1);
    CHECK(count(cu, "recipe::run(") == 0);
    CHECK(count(cu, "for (t = 0; t < T; t++)") == 1);  // the loop stays as written
    // The region opens before the loop and closes after it.
    CHECK(cu.find("recipe::Region recipe_region(") < cu.find("for (t = 0"));
    CHECK(cu.find("recipe_region.finish()") > cu.find("recipe_region.run(cfg, kernel_kernel_2"));
}

TEST_CASE("an array the step writes whole before it reads it is not copied in", "[recipes]") {
    const AdviseResult r = advise_text(kFillThenCopy);
    REQUIRE(r.regions.size() == 1);
    const auto& arrays = r.regions[0].arrays;
    auto find = [&](const std::string& name) -> const RegionHostArray& {
        for (const auto& a : arrays)
            if (a.name == name) return a;
        FAIL("no array " << name);
        throw;
    };
    CHECK(find("f").copy_in);
    CHECK_FALSE(find("f").copy_out);  // only read
    CHECK(find("u").copy_in);
    CHECK(find("u").copy_out);
    CHECK_FALSE(find("tmp").copy_in);  // written whole by the first nest
    CHECK(find("tmp").copy_out);      // the host sees its last values, as in the C program
    CHECK_THAT(cu_of(r), Catch::Contains("recipe::resident(tmp, false, true)") && Catch::Contains("recipe::resident(f, true, false)"));
}

TEST_CASE("a time loop that does more than run its nests stays step by step, and the recipe says why", "[recipes]") {
    std::string text = kMirrored;
    text.insert(text.find("    }\n}"), "        report(t);\n");
    text.insert(0, "void report(int t);\n");
    const AdviseResult r = advise_text(text);
    CHECK(r.regions.empty());
    REQUIRE(r.region_notes.size() == 1);
    CHECK_THAT(r.region_notes[0], Catch::Contains("report(t);") && Catch::Contains("step by step"));
    const std::string cu = cu_of(r);
    CHECK(count(cu, "recipe::run(") == 2);
    CHECK(count(cu, "recipe::Region") == 0);
}

TEST_CASE("a region the CPU runs faster is kept on the CPU as a whole", "[recipes]") {
    std::string text = kMirrored;
    text.replace(text.find("#define N 2000"), 14, "#define N 20");
    AdviseOptions o;
    MemoryFileSystem fs;
    fs.files["loop.c"] = text;
    o.input = "loop.c";
    o.platform = "h200";
    o.assume_no_alias = true;
    AdviseResult r;
    std::string error;
    REQUIRE(advise(fs, o, &r, &error));
    REQUIRE(r.regions.size() == 1);
    CHECK_FALSE(r.regions[0].converted);
    for (const auto& n : r.nests) {
        CHECK(n.verdict == Verdict::KeptOnCpu);
        CHECK_THAT(n.why, Catch::Contains("the time loop at lines"));
    }
    CHECK_FALSE(r.wrote_cu);
}
