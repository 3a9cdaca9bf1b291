#include <nlohmann/json.hpp>
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "tests/support/memory_file_system.h"
#include "recipes/advise.h"

using namespace recipe::recipes;

namespace {

// plan.json's host_measured vectorised rates (two wide, four wide).
std::pair<double, double> plan_vector_rates(const std::string& plan_json) {
    const nlohmann::json plan = nlohmann::json::parse(plan_json);
    return {plan["host_measured"]["gflops_vector2"].get<double>(), plan["host_measured"]["gflops_vector4"].get<double>()};
}

const char* kTwoNests = R"(#include <stdlib.h>
#define N 4096

static void smooth(const float *in, float *out)
{
    int i;
    for (i = 1; i < N - 1; i++)
        out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0f;
}

static void sweep(float *a)
{
    int i;
    for (i = 1; i < N - 1; i++)
        a[i] = (a[i - 1] + a[i + 1]) / 2.0f;  /* in place: a loop-carried dependence */
}

int main(void)
{
    float *in = malloc(N * sizeof *in);
    float *out = calloc(N, sizeof *out);
    smooth(in, out);
    sweep(out);
    free(in);
    free(out);
    return 0;
}
)";

// These tests are about the conversion: every convertible nest is converted,
// whatever the comparison with the CPU says of these small files (that
// comparison has its own tests, cpu_decision_test.cpp).
AdviseOptions converting() {
    AdviseOptions o;
    o.convert_all = true;
    return o;
}

AdviseResult run(MemoryFileSystem& fs, const std::string& source, AdviseOptions options = converting()) {
    fs.files["src/two.c"] = source;
    options.input = "src/two.c";
    if (options.platform.empty()) options.platform = "h200";
    AdviseResult r;
    std::string error;
    REQUIRE(advise(fs, options, &r, &error));
    return r;
}

const OutputFile* file(const AdviseResult& r, const std::string& name) {
    for (const auto& f : r.files)
        if (f.name == name) return &f;
    return nullptr;
}

}  // namespace

TEST_CASE("advise converts the accepted nest and explains the rejected one", "[recipes]") {
    MemoryFileSystem fs;
    const AdviseResult r = run(fs, kTwoNests);
    REQUIRE(r.nests.size() == 2);
    CHECK(r.nests[0].verdict == Verdict::Converted);
    CHECK(r.nests[1].verdict == Verdict::Rejected);
    CHECK(r.wrote_cu);
    std::vector<std::string> names;
    for (const auto& f : r.files) names.push_back(f.name);
    CHECK(names == std::vector<std::string>{"two.recipe.md", "two.cu", "two.plan.json", "two.nest1.tile-size.svg",
                                            "two.nest1.pipeline.svg"});
    // Rejections are reported like a compiler's warnings, with the path as given.
    REQUIRE_FALSE(r.diagnostics.empty());
    CHECK(r.diagnostics[0].rfind("src/two.c:15:", 0) == 0);
    CHECK(r.diagnostics[0].find(": warning: ") != std::string::npos);
    CHECK(r.diagnostics[0].find("[doacross]") != std::string::npos);

    const std::string& recipe = file(r, "two.recipe.md")->content;
    // No template syntax or placeholder is left, and no value rendered empty
    // (an empty code span or table cell is a variable the view did not set).
    for (const char* left : {"{{#", "{{/", "{{^", "<%", "%>", "TODO", "<recipe>", " `` ", "``,", "|  |", " ms ms"}) {
        INFO(left);
        CHECK(recipe.find(left) == std::string::npos);
    }
    CHECK(recipe.find("## Nest 1: `smooth()`, lines 7–8") != std::string::npos);
    CHECK(recipe.find("| 8:9 | `out[i]` | `out(i)` |") != std::string::npos);
    CHECK(recipe.find("### Why it is not converted") != std::string::npos);
    CHECK(recipe.find("**What would make it legal:**") != std::string::npos);
    CHECK(recipe.find("![Predicted run time against tile size") != std::string::npos);

    const std::string& cu = file(r, "two.cu")->content;
    CHECK(cu.find("__global__ void smooth_kernel(recipe::Tile tile, recipe::InView<float> in, recipe::OutView<float> out)") != std::string::npos);
    CHECK(cu.find("        out(i) = (in(i - 1) + in(i) + in(i + 1)) / 3.0f;\n") == std::string::npos);  // re-indented in the kernel
    CHECK(cu.find("    out(i) = (in(i - 1) + in(i) + in(i + 1)) / 3.0f;\n") != std::string::npos);
    // The rejected nest and everything else stays as written, C++ fixes aside.
    CHECK(cu.find("        a[i] = (a[i - 1] + a[i + 1]) / 2.0f;  /* in place: a loop-carried dependence */") != std::string::npos);
    CHECK(cu.find("float *in = (float *)malloc(N * sizeof *in);") != std::string::npos);
    CHECK(cu.find("cfg.space = {{1, 0, 0}, {N - 1, 1, 1}};") != std::string::npos);
    // The input itself is never written.
    CHECK(fs.files.at("src/two.c") == kTwoNests);
    CHECK(fs.writes == 0);
}

TEST_CASE("advise with nothing to convert writes a recipe and no .cu", "[recipes]") {
    MemoryFileSystem fs;
    const AdviseResult r = run(fs, "int main(void) { int s = 0, i; for (i = 0; i < 10; i++) s += i; return s; }\n");
    CHECK_FALSE(r.wrote_cu);
    CHECK(file(r, "two.cu") == nullptr);
    REQUIRE(file(r, "two.recipe.md") != nullptr);
    CHECK(file(r, "two.recipe.md")->content.find("No `.cu` file was written") != std::string::npos);
}

TEST_CASE("-D reaches the preprocessor, the compile command and the recipe's caveats", "[recipes]") {
    std::string src = kTwoNests;
    src.replace(src.find("#define N 4096\n"), 15, "#ifndef N\n#define N 4096\n#endif\n");
    MemoryFileSystem fs;
    AdviseOptions o = converting();
    o.build.args = {"-DN=1000"};
    const AdviseResult r = run(fs, src, o);
    REQUIRE(!r.nests.empty());
    CHECK(r.nests[0].nest->iteration_space[0].upper.value == 999);
    CHECK(r.compile_command == "nvcc -O2 -std=c++17 -arch=native --fmad=false -I\"$RECIPE_INCLUDE\" -DN=1000 two.cu -o two");
    const std::string& recipe = file(r, "two.recipe.md")->content;
    CHECK(recipe.find("**Build flags.** The plan is for the file as its preprocessor sees it with `-DN=1000`") != std::string::npos);
    CHECK(recipe.find("recipe advise two.c --platform h200 -DN=1000") != std::string::npos);
}

TEST_CASE("a preprocessor error is a user error in the compiler's form", "[recipes]") {
    MemoryFileSystem fs;
    fs.files["src/two.c"] = "#include \"no-such-header.h\"\nint main(void) { return 0; }\n";
    AdviseOptions o = converting();
    o.input = "src/two.c";
    o.platform = "h200";
    AdviseResult r;
    std::string error;
    CHECK_FALSE(advise(fs, o, &r, &error));
    CHECK(error.rfind("src/two.c:1:10: error: no-such-header.h: No such file or directory", 0) == 0);
}

TEST_CASE("advise reports unreadable input and unknown platforms as user errors", "[recipes]") {
    MemoryFileSystem fs;
    AdviseOptions o = converting();
    o.input = "missing.c";
    o.platform = "h200";
    AdviseResult r;
    std::string error;
    CHECK_FALSE(advise(fs, o, &r, &error));
    CHECK(error == "missing.c: error: cannot open file: No such file or directory");
    fs.files["a.c"] = "int main(void) { return 0; }\n";
    o.input = "a.c";
    o.platform = "no-such-gpu";
    CHECK_FALSE(advise(fs, o, &r, &error));
    CHECK(error.find("no-such-gpu") != std::string::npos);
}

TEST_CASE("unsigned sizes are cast, `continue` keeps working, -D of a variable stays off the nvcc line", "[recipes]") {
    const char* src = R"(#include <stdlib.h>

void blur(const float *in, float *out, size_t w, size_t h, float k)
{
    for (size_t y = 1; y < h - 1; y++) {
        for (size_t x = 1; x < w - 1; x++) {
            if (x == 5)
                continue;
            out[y * w + x] = k * (in[y * w + x - 1] + in[y * w + x + 1]);
        }
    }
}

int main(void)
{
    size_t w = 1000, h = 800;
    float *in = calloc(w * h, sizeof *in);
    float *out = calloc(w * h, sizeof *out);
    blur(in, out, w, h, 0.5f);
    free(in);
    free(out);
    return 0;
}
)";
    MemoryFileSystem fs;
    AdviseOptions o = converting();
    o.assumptions = {{"w", "1000"}, {"h", "800"}};
    const AdviseResult r = run(fs, src, o);
    REQUIRE(r.nests.size() == 1);
    REQUIRE(r.nests[0].verdict == Verdict::Converted);
    CHECK(r.compile_command == "nvcc -O2 -std=c++17 -arch=native --fmad=false -I\"$RECIPE_INCLUDE\" two.cu -o two");
    const std::string& cu = file(r, "two.cu")->content;
    CHECK(cu.find("cfg.space = {{1, 1, 0}, {static_cast<std::int64_t>(w - 1), static_cast<std::int64_t>(h - 1), 1}};") != std::string::npos);
    CHECK(cu.find("    const size_t x = static_cast<size_t>(tile.x());\n") != std::string::npos);
    CHECK(cu.find("    do {  // `continue` ends this point's work, as it ended the loop iteration\n        if (x == 5)\n            continue;\n") != std::string::npos);
    // The write can be skipped, so the untouched points must come back unchanged.
    CHECK(cu.find("recipe::outputs(recipe::inout(out)), ") != std::string::npos);
    const std::string& recipe = file(r, "two.recipe.md")->content;
    CHECK(recipe.find("The plan is for `w = 1000`, `h = 800` (from `--assume`)") != std::string::npos);
}

TEST_CASE("functions the body calls become __host__ __device__; a nest the model cannot plan says why", "[recipes]") {
    const char* src = R"(#include <stdlib.h>
#define N 1000
#define M 500
float twice(float v);
float scale(float v) { return twice(v) + 1.0f; }
float twice(float v) { return v * 2.0f; }
void f(const float *in, float *out, float *small)
{
    int i;
    for (i = 0; i < N; i += 2)
        out[i] = in[i];
    for (i = 0; i < M; i++)
        small[i] = scale(in[i]);
}
int main(void)
{
    float *in = malloc(N * sizeof *in), *out = malloc(N * sizeof *out), *small = malloc(M * sizeof *small);
    f(in, out, small);
    return 0;
}
)";
    MemoryFileSystem fs;
    const AdviseResult r = run(fs, src);
    REQUIRE(r.nests.size() == 2);
    CHECK(r.nests[0].verdict == Verdict::NotPlanned);
    CHECK(r.nests[0].why.find("stride 2") != std::string::npos);
    REQUIRE(r.nests[1].verdict == Verdict::Converted);
    const std::string& cu = file(r, "two.cu")->content;
    CHECK(cu.find("__host__ __device__ float twice(float v);\n__host__ __device__ float scale(float v)") != std::string::npos);
    CHECK(cu.find("__host__ __device__ float twice(float v) { return v * 2.0f; }") != std::string::npos);
    CHECK(cu.find("        out[i] = in[i];") != std::string::npos);  // the unplanned nest stays as written
    const std::string& recipe = file(r, "two.recipe.md")->content;
    CHECK(recipe.find("**Not planned:** the analyzer accepts this nest, but") != std::string::npos);
    CHECK(recipe.find("mark `scale`, `twice` `__host__ __device__`") != std::string::npos);
}

TEST_CASE("syntax errors reach stderr and the recipe; the valid nests are still advised", "[recipes]") {
    const char* src = R"(#define N 100
void f(const float *in, float *out)
{
    int i;
    for (i = 0; i < N; i++)
        out[i] = in[i] * 2.0f;
}
int g( { return 0; }
)";
    MemoryFileSystem fs;
    const AdviseResult r = run(fs, src);
    REQUIRE_FALSE(r.program().diagnostics.empty());
    CHECK(std::any_of(r.diagnostics.begin(), r.diagnostics.end(), [](const std::string& d) { return d.rfind("src/two.c:8:", 0) == 0; }));
    const std::string& recipe = file(r, "two.recipe.md")->content;
    CHECK(recipe.find("the analyzer reports on the file as a whole") != std::string::npos);
    CHECK(recipe.find("two.c:8:") != std::string::npos);
}

TEST_CASE("--gpu-memory plans arrays larger than it with a tiled scheme, and the .cu keeps within it", "[recipes]") {
    MemoryFileSystem fs;
    AdviseOptions o = converting();
    o.gpu_memory_bytes = 1 << 20;  // 1 MiB for two arrays of 4 MiB
    std::string text = kTwoNests;
    text.replace(text.find("#define N 4096"), 14, "#define N 1048576");
    const AdviseResult r = run(fs, text, o);
    const NestOutcome& smooth = r.nests.front();
    REQUIRE(smooth.verdict == Verdict::Converted);
    CHECK_FALSE(smooth.plan.naive_fits);
    CHECK(smooth.chosen()->device_bytes <= o.gpu_memory_bytes);
    CHECK(smooth.chosen()->config.scheme != recipe::advisor::Scheme::Basic);
    const OutputFile* cu = file(r, "two.cu");
    REQUIRE(cu);
    CHECK(cu->content.find("cfg.device_memory = 1048576;") != std::string::npos);
    const OutputFile* recipe = file(r, "two.recipe.md");
    REQUIRE(recipe);
    CHECK(recipe->content.find("do not fit in the GPU's memory") != std::string::npos);
}

TEST_CASE("loop counters only the converted loops used are not left declared in the .cu", "[recipes]") {
    MemoryFileSystem fs;
    const AdviseResult r = run(fs, R"(#include <stdlib.h>
#define N 4096

int main(void)
{
    float *in = malloc(N * sizeof *in);
    float *out = malloc(N * sizeof *out);
    int i, j, kept;
    int k;
    for (i = 0; i < N; i++)
        in[i] = (float)(i & 7);
    for (j = 1; j < N - 1; j++)
        out[j] = in[j - 1] + in[j + 1];
    kept = 3;
    free(in);
    free(out);
    return kept;
}
)");
    const OutputFile* cu = file(r, "two.cu");
    REQUIRE(cu);
    CHECK(cu->content.find("int kept;") != std::string::npos);  // i and j gone, kept stays
    CHECK(cu->content.find("int k;") != std::string::npos);     // never used: not ours to remove
    CHECK(cu->content.find("int i, j") == std::string::npos);
}

TEST_CASE("the .cu's host code is built at the C build's -O level", "[recipes]") {
    recipe::analyzer::BuildFlags b;
    CHECK(host_optimization(b) == "-O2");  // none given: the usual level
    b.args = {"-O3", "-DN=4"};
    CHECK(host_optimization(b) == "-O3");
    b.args = {"-O3", "-O1"};  // the last one counts, as for the compiler
    CHECK(host_optimization(b) == "-O1");
    b.args = {"-O"};
    CHECK(host_optimization(b) == "-O1");
    b.args = {"-Ofast"};  // a level nvcc does not take goes to the host compiler
    CHECK(host_optimization(b) == "-Xcompiler=-Ofast");
    CHECK(compile_command("k.cu", "k", " -DN=4", "inc", "-O3") == "nvcc -O3 -std=c++17 -arch=native --fmad=false -Iinc -DN=4 k.cu -o k");
}

TEST_CASE("a staged call asks the library for the profile's staging thread count", "[recipes]") {
    std::string big = kTwoNests;  // large enough to be staged rather than copied pageable
    big.replace(big.find("#define N 4096"), 14, "#define N 67108864");
    MemoryFileSystem fs;
    const AdviseResult stock = run(fs, big);
    const auto* cu = file(stock, "two.cu");
    REQUIRE(cu);
    REQUIRE(cu->content.find("cfg.host = recipe::HostMemory::Staged;") != std::string::npos);
    CHECK(cu->content.find("host_threads") == std::string::npos);  // h200.json has no stagingThreads: the library's default

    std::ifstream in(std::string(RECIPE_SOURCE_DIR) + "/advisor/platforms/h200.json");
    std::stringstream text;
    text << in.rdbuf();
    std::string json = text.str();
    json.insert(json.find('{') + 1, "\n  \"stagingThreads\": 6,");
    json.insert(json.find("\"source\": {") + 11, "\n    \"stagingThreads\": \"a test's value\",");
    const std::string path = (std::filesystem::temp_directory_path() / ("recipe-threads-" + std::to_string(::getpid()) + ".json")).string();
    std::ofstream(path) << json;
    AdviseOptions o = converting();
    o.platform = path;
    MemoryFileSystem fs2;
    const AdviseResult r = run(fs2, big, o);
    std::filesystem::remove(path);
    REQUIRE(file(r, "two.cu"));
    CHECK(file(r, "two.cu")->content.find("cfg.host_threads = 6;  // staging threads") != std::string::npos);
}

TEST_CASE("--measure-host: the CPU side uses this machine's figures, and the recipe and plan say so", "[recipes]") {
    std::string big = kTwoNests;
    big.replace(big.find("#define N 4096"), 14, "#define N 67108864");
    MemoryFileSystem fs;
    const AdviseResult stock = run(fs, big);
    const std::string stock_recipe = file(stock, "two.recipe.md")->content;
    CHECK(stock_recipe.find("the profile's host; hosts of one GPU kind differ") != std::string::npos);
    CHECK(file(stock, "two.plan.json")->content.find("host_measured") == std::string::npos);

    recipe::advisor::HostCpu h;  // a machine four times the profile's streaming rate
    h.stream_gbs = 46.08;
    h.stream_bytes = {3145728, 805306368};
    h.stream_ns = {30000, 17000000};
    h.gflops = 15.9;
    h.gflops_vector2 = 27.0;
    h.gflops_vector4 = 51.5;
    h.first_touch_gbs = 3.0;
    h.math_call_ns = 4.0;
    AdviseOptions o = converting();
    recipe::advisor::RememberedHost remembered;
    remembered.best = h;
    remembered.measured = h;
    remembered.readings = 3;
    remembered.since_unix_s = 1795000000;  // 2026-11-18 11:06:40 UTC
    o.measured_host = remembered;
    MemoryFileSystem fs2;
    const AdviseResult r = run(fs2, big, o);
    CHECK(r.platform.host_measured);
    CHECK(r.platform.host_stream_gbs == 46.08);
    const std::string recipe = file(r, "two.recipe.md")->content;
    CHECK(recipe.find("(46.1 GB/s, one thread) and its arithmetic at 15.90 GFLOP/s (27.00 and 51.50 GFLOP/s where your "
                      "compiler reports the loop vectorised two and four lanes wide") != std::string::npos);
    CHECK(recipe.find("the two added") != std::string::npos);
    CHECK(plan_vector_rates(file(r, "two.plan.json")->content) == std::pair{27.0, 51.5});
    CHECK(recipe.find("measured on the machine that made this recipe (`--measure-host`: the best of its 3 readings since 2026-11-18 11:06 UTC)") != std::string::npos);
    const nlohmann::json plan = nlohmann::json::parse(file(r, "two.plan.json")->content);
    CHECK(plan["host_measured"]["readings"] == 3);
    CHECK(plan["host_measured"]["since"] == "2026-11-18T11:06:40Z");
    // A faster CPU makes the C loop cheaper: the recipe's CPU time falls.
    REQUIRE(stock.program_summary.compared);
    REQUIRE(r.program_summary.compared);
    CHECK(r.program_summary.cpu_ms < stock.program_summary.cpu_ms);
}

TEST_CASE("the .cu's start-up reserves the largest device and staging blocks of its calls", "[recipes]") {
    std::string big = kTwoNests;  // two calls of different sizes: smooth() staged, main's fill larger
    big.replace(big.find("#define N 4096"), 14, "#define N 67108864");
    MemoryFileSystem fs;
    const AdviseResult r = run(fs, big);
    const auto* cu = file(r, "two.cu");
    REQUIRE(cu);
    std::int64_t device = 0, pinned = 0;
    int streams = 0;
    for (const auto& n : r.nests) {
        if (n.verdict != Verdict::Converted) continue;
        const recipe::advisor::Prediction& p = *n.chosen();
        device = std::max(device, p.device_bytes);
        if (p.host_strategy == recipe::advisor::HostStrategy::Staged) pinned = std::max(pinned, p.host_bytes);
        streams = std::max(streams, p.config.streams);
    }
    REQUIRE(device > 0);
    REQUIRE(pinned > 0);
    const std::string line = "static recipe::EarlyStart recipe_early_start(recipe::PoolSize{ " + std::to_string(device) + ", " +
                             std::to_string(pinned) + ", " + std::to_string(streams) + ", ";
    CHECK(cu->content.find(line) != std::string::npos);
    // What it costs is in the start-up the program waits for, not in the first call.
    CHECK(r.program_summary.pool_setup_ms > 0);
}
