// recipes/main_work.cpp and the decision in recipes/advise.cpp: where the
// .cu releases CUDA (recipe::release_async) and what the exit then costs.
// The release goes after the statement of main's body that holds main's
// last GPU work (a converted nest of main, or a call that leads to one, to
// any depth), when main's CPU work after it hides enough of the release
// that the exit is cheaper than CUDA's whole teardown; never after a
// return, in a main with a goto, in a file that uses CUDA itself, or with a
// profile that has no release figures.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "../advisor/unit_platform.h"
#include "advisor/program_time.h"
#include "recipes/advise.h"
#include "tests/support/memory_file_system.h"

using namespace recipe;
using namespace recipe::recipes;

namespace {

// smooth() converted (the C loop streams at 0.01 GB/s: seconds on the CPU),
// then a checksum main keeps on the CPU (a reduction: priced from its
// loops, the tail that hides the release). `call` is how main reaches
// smooth(); `after` what follows the checksum.
std::string program(const std::string& call, const std::string& extra_functions = "",
                    const std::string& after = "") {
    return R"(#include <stdio.h>
#include <stdlib.h>
#define N 1000000

static void smooth(const float *in, float *out)
{
    int i;
    for (i = 1; i < N - 1; i++)
        out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0f;
}
)" + extra_functions +
           R"(
int main(void)
{
    float *in = malloc(N * sizeof *in);
    float *out = malloc(N * sizeof *out);
    double checksum = 0.0;
    int i;
    for (i = 0; i < N; i++)
        in[i] = (float)(i % 7);
    )" + call + R"(
    for (i = 0; i < N; i++)
        checksum += out[i];
    printf("%f\n", checksum);
    )" + after + R"(
    free(in);
    free(out);
    return 0;
}
)";
}

// The unit platform with host figures, a CUDA teardown of 90 ms and, when
// `release`, a release of 80 ms followed by a 20 ms exit.
std::string write_profile(bool release) {
    nlohmann::json j = test::unit_platform_json();
    j["hostStreamGBs"] = 0.01;
    j["hostGflops"] = 100.0;
    j["cudaStartupNs"] = 0.0;
    j["cudaTeardownNs"] = 90e6;
    for (const char* k : {"hostStreamGBs", "hostGflops", "cudaStartupNs", "cudaTeardownNs"}) j["source"][k] = "made up";
    if (release) {
        j["cudaReleaseNs"] = 80e6;
        j["cudaExitAfterReleaseNs"] = 20e6;
        j["source"]["cudaReleaseNs"] = j["source"]["cudaExitAfterReleaseNs"] = "made up";
    }
    const auto path = std::filesystem::temp_directory_path() / (release ? "recipe-release.json" : "recipe-no-release.json");
    std::ofstream(path) << j.dump();
    return path.string();
}

AdviseResult advise_text(const std::string& source, bool release = true) {
    MemoryFileSystem fs;
    fs.files["smooth.c"] = source;
    AdviseOptions o;
    o.input = "smooth.c";
    o.platform = write_profile(release);
    AdviseResult r;
    std::string error;
    REQUIRE(advise(fs, o, &r, &error));
    return r;
}

std::string cu_of(const AdviseResult& r) {
    for (const auto& f : r.files)
        if (f.name == "smooth.cu") return f.content;
    FAIL("no smooth.cu written");
    throw;
}

}  // namespace

TEST_CASE("the exit after a release: the release hidden by the program's tail, then the exit", "[recipes][advisor]") {
    advisor::Platform pf = test::unit_platform();
    CHECK(advisor::released_teardown_ms(pf, 100) < 0);  // no release figures
    pf.cuda_release_ns = 80e6;
    pf.cuda_exit_after_release_ns = 20e6;
    CHECK(advisor::released_teardown_ms(pf, 0) == Approx(100));
    CHECK(advisor::released_teardown_ms(pf, 30) == Approx(70));
    CHECK(advisor::released_teardown_ms(pf, 500) == Approx(20));
    CHECK(advisor::released_teardown_ms(pf, -5) == Approx(100));
}

TEST_CASE("the .cu releases CUDA after main's last GPU work when the work after it pays for the release", "[recipes]") {
    const AdviseResult r = advise_text(program("smooth(in, out);"));
    REQUIRE(r.wrote_cu);
    const auto& ps = r.program_summary;
    REQUIRE(ps.release_after);
    CHECK(ps.release_line == 20);  // the call of smooth()
    // The checksum over 4 MB at 0.01 GB/s: far longer than the 80 ms release.
    CHECK(ps.release_tail_ms > 80);
    CHECK(ps.teardown_ms == Approx(20));
    const std::string cu = cu_of(r);
    const auto call = cu.find("smooth(in, out);\n"), release = cu.find("recipe::release_async();");
    REQUIRE(call != std::string::npos);
    REQUIRE(release != std::string::npos);
    // Right after the call, before the checksum, at the call's indentation.
    CHECK(release > call);
    CHECK(cu.find("checksum += out[i]") > release);
    CHECK(cu.find("\n    recipe::release_async();\n") != std::string::npos);
    CHECK(cu.find("recipe::release_async();", release + 1) == std::string::npos);
}

TEST_CASE("a call that leads to a converted nest through other functions counts as GPU work", "[recipes]") {
    // main calls run(), which calls smooth(): the release goes after run(), even
    // though main calls smooth() directly before it.
    const AdviseResult r = advise_text(program("smooth(in, out);\n    run(in, out);",
                                               "static void run(const float *in, float *out) { smooth(in, out); }\n"));
    REQUIRE(r.program_summary.release_after);
    CHECK(r.program_summary.release_line == 22);
    const std::string cu = cu_of(r);
    CHECK(cu.find("recipe::release_async();") > cu.find("run(in, out);\n"));
}

TEST_CASE("no release where nothing of main follows its GPU work, the file uses CUDA, or the profile cannot price it", "[recipes]") {
    SECTION("the last GPU work is main's return") {
        const std::string source =
            program("smooth(in, out);", "static int run(const float *in, float *out) { smooth(in, out); return 0; }\n",
                    "return run(in, out);");
        const AdviseResult r = advise_text(source);
        CHECK_FALSE(r.program_summary.release_after);
        CHECK(cu_of(r).find("release_async") == std::string::npos);
        CHECK(r.program_summary.teardown_ms == Approx(90));
    }
    SECTION("the file calls CUDA itself: its own allocations would not outlive the reset") {
        const AdviseResult r = advise_text(
            program("smooth(in, out);", "void cudaFreeHost(void *);\nstatic void tidy(void *p) { cudaFreeHost(p); }\n"));
        CHECK_FALSE(r.program_summary.release_after);
        CHECK(cu_of(r).find("release_async") == std::string::npos);
    }
    SECTION("main has a goto: it may run its GPU work again after the release") {
        const AdviseResult r = advise_text(program("smooth(in, out);", "", "if (checksum < 0) goto again;\nagain:;"));
        CHECK_FALSE(r.program_summary.release_after);
        CHECK(cu_of(r).find("release_async") == std::string::npos);
    }
    SECTION("the profile has no release figures") {
        const AdviseResult r = advise_text(program("smooth(in, out);"), false);
        CHECK_FALSE(r.program_summary.release_after);
        CHECK(cu_of(r).find("release_async") == std::string::npos);
        CHECK(r.program_summary.teardown_ms == Approx(90));
    }
}

TEST_CASE("a release figure without the other is refused", "[advisor]") {
    nlohmann::json j = test::unit_platform_json();
    j["cudaReleaseNs"] = 80e6;
    j["source"]["cudaReleaseNs"] = "made up";
    advisor::Platform pf;
    std::string error;
    CHECK_FALSE(advisor::parse_platform(j.dump(), "unit", &pf, &error));
    CHECK_THAT(error, Catch::Contains("cudaExitAfterReleaseNs") && Catch::Contains("cudaReleaseNs"));
}
