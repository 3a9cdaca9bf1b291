#include <catch2/catch.hpp>

#include "nest_fixture.h"
#include "analyzer/syntax_tree.h"
#include "recipes/c_tree.h"
#include "recipes/cu_builder.h"

using namespace recipe;
using namespace recipe::recipes;
using namespace recipe::test;

namespace {

const std::string kEmboss = R"(#include <stdlib.h>
#define W 64
#define H 48

/* Emboss. */
static void emboss(const float *in, float *out)
{
    int x, y;
    for (y = 0; y < H; y++) {
        for (x = 0; x < W; x++) {
            int xm = x > 0 ? x - 1 : 0;
            int xp = x < W - 1 ? x + 1 : W - 1;
            float lit = in[y * W + xp];  /* right */
            float shade = in[y * W + xm];
            out[y * W + x] = lit - shade;
        }
    }
}

int main(void)
{
    float *in = malloc(W * H * sizeof *in);
    float *out = malloc(W * H * sizeof *out);
    emboss(in, out);
    free(in);
    free(out);
    return 0;
}
)";

analyzer::LoopNest emboss_nest() {
    const std::string& s = kEmboss;
    analyzer::LoopNest n;
    n.id = 1;
    n.function = "emboss";
    n.function_span = statement_span(s, "static void emboss");
    n.span = statement_span(s, "for (y = 0");
    n.body_span = statement_span(s, "{\n            int xm");
    n.accepted = true;
    n.dimensionality = 2;
    n.iteration_space = {loop(s, "x", "for (x = 0", 0, "0", 64, "W", "int", 1), loop(s, "y", "for (y = 0", 0, "0", 48, "H", "int", 0)};
    auto in = array("in", "float", {{64, "W"}, {48, "H"}});
    in.accesses = {access(s, "in[y * W + xp]", {1, 0}, {"xp", "y"}), access(s, "in[y * W + xm]", {-1, 0}, {"xm", "y"})};
    in.stencil = {{1, 0}, {-1, 0}};
    auto out = array("out", "float", {{64, "W"}, {48, "H"}});
    out.accesses = {access(s, "out[y * W + x]", {0, 0}, {"x", "y"}, true)};
    n.input_arrays = {in};
    n.output_arrays = {out};
    return n;
}

advisor::Prediction scalable_plan() {
    advisor::Prediction p;
    p.config.scheme = advisor::Scheme::Scalable;
    p.config.tile = {64, 16, 1};
    p.config.copy = CopyMethod::Merged;
    p.config.streams = 3;
    p.config.block = {32, 8, 1};
    p.host_strategy = advisor::HostStrategy::Register;
    p.problem.dims = 2;
    p.problem.extents = {64, 48, 1};
    p.phases.alloc = 0.1;
    p.phases.host_register = 0.05;
    p.phases.h2d = 1.25;
    p.phases.kernel = 0.5;
    p.phases.d2h = 1.0;
    p.total_ms = 2.5;
    return p;
}

CuContext context() { return {"emboss.c", "emboss.cu", "emboss.recipe.md", "h200", "nvcc -O3 -std=c++17 -I<recipe>/library/include emboss.cu -o emboss"}; }

}  // namespace

TEST_CASE("a 2D nest becomes a kernel with view accesses and a library call", "[recipes]") {
    const recipe::analyzer::SyntaxTree parsed(kEmboss);
    CTree file(parsed);
    std::set<std::string> taken;
    const auto nest = emboss_nest();
    const NestConversion c = convert_nest(file, nest, &taken);
    INFO(c.why_not);
    REQUIRE(c.ok);
    CHECK(c.kernel_name == "emboss_kernel");
    CHECK(c.accesses.size() == 3);
    CHECK(c.accesses[0].before == "in[y * W + xp]");
    CHECK(c.accesses[0].after == "in(xp, y)");
    CHECK(c.accesses[0].pos.line == 13);
    CHECK(c.inputs.at(0).halo.lo == Index3{1, 0, 0});
    CHECK(c.inputs.at(0).halo.hi == Index3{1, 0, 0});
    CHECK(c.space_end[0] == "W");
    CHECK(c.space_end[1] == "H");
    CHECK(c.index_vars.at(0).type == "int");
    CHECK(c.scalars.empty());

    const auto p = scalable_plan();
    CHECK(tile_exprs(c, p) == std::vector<std::string>{"W", "16", "1"});
    const auto map = analyzer::SourceMap::identity(kEmboss, "emboss.c");
    const std::string cu = render_cu(TemplateStore::embedded(), map, {{&c, &p}}, {}, {}, context(), &taken);
    CHECK(cu.find("__global__ void emboss_kernel(recipe::Tile tile, recipe::InView<float> in, recipe::OutView<float> out)\n") != std::string::npos);
    CHECK(cu.find("    const int x = static_cast<int>(tile.x());\n") != std::string::npos);
    CHECK(cu.find("    float lit = in(xp, y);  /* right */\n") != std::string::npos);
    CHECK(cu.find("    out(x, y) = lit - shade;\n}\n") != std::string::npos);
    CHECK(cu.find("        cfg.tile = {W, 16, 1};\n") != std::string::npos);
    CHECK(cu.find("recipe::inputs(recipe::input(in, recipe::Halo{{1, 0, 0}, {1, 0, 0}}))") != std::string::npos);
    CHECK(cu.find("recipe::outputs(recipe::output(out)));") != std::string::npos);
    // Outside the nest nothing changes: the comment, the function header, main.
    { std::FILE* f = std::fopen("/tmp/emboss_test.cu", "w"); std::fputs(cu.c_str(), f); std::fclose(f); }
    CHECK(cu.find("/* Emboss. */\nstatic void emboss(const float *in, float *out)\n{\n    int x, y;\n    {   // emboss()") != std::string::npos);
    CHECK(cu.find("    emboss(in, out);\n    free(in);") != std::string::npos);
    // The kernel sits above the function's introducing comment.
    CHECK(cu.find("}\n\n/* Emboss. */") != std::string::npos);
}

TEST_CASE("a nest the generator cannot convert says why", "[recipes]") {
    const recipe::analyzer::SyntaxTree parsed(kEmboss);
    CTree file(parsed);
    std::set<std::string> taken;
    auto nest = emboss_nest();
    nest.iteration_space[0].stride = 2;
    const NestConversion c = convert_nest(file, nest, &taken);
    CHECK_FALSE(c.ok);
    CHECK(c.why_not == "loop `x` steps by 2; the library visits every point");
}
