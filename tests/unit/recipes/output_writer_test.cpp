#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "tests/support/memory_file_system.h"
#include "recipes/output_writer.h"

using namespace recipe::recipes;

TEST_CASE("outputs are written into the directory, which is created", "[recipes]") {
    MemoryFileSystem fs;
    fs.files["emboss.c"] = "int main(void) { return 0; }";
    WriteRequest req{"out/a", "emboss.c", false, {{"emboss.cu", "cu"}, {"emboss.recipe.md", "md"}}, {}};
    std::vector<std::string> written;
    std::string error;
    REQUIRE(write_outputs(fs, req, &written, &error));
    CHECK(written == std::vector<std::string>{"out/a/emboss.cu", "out/a/emboss.recipe.md"});
    CHECK(fs.files.at("out/a/emboss.cu") == "cu");
    CHECK(fs.directories.count("out"));
}

TEST_CASE("existing outputs are refused before anything is written, unless forced", "[recipes]") {
    MemoryFileSystem fs;
    fs.files["emboss.c"] = "c";
    fs.directories.insert("out");
    fs.files["out/emboss.recipe.md"] = "old";
    WriteRequest req{"out", "emboss.c", false, {{"emboss.cu", "cu"}, {"emboss.recipe.md", "md"}}, {}};
    std::vector<std::string> written;
    std::string error;
    CHECK_FALSE(write_outputs(fs, req, &written, &error));
    CHECK(error == "out/emboss.recipe.md: already exists; use --force to replace it");
    CHECK(fs.writes == 0);
    CHECK(fs.files.at("out/emboss.recipe.md") == "old");
    req.force = true;
    REQUIRE(write_outputs(fs, req, &written, &error));
    CHECK(fs.files.at("out/emboss.recipe.md") == "md");
}

TEST_CASE("the input is never overwritten, even with --force", "[recipes]") {
    MemoryFileSystem fs;
    fs.files["emboss.cu"] = "the user's own";
    WriteRequest req{".", "./emboss.cu", true, {{"emboss.cu", "generated"}}, {}};
    std::vector<std::string> written;
    std::string error;
    CHECK_FALSE(write_outputs(fs, req, &written, &error));
    CHECK(error == "emboss.cu: would overwrite the input file; choose another output directory with -o");
    CHECK(fs.files.at("emboss.cu") == "the user's own");
}

TEST_CASE("a failing write is reported with the path", "[recipes]") {
    MemoryFileSystem fs;
    fs.failing_writes.insert("x.md");  // wherever it is written
    WriteRequest req{"out", "x.c", false, {{"x.md", "md"}}, {}};
    std::vector<std::string> written;
    std::string error;
    CHECK_FALSE(write_outputs(fs, req, &written, &error));
    CHECK(error == "out/x.md: cannot write: Read-only file system");
}

TEST_CASE("a write that fails leaves the earlier outputs as they were and nothing of this run", "[recipes]") {
    MemoryFileSystem fs;
    fs.files["x.c"] = "c";
    fs.directories.insert("out");
    fs.files["out/x.recipe.md"] = "old md";
    fs.files["out/x.cu"] = "old cu";
    fs.failing_writes.insert("x.nest1.pipeline.svg");  // the last of four, wherever it is written
    WriteRequest req{"out", "x.c", true, {{"x.recipe.md", "md"}, {"x.cu", "cu"}, {"x.plan.json", "{}"}, {"x.nest1.pipeline.svg", "svg"}}, {}};
    std::vector<std::string> written;
    std::string error;
    CHECK_FALSE(write_outputs(fs, req, &written, &error));
    CHECK(error == "out/x.nest1.pipeline.svg: cannot write: Read-only file system");
    CHECK(written.empty());
    CHECK(fs.files == std::map<std::string, std::string>{{"x.c", "c"}, {"out/x.recipe.md", "old md"}, {"out/x.cu", "old cu"}});
    CHECK(fs.directories == std::set<std::string>{"out"});  // the staging directory is gone
}

TEST_CASE("a move into place that fails puts back every file it replaced", "[recipes]") {
    MemoryFileSystem fs;
    fs.files["x.c"] = "c";
    fs.directories.insert("out");
    fs.files["out/x.recipe.md"] = "old md";
    fs.files["out/x.plan.json"] = "old plan";
    fs.failing_rename = 4;  // renames: old md aside, md in place, old plan aside, plan in place (fails)
    WriteRequest req{"out", "x.c", true, {{"x.recipe.md", "md"}, {"x.plan.json", "{}"}, {"x.cu", "cu"}}, {}};
    std::vector<std::string> written;
    std::string error;
    CHECK_FALSE(write_outputs(fs, req, &written, &error));
    CHECK(fs.files == std::map<std::string, std::string>{{"x.c", "c"}, {"out/x.recipe.md", "old md"}, {"out/x.plan.json", "old plan"}});
    CHECK(fs.directories == std::set<std::string>{"out"});
}

TEST_CASE("an earlier run's outputs that this run does not write are refused, or removed with --force", "[recipes]") {
    MemoryFileSystem fs;
    fs.files["x.c"] = "c";
    fs.directories.insert("out");
    fs.files["out/x.cu"] = "old cu";                 // this run converts nothing
    fs.files["out/x.nest7.pipeline.svg"] = "old";    // a nest the file no longer has
    fs.files["out/notes.txt"] = "the user's";        // not ours
    WriteRequest req{"out", "x.c", false, {{"x.recipe.md", "md"}},
                     [](const std::string& name) { return name == "x.cu" || name.rfind("x.nest", 0) == 0; }};
    std::vector<std::string> written;
    std::string error;
    CHECK_FALSE(write_outputs(fs, req, &written, &error));
    CHECK(error.rfind("out/x.cu: an earlier run's output", 0) == 0);
    CHECK(fs.writes == 0);
    req.force = true;
    REQUIRE(write_outputs(fs, req, &written, &error));
    CHECK(fs.files == std::map<std::string, std::string>{{"x.c", "c"}, {"out/x.recipe.md", "md"}, {"out/notes.txt", "the user's"}});
}

TEST_CASE("the real file system writes atomically and replaces", "[recipes]") {
    RealFileSystem fs;
    const std::string dir = std::string(RECIPE_BINARY) + ".test-output-writer";
    std::string error;
    REQUIRE(fs.make_directories(dir, &error));
    REQUIRE(fs.write_atomically(dir + "/a.txt", "one", &error));
    REQUIRE(fs.write_atomically(dir + "/a.txt", "two", &error));
    std::string content;
    REQUIRE(fs.read(dir + "/a.txt", &content, &error));
    CHECK(content == "two");
    CHECK(fs.same_file(dir + "/a.txt", dir + "/../" + std::string(dir.substr(dir.rfind('/') + 1)) + "/a.txt"));
    CHECK_FALSE(fs.write_atomically(dir + "/missing/a.txt", "x", &error));
    CHECK(error.find("cannot write") != std::string::npos);
}

TEST_CASE("on disk, a directory where an output goes is refused before anything is written", "[recipes]") {
    RealFileSystem fs;
    const std::string dir = std::string(RECIPE_BINARY) + ".test-all-or-nothing";
    std::string error;
    std::filesystem::remove_all(dir);
    REQUIRE(fs.make_directories(dir + "/x.nest1.pipeline.svg", &error));  // a directory where the last file goes
    REQUIRE(fs.write_atomically(dir + "/x.recipe.md", "old", &error));
    WriteRequest req{dir, "x.c", true, {{"x.recipe.md", "new"}, {"x.nest1.pipeline.svg", "svg"}}, {}};
    std::vector<std::string> written;
    CHECK_FALSE(write_outputs(fs, req, &written, &error));
    CHECK(error == dir + "/x.nest1.pipeline.svg: is a directory; the output cannot be written there");
    std::string content;
    REQUIRE(fs.read(dir + "/x.recipe.md", &content, &error));
    CHECK(content == "old");
    std::vector<std::string> names = fs.list(dir);
    std::sort(names.begin(), names.end());
    CHECK(names == std::vector<std::string>{"x.nest1.pipeline.svg", "x.recipe.md"});  // no staging directory left
    std::filesystem::remove_all(dir);
}
