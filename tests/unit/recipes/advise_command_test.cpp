// `recipe advise` run as a user would: the built binary on a copy of a sample.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

namespace {

struct Run {
    int status = -1;
    std::string out, err;
};

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

Run recipe(const std::string& args, const fs::path& dir) {
    const fs::path out = dir / "stdout.txt", err = dir / "stderr.txt";
    const std::string cmd = "cd '" + dir.string() + "' && '" + RECIPE_BINARY + "' " + args + " >'" + out.string() +
                            "' 2>'" + err.string() + "'";
    const int raw = std::system(cmd.c_str());
    Run r;
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}

fs::path fresh_dir(const std::string& name) {
    const fs::path dir = fs::path(RECIPE_BINARY).parent_path() / ("advise-cli-" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

}  // namespace

TEST_CASE("recipe advise writes its outputs, refuses to overwrite them, and never touches the input", "[recipes]") {
    const fs::path dir = fresh_dir("vector_add");
    fs::copy_file(fs::path(RECIPE_SOURCE_DIR) / "samples" / "vector_add.c", dir / "vector_add.c");
    const std::string before = slurp(dir / "vector_add.c");

    Run r = recipe("advise vector_add.c --platform h200 -o out", dir);
    INFO(r.err);
    REQUIRE(r.status == 0);
    for (const char* f : {"vector_add.recipe.md", "vector_add.cu", "vector_add.plan.json", "vector_add.nest1.tile-size.svg",
                          "vector_add.nest1.pipeline.svg"})
        CHECK(fs::exists(dir / "out" / f));
    CHECK(r.out.find("vector_add.c: 3 loop nests, 2 accepted, 1 converted (platform h200)") == 0);
    CHECK(r.out.find("compile: nvcc -O2 -std=c++17 -arch=native --fmad=false -I") != std::string::npos);
    CHECK(r.err.find("vector_add.c:38:9: warning: reduction into 'checksum'") != std::string::npos);
    // No temporary file is left behind.
    for (const auto& e : fs::directory_iterator(dir / "out")) CHECK(e.path().filename().string().find(".tmp.") == std::string::npos);

    const std::string recipe_text = slurp(dir / "out" / "vector_add.recipe.md");
    r = recipe("advise vector_add.c --platform h200 -o out", dir);
    CHECK(r.status == 2);
    CHECK(r.err.find("out/vector_add.recipe.md: already exists; use --force to replace it") != std::string::npos);
    r = recipe("advise vector_add.c --platform h200 -o out --force --format json", dir);
    CHECK(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j.at("file") == "vector_add.c");
    CHECK(j.at("nests").at(0).at("verdict") == "converted");
    CHECK(j.at("nests").at(0).at("speedup").get<double>() > 1.0);
    CHECK(slurp(dir / "out" / "vector_add.recipe.md") == recipe_text);

    // Writing next to the input is fine; replacing it is not, even forced.
    fs::copy_file(dir / "vector_add.c", dir / "vector_add.cu");
    r = recipe("advise vector_add.cu --force", dir);
    CHECK(r.status == 2);
    CHECK(r.err.find("would overwrite the input file") != std::string::npos);
    CHECK(slurp(dir / "vector_add.c") == before);
    CHECK(slurp(dir / "vector_add.cu") == before);
}

TEST_CASE("recipe advise on the DOACROSS sample writes a recipe and no .cu, exit 1", "[recipes]") {
    const fs::path dir = fresh_dir("sor1d");
    Run r = recipe("advise '" + (fs::path(RECIPE_SOURCE_DIR) / "samples" / "sor1d.c").string() + "' -o out", dir);
    CHECK(r.status == 1);
    CHECK(fs::exists(dir / "out" / "sor1d.recipe.md"));
    CHECK_FALSE(fs::exists(dir / "out" / "sor1d.cu"));
    CHECK(r.err.find("sor1d.c:22:21: warning: loop-carried dependence on 'a'") != std::string::npos);
    CHECK(r.out.find("compile:") == std::string::npos);
}

TEST_CASE("recipe advise reports usage errors with exit 2", "[recipes]") {
    const fs::path dir = fresh_dir("usage");
    CHECK(recipe("advise", dir).status == 2);
    Run r = recipe("advise missing.c", dir);
    CHECK(r.status == 2);
    CHECK(r.err == "missing.c: error: cannot open file: No such file or directory\n");
    r = recipe("advise x.c --format yaml", dir);
    CHECK(r.status == 2);
    CHECK(r.err == "recipe: error: --format yaml: expected md or json\n");
    r = recipe("advise x.c --no-such-option", dir);
    CHECK(r.status == 2);
    CHECK(r.err.rfind("recipe: error: ", 0) == 0);
    r = recipe("advise --help", dir);
    CHECK(r.status == 0);
    CHECK(r.out.find("--host-memory") != std::string::npos);
    CHECK(r.out.find("--force") != std::string::npos);
}

TEST_CASE("--kernel-ms is one nest's: a bare value only for a file of one accepted nest", "[recipes]") {
    const fs::path dir = fresh_dir("kernel-ms");
    fs::copy_file(fs::path(RECIPE_SOURCE_DIR) / "samples/emboss.c", dir / "emboss.c");  // nests 1 and 2 accepted
    Run r = recipe("advise emboss.c -o out --kernel-ms 3", dir);
    CHECK(r.status == 2);
    CHECK(r.err == "recipe: error: --kernel-ms 3: the file has 2 accepted nests (1, 2); say which nest's kernel it is "
                   "with --kernel-ms NEST=MS (nests as the summary numbers them)\n");
    CHECK_FALSE(fs::exists(dir / "out"));
    r = recipe("advise emboss.c -o out --kernel-ms 3=2.5", dir);
    CHECK(r.status == 2);
    CHECK(r.err == "recipe: error: --kernel-ms 3=2.5: the file has no accepted nest 3 (accepted: 1, 2)\n");
    for (const char* bad : {"1=x", "x=1", "0=1", "1=-2", "1=", "=1", "1=inf"}) {
        r = recipe(std::string("advise emboss.c -o out --kernel-ms ") + bad, dir);
        CHECK(r.status == 2);
        CHECK(r.err.find("expected [NEST=]MS") != std::string::npos);
    }
    r = recipe("advise emboss.c -o out --kernel-ms 1=7 --kernel-ms 1=8", dir);
    CHECK(r.status == 2);
    // Nest 1 gets 7 ms; nest 2 keeps its own pricing.
    r = recipe("advise emboss.c -o out --kernel-ms 1=7 --format json", dir);
    REQUIRE(r.status == 0);
    const auto plan = nlohmann::json::parse(slurp(dir / "out" / "emboss.plan.json"));
    CHECK(plan["options"]["kernel_ms"] == nlohmann::json{{"1", 7.0}});
    CHECK(plan["nests"][0]["plan"]["best"]["kernel_source"] == "given");
    CHECK(plan["nests"][1]["plan"]["best"]["kernel_source"] != "given");
}
