// The source options every command shares (cli/source_options.h): the
// compiler's flags in the spellings compilers take, -p, --cc, --assume,
// --assume-no-alias and `--`, taken out before a command's own parser.
#include <catch2/catch.hpp>

#include "cli/model_options.h"
#include "cli/source_options.h"

#include <filesystem>
#include <fstream>
#include <unistd.h>

using recipe::cli::SourceOptions;
using recipe::cli::take_source_options;

TEST_CASE("compiler flags are taken in every spelling, in order; the rest is left", "[cli]") {
    std::vector<std::string> args = {"advise", "k.c", "-I", "inc", "-Iutilities", "-DN=4", "-D", "LARGE_DATASET", "-UX",
                                     "-std=c99", "-O3", "-include", "cfg.h", "--cc=gcc-12", "--assume", "n=1300",
                                     "--assume-no-alias", "-o", "out", "--", "-fopenmp", "-DY"};
    SourceOptions o;
    std::string error;
    REQUIRE(take_source_options(&args, &o, &error));
    CHECK(args == std::vector<std::string>{"advise", "k.c", "-o", "out"});
    CHECK(o.build.args == std::vector<std::string>{"-I", "inc", "-I", "utilities", "-DN=4", "-DLARGE_DATASET", "-UX", "-std=c99",
                                                   "-O3", "-include", "cfg.h", "-fopenmp", "-DY"});
    CHECK(o.build.cc == "gcc-12");
    CHECK(o.cc_given);
    CHECK(o.assumptions == std::vector<std::pair<std::string, std::string>>{{"n", "1300"}});
    CHECK(o.assume_no_alias);
}

TEST_CASE("bad source options are usage errors with one line each", "[cli]") {
    auto error_of = [](std::vector<std::string> args) {
        SourceOptions o;
        std::string error;
        args.insert(args.begin(), "advise");
        CHECK_FALSE(take_source_options(&args, &o, &error));
        return error;
    };
    CHECK(error_of({"-D", "9N=3"}) == "-D 9N=3: '9N' is not a macro name");
    CHECK(error_of({"-D=3"}) == "-D =3: '' is not a macro name");
    CHECK(error_of({"--assume", "W=abc"}).rfind("--assume W=abc: the value must be a non-negative integer", 0) == 0);
    CHECK(error_of({"--assume", "W"}).rfind("--assume W: expected NAME=INTEGER", 0) == 0);
    CHECK(error_of({"--assume", "W=99999999999999999999"}).rfind("--assume W=99999999999999999999: the value must be", 0) == 0);
    CHECK(error_of({"-I"}) == "-I needs a value (DIR)");
    CHECK(error_of({"--cc="}) == "--cc needs a compiler");
    CHECK(error_of({"-O9"}) == "-O9: not an optimisation level (-O0, -O1, -O2, -O3, -Os, -Ofast, -Og)");
}

TEST_CASE("-p reads the file's flags from compile_commands.json", "[cli]") {
    const auto dir = std::filesystem::temp_directory_path() / ("recipe-cdb-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string file = (dir / "k.c").string();
    std::ofstream(dir / "compile_commands.json")
        << R"([{"directory": ")" << dir.string() << R"(", "file": "k.c", "command": "clang -Iinc -DSIZE=64 -O2 -c k.c"}])";
    SourceOptions o;
    o.compile_commands = dir.string();
    o.build.args = {"-DEXTRA"};
    std::string error;
    REQUIRE(recipe::cli::apply_compile_database(file, &o, &error));
    CHECK(o.build.args == std::vector<std::string>{"-I" + (dir / "inc").string(), "-DSIZE=64", "-O2", "-DEXTRA"});
    CHECK(o.build.cc == "clang");
    o.compile_commands = (dir / "none").string();
    CHECK_FALSE(recipe::cli::apply_compile_database(file, &o, &error));
    CHECK(error.find("compile_commands.json: cannot read it") != std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST_CASE("--gpu-memory sizes are read as users write them", "[cli]") {
    std::int64_t b = 0;
    std::string e;
    CHECK(recipe::cli::parse_memory_size("4GiB", &b, &e));
    CHECK(b == 4LL << 30);
    CHECK(recipe::cli::parse_memory_size("512M", &b, &e));
    CHECK(b == 512LL << 20);
    CHECK(recipe::cli::parse_memory_size("100000", &b, &e));
    CHECK(b == 100000);
    for (const char* bad : {"", "GiB", "4 GiB", "-1G", "4Gb", "0", "99999999999999999T"}) {
        INFO(bad);
        CHECK_FALSE(recipe::cli::parse_memory_size(bad, &b, &e));
        CHECK(e.find("--gpu-memory") != std::string::npos);
    }
}
