// recipes/advise.cpp: the decision against the CPU. A nest is converted when
// the program gets faster: its own saving, and the nests' savings together
// against what using CUDA costs the program (the start-up it waits for and
// the teardown at exit). --calls and time loops multiply the calls;
// --convert-all converts anyway; a profile without host figures converts
// as before and says why nothing was compared.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "../advisor/unit_platform.h"
#include "tests/support/memory_file_system.h"
#include "recipes/advise.h"

using namespace recipe;
using namespace recipe::recipes;

namespace {

const char* kSmooth = R"(#include <stdlib.h>
#define N 1000000

static void smooth(const float *in, float *out)
{
    int i;
    for (i = 1; i < N - 1; i++)
        out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0f;
}

int main(void)
{
    float *in = malloc(N * sizeof *in);
    float *out = malloc(N * sizeof *out);
    int i;
    for (i = 0; i < N; i++)
        in[i] = (float)(i % 7);
    smooth(in, out);
    free(in);
    free(out);
    return 0;
}
)";

// The unit platform (a copy of b bytes: 10 us + b ns), with a host whose
// C loop takes `cpu_ns_per_byte` per byte streamed, and CUDA costs.
std::string write_profile(double stream_gbs, double startup_ms, bool host_figures = true) {
    nlohmann::json j = test::unit_platform_json();
    if (host_figures) {
        j["hostStreamGBs"] = stream_gbs;
        j["hostGflops"] = 100.0;
        j["cudaStartupNs"] = startup_ms * 1e6;
        j["cudaTeardownNs"] = 0.0;
        for (const char* k : {"hostStreamGBs", "hostGflops", "cudaStartupNs", "cudaTeardownNs"}) j["source"][k] = "made up";
    }
    const auto path = std::filesystem::temp_directory_path() /
                      ("recipe-cpu-decision-" + std::to_string(static_cast<long long>(stream_gbs * 1e6)) + "-" +
                       std::to_string(static_cast<long long>(startup_ms)) + (host_figures ? "" : "-none") + ".json");
    std::ofstream(path) << j.dump();
    return path.string();
}

// `source`, as the file `name`, advised with `o`.
AdviseResult advise_text(const std::string& name, const std::string& source, AdviseOptions o) {
    MemoryFileSystem fs;
    fs.files[name] = source;
    o.input = name;
    AdviseResult r;
    std::string error;
    REQUIRE(advise(fs, o, &r, &error));
    return r;
}

AdviseResult advise_with(const std::string& profile, AdviseOptions o = {}) {
    o.platform = profile;
    return advise_text("smooth.c", kSmooth, o);
}

// `source` advised with the stored h200 profile (host figures and CUDA's
// start-up measured), every nest the generator can convert converted.
AdviseResult advise_h200(const std::string& source) {
    AdviseOptions o;
    o.platform = "h200";
    o.convert_all = true;
    return advise_text("fill.c", source, o);
}

const NestOutcome& smooth_nest(const AdviseResult& r) {
    for (const auto& n : r.nests)
        if (n.nest->function == "smooth") return n;
    FAIL("no nest in smooth()");
    throw;
}

}  // namespace

TEST_CASE("a nest the CPU runs faster than the GPU stays on the CPU, with both times", "[recipes]") {
    // 8 MB streamed at 100 GB/s: 0.08 ms on the CPU, far less than the copies at 1 GB/s.
    const AdviseResult r = advise_with(write_profile(100, 0));
    const NestOutcome& n = smooth_nest(r);
    CHECK(n.verdict == Verdict::KeptOnCpu);
    CHECK_THAT(n.why, Catch::Contains("on the CPU it takes about") && Catch::Contains("on the GPU"));
    CHECK_FALSE(r.wrote_cu);
    CHECK(r.program_summary.compared);
    CHECK_FALSE(r.program_summary.runs_on_gpu);
}

TEST_CASE("a nest that saves time is converted, unless the saving does not pay CUDA's start-up", "[recipes]") {
    // 8 MB at 0.001 GB/s: 8 s on the CPU; the GPU's copies take about 8 ms.
    const AdviseResult fast = advise_with(write_profile(0.001, 10));
    CHECK(smooth_nest(fast).verdict == Verdict::Converted);
    CHECK(fast.wrote_cu);
    CHECK(fast.program_summary.runs_on_gpu);
    CHECK(fast.program_summary.gpu_ms < fast.program_summary.cpu_ms);

    // 8 MB at 0.5 GB/s: 16 ms on the CPU, about 8 ms saved, less than a 1 s start-up.
    const AdviseResult slow_start = advise_with(write_profile(0.5, 1000));
    const NestOutcome& n = smooth_nest(slow_start);
    CHECK(n.verdict == Verdict::KeptOnCpu);
    CHECK_THAT(n.why, Catch::Contains("start-up"));
    CHECK_FALSE(slow_start.wrote_cu);

    // Called 1000 times, the same nest saves 1000 times as much: converted.
    AdviseOptions many;
    many.calls = 1000;
    const AdviseResult called = advise_with(write_profile(0.5, 1000), many);
    CHECK(smooth_nest(called).verdict == Verdict::Converted);
    CHECK(smooth_nest(called).in_program.calls == 1000);

    // --convert-all converts it anyway.
    AdviseOptions all;
    all.convert_all = true;
    CHECK(smooth_nest(advise_with(write_profile(0.5, 1000), all)).verdict == Verdict::Converted);
}

TEST_CASE("without host figures every convertible nest is converted and the recipe says nothing was compared", "[recipes]") {
    const AdviseResult r = advise_with(write_profile(1, 0, false));
    CHECK(smooth_nest(r).verdict == Verdict::Converted);
    CHECK_FALSE(r.program_summary.compared);
    CHECK_THAT(r.program_summary.note, Catch::Contains("no host figures"));
}

TEST_CASE("the CPU work of functions main calls before the first converted call hides CUDA's start-up", "[recipes]") {
    // fill()'s loop stays on the CPU (sinf: the GPU's differs in the last
    // bits); called before smooth() it runs while CUDA starts, after it not.
    const std::string before = R"(#include <math.h>
#include <stdlib.h>
#define N 16000000

static void fill(float *a)
{
    int i;
    for (i = 0; i < N; i++)
        a[i] = sinf(i * 0.001f);
}

static void smooth(const float *in, float *out)
{
    int i;
    for (i = 1; i < N - 1; i++)
        out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0f;
}

int main(void)
{
    float *in = malloc(N * sizeof *in);
    float *out = malloc(N * sizeof *out);
    fill(in);
    smooth(in, out);
    fill(in);
    free(in);
    free(out);
    return 0;
}
)";
    std::string after = before;
    const std::string first_fill = "    fill(in);\n    smooth(in, out);\n";
    after.replace(after.find(first_fill), first_fill.size(), "    smooth(in, out);\n");
    const AdviseResult early = advise_h200(before), late = advise_h200(after);
    REQUIRE(early.program_summary.compared);
    REQUIRE(late.program_summary.compared);
    // Only the call before the first converted one hides anything: fill's
    // 16 M math calls (tens of ms on one thread) before smooth() does.
    CHECK(early.program_summary.startup_paid_ms < late.program_summary.startup_paid_ms - 20);
    CHECK(late.program_summary.startup_paid_ms > 0);
}

TEST_CASE("a fill the analyzer rejects (a carried state) still hides CUDA's start-up by its counted work", "[recipes]") {
    const std::string source = R"(#include <stdlib.h>
#define N 64000000

static void fill(float *a, size_t n)
{
    unsigned state = 12345u;
    float level = 100.0f;
    size_t i;
    for (i = 0; i < n; i++) {
        state = state * 1664525u + 1013904223u;
        level += ((float)(state >> 8) / 16777216.0f - 0.5f) * 0.25f;
        a[i] = level;
    }
}

static void smooth(const float *in, float *out)
{
    int i;
    for (i = 1; i < N - 1; i++)
        out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0f;
}

int main(void)
{
    float *in = malloc(N * sizeof *in);
    float *out = malloc(N * sizeof *out);
    FILL
    free(in);
    free(out);
    return 0;
}
)";
    auto run = [&](const std::string& calls) {
        std::string src = source;
        src.replace(src.find("FILL"), 4, calls);
        return advise_h200(src);
    };
    const AdviseResult early = run("fill(in, N);\n    smooth(in, out);"), late = run("smooth(in, out);\n    fill(in, N);");
    bool rejected = false;
    for (const auto& n : early.nests) rejected = rejected || (n.nest->function == "fill" && !n.nest->accepted);
    REQUIRE(rejected);
    // 64 M points of its counted arithmetic, on top of the input's first
    // touch that the converted nest's own lower bound already counts.
    CHECK(early.program_summary.startup_paid_ms < late.program_summary.startup_paid_ms - 20);
}
