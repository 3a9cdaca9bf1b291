#include <catch2/catch.hpp>

#include "analyzer/access_coordinates.h"
#include "analyzer/analyzer.h"

using recipe::analyzer::Extent;
using namespace recipe::analyzer;

namespace {

// An access written on its own, parsed as an expression of a function body.
bool split_text(const std::string& access, const std::vector<Extent>& extents, std::string* array,
                std::vector<std::string>* coords, std::string* why) {
    const std::string prefix = "void f(void) { (void)(";
    const SyntaxTree tree(prefix + access + "); }\n");
    const auto begin = static_cast<std::uint32_t>(prefix.size());
    const TSNode n = ts_node_named_descendant_for_byte_range(tree.root(), begin, begin + static_cast<std::uint32_t>(access.size()));
    REQUIRE(ts_node_start_byte(n) == begin);
    REQUIRE(ts_node_end_byte(n) == begin + access.size());
    return access_coordinates(n, tree.source(), extents, array, coords, why);
}

std::vector<std::string> coords(const std::string& access, std::vector<Extent> extents) {
    std::string array, why;
    std::vector<std::string> out;
    REQUIRE(split_text(access, extents, &array, &out, &why));
    return out;
}

}  // namespace

TEST_CASE("flat 2D index splits at the row pitch, keeping the user's sub-expressions", "[analyzer]") {
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

TEST_CASE("flat 3D index, as the preprocessor expands an index macro", "[analyzer]") {
    // IDX(x - 1, y, z) with #define IDX(x, y, z) ((x) + NX * ((y) + NY * (z))), NX = NY = 400,
    // the parentheses around lone names blanked (parenthesized_names.h).
    const std::vector<Extent> e{{400, "NX"}, {400, "NY"}, {400, "NZ"}};
    CHECK(coords("in[((x - 1) + 400 * ( y  + 400 *  z ))]", e) == std::vector<std::string>{"x - 1", "y", "z"});
    CHECK(coords("in[( x  + 400 * ( y  + 400 * (z + 1)))]", e) == std::vector<std::string>{"x", "y", "z + 1"});
    CHECK(coords("in[x + NX * (y + NY * z)]", e) == std::vector<std::string>{"x", "y", "z"});
    CHECK(coords("in[(z * NY + y) * NX + x]", e) == std::vector<std::string>{"x", "y", "z"});
    CHECK(coords("in[NX * NY * (z - 1) + NX * y + x]", e) == std::vector<std::string>{"x", "y", "z - 1"});
}

TEST_CASE("subscripted arrays list their subscripts x first", "[analyzer]") {
    const std::vector<Extent> e{{1026, "N + 2"}, {1026, "N + 2"}};
    CHECK(coords("u[i + 1][j]", e) == std::vector<std::string>{"j", "i + 1"});
    CHECK(coords("src[y - 1][x + 1]", e) == std::vector<std::string>{"x + 1", "y - 1"});
    const std::vector<Extent> one{{100, "N"}};
    CHECK(coords("in[i + d]", one) == std::vector<std::string>{"i + d"});
    CHECK(coords("*(in + i)", one) == std::vector<std::string>{"i"});
}

TEST_CASE("an index that does not show its pitch cannot be split", "[analyzer]") {
    std::string array, why;
    std::vector<std::string> out;
    CHECK_FALSE(split_text("out[idx]", {{8000, "W"}, {8000, "H"}}, &array, &out, &why));
    CHECK(why == "no term of the index is multiplied by the extent 'W'");
    CHECK_FALSE(split_text("f(x)", {{8000, "W"}}, &array, &out, &why));
}

TEST_CASE("the analysis carries each access's coordinates as written", "[analyzer]") {
    const Program p = analyze_source("emboss.c", R"(#define W 64
#define H 48
void emboss(const float *restrict in, float *restrict out)
{
    for (int y = 1; y < H - 1; y++)
        for (int x = 1; x < W - 1; x++) {
            int xp = x < W - 1 ? x + 1 : W - 1;
            out[y * W + x] = in[(y - 1) * W + xp] - in[y * W + x];
        }
}
)", {});
    REQUIRE(p.nests.size() == 1);
    REQUIRE(p.nests[0].accepted);
    const auto& in = p.nests[0].input_arrays.at(0);
    REQUIRE(in.accesses.size() == 2);
    CHECK(in.accesses[0].coordinates == std::vector<std::string>{"xp", "y - 1"});
    CHECK(in.accesses[1].coordinates == std::vector<std::string>{"x", "y"});
    CHECK(p.nests[0].output_arrays.at(0).accesses.at(0).coordinates == std::vector<std::string>{"x", "y"});
}
