// Golden-file tests of `recipe advise` (CONVENTIONS.md 7): for every sample
// in samples/, the recipe, the .cu and the plan JSON must equal the files
// under tests/snapshots/<sample>/. A mismatch prints a unified diff and
// writes <golden>.actual beside the golden; UPDATE_SNAPSHOTS=1 accepts the
// new output; a missing golden fails. Every golden .cu is also compiled with
// nvcc where nvcc is found (tests/CMakeLists.txt).
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include "tests/support/memory_file_system.h"
#include "recipes/advise.h"

namespace fs = std::filesystem;
using namespace recipe::recipes;

namespace {

bool updating() {
    const char* v = std::getenv("UPDATE_SNAPSHOTS");
    return v && std::string(v) == "1";
}

std::string read_text(const fs::path& p) {
    RealFileSystem real;
    std::string text, error;
    if (!real.read(p.string(), &text, &error)) return "";
    return text;
}

std::string unified_diff(const fs::path& golden, const fs::path& actual) {
    const std::string cmd = "diff -u '" + golden.string() + "' '" + actual.string() + "' 2>&1";
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
    if (!pipe) return "(diff could not run; compare the files yourself)";
    std::string out;
    std::array<char, 4096> buf;
    while (std::size_t n = std::fread(buf.data(), 1, buf.size(), pipe.get())) out.append(buf.data(), n);
    if (out.size() > 20000) out = out.substr(0, 20000) + "\n... (diff truncated)";
    return out;
}

bool snapshotted(const std::string& name) {
    auto ends = [&](const std::string& s) { return name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0; };
    return ends(".recipe.md") || ends(".cu") || ends(".plan.json");
}

std::vector<fs::path> samples() {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(fs::path(RECIPE_SOURCE_DIR) / "samples"))
        if (e.path().extension() == ".c") out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

TEST_CASE("recipe advise output of every sample matches its golden files", "[recipes]") {
    const auto all = samples();
    REQUIRE_FALSE(all.empty());
    for (const auto& sample : all) {
        const std::string name = sample.stem().string();
        DYNAMIC_SECTION("sample " << name) {
            // The input goes through the in-memory file system under a
            // relative name, so nothing machine-specific reaches the outputs.
            MemoryFileSystem mem;
            const std::string input = "samples/" + sample.filename().string();
            mem.files[input] = read_text(sample);
            AdviseOptions options;
            options.input = input;
            options.platform = "h200";
            AdviseResult result;
            std::string error;
            REQUIRE(advise(mem, options, &result, &error));

            const fs::path dir = fs::path(RECIPE_SOURCE_DIR) / "tests" / "snapshots" / name;
            if (updating()) fs::create_directories(dir);
            std::vector<std::string> produced;
            for (const auto& f : result.files) {
                if (!snapshotted(f.name)) continue;
                produced.push_back(f.name);
                const fs::path golden = dir / f.name;
                const fs::path actual = dir / (f.name + ".actual");
                if (updating()) {
                    RealFileSystem real;
                    REQUIRE(real.write_atomically(golden.string(), f.content, &error));
                    fs::remove(actual);
                    continue;
                }
                INFO("golden " << golden.string());
                if (!fs::exists(golden)) {
                    RealFileSystem real;
                    real.write_atomically(actual.string(), f.content, &error);
                    FAIL("missing golden file " << golden.string() << " (output written to " << actual.string()
                                                << "; run with UPDATE_SNAPSHOTS=1 to accept it)");
                }
                const std::string expected = read_text(golden);
                if (expected != f.content) {
                    RealFileSystem real;
                    real.write_atomically(actual.string(), f.content, &error);
                    FAIL("output differs from " << golden.string() << " (run with UPDATE_SNAPSHOTS=1 to accept):\n"
                                                << unified_diff(golden, actual));
                } else {
                    fs::remove(actual);
                }
            }
            // A golden the tool no longer produces (e.g. a .cu for a sample that
            // is not converted any more) is stale.
            if (fs::exists(dir))
                for (const auto& e : fs::directory_iterator(dir)) {
                    const std::string f = e.path().filename().string();
                    if (!snapshotted(f) || std::find(produced.begin(), produced.end(), f) != produced.end()) continue;
                    if (updating()) fs::remove(e.path());
                    else FAIL("golden " << e.path().string() << " is no longer produced by recipe advise");
                }
            // The DOACROSS sample: a recipe explaining why, and no .cu claimed.
            if (name == "sor1d") {
                CHECK_FALSE(result.wrote_cu);
                CHECK(std::none_of(produced.begin(), produced.end(), [](const std::string& f) { return f == "sor1d.cu"; }));
            }
        }
    }
}
