// advise_fuzz.cpp — libFuzzer entry point for the whole advise path:
// arbitrary bytes as a C file, through the user's preprocessor, the
// analysis, the planning, the conversion and the rendering, and the outputs
// written (into memory, through the same all-or-nothing writer the CLI
// uses). advise() reports bad input as an error, never by throwing, so an
// escaping exception aborts and counts as a finding, as do sanitizer
// reports and the checks below. Built by tests/fuzz/CMakeLists.txt
// (RECIPE_ENABLE_FUZZ=ON, clang); run with `scripts/fuzz.sh SECONDS advise`.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "tests/support/memory_file_system.h"
#include "recipes/advise.h"
#include "recipes/output_writer.h"

namespace {

[[noreturn]] void finding(const std::string& what) {
    std::fprintf(stderr, "advise_fuzz: %s\n", what.c_str());
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace recipe::recipes;
    MemoryFileSystem fs;
    fs.files["fuzz.c"] = std::string(reinterpret_cast<const char*>(data), size);
    AdviseOptions options;
    options.input = "fuzz.c";
    options.platform = "h200";  // built in
    AdviseResult result;
    std::string error;
    if (!advise(fs, options, &result, &error)) {
        if (error.empty()) finding("advise failed without saying why");
        return 0;
    }
    // Whatever was planned is written whole.
    WriteRequest request{"out", options.input, true, result.files,
                         [&](const std::string& name) { return is_output_name(result.stem, name); }};
    std::vector<std::string> written;
    if (!write_outputs(fs, request, &written, &error)) finding("writing the outputs failed: " + error);
    if (written.size() != result.files.size()) finding("not every output was written");
    for (const auto& f : result.files)
        if (fs.files.at("out/" + f.name) != f.content) finding(f.name + " was written wrong");
    if (result.wrote_cu != (fs.files.count("out/fuzz.cu") > 0)) finding("the .cu and the result disagree");
    return 0;
}
