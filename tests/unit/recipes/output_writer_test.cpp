#include <catch2/catch.hpp>

#include "recipes/output_writer.h"

using namespace recipe::recipes;

TEST_CASE("outputs are written into the directory, which is created", "[recipes]") {
    MemoryFileSystem fs;
    fs.files["emboss.c"] = "int main(void) { return 0; }";
    WriteRequest req{"out/a", "emboss.c", false, {{"emboss.cu", "cu"}, {"emboss.recipe.md", "md"}}};
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
    WriteRequest req{"out", "emboss.c", false, {{"emboss.cu", "cu"}, {"emboss.recipe.md", "md"}}};
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
    WriteRequest req{".", "./emboss.cu", true, {{"emboss.cu", "generated"}}};
    std::vector<std::string> written;
    std::string error;
    CHECK_FALSE(write_outputs(fs, req, &written, &error));
    CHECK(error == "emboss.cu: would overwrite the input file; choose another output directory with -o");
    CHECK(fs.files.at("emboss.cu") == "the user's own");
}

TEST_CASE("a failing write is reported with the path", "[recipes]") {
    MemoryFileSystem fs;
    fs.failing_writes.insert("out/x.md");
    WriteRequest req{"out", "x.c", false, {{"x.md", "md"}}};
    std::vector<std::string> written;
    std::string error;
    CHECK_FALSE(write_outputs(fs, req, &written, &error));
    CHECK(error == "out/x.md: cannot write: Read-only file system");
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
