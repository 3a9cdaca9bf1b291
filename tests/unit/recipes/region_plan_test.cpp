// recipes/region_plan.h through advise(): which time loops become one
// region (their nests run with the arrays resident), which arrays move,
// and what the .cu does with them.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "../advisor/unit_platform.h"
#include "tests/support/memory_file_system.h"
#include "recipes/advise.h"
#include "recipes/gpu_choice.h"

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

std::string read_form(const std::string& name) {
    std::ifstream in(std::string(RECIPE_SOURCE_DIR) + "/tests/gpu/forms/" + name);
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
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
    // B's first use writes its interior: only its frame crosses the bus.
    CHECK_FALSE(region.arrays[0].has_written_first);
    REQUIRE(region.arrays[1].has_written_first);
    CHECK(region.problem.arrays[1].written_first.begin == Index3{1, 1, 0});
    CHECK(region.problem.arrays[1].written_first.end == Index3{1999, 1999, 1});
    CHECK(region.prediction.total.h2d.bytes == 2000LL * 2000 * 8 + (2000LL * 2000 - 1998 * 1998) * 8);
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

TEST_CASE("a time loop over arrays larger than the device memory runs with ghost zones, k steps a pass", "[recipes]") {
    AdviseOptions o;
    o.gpu_memory_bytes = 16 << 20;  // the two 32 MB arrays do not fit
    const AdviseResult r = advise_text(kMirrored, o);
    REQUIRE(r.regions.size() == 1);
    const RegionOutcome& region = r.regions[0];
    REQUIRE(region.converted);
    REQUIRE(region.with_ghost_zones);
    const recipe::advisor::GhostPlan& g = region.ghost;
    CHECK(g.steps_per_pass >= 1);
    CHECK(g.steps_per_pass <= 50);
    // Two launches a step, each reading one row each side: 2k rows of ghost zone each side.
    CHECK(g.ghost_below == 2 * g.steps_per_pass);
    CHECK(g.ghost_above == 2 * g.steps_per_pass);
    CHECK(g.launches_per_pass == 2 * g.steps_per_pass);
    CHECK(g.core_rows >= g.ghost_below);
    CHECK(region.prediction.total.device_bytes <= o.gpu_memory_bytes);
    CHECK(region.prediction.total.total_ms == Approx(g.prediction.total.total_ms));
    // The chosen k is the fastest priced.
    for (const auto& p : g.curve) CHECK(p.total_ms >= g.prediction.total.total_ms);
    const std::string cu = cu_of(r);
    CHECK(cu.find("recipe_region_config.ghost_launches = " + std::to_string(g.launches_per_pass) + ";") != std::string::npos);
    CHECK(cu.find("recipe_region_config.ghost_tile_rows = " + std::to_string(g.core_rows) + ";") != std::string::npos);
    CHECK(cu.find("recipe_region_config.device_memory = 16777216;") != std::string::npos);
    CHECK(count(cu, "recipe_region.run(") == 2);
    std::string recipe;
    for (const auto& f : r.files)
        if (f.name == "loop.recipe.md") recipe = f.content;
    CHECK(recipe.find("**Its arrays do not fit the GPU.**") != std::string::npos);
    CHECK(recipe.find("ghost zones (seed 002") != std::string::npos);
}

TEST_CASE("a region over arrays larger than the device memory that is no time loop is not formed", "[recipes]") {
    AdviseOptions o;
    o.gpu_memory_bytes = 16 << 20;
    const AdviseResult r = advise_text(R"(#define N 2000

void twice(double A[N][N], double B[N][N], double C[N][N])
{
    int i, j;
    for (i = 1; i < N - 1; i++)
        for (j = 1; j < N - 1; j++)
            B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i - 1][j] + A[i + 1][j]);
    for (i = 1; i < N - 1; i++)
        for (j = 1; j < N - 1; j++)
            C[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][j + 1] + B[i - 1][j] + B[i + 1][j]);
}
)",
                                       o);
    for (const RegionOutcome& region : r.regions) CHECK_FALSE(region.with_ghost_zones);
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

TEST_CASE("a region's array a nest before it wrote is not priced as fresh pages", "[recipes]") {
    // kFillThenCopy's step called from main, `tmp` filled by main first or not:
    // the step writes `tmp` whole before reading it, so it is not copied in,
    // but only a never-written `tmp` has fresh pages for the first call.
    auto region_of = [](const std::string& fill) {
        return advise_text(std::string(kFillThenCopy) + "#include <stdlib.h>\nint main(void)\n{\n"
                           "    float *f = malloc(N * sizeof *f), *u = malloc(N * sizeof *u), *tmp = malloc(N * sizeof *tmp);\n"
                           "    int i;\n" + fill + "    step(f, u, tmp);\n    return (int)u[5];\n}\n");
    };
    const AdviseResult fresh = region_of("    for (i = 0; i < N; i++) { f[i] = i; u[i] = 1; }\n");
    const AdviseResult filled = region_of("    for (i = 0; i < N; i++) { f[i] = i; u[i] = 1; tmp[i] = 0; }\n");
    REQUIRE(fresh.regions.size() == 1);
    REQUIRE(filled.regions.size() == 1);
    auto tmp_of = [](const AdviseResult& r) -> const RegionHostArray& {
        for (const auto& a : r.regions[0].arrays)
            if (a.name == "tmp") return a;
        FAIL("no array tmp");
        throw;
    };
    CHECK_FALSE(tmp_of(fresh).copy_in);
    CHECK_FALSE(tmp_of(fresh).written_before);
    CHECK(tmp_of(filled).written_before);
    CHECK(region_fresh_bytes(filled.regions[0]) == Approx(region_fresh_bytes(fresh.regions[0]) - 4000000.0 * 4));
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

namespace {

// An initialisation, then a stencil reading what it wrote; `BETWEEN` and
// `AFTER` are put between the nests and after them.
std::string init_then_stencil(const std::string& between, const std::string& after) {
    return R"(#include <stdio.h>
#include <stdlib.h>
#define W 6000
#define H 6000

int main(void)
{
    float *img = malloc((size_t)W * H * sizeof *img);
    float *out = malloc((size_t)W * H * sizeof *out);
    int x, y;
    if (!img || !out) return 1;
    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++)
            img[y * W + x] = (float)((x * 7 + y * 13) & 31);
)" + between + R"(
    for (y = 1; y < H - 1; y++)
        for (x = 1; x < W - 1; x++)
            out[y * W + x] = img[y * W + x - 1] + img[y * W + x + 1] + img[(y - 1) * W + x] + img[(y + 1) * W + x];
)" + after + R"(
    printf("%f\n", out[W + 1]);
    free(img);
    free(out);
    return 0;
}
)";
}

const RegionHostArray* array_named(const RegionOutcome& r, const std::string& name) {
    for (const auto& a : r.arrays)
        if (a.name == name) return &a;
    return nullptr;
}

}  // namespace

TEST_CASE("an initialisation and the stencil reading it share the array on the GPU, which never crosses the bus", "[recipes]") {
    const AdviseResult r = advise_text(init_then_stencil("    printf(\"filled\\n\");", ""));
    REQUIRE(r.regions.size() == 1);
    const RegionOutcome& region = r.regions[0];
    CHECK(region.kind == RegionKind::Consecutive);
    CHECK(region.converted);
    CHECK(region.nests.size() == 2);
    const RegionHostArray* img = array_named(region, "img");
    const RegionHostArray* out = array_named(region, "out");
    REQUIRE(img);
    REQUIRE(out);
    // Written whole by the first nest, read by the second, freed unread.
    CHECK_FALSE(img->copy_in);
    CHECK_FALSE(img->copy_out);
    CHECK(img->dead_after);
    // Written on the interior only: its border comes in (6000² − 5998²
    // floats), and all of it goes back.
    CHECK(out->copy_in);
    CHECK(out->has_written_first);
    CHECK(out->copy_out);
    CHECK(region.prediction.total.h2d.bytes == (6000LL * 6000 - 5998LL * 5998) * 4);
    CHECK(region.prediction.total.d2h.bytes == out->bytes);
    CHECK(region.prediction.total.total_ms < region.step_by_step_ms);
    const std::string cu = cu_of(r);
    CHECK(count(cu, "recipe::Region ") == 1);
    CHECK(count(cu, "recipe::resident(img, false, false)") == 1);
    CHECK(count(cu, ".run(cfg,") == 2);
    CHECK(count(cu, "printf(\"filled\\n\");") == 1);  // the statement between stays
    CHECK(count(cu, ".finish();") == 1);
}

TEST_CASE("nests do not share the GPU across a statement that may touch their arrays", "[recipes]") {
    for (const char* between : {"    img[0] = 1.0f;", "    float scale = 2.0f;", "    touch();"}) {
        std::string text = init_then_stencil(std::string(between), "");
        text = "void touch(void) {}\n" + text;
        const AdviseResult r = advise_text(text);
        INFO(between);
        CHECK(r.regions.empty());
        bool noted = false;
        for (const auto& why : r.region_notes) noted = noted || why.find("run one by one") != std::string::npos;
        CHECK(noted);
    }
}

TEST_CASE("nests whose region the model prices above the nests alone run alone, and the recipe says so", "[recipes]") {
    // A fill, then a map of all of `img` into all of `out`: nothing to copy
    // in either way; `img` read after the nests goes back too, after the
    // last nest, where alone its copy out overlaps the first nest's kernel.
    // Page-locked arrays (the copies at the link's pace alone).
    AdviseOptions pinned;
    pinned.host_memory = advisor::HostMemory::Pinned;
    std::string text = init_then_stencil("", "    printf(\"%f\\n\", img[5]);");
    const std::string stencil = "    for (y = 1; y < H - 1; y++)\n        for (x = 1; x < W - 1; x++)\n            out[y * W + x] = img[y * W + x - 1] + img[y * W + x + 1] + img[(y - 1) * W + x] + img[(y + 1) * W + x];";
    REQUIRE(text.find(stencil) != std::string::npos);
    text.replace(text.find(stencil), stencil.size(),
                 "    for (y = 0; y < H; y++)\n        for (x = 0; x < W; x++)\n            out[y * W + x] = img[y * W + x] * 0.5f + 1.0f;");
    const AdviseResult r = advise_text(text, pinned);
    CHECK(r.regions.empty());
    REQUIRE(r.region_notes.size() == 1);
    CHECK(r.region_notes[0].find("with their arrays kept on the GPU they would take") != std::string::npos);
}

TEST_CASE("nests that share no array are not joined", "[recipes]") {
    const AdviseResult r = advise_text(R"(#define N 8000000
void f(float *a, float *b)
{
    int i;
    for (i = 0; i < N; i++)
        a[i] = (float)(i & 7);
    for (i = 0; i < N; i++)
        b[i] = (float)(i & 3);
}
)");
    CHECK(r.regions.empty());
}

namespace {

// Parboil's form: the sweep is a function, main's loop calls it and swaps.
std::string called_sweep(const std::string& loop_head, const std::string& in_loop, const std::string& in_sweep = "") {
    return R"(#include <stdlib.h>
#define N 16000000

static void sweep(const float *a, float *b, int n)
{
    int i;
)" + in_sweep + R"(
    for (i = 1; i < n - 1; i++)
        b[i] = 0.25f * a[i - 1] + 0.5f * a[i] + 0.25f * a[i + 1];
}

int main(void)
{
    int n = N, t;
    float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    if (!a || !b) return 1;
    )" + loop_head + R"( {
        float *tmp;
        sweep(a, b, n);
)" + in_loop + R"(
        tmp = a;
        a = b;
        b = tmp;
    }
    t = a[n / 2] > 0.0f;  /* the host reads the last grid, not the other */
    free(a);
    free(b);
    return t;
}
)";
}

}  // namespace

TEST_CASE("a loop that calls a function of nests and swaps the pointers keeps their arrays on the GPU", "[recipes]") {
    const AdviseResult r = advise_text(called_sweep("for (t = 0; t < 30; t++)", ""));
    REQUIRE(r.regions.size() == 1);
    const RegionOutcome& region = r.regions[0];
    CHECK(region.kind == RegionKind::CallerLoop);
    CHECK(region.converted);
    CHECK(region.callee == "sweep");
    CHECK(region.function == "main");
    CHECK(region.problem.steps == 30);
    CHECK(region.swaps);
    REQUIRE(region.arrays.size() == 2);
    // Each name holds either buffer: both go in; after 30 turns `a` holds
    // its own again, which the host reads, and `b`'s buffer, which it never
    // reads, stays on the GPU.
    for (const auto& a : region.arrays) CHECK(a.copy_in);
    CHECK(region.arrays[0].name == "a");
    CHECK(region.arrays[0].copy_out);
    CHECK_FALSE(region.arrays[1].copy_out);
    CHECK(region.arrays[1].dead_after);
    CHECK(region.arrays[1].held_after == std::vector<std::string>{"b"});
    CHECK_FALSE(region.problem.arrays[1].copy_out);
    CHECK(region.extents_code[0] == "n");  // the caller's name for the size
    CHECK(region.prediction.total.total_ms < region.step_by_step_ms);
    const std::string cu = cu_of(r);
    CHECK(count(cu, "recipe::Region recipe_region(") == 1);
    CHECK(count(cu, "recipe::resident(a)") == 1);
    // The first call writes `b`'s interior before any call reads it: only its
    // two ends are staged in.
    CHECK(count(cu, "recipe::resident(b, recipe::Box{{1, 0, 0}, {n - 1, 1, 1}}, false)") == 1);
    CHECK_FALSE(region.arrays[0].has_written_first);
    REQUIRE(region.arrays[1].has_written_first);
    CHECK(region.problem.arrays[1].written_first.begin == Index3{1, 0, 0});
    CHECK(region.problem.arrays[1].written_first.end == Index3{16000000 - 1, 1, 1});
    // The function keeps its library call, which launches on the region's arrays.
    CHECK(count(cu, "recipe::run(cfg, sweep_kernel") == 1);
    CHECK(count(cu, "Called from main()'s loop") == 1);
    CHECK(cu.find("recipe::Region recipe_region(") < cu.find("for (t = 0; t < 30; t++)"));
    CHECK(cu.find(".finish();") > cu.find("b = tmp;"));
}

TEST_CASE("after an odd number of swaps the buffer the host reads is the other name's", "[recipes]") {
    const AdviseResult odd = advise_text(called_sweep("for (t = 0; t < 31; t++)", ""));
    REQUIRE(odd.regions.size() == 1);
    const RegionOutcome& region = odd.regions[0];
    REQUIRE(region.arrays.size() == 2);
    // `a`'s buffer is `b`'s after the loop, never read; `b`'s is `a`'s.
    CHECK_FALSE(region.arrays[0].copy_out);
    CHECK(region.arrays[0].held_after == std::vector<std::string>{"b"});
    CHECK(region.arrays[1].copy_out);
    CHECK(region.arrays[1].held_after == std::vector<std::string>{"a"});
    const std::string cu = cu_of(odd);
    CHECK(count(cu, "recipe::resident(a, true, false)") == 1);
    CHECK(count(cu, "recipe::resident(b, recipe::Box{{1, 0, 0}, {n - 1, 1, 1}}, true)") == 1);
    // A host that reads both names after the loop gets both back.
    std::string both = called_sweep("for (t = 0; t < 31; t++)", "");
    const std::string reads_a = "t = a[n / 2] > 0.0f;";
    both.replace(both.find(reads_a), reads_a.size(), "t = a[n / 2] > b[1];");
    const AdviseResult read_both = advise_text(both);
    REQUIRE(read_both.regions.size() == 1);
    for (const auto& a : read_both.regions[0].arrays) CHECK(a.copy_out);
}

TEST_CASE("a loop that rotates three pointers copies back the buffer the name read after it holds", "[recipes]") {
    // Each turn: a <- b, b <- c, c <- a's old buffer; every third turn all are home again.
    auto rotating = [](int turns) {
        return R"(#include <stdlib.h>
#define N 16000000

static void step(const float *a, const float *b, float *c, int n)
{
    int i;
    for (i = 0; i < n; i++)
        c[i] = 0.25f * a[i] + 0.75f * b[i];
}

int main(void)
{
    int n = N, t;
    float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *c = malloc(N * sizeof *c);
    if (!a || !b || !c) return 1;
    for (t = 0; t < )" + std::to_string(turns) + R"(; t++) {
        float *tmp = a;
        step(a, b, c, n);
        a = b;
        b = c;
        c = tmp;
    }
    t = a[n / 2] > 0.0f;
    free(a);
    free(b);
    free(c);
    return t;
}
)";
    };
    for (const int turns : {4, 30, 1000000001}) {
        INFO(turns << " turns");
        const AdviseResult r = advise_text(rotating(turns));
        REQUIRE(r.regions.size() == 1);
        const RegionOutcome& region = r.regions[0];
        REQUIRE(region.arrays.size() == 3);
        // The buffer `a` holds after the loop: b's after 1 turn (mod 3), c's after 2, its own after 0.
        const std::string home = turns % 3 == 1 ? "b" : turns % 3 == 2 ? "c" : "a";
        for (const auto& arr : region.arrays) {
            INFO("array " << arr.name);
            CHECK(arr.copy_out == (arr.name == home));
            REQUIRE(arr.held_after.size() == 1);
        }
    }
}

namespace {

// C89 style: the swap's temporary declared at the top of main, with the
// other variables. `CALL` is the loop's work, `AFTER` what main does next.
std::string outer_temporary(const std::string& call, const std::string& after) {
    return R"(#include <stdlib.h>
#define N 16000000

static void sweep(const float *a, float *b, int n)
{
    int i;
    for (i = 1; i < n - 1; i++)
        b[i] = 0.25f * a[i - 1] + 0.5f * a[i] + 0.25f * a[i + 1];
}

int main(void)
{
    int n = N, t, i;
    float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    float *tmp;
    if (!a || !b) return 1;
    for (t = 0; t < 30; t++) {
)" + call + R"(
        tmp = a;
        a = b;
        b = tmp;
    }
)" + after + R"(
    t = a[n / 2] > 0.0f;
    free(a);
    free(b);
    return t;
}
)";
}

const char* kSweepCall = "        sweep(a, b, n);";
const char* kSweepInPlace = R"(        for (i = 1; i < n - 1; i++)
            b[i] = 0.25f * a[i - 1] + 0.5f * a[i] + 0.25f * a[i + 1];)";

}  // namespace

TEST_CASE("a swap through a temporary the function declares before the loop is a swap", "[recipes]") {
    SECTION("a loop calling a function of nests keeps the arrays on the GPU, and its swaps as written") {
        const AdviseResult r = advise_text(outer_temporary(kSweepCall, ""));
        REQUIRE(r.regions.size() == 1);
        const RegionOutcome& region = r.regions[0];
        CHECK(region.kind == RegionKind::CallerLoop);
        CHECK(region.swaps);
        REQUIRE(region.arrays.size() == 2);
        CHECK(region.arrays[0].copy_out);        // `a`, read after the loop
        CHECK_FALSE(region.arrays[1].copy_out);  // `b`, only freed
        const std::string cu = cu_of(r);
        CHECK(count(cu, "float *tmp;") == 1);
        CHECK(count(cu, "tmp = a;") == 1);
    }
    SECTION("a time loop of one nest becomes one recipe::iterate call, and the temporary goes with the loop") {
        const AdviseResult r = advise_text(outer_temporary(kSweepInPlace, ""));
        const std::string cu = cu_of(r);
        CHECK(count(cu, "recipe::iterate(") == 1);
        CHECK(count(cu, "tmp") == 0);  // declared for the loop alone: nvcc would warn of it
    }
    SECTION("a temporary the code after the loop reads holds a buffer the host reads") {
        // After the turns `tmp` holds `b`'s buffer, which main then reads through it.
        const AdviseResult r = advise_text(outer_temporary(kSweepCall, "    if (tmp[1] > 0.0f) a[0] = 1.0f;"));
        REQUIRE(r.regions.size() == 1);
        const RegionOutcome& region = r.regions[0];
        REQUIRE(region.arrays.size() == 2);
        CHECK(region.arrays[0].copy_out);
        CHECK(region.arrays[1].copy_out);
        CHECK(region.arrays[1].held_after == std::vector<std::string>{"b", "tmp"});
    }
    SECTION("a call that replaces the loop leaves a temporary the code after it mentions as it was: not converted") {
        const AdviseResult r = advise_text(outer_temporary(kSweepInPlace, "    if (tmp == b) a[0] = 0.0f;"));
        CHECK(count(cu_of(r), "recipe::iterate(") == 0);
        bool told = false;  // why, in the recipe's words
        for (const auto& n : r.nests) told = told || n.why.find("`tmp = a;`") != std::string::npos;
        CHECK(told);
    }
}

TEST_CASE("a loop that does more than call, swap and count calls its function call by call", "[recipes]") {
    const AdviseResult extra = advise_text(called_sweep("for (t = 0; t < 30; t++)", "        a[0] = 1.0f;"));
    CHECK(extra.regions.empty());
    const AdviseResult unknown = advise_text(called_sweep("for (t = 0; t < n / 1000000 + rand(); t++)", ""));
    CHECK(unknown.regions.empty());
    const AdviseResult callee = advise_text(called_sweep("for (t = 0; t < 30; t++)", "", "    b[0] = a[0];"));
    CHECK(callee.regions.empty());
    for (const auto* r : {&extra, &unknown, &callee}) {
        bool noted = false;
        for (const auto& why : r->region_notes) noted = noted || why.find("calls sweep() call by call") != std::string::npos;
        CHECK(noted);
    }
}

TEST_CASE("a time loop whose nests drive single rows runs them on the rows of the arrays it holds", "[recipes]") {
    // The FDTD form (tests/gpu/forms/wave_boundary.c, which the device tests
    // run): a source value read per step into row 0, the last row copied from
    // its neighbour, then the field updates over whole arrays.
    const AdviseResult r = advise_text(read_form("wave_boundary.c"));
    REQUIRE(r.regions.size() == 1);
    const RegionOutcome& region = r.regions[0];
    CHECK(region.converted);
    CHECK(region.nests.size() == 4);
    REQUIRE(region.arrays.size() == 2);  // the rows are parts of ez, not arrays of their own
    for (const auto& a : region.arrays) {
        CHECK(a.bytes == 900LL * 700 * 8);
        CHECK(a.copy_in);
        CHECK(a.copy_out);
    }
    const std::string cu = cu_of(r);
    CHECK(count(cu, "recipe::resident(") == 2);
    // The rows as the file spells them; the step's source value read by the host.
    CHECK_THAT(cu, Catch::Contains("recipe::outputs(recipe::output(ez[0])), pulse[t]);"));
    CHECK_THAT(cu, Catch::Contains("recipe::inputs(recipe::input(ez[NX - 2]))"));
    CHECK_THAT(cu, Catch::Contains("recipe::outputs(recipe::output(ez[NX - 1]))"));
    CHECK_THAT(cu, Catch::Contains("recipe::OutView<double> ez_0, double pulse_t)"));
    CHECK_THAT(cu, Catch::Contains("ez_0(j) = pulse_t;"));
}

TEST_CASE("a region does not hold a row alone, nor an array the host reads for a launch", "[recipes]") {
    AdviseResult r = advise_text(R"(#define N 4000
#define T 40
static double a[N][N], b[N][N];
static void step(void)
{
    int t, i, j;
    for (t = 0; t < T; t++) {
        for (j = 0; j < N; j++)
            a[0][j] = b[0][j] + 1.0;
        for (i = 1; i < N; i++)
            for (j = 0; j < N; j++)
                b[i][j] = b[i][j] * 0.5;
    }
}
)");
    CHECK(r.regions.empty());
    bool said = false;
    for (const auto& line : r.region_notes)
        said = said || line.find("`a[0]` is a part of `a`, which no nest of the region uses whole") != std::string::npos;
    CHECK(said);

    r = advise_text(R"(#define N 4000
#define T 40
static double a[N][N], b[N][N];
static void step(void)
{
    int t, i, j;
    for (t = 0; t < T; t++) {
        for (i = 1; i < N; i++)
            for (j = 0; j < N; j++)
                a[i][j] = b[i][j] * b[0][0];
        for (i = 1; i < N; i++)
            for (j = 0; j < N; j++)
                b[i][j] = a[i][j] * 0.5;
    }
}
)");
    CHECK(r.regions.empty());
    said = false;
    for (const auto& line : r.region_notes)
        said = said || line.find("the host reads `b[0][0]` for a launch while the region holds `b` on the GPU") != std::string::npos;
    CHECK(said);
}

TEST_CASE("a loop whose body is the call alone, without braces, keeps the arrays on the GPU too", "[recipes]") {
    std::string source = called_sweep("for (t = 0; t < 30; t++)", "");
    // The same loop calling sweep() into one buffer, written without a block.
    const std::string braced_from = source.substr(source.find("    for (t = 0;"));
    const std::string braced = braced_from.substr(0, braced_from.find("    free(a);"));
    source.replace(source.find(braced), braced.size(), "    for (t = 0; t < 30; t++)\n        sweep(a, b, n);\n");
    REQUIRE(source.find("{\n        float *tmp;") == std::string::npos);
    const AdviseResult r = advise_text(source);
    REQUIRE(r.regions.size() == 1);
    const RegionOutcome& region = r.regions[0];
    CHECK(region.kind == RegionKind::CallerLoop);
    CHECK(region.converted);
    CHECK(region.problem.steps == 30);
    CHECK_FALSE(region.swaps);
    const std::string cu = cu_of(r);
    CHECK(cu.find("recipe::Region recipe_region(") < cu.find("for (t = 0; t < 30; t++)"));
    CHECK(cu.find(".finish();") > cu.find("sweep(a, b, n);\n"));
}

TEST_CASE("a time loop whose body is its nest alone, without braces, runs as one region", "[recipes]") {
    // A benchmark's repetition loop: the same nest T times.
    const AdviseResult r = advise_text(R"(#define N 4000
#define T 100
static double a[N][N], b[N][N];
void run(void)
{
    int t, i, j;
    for (t = 0; t < T; t++)
        for (i = 1; i < N - 1; i++)
            for (j = 1; j < N - 1; j++)
                b[i][j] = 0.25 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);
}
)");
    REQUIRE(r.regions.size() == 1);
    const RegionOutcome& region = r.regions[0];
    CHECK(region.kind == RegionKind::TimeLoop);
    CHECK(region.converted);
    CHECK(region.problem.steps == 100);
    CHECK(region.prediction.total.total_ms < region.step_by_step_ms);
    const std::string cu = cu_of(r);
    CHECK(count(cu, "recipe_region.run(") == 1);
    CHECK(cu.find("recipe::Region recipe_region(") < cu.find("for (t = 0; t < T; t++)"));
    CHECK(cu.find("recipe_region.finish()") > cu.find("recipe_region.run("));
}

TEST_CASE("a first writer's bounds in the function's own variables make the box, which the library checks", "[recipes]") {
    // `lo` and `hi` are in scope where the region opens and the loop does not
    // declare them: the box is written there; at the first launch naming `b`
    // the library checks that the launch's space holds it (region_test.cu).
    AdviseOptions o;
    o.assumptions = {{"lo", "1"}, {"hi", "3999999"}};
    const AdviseResult r = advise_text(R"(#define N 4000000
#define T 20

void smooth(float a[N], float b[N], int lo, int hi)
{
    int t, i;
    for (t = 0; t < T; t++) {
        for (i = lo; i < hi; i++)
            b[i] = 0.25f * a[i - 1] + 0.5f * a[i] + 0.25f * a[i + 1];
        for (i = lo; i < hi; i++)
            a[i] = b[i];
    }
}
)", o);
    REQUIRE(r.regions.size() == 1);
    const RegionOutcome& region = r.regions[0];
    REQUIRE(region.arrays.size() == 2);
    CHECK_FALSE(region.arrays[0].has_written_first);
    CHECK(region.arrays[1].has_written_first);
    CHECK(region.problem.arrays[1].written_first.begin == Index3{1, 0, 0});
    CHECK(region.problem.arrays[1].written_first.end == Index3{3999999, 1, 1});
    CHECK(count(cu_of(r), "recipe::resident(b, recipe::Box{{lo, 0, 0}, {hi, 1, 1}}, true)") == 1);
}

TEST_CASE("a frame of rows a few points long is copied whole: the model prices reaching each row above copying it", "[recipes]") {
    // Rows of 4 doubles: every row is frame but for two points, and a reach
    // per row costs more than the 16 bytes it would save.
    const AdviseResult r = advise_text(R"(#define NX 4
#define NY 2000
#define NZ 500
#define T 20

static void kernel(double A[NZ][NY][NX], double B[NZ][NY][NX])
{
    int t, i, j, k;
    for (t = 0; t < T; t++) {
        for (k = 1; k < NZ - 1; k++)
            for (j = 1; j < NY - 1; j++)
                for (i = 1; i < NX - 1; i++)
                    B[k][j][i] = (A[k][j][i - 1] + A[k][j][i + 1] + A[k][j - 1][i] + A[k][j + 1][i] + A[k - 1][j][i] + A[k + 1][j][i]) / 6;
        for (k = 1; k < NZ - 1; k++)
            for (j = 1; j < NY - 1; j++)
                for (i = 1; i < NX - 1; i++)
                    A[k][j][i] = (B[k][j][i - 1] + B[k][j][i + 1] + B[k][j - 1][i] + B[k][j + 1][i] + B[k - 1][j][i] + B[k + 1][j][i]) / 6;
    }
}
)");
    REQUIRE(r.regions.size() == 1);
    const RegionOutcome& region = r.regions[0];
    for (const auto& a : region.arrays) CHECK_FALSE(a.has_written_first);
    for (const auto& a : region.problem.arrays) CHECK(a.written_first.empty());
    CHECK(region.prediction.total.h2d.bytes == 2LL * 4 * 2000 * 500 * 8);
    CHECK(count(cu_of(r), "recipe::Box{") == 0);
}
