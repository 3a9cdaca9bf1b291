#include <catch2/catch.hpp>

#include <stdexcept>

#include "recipes/source_rewriter.h"

using namespace recipe::recipes;

TEST_CASE("edits replace byte spans and keep everything else", "[recipes]") {
    const std::string src = "int a = b[i];  // keep me\n";
    CHECK(apply_edits(src, {{8, 12, "b(i)"}}) == "int a = b(i);  // keep me\n");
    CHECK(apply_edits(src, {{0, 0, "#include <x>\n"}, {8, 12, "b(i)"}}) == "#include <x>\nint a = b(i);  // keep me\n");
    // Insertions at one offset keep their order and come before a replacement there.
    CHECK(apply_edits("ab", {{1, 2, "B"}, {1, 1, "1"}, {1, 1, "2"}}) == "a12B");
    CHECK_THROWS_AS(apply_edits(src, {{0, 5, "x"}, {3, 6, "y"}}), std::logic_error);
    CHECK_THROWS_AS(apply_edits(src, {{0, 500, "x"}}), std::logic_error);
}

TEST_CASE("reindent keeps relative indentation", "[recipes]") {
    CHECK(line_indent("a\n    b = 1;\n", 8) == "    ");
    CHECK(line_indent("\tx", 1) == "\t");
    CHECK(reindent("{\n        a;\n            b;\n\n        c;", "    ") == "{\n    a;\n        b;\n\n    c;");
}

TEST_CASE("identifiers are found outside comments and strings only", "[recipes]") {
    CHECK(contains_identifier("if (x) continue;", "continue"));
    CHECK_FALSE(contains_identifier("/* continue */ a = \"continue\"; // continue", "continue"));
    CHECK_FALSE(contains_identifier("continued = 1;", "continue"));
}
