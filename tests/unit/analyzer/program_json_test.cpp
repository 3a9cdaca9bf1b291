// write_json, which dumps the nests one at a time into the document, prints
// exactly what the whole document's tree prints.
#include <filesystem>
#include <sstream>

#include "analyzer/program_json.h"
#include "tests/unit/analyzer/analyzer_test_util.h"

using namespace recipe::analyzer;
using namespace recipe::analyzer::test;

namespace {

std::string streamed(const Program& p) {
    std::ostringstream out;
    write_json(out, p);
    return out.str();
}

// Every C file of the samples and the analyzer's test inputs.
std::vector<std::string> c_files() {
    std::vector<std::string> out;
    for (const char* dir : {"/samples", "/tests/unit/analyzer/inputs", "/tests/unit/analyzer/inputs/rejections"})
        for (const auto& e : std::filesystem::directory_iterator(std::string(RECIPE_SOURCE_DIR) + dir))
            if (e.path().extension() == ".c") out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

TEST_CASE("write_json prints what to_json(p).dump(2) prints, for every sample and test input", "[analyzer]") {
    std::vector<std::string> files = c_files();
    REQUIRE(files.size() >= 30);
    for (const auto& path : files) {
        INFO(path);
        Program p = analyze_path(path);
        CHECK(streamed(p) == to_json(p).dump(2));
    }
}

TEST_CASE("write_json escapes strings as nlohmann does, and writes U+FFFD for bytes that are not UTF-8", "[analyzer]") {
    Program p;
    p.file = "dir/with \"quotes\" and \\ back\\slash.c";
    Diagnostic d;
    d.severity = Severity::Error;
    d.pos = {3, 7};
    d.rule_id = "syntax";
    d.message = std::string("tab\there, newline\nthere, cr\r, \b\f, control \x01\x1f, del \x7f, caf\xc3\xa9, \xe2\x82\xac");
    p.diagnostics.push_back(d);
    LoopNest n;
    n.id = 1;
    n.function = "f";
    n.time_loop = TimeLoop{};
    n.time_loop->condition = "s < \"n\"";
    n.iteration_space.push_back(LoopProperties{"i", Extent{0, "0"}, Extent{std::nullopt, "N-1"}, -3, 0, {}, "", "", ""});
    p.nests.push_back(n);
    p.nests.push_back(LoopNest{});  // every list empty, no time loop
    CHECK(streamed(p) == to_json(p).dump(2));

    // A message cut inside a multi-byte character.
    p.diagnostics[0].message = "cut \xc3";
    p.nests[0].function = "\xff\xfe name";
    std::string expected = to_json(p).dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    CHECK(streamed(p) == expected);
    CHECK(expected.find("cut \xef\xbf\xbd") != std::string::npos);
}

TEST_CASE("write_json's document reads back into the same Program", "[analyzer]") {
    Program p = analyze_sample("emboss.c");
    std::string doc = streamed(p);
    nlohmann::json back = nlohmann::json::parse(doc);
    CHECK(back["schema_version"] == kProgramSchemaVersion);
    CHECK(back["nests"].size() == p.nests.size());
    CHECK(to_json(program_from_json(back)) == to_json(p));
}
