// recipe platforms / predict / sweep end to end: output shape, exit codes,
// and clear errors for bad options and impossible tiles.
#include <array>
#include <catch2/catch.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <sys/wait.h>

namespace {

struct Result {
    int status = -1;
    std::string out;  // stdout and stderr
};

Result run(const std::string& args) {
    const std::string cmd = std::string(RECIPE_BINARY) + " " + args + " 2>&1";
    Result r;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return r;
    std::array<char, 4096> buf{};
    std::size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
    const int st = pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

const std::string kJacobi = std::string(RECIPE_SOURCE_DIR) + "/samples/jacobi3d.c";
const std::string kAverage = std::string(RECIPE_SOURCE_DIR) + "/samples/moving_average.c";

}  // namespace

TEST_CASE("recipe platforms lists the stored profiles", "[advisor]") {
    const Result r = run("platforms");
    CHECK(r.status == 0);
    CHECK(r.out.find("tesla-c2050") != std::string::npos);
    CHECK(r.out.find("gtx-460") != std::string::npos);
    CHECK(r.out.find("h200") != std::string::npos);
    const Result j = run("platforms --json");
    REQUIRE(j.status == 0);
    CHECK(nlohmann::json::parse(j.out).size() >= 3);
}

TEST_CASE("recipe predict explains one what-if", "[advisor]") {
    const Result r = run("predict " + kJacobi + " --platform h200 --scheme scalable --tile 400x400x25 --copy strided --nest 1");
    REQUIRE(r.status == 0);
    CHECK(r.out.find("scheme scalable, tile 398x398x25 (16 tiles), copy strided") != std::string::npos);
    CHECK(r.out.find("dominant operation:") != std::string::npos);
    CHECK(r.out.find("copies in (H2D)") != std::string::npos);
    const Result j = run("predict " + kJacobi + " --platform tesla-c2050 --scheme basic --tile 400x400x25 --nest 1 "
                         "--copy strided --host-memory pinned --kernel-ms 14 --json --timeline");
    REQUIRE(j.status == 0);
    const auto doc = nlohmann::json::parse(j.out);
    REQUIRE(doc.size() == 1);
    CHECK(doc[0]["prediction"]["scheme"] == "basic");
    CHECK(doc[0]["prediction"]["kernel_source"] == "given");
    CHECK(doc[0]["prediction"]["host_strategy"] == "pinned");
    CHECK(doc[0]["timeline"].size() > 10);
    CHECK(doc[0]["naive"]["total_ms"].get<double>() > doc[0]["prediction"]["total_ms"].get<double>());
}

TEST_CASE("recipe predict rejects bad options and impossible tiles with exit 2", "[advisor]") {
    const std::string base = "predict " + kJacobi + " --platform h200 --nest 1 ";
    struct Case {
        std::string args, message;
    };
    const std::vector<Case> cases = {
        {base + "--scheme basic --tile 800x400x25", "recipe: error: nest 1: tile 800x400x25 is larger than the arrays (400x400x400) in dimension x"},
        {base + "--scheme basic --tile 0x400x25", "recipe: error: --tile 0x400x25: tile '0x400x25': sizes must be at least 1"},
        {base + "--scheme basic --tile abc", "recipe: error: --tile abc: tile 'abc': expected sizes like 400x400x25"},
        {base + "--scheme basic --tile 1x2x3x4", "recipe: error: --tile 1x2x3x4: at most three sizes"},
        {base + "--scheme basic --tile 400x400", "recipe: error: nest 1: tile '400x400' has 2 sizes but the nest is 3-dimensional"},
        {base + "--scheme basic", "recipe: error: --tile is required for the basic scheme"},
        {base + "--scheme fastest --tile 4x4x4", "recipe: error: unknown scheme 'fastest' (naive, basic, scalable, buffered, streams, mapped, hybrid)"},
        {base + "--scheme basic --tile 4x4x4 --copy diagonal", "recipe: error: unknown copy method 'diagonal' (row-by-row, merged, strided)"},
        {base + "--scheme basic --tile 4x4x4 --host-memory sticky", "recipe: error: --host-memory sticky: expected pinned or pageable"},
        {base + "--scheme basic --tile 4x4x4 --kernel-ms -3", "recipe: error: --kernel-ms -3: expected [NEST=]MS"},
        {base + "--scheme mapped", "recipe: error: nest 1: mapped memory fetches an element over PCIe every time it is read"},
        {"predict " + kJacobi + " --platform nowhere --scheme naive", "recipe: error: unknown platform 'nowhere'"},
        {"predict " + kJacobi + " --platform h200 --scheme naive --nest 99", "recipe: error: " + kJacobi + ": no loop nest with id 99"},
        {"predict --scheme naive", "recipe: error: recipe predict takes one C file (got 0"},
        {base + "--scheme naive --kernel-ms 2=4", "recipe: error: --kernel-ms 2=4: the file has no priced nest 2 (priced: 1)"},
        {base + "--scheme naive --streams 0", "recipe: error: --streams 0: expected a whole number from 1 to 1024"},
        {base + "--scheme basic --tile 4x4x4 --frobnicate", "recipe: error: "},
    };
    for (const auto& c : cases) {
        INFO(c.args);
        const Result r = run(c.args);
        CHECK(r.status == 2);
        CHECK(r.out.rfind(c.message, 0) == 0);
    }
}

TEST_CASE("recipe sweep prints the thesis's table layout", "[advisor]") {
    const Result r = run("sweep " + kJacobi + " --platform tesla-c2050 --nest 1 --host-memory pinned --tiles '400x400x*' --csv");
    REQUIRE(r.status == 0);
    CHECK(r.out.find("tile,naive,basic/row-by-row,basic/merged,basic/strided,scalable/row-by-row") != std::string::npos);
    CHECK(r.out.find("\n398x398x25,") != std::string::npos);
    const Result j = run("sweep " + kAverage + " --platform tesla-c2050 --json -D N=1000000");
    REQUIRE(j.status == 0);
    const auto doc = nlohmann::json::parse(j.out);
    REQUIRE_FALSE(doc.empty());
    CHECK(doc[0]["rows"].size() > 5);
    CHECK(doc[0]["rows"][0]["ms"].contains("scalable"));
    const Result bad = run("sweep " + kJacobi + " --platform h200 --nest 1 --tiles 400x400x25");
    CHECK(bad.status == 2);
    CHECK(bad.out == "recipe: error: nest 1: --tiles '400x400x25': mark exactly one varying size with '*', e.g. 400x*x25\n");
    CHECK(run("sweep " + kJacobi + " --csv --json").status == 2);
}

TEST_CASE("recipe sweep --gpus N adds each tile's fastest on 2 ... N GPUs; without the figures it is a usage error", "[advisor]") {
    const Result r = run("sweep " + kAverage + " --platform h200 -D N=4000000 --gpus 3 --csv");
    REQUIRE(r.status == 0);
    CHECK(r.out.find(",fastest on 2 GPUs,fastest on 3 GPUs\n") != std::string::npos);
    const Result j = run("sweep " + kAverage + " --platform h200 -D N=4000000 --gpus 2 --json");
    REQUIRE(j.status == 0);
    const auto doc = nlohmann::json::parse(j.out);
    REQUIRE_FALSE(doc.empty());
    bool priced = false;
    for (const auto& row : doc[0]["rows"]) {
        REQUIRE(row.contains("fastest_on_gpus_ms"));
        if (row["fastest_on_gpus_ms"]["2"].is_number()) priced = true;
    }
    CHECK(priced);
    const Result bad = run("sweep " + kAverage + " --platform tesla-c2050 --gpus 2");
    CHECK(bad.status == 2);
    CHECK(bad.out.find("multiGpu") != std::string::npos);
}
