#include <catch2/catch.hpp>

#include "recipes/svg_charts.h"

using namespace recipe;
using namespace recipe::recipes;

namespace {
advisor::Plan plan() {
    advisor::Plan p;
    p.naive.total_ms = 12;
    advisor::Prediction best;
    best.config.scheme = advisor::Scheme::Scalable;
    best.config.tile = {1000, 1, 1};
    best.problem.dims = 1;
    best.total_ms = 6.5;
    p.ranked = {best};
    advisor::SchemeCurve c;
    c.scheme = advisor::Scheme::Scalable;
    c.points = {{{100, 1, 1}, 11.0}, {{1000, 1, 1}, 6.5}, {{10000, 1, 1}, 7.5}};
    p.curves = {c};
    return p;
}
}  // namespace

TEST_CASE("the tile-size chart draws every curve, the naive line and the chosen point", "[recipes]") {
    const std::string svg = render_tile_chart(TemplateStore::embedded(), plan(), "a.c:3 f() <test>");
    CHECK(svg.rfind("<?xml", 0) == 0);
    CHECK(svg.find("<title>a.c:3 f() &lt;test&gt;</title>") != std::string::npos);  // XML-escaped
    CHECK(svg.find("<polyline") != std::string::npos);
    CHECK(svg.find("stroke-dasharray=\"6 4\"") != std::string::npos);  // naive
    CHECK(svg.find("chosen: scalable 1000, 6.50 ms") != std::string::npos);
    // x axis: log scale, 100 -> 10k spans the plot.
    CHECK(svg.find(">100<") != std::string::npos);
    CHECK(svg.find(">10k<") != std::string::npos);
    CHECK(svg.find("</svg>") != std::string::npos);
}

TEST_CASE("the pipeline chart has one lane per engine and one bar per event", "[recipes]") {
    std::vector<advisor::TimelineEvent> events = {
        {"H2D", 0, 0.0, 1.0}, {"kernel", 0, 1.0, 1.5}, {"H2D", 1, 1.0, 2.0}, {"D2H", 0, 1.5, 2.4}};
    const std::string svg = render_timeline_chart(TemplateStore::embedded(), events, 10, "t");
    CHECK(svg.find("copy in (H2D)") != std::string::npos);
    CHECK(svg.find("copy out (D2H)") != std::string::npos);
    CHECK(svg.find("host staging") == std::string::npos);
    std::size_t bars = 0;
    for (std::size_t at = svg.find(" ms</title></rect>"); at != std::string::npos; at = svg.find(" ms</title></rect>", at + 1)) ++bars;
    CHECK(bars == 4);
    CHECK(svg.find("the first 2 of 10 tiles") != std::string::npos);
    CHECK(fixed(-0.0001, 2) == "0.00");
}
