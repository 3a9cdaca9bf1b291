// The fuzzer's corpus for the advise path (tests/fuzz/corpus-advise: the
// inputs that reached new code, minimised by libFuzzer's merge; all of it
// seeds scripts/fuzz.sh) and its reproducers (tests/fuzz/crashes-advise),
// replayed in the ordinary build on every test run: each must go through
// advise and the output writer as tests/fuzz/advise_fuzz.cpp demands — an
// error said, or every output written whole — and never throw. Every
// reproducer and one corpus input in 24 run here (the whole corpus takes
// minutes; scripts/fuzz.sh replays it all).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/memory_file_system.h"
#include "recipes/advise.h"
#include "recipes/output_writer.h"

namespace fs = std::filesystem;
using namespace recipe::recipes;

namespace {

std::vector<fs::path> inputs() {
    std::vector<fs::path> out;
    for (const char* dir : {"tests/fuzz/corpus-advise", "tests/fuzz/crashes-advise"}) {
        const fs::path d = fs::path(RECIPE_SOURCE_DIR) / dir;
        if (!fs::is_directory(d)) continue;
        std::vector<fs::path> files;
        for (const auto& e : fs::directory_iterator(d))
            if (e.is_regular_file()) files.push_back(e.path());
        std::sort(files.begin(), files.end());
        const std::size_t every = std::string(dir).find("corpus") != std::string::npos ? 24 : 1;
        for (std::size_t i = 0; i < files.size(); i += every) out.push_back(files[i]);
    }
    return out;
}

}  // namespace

TEST_CASE("every input of the advise fuzz corpus goes through advise and the writer", "[recipes]") {
    const std::vector<fs::path> files = inputs();
    REQUIRE(files.size() > 10);
    int advised = 0;
    for (const auto& path : files) {
        INFO(path.string());
        std::ifstream in(path, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        MemoryFileSystem memory;
        memory.files["fuzz.c"] = text.str();
        AdviseOptions options;
        options.input = "fuzz.c";
        options.platform = "h200";
        AdviseResult result;
        std::string error;
        bool ok = false;
        REQUIRE_NOTHROW(ok = advise(memory, options, &result, &error));
        if (!ok) {
            CHECK_FALSE(error.empty());
            continue;
        }
        ++advised;
        WriteRequest request{"out", options.input, true, result.files,
                             [&](const std::string& name) { return is_output_name(result.stem, name); }};
        std::vector<std::string> written;
        REQUIRE(write_outputs(memory, request, &written, &error));
        CHECK(written.size() == result.files.size());
        CHECK(result.wrote_cu == (memory.files.count("out/fuzz.cu") > 0));
    }
    CHECK(advised > 0);
}
