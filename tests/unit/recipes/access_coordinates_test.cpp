#include <catch2/catch.hpp>

#include "recipes/access_coordinates.h"
#include "recipes/c_tree.h"

using recipe::analyzer::Extent;
using namespace recipe::recipes;

namespace {
std::vector<std::string> coords(const std::string& access, std::vector<Extent> extents) {
    AccessShape shape;
    std::string why;
    REQUIRE(access_coordinates(access, extents, &shape, &why));
    return shape.coords;
}
}  // namespace

TEST_CASE("flat 2D index splits at the row pitch, keeping the user's sub-expressions", "[recipes]") {
    const std::vector<Extent> wh{{8000, "W"}, {8000, "H"}};
    CHECK(coords("out[y * W + x]", wh) == std::vector<std::string>{"x", "y"});
    CHECK(coords("in[y * W + xp]", wh) == std::vector<std::string>{"xp", "y"});
    CHECK(coords("in[(y - 1) * W + x]", wh) == std::vector<std::string>{"x", "y - 1"});
    CHECK(coords("field[y * W + x + 1]", wh) == std::vector<std::string>{"x + 1", "y"});
    CHECK(coords("field[y * W + x - 1]", wh) == std::vector<std::string>{"x - 1", "y"});
    CHECK(coords("a[x + W*y]", wh) == std::vector<std::string>{"x", "y"});
    CHECK(coords("a[W * (y + 1) + x]", wh) == std::vector<std::string>{"x", "y + 1"});
    CHECK(coords("a[y * 8000 + x]", wh) == std::vector<std::string>{"x", "y"});
}

TEST_CASE("flat 3D index, as the preprocessor expands an index macro", "[recipes]") {
    // IDX(x - 1, y, z) with #define IDX(x, y, z) ((x) + NX * ((y) + NY * (z))), NX = NY = 400,
    // the parentheses around lone names blanked (parenthesized_names.h).
    const std::vector<Extent> e{{400, "NX"}, {400, "NY"}, {400, "NZ"}};
    CHECK(coords("in[((x - 1) + 400 * ( y  + 400 *  z ))]", e) == std::vector<std::string>{"x - 1", "y", "z"});
    CHECK(coords("in[( x  + 400 * ( y  + 400 * (z + 1)))]", e) == std::vector<std::string>{"x", "y", "z + 1"});
    CHECK(coords("in[x + NX * (y + NY * z)]", e) == std::vector<std::string>{"x", "y", "z"});
    CHECK(coords("in[(z * NY + y) * NX + x]", e) == std::vector<std::string>{"x", "y", "z"});
    CHECK(coords("in[NX * NY * (z - 1) + NX * y + x]", e) == std::vector<std::string>{"x", "y", "z - 1"});
}

TEST_CASE("subscripted arrays list their subscripts x first", "[recipes]") {
    const std::vector<Extent> e{{1026, "N + 2"}, {1026, "N + 2"}};
    CHECK(coords("u[i + 1][j]", e) == std::vector<std::string>{"j", "i + 1"});
    CHECK(coords("src[y - 1][x + 1]", e) == std::vector<std::string>{"x + 1", "y - 1"});
    const std::vector<Extent> one{{100, "N"}};
    CHECK(coords("in[i + d]", one) == std::vector<std::string>{"i + d"});
    CHECK(coords("*(in + i)", one) == std::vector<std::string>{"i"});
}

TEST_CASE("an index that does not show its pitch cannot be split", "[recipes]") {
    AccessShape shape;
    std::string why;
    CHECK_FALSE(access_coordinates("out[idx]", {{8000, "W"}, {8000, "H"}}, &shape, &why));
    CHECK(why == "no term of the index is multiplied by the extent 'W'");
    CHECK_FALSE(access_coordinates("f(x)", {{8000, "W"}}, &shape, &why));
}
