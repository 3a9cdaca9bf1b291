// recipe advise --gpus N (recipes/gpu_choice.h): each converted call and
// region runs on as many of 1 ... N GPUs as the program is fastest with; the
// .cu asks the library for them (cfg.devices, a region's devices and
// halo_rows, PoolSize's fifth field); without --gpus nothing changes. On the
// unit platform (copies 10 us + 1 ns/B) with made-up multiGpu figures
// (tests/unit/advisor/multi_gpu_platform.h).
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/support/memory_file_system.h"
#include "tests/unit/advisor/multi_gpu_platform.h"
#include "recipes/advise.h"

using namespace recipe;
using namespace recipe::recipes;

namespace {

const char* kSmooth = R"(#include <stdlib.h>
#define N 4000000

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

std::string write_profile(const std::string& name, const nlohmann::json& profile) {
    const auto path = std::filesystem::temp_directory_path() / ("recipe-multi-gpu-" + name + ".json");
    std::ofstream(path) << profile.dump();
    return path.string();
}

bool advise_file(const std::string& file, const std::string& text, const std::string& profile, AdviseOptions o, AdviseResult* r,
                 std::string* error) {
    MemoryFileSystem fs;
    fs.files[file] = text;
    o.input = file;
    o.platform = profile;
    return advise(fs, o, r, error);
}

AdviseResult advise_smooth(const std::string& profile, AdviseOptions o) {
    AdviseResult r;
    std::string error;
    INFO(error);
    REQUIRE(advise_file("smooth.c", kSmooth, profile, o, &r, &error));
    return r;
}

const NestOutcome& nest_in(const AdviseResult& r, const std::string& function) {
    for (const auto& n : r.nests)
        if (n.nest->function == function && n.verdict == Verdict::Converted) return n;
    FAIL("no converted nest in " << function << "()");
    throw;
}

std::string file_named(const AdviseResult& r, const std::string& name) {
    for (const auto& f : r.files)
        if (f.name == name) return f.content;
    return "";
}

std::string read_sample(const std::string& name) {
    std::ifstream in(std::filesystem::path(RECIPE_SOURCE_DIR) / "samples" / name);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The built binary on `args`, in `dir`: its exit status and stderr.
std::pair<int, std::string> run_recipe(const std::string& args, const std::filesystem::path& dir) {
    const std::filesystem::path err = dir / "stderr.txt";
    const std::string cmd = "cd '" + dir.string() + "' && '" + RECIPE_BINARY + "' " + args + " >/dev/null 2>'" + err.string() + "'";
    const int raw = std::system(cmd.c_str());
    std::ifstream in(err);
    std::ostringstream text;
    text << in.rdbuf();
    return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, text.str()};
}

}  // namespace

TEST_CASE("recipe advise and predict --gpus exit 2 without the figures, naming what to measure", "[recipes]") {
    const std::filesystem::path dir = std::filesystem::path(RECIPE_BINARY).parent_path() / "advise-cli-gpus";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "smooth.c") << kSmooth;
    auto [status, err] = run_recipe("advise smooth.c --platform tesla-c2050 --gpus 2 -o out", dir);
    CHECK(status == 2);
    CHECK_THAT(err, Catch::Contains("--gpus 2") && Catch::Contains("multiGpu") && Catch::Contains("recipe-profile"));
    CHECK_FALSE(std::filesystem::exists(dir / "out"));
    std::tie(status, err) = run_recipe("predict smooth.c --platform tesla-c2050 --scheme basic --tile 1000 --gpus 2", dir);
    CHECK(status == 2);
    CHECK_THAT(err, Catch::Contains("multiGpu"));
    const std::string test_profile = std::string(RECIPE_SOURCE_DIR) + "/tests/platforms/multi-gpu-test.json";
    std::tie(status, err) = run_recipe("advise smooth.c --platform " + test_profile + " --gpus 5 -o out", dir);
    CHECK(status == 2);
    CHECK_THAT(err, Catch::Contains("cover 4 GPUs, not 5"));
    std::tie(status, err) = run_recipe("advise smooth.c --platform " + test_profile + " --gpus 0 -o out", dir);
    CHECK(status == 2);
    CHECK_THAT(err, Catch::Contains("--gpus 0"));
    std::tie(status, err) = run_recipe("advise smooth.c --platform " + test_profile + " --gpus 4 --convert-all -o out", dir);
    INFO(err);
    CHECK(status == 0);
}

TEST_CASE("--gpus N without the profile's multiGpu figures for N GPUs is a usage error that says what to measure", "[recipes]") {
    AdviseOptions o;
    o.gpus = 2;
    AdviseResult r;
    std::string error;
    CHECK_FALSE(advise_file("smooth.c", kSmooth, write_profile("none", test::unit_platform_json()), o, &r, &error));
    CHECK_THAT(error, Catch::Contains("--gpus 2") && Catch::Contains("\"multiGpu\"") && Catch::Contains("recipe-profile"));
    o.gpus = 8;
    CHECK_FALSE(advise_file("smooth.c", kSmooth, write_profile("four", test::unit_multi_gpu_platform_json()), o, &r, &error));
    CHECK_THAT(error, Catch::Contains("cover 4 GPUs, not 8") && Catch::Contains("recipe-profile"));
    // One GPU needs no such figures.
    o.gpus = 1;
    CHECK(advise_file("smooth.c", kSmooth, write_profile("none", test::unit_platform_json()), o, &r, &error));
}

TEST_CASE("a call runs on two GPUs when the program gains, and on one when the second GPU's start-up costs more", "[recipes]") {
    const std::string profile = write_profile("four", test::unit_multi_gpu_platform_json());
    AdviseOptions o;
    o.gpus = 2;
    // Once: each call is faster on two GPUs (each copies half), but not by the
    // 10 ms the second context adds to the program's start-up.
    const AdviseResult once = advise_smooth(profile, o);
    const NestOutcome& alone = nest_in(once, "smooth");
    REQUIRE(alone.gpus.curve.size() == 2);
    CHECK(alone.gpus.refused.empty());
    CHECK(alone.gpus.curve[1].call_ms < alone.gpus.curve[0].call_ms);
    CHECK(alone.gpus.curve[0].call_ms - alone.gpus.curve[1].call_ms < 10);
    CHECK(alone.gpus.curve[1].startup_ms == Approx(10));
    CHECK(alone.gpus.devices == 1);
    const std::string cu_once = file_named(once, "smooth.cu");
    CHECK(cu_once.find("cfg.devices") == std::string::npos);
    CHECK(cu_once.find("recipe::PoolSize{ ") != std::string::npos);
    CHECK_THAT(file_named(once, "smooth.recipe.md"), Catch::Contains("**One GPU:**"));

    // 100 calls: the saving per call pays the start-up many times over.
    o.calls = 100;
    const AdviseResult many = advise_smooth(profile, o);
    const NestOutcome& n = nest_in(many, "smooth");
    CHECK(n.gpus.devices == 2);
    REQUIRE(n.running() != n.chosen());
    CHECK(n.running()->total_ms == Approx(n.gpus.curve[1].call_ms));
    CHECK(n.gpus.run.slabs.size() == 2);
    const std::string cu = file_named(many, "smooth.cu");
    CHECK_THAT(cu, Catch::Contains("    cfg.devices = 2;"));
    // The start-up thread starts both GPUs' contexts: PoolSize's fifth field.
    CHECK_THAT(cu, Catch::Matches("(.|\\n)*recipe::PoolSize\\{ [0-9]+, [0-9]+, [0-9]+, [0-9]+, 2 \\}(.|\\n)*"));
    const std::string recipe = file_named(many, "smooth.recipe.md");
    CHECK_THAT(recipe, Catch::Contains("### On several GPUs (`--gpus 2`)") && Catch::Contains("**2 GPUs:**") &&
                           Catch::Contains("| 2 (chosen) |"));
    const nlohmann::json plan = nlohmann::json::parse(file_named(many, "smooth.plan.json"));
    CHECK(plan["options"]["gpus"] == 2);
    for (const auto& j : plan["nests"])
        if (j["function"] == "smooth") {
            CHECK(j["gpus"] == 2);
            REQUIRE(j["gpuCurve"].size() == 2);
            CHECK(j["gpuCurve"][1]["gpus"] == 2);
            CHECK(j["gpuSlabs"].size() == 2);
        }
}

TEST_CASE("without --gpus nothing mentions several GPUs", "[recipes]") {
    AdviseOptions o;
    o.calls = 100;
    const AdviseResult r = advise_smooth(write_profile("four", test::unit_multi_gpu_platform_json()), o);
    CHECK(nest_in(r, "smooth").gpus.devices == 1);
    CHECK_FALSE(nest_in(r, "smooth").gpus.asked);
    CHECK(file_named(r, "smooth.cu").find("devices") == std::string::npos);
    CHECK(file_named(r, "smooth.recipe.md").find("several GPUs") == std::string::npos);
    const std::string plan = file_named(r, "smooth.plan.json");
    CHECK(plan.find("\"gpus\"") == std::string::npos);
    CHECK(plan.find("gpuCurve") == std::string::npos);
}

TEST_CASE("a region over two GPUs gets devices and halo_rows; a time loop through recipe::iterate stays on one", "[recipes]") {
    // Contexts that start as fast together as alone, and no NCCL set-up: any
    // gain per run wins.
    nlohmann::json m = test::multi_gpu_json();
    m["contextStartMs"] = {100.0, 100.0, 100.0, 100.0};
    m["ncclInitMs"] = {0.0, 0.0, 0.0, 0.0};
    const std::string profile = write_profile("free-start", test::unit_multi_gpu_platform_json(m));
    AdviseOptions o;
    o.gpus = 2;
    AdviseResult r;
    std::string error;
    REQUIRE(advise_file("heat2d.c", read_sample("heat2d.c"), profile, o, &r, &error));
    REQUIRE_FALSE(r.regions.empty());
    const RegionOutcome& region = r.regions.front();
    REQUIRE(region.converted);
    CHECK(region.gpus.refused.empty());
    CHECK(region.gpus.devices == 2);
    CHECK(region.gpus.region.halo_rows == 1);
    CHECK(region.gpus.region.exchanges_per_step > 0);
    const std::string cu = file_named(r, "heat2d.cu");
    CHECK_THAT(cu, Catch::Contains("recipe_region_config.devices = 2;") && Catch::Contains("recipe_region_config.halo_rows = 1;"));
    CHECK_THAT(file_named(r, "heat2d.recipe.md"), Catch::Contains("exchange"));
    // Its nests launch in the region: their own calls stay on one GPU.
    for (const std::size_t i : region.nests) {
        CHECK(r.nests[i].gpus.devices == 1);
        CHECK_THAT(r.nests[i].gpus.refused, Catch::Contains("region"));
    }

    AdviseResult hot;
    REQUIRE(advise_file("hotspot.c", read_sample("hotspot.c"), profile, o, &hot, &error));
    bool iterative = false;
    for (const auto& n : hot.nests)
        if (n.verdict == Verdict::Converted && n.conversion.iterative) {
            iterative = true;
            CHECK(n.gpus.devices == 1);
            CHECK_THAT(n.gpus.refused, Catch::Contains("recipe::iterate"));
        }
    CHECK(iterative);
    CHECK(file_named(hot, "hotspot.cu").find("devices") == std::string::npos);
}

TEST_CASE("a time loop too large for one GPU runs over two where each holds its part, else with ghost zones on one", "[recipes]") {
    nlohmann::json m = test::multi_gpu_json();
    m["contextStartMs"] = {100.0, 100.0, 100.0, 100.0};
    m["ncclInitMs"] = {0.0, 0.0, 0.0, 0.0};
    const std::string profile = write_profile("free-start-budget", test::unit_multi_gpu_platform_json(m));
    AdviseOptions o;
    o.gpu_memory_bytes = 24 << 20;  // heat2d's two 16 MiB grids do not fit; each GPU's half does
    AdviseResult one;
    std::string error;
    REQUIRE(advise_file("heat2d.c", read_sample("heat2d.c"), profile, o, &one, &error));
    REQUIRE_FALSE(one.regions.empty());
    CHECK(one.regions.front().with_ghost_zones);
    CHECK(one.regions.front().runs_ghost_zones());
    CHECK_THAT(file_named(one, "heat2d.cu"), Catch::Contains("ghost_launches"));

    o.gpus = 2;
    AdviseResult two;
    REQUIRE(advise_file("heat2d.c", read_sample("heat2d.c"), profile, o, &two, &error));
    REQUIRE_FALSE(two.regions.empty());
    const RegionOutcome& region = two.regions.front();
    REQUIRE(region.converted);
    CHECK(region.with_ghost_zones);  // on one GPU it would need them
    CHECK(region.gpus.refused.empty());
    REQUIRE(region.gpus.devices == 2);
    CHECK_FALSE(region.runs_ghost_zones());
    CHECK(region.running().device_bytes <= o.gpu_memory_bytes);
    const std::string cu = file_named(two, "heat2d.cu");
    CHECK_THAT(cu, Catch::Contains("recipe_region_config.devices = 2;"));
    CHECK(cu.find("ghost_launches") == std::string::npos);
    CHECK_THAT(file_named(two, "heat2d.recipe.md"), Catch::Contains("**Its arrays do not fit one GPU.**"));
}

TEST_CASE("a call over several GPUs takes the fastest of the search's best plans on that count, not only the one-GPU choice", "[recipes]") {
    const std::string profile = write_profile("four", test::unit_multi_gpu_platform_json());
    AdviseOptions o;
    o.gpus = 4;
    o.all_gpus = true;
    const AdviseResult r = advise_smooth(profile, o);
    const NestOutcome& n = nest_in(r, "smooth");
    REQUIRE(n.gpus.curve.size() >= 2);
    advisor::Platform pf;
    std::string error;
    REQUIRE(advisor::parse_platform(test::unit_multi_gpu_platform_json().dump(), "four", &pf, &error));
    for (std::size_t i = 1; i < n.gpus.curve.size(); ++i) {
        const int devices = n.gpus.curve[i].devices;
        advisor::DevicePrediction alone;
        REQUIRE(advisor::predict_devices(n.chosen()->problem, pf, {}, n.chosen()->config, devices, &alone, &error));
        CHECK(n.gpus.curve[i].call_ms <= alone.prediction.total_ms + 1e-9);
        // Every plan re-priced is no faster than the one taken.
        for (std::size_t k = 0; k < std::min(kRepricedPlans, n.plan.ranked.size()); ++k) {
            advisor::DevicePrediction other;
            if (advisor::predict_devices(n.plan.ranked[k].problem, pf, {}, n.plan.ranked[k].config, devices, &other, nullptr))
                CHECK(n.gpus.curve[i].call_ms <= other.prediction.total_ms + 1e-9);
        }
    }
    // The .cu runs the plan taken on the chosen count.
    CHECK(n.running() == &n.gpus.run.prediction);
}
