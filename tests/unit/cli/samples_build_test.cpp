// samples_build_test.cpp — every program in samples/ is something a user could
// have written: it compiles warning-free as C99 with the system C compiler,
// runs at small -D sizes, prints its checksum line and, given a path, writes
// its output arrays as raw binary of exactly the expected size. The GPU tests
// rely on that output format to compare every element.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <unistd.h>

namespace fs = std::filesystem;

namespace {

struct SampleRun {
    const char* name;
    const char* defines;       // small sizes, so the test stays fast
    std::uintmax_t out_bytes;  // all output arrays, one after another
};

// Output sizes follow from the defines: element count times element bytes.
const SampleRun kSamples[] = {
    {"moving_average", "-DN=1000 -DRADIUS=3", 1000 * 4},
    {"emboss", "-DW=37 -DH=23", 37 * 23 * 4},
    {"jacobi3d", "-DNX=17 -DNY=13 -DNZ=11", 17 * 13 * 11 * 4},
    {"vector_add", "-DN=1001", 1001 * 4},
    {"unzip", "-DW=31 -DH=19", 2 * 31 * 19 * 4},
    {"hotspot", "-DROWS=29 -DCOLS=41 -DSTEPS=5", 29 * 41 * 4},
    {"poisson2d", "-DN=33 -DITERATIONS=7", 35 * 35 * 8},
    {"sor1d", "-DN=500 -DSWEEPS=3", 502 * 4},
    {"blur_rows", "-DW=45 -DH=27", 45 * 27 * 4},
    {"heat2d", "-DW=41 -DH=29 -DSTEPS=6", 41 * 29 * 4},
    {"smooth", "-DW=45 -DH=27", 45 * 27 * 4},
    {"stencil7", "-DNX=19 -DNY=13 -DNZ=7 -DITERATIONS=5", 19 * 13 * 7 * 4},
    {"blur1d", "-DN=1001L", 1001 * 4},
    {"diffuse1d", "-DN=1001L -DSTEPS=3", 1001 * 4},
};

std::string read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

int run(const std::string& command) { return std::system(command.c_str()); }

}  // namespace

TEST_CASE("every sample compiles cleanly, runs and writes its outputs", "[cli]") {
    const fs::path samples = fs::path(RECIPE_SOURCE_DIR) / "samples";
    const char* cc_env = std::getenv("CC");
    const std::string cc = cc_env && *cc_env ? cc_env : "cc";
    if (run(cc + " --version > /dev/null 2>&1") != 0) {
        WARN("no C compiler '" << cc << "' found; samples not compiled");
        return;
    }
    const fs::path work = fs::temp_directory_path() / ("recipe-samples-" + std::to_string(::getpid()));
    fs::create_directories(work);

    for (const SampleRun& s : kSamples) {
        SECTION(s.name) {
            const fs::path source = samples / (std::string(s.name) + ".c");
            const fs::path exe = work / s.name;
            const fs::path log = work / (std::string(s.name) + ".log");
            const fs::path out = work / (std::string(s.name) + ".bin");
            REQUIRE(fs::exists(source));

            const std::string compile = cc + " -std=c99 -O1 -Wall -Wextra -pedantic -Werror " + s.defines +
                                        " '" + source.string() + "' -o '" + exe.string() + "' -lm > '" +
                                        log.string() + "' 2>&1";
            INFO(compile << "\n" << read_file(log));
            REQUIRE(run(compile) == 0);

            const std::string execute = "'" + exe.string() + "' '" + out.string() + "' > '" + log.string() + "' 2>&1";
            REQUIRE(run(execute) == 0);
            const std::string printed = read_file(log);
            INFO(printed);
            CHECK(printed.rfind(s.name, 0) == 0);  // "<name> ... checksum=..."
            CHECK(printed.find("checksum=") != std::string::npos);

            REQUIRE(fs::exists(out));
            CHECK(fs::file_size(out) == s.out_bytes);
            // Deterministic, non-trivial data: the outputs are not all zero bytes.
            const std::string bytes = read_file(out);
            CHECK(bytes.find_first_not_of('\0') != std::string::npos);
        }
    }
    std::error_code ignored;
    fs::remove_all(work, ignored);
}

TEST_CASE("the samples directory holds exactly the programs the tests know", "[cli]") {
    std::vector<std::string> found;
    for (const auto& entry : fs::directory_iterator(fs::path(RECIPE_SOURCE_DIR) / "samples"))
        if (entry.path().extension() == ".c") found.push_back(entry.path().stem().string());
    std::vector<std::string> known;
    for (const SampleRun& s : kSamples) known.emplace_back(s.name);
    std::sort(found.begin(), found.end());
    std::sort(known.begin(), known.end());
    CHECK(found == known);
}
