#include <catch2/catch.hpp>

#include <regex>
#include <set>

#include "recipes/svg_charts.h"
#include "tests/unit/advisor/unit_platform.h"

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

// basic, scalable and buffered on the same points (what a staged nest
// gets), and the two schemes with the longest legend labels.
advisor::Plan plan_with_coinciding_curves() {
    advisor::Plan p = plan();
    p.curves.clear();
    for (auto s : {advisor::Scheme::Basic, advisor::Scheme::Scalable, advisor::Scheme::Buffered}) {
        advisor::SchemeCurve c;
        c.scheme = s;
        c.copy = CopyMethod::RowByRow;
        c.streams = 2;
        c.points = {{{100, 1, 1}, 11.0}, {{300, 1, 1}, 8.0}, {{1000, 1, 1}, 6.5}, {{3000, 1, 1}, 6.8}, {{10000, 1, 1}, 7.5}};
        p.curves.push_back(c);
    }
    for (auto s : {advisor::Scheme::Streams, advisor::Scheme::Hybrid}) {
        advisor::SchemeCurve c;
        c.scheme = s;
        c.copy = CopyMethod::RowByRow;
        const double ms = s == advisor::Scheme::Streams ? 9.0 : 9.8;
        c.points = {{{500, 1, 1}, ms}, {{5000, 1, 1}, ms + 0.5}};
        p.curves.push_back(c);
    }
    return p;
}

double number(const std::string& tag, const std::string& attribute) {
    std::smatch m;
    const std::regex re(" " + attribute + "=\"([-0-9.]+)\"");
    REQUIRE(std::regex_search(tag, m, re));
    return std::stod(m[1]);
}

std::string attribute(const std::string& tag, const std::string& name) {
    std::smatch m;
    const std::regex re(" " + name + "=\"([^\"]*)\"");
    return std::regex_search(tag, m, re) ? std::string(m[1]) : std::string();
}

// Every `<name ...>` start tag of the SVG, with what follows up to the next '<' (a text's content).
std::vector<std::pair<std::string, std::string>> elements(const std::string& svg, const std::string& name) {
    std::vector<std::pair<std::string, std::string>> out;
    for (std::size_t at = svg.find("<" + name + " "); at != std::string::npos; at = svg.find("<" + name + " ", at + 1)) {
        const std::size_t close = svg.find('>', at);
        const std::size_t next = svg.find('<', close);
        out.push_back({svg.substr(at, close - at + 1), svg.substr(close + 1, next - close - 1)});
    }
    return out;
}

advisor::TimelineEvent event(const char* engine, std::int64_t tile, double start, double end) {
    advisor::TimelineEvent e;
    e.engine = engine;
    e.tile = tile;
    e.start_ms = start;
    e.end_ms = end;
    return e;
}

double svg_width(const std::string& svg) { return number(elements(svg, "svg").at(0).first, "width"); }

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

TEST_CASE("the tile-size chart is as wide as its legend's longest label", "[recipes]") {
    const std::string svg = render_tile_chart(TemplateStore::embedded(), plan_with_coinciding_curves(), "t");
    const double width = svg_width(svg);
    std::size_t legend_labels = 0;
    for (const auto& [tag, text] : elements(svg, "text")) {
        if (text.find("stream") == std::string::npos && text != "naive" && attribute(tag, "font-size") != "11") continue;
        if (attribute(tag, "font-size") != "11") ++legend_labels;
        const double size = attribute(tag, "font-size").empty() ? 12 : number(tag, "font-size");
        INFO(text);
        CHECK(number(tag, "x") + text_width(text, size, false) <= width);
    }
    CHECK(legend_labels == 6);  // five schemes and naive
    // The estimate errs on the wide side of the fonts the chart names.
    CHECK(text_width("hybrid (row-by-row, a stream per tile)", 12, false) > 38 * 6.0);
}

TEST_CASE("curves that coincide are each drawn in a style of their own and said to coincide", "[recipes]") {
    const std::string svg = render_tile_chart(TemplateStore::embedded(), plan_with_coinciding_curves(), "t");
    std::set<std::string> line_styles, markers;
    double previous_width = 1e9;
    for (const auto& [tag, text] : elements(svg, "polyline")) {
        line_styles.insert(attribute(tag, "stroke") + "|" + attribute(tag, "stroke-width") + "|" + attribute(tag, "stroke-dasharray"));
        // Widest first: a narrower curve on the same points is drawn over it.
        CHECK(number(tag, "stroke-width") <= previous_width);
        previous_width = number(tag, "stroke-width");
    }
    CHECK(line_styles.size() == 5);
    for (const auto& [tag, text] : elements(svg, "use")) markers.insert(attribute(tag, "xlink:href"));
    CHECK(markers.size() == 5);
    // The caption under the legend, wrapped.
    std::string caption;
    for (const auto& [tag, text] : elements(svg, "text"))
        if (attribute(tag, "font-size") == "11") caption += (caption.empty() ? "" : " ") + text;
    CHECK(caption == "basic, scalable and buffered predict the same time at every tile size: their curves lie on each other.");
}

TEST_CASE("the chosen label sits on a white box where no curve crosses it", "[recipes]") {
    const advisor::Plan p = plan_with_coinciding_curves();
    const std::string svg = render_tile_chart(TemplateStore::embedded(), p, "t");
    const auto rects = elements(svg, "rect");
    const auto box = std::find_if(rects.begin(), rects.end(), [](const auto& r) { return attribute(r.first, "stroke") == "#d62728"; });
    REQUIRE(box != rects.end());
    CHECK(attribute(box->first, "fill") == "#ffffff");
    const double x0 = number(box->first, "x"), y0 = number(box->first, "y");
    const double x1 = x0 + number(box->first, "width"), y1 = y0 + number(box->first, "height");
    // Its text fits in it.
    const std::size_t at = svg.find("chosen: ");
    REQUIRE(at != std::string::npos);
    const std::string label = svg.substr(at, svg.find('<', at) - at);
    CHECK(x0 + text_width(label, 12, true) < x1);
    // No point of a curve, sampled along each segment, falls in the box.
    for (const auto& [tag, text] : elements(svg, "polyline")) {
        std::vector<std::pair<double, double>> pts;
        const std::string list = attribute(tag, "points");
        const std::regex pair_re("([-0-9.]+),([-0-9.]+)");
        for (auto it = std::sregex_iterator(list.begin(), list.end(), pair_re); it != std::sregex_iterator(); ++it)
            pts.push_back({std::stod((*it)[1]), std::stod((*it)[2])});
        for (std::size_t i = 0; i + 1 < pts.size(); ++i)
            for (double f = 0; f <= 1; f += 0.01) {
                const double x = pts[i].first + f * (pts[i + 1].first - pts[i].first);
                const double y = pts[i].second + f * (pts[i + 1].second - pts[i].second);
                CHECK_FALSE((x > x0 && x < x1 && y > y0 && y < y1));
            }
    }
}

TEST_CASE("the pipeline chart has one lane per engine and one bar per event", "[recipes]") {
    std::vector<advisor::TimelineEvent> events = {event("H2D", 0, 0.0, 1.0), event("kernel", 0, 1.0, 1.5), event("H2D", 1, 1.0, 2.0),
                                                  event("D2H", 0, 1.5, 2.4)};
    const std::string svg = render_timeline_chart(TemplateStore::embedded(), events, 10, "t");
    CHECK(svg.find("copy in (H2D)") != std::string::npos);
    CHECK(svg.find("copy out (D2H)") != std::string::npos);
    CHECK(svg.find("host staging") == std::string::npos);
    std::size_t bars = 0;
    for (std::size_t at = svg.find(" ms</title></rect>"); at != std::string::npos; at = svg.find(" ms</title></rect>", at + 1)) ++bars;
    CHECK(bars == 4);
    CHECK(fixed(-0.0001, 2) == "0.00");
}

TEST_CASE("a short kernel is a bar a few pixels wide with its tile index", "[recipes]") {
    std::vector<advisor::TimelineEvent> events = {event("H2D", 0, 0.0, 1.0),      event("kernel", 0, 1.0, 1.0005),
                                                  event("H2D", 1, 1.0, 2.0),      event("kernel", 1, 2.0, 2.0005),
                                                  event("D2H", 0, 1.0005, 2.0),   event("D2H", 1, 2.0005, 3.0)};
    const std::string svg = render_timeline_chart(TemplateStore::embedded(), events, 2, "t");
    const auto rects = elements(svg, "rect");
    std::size_t kernels = 0;
    for (std::size_t i = 0; i < rects.size(); ++i) {
        if (attribute(rects[i].first, "fill") != "#2ca02c") continue;  // the kernel lane's colour
        ++kernels;
        CHECK(number(rects[i].first, "width") >= 3);
    }
    CHECK(kernels == 2);
    // Each has its index, above it (too narrow for inside).
    CHECK(svg.find("font-size=\"9\">0</text>") != std::string::npos);
    CHECK(svg.find("font-size=\"9\">1</text>") != std::string::npos);
}

namespace {

advisor::Prediction predict(advisor::Problem p, advisor::Scheme scheme, Index3 tile, int streams = 3) {
    advisor::Config c;
    c.scheme = scheme;
    c.tile = tile;
    c.streams = streams;
    advisor::Prediction out;
    std::string error;
    INFO(error);
    if (!advisor::predict(p, test::unit_platform(), c, {}, &out, &error)) FAIL(error);
    return out;
}

double last_bar_end(const std::vector<advisor::TimelineEvent>& events) {
    double end = 0;
    for (const auto& e : events)
        if (e.engine != "total" && e.engine != "break") end = std::max(end, e.end_ms);
    return end;
}

const advisor::TimelineEvent* find(const std::vector<advisor::TimelineEvent>& events, const std::string& engine) {
    for (const auto& e : events)
        if (e.engine == engine) return &e;
    return nullptr;
}

// The x of the red total line and the plot's right edge.
std::pair<double, double> total_line_and_right(const std::string& svg) {
    double total_x = -1, right = -1;
    for (const auto& [tag, text] : elements(svg, "line")) {
        if (attribute(tag, "stroke") == "#d62728") total_x = number(tag, "x1");
        if (attribute(tag, "stroke") == "#cccccc") right = number(tag, "x2");  // a lane's base line
    }
    return {total_x, right};
}

}  // namespace

TEST_CASE("identical tiles: the model's steps end at the predicted total", "[recipes]") {
    // 10 identical tiles (thesis §6.4.4 on the unit platform, pinned, two engines).
    const advisor::Prediction b = predict(test::unit_problem({1000000, 1, 1}, 1), advisor::Scheme::Scalable, {100000, 1, 1});
    REQUIRE(b.tiles == 10);
    const auto all = advisor::timeline(b, test::unit_platform(), 0);
    CHECK(find(all, "break") == nullptr);
    CHECK(last_bar_end(all) == Approx(b.total_ms).epsilon(1e-9));
    REQUIRE(find(all, "total"));
    CHECK(find(all, "total")->end_ms == Approx(b.total_ms));
    CHECK(find(all, "total")->note.empty());
    std::size_t kernels = 0;
    for (const auto& e : all) kernels += e.engine == "kernel";
    CHECK(kernels == 10);

    // At most 4 tiles: the steps of tiles 0-1 and 8-9 drawn (12 steps: 4, a break for 4, 4).
    const auto some = advisor::timeline(b, test::unit_platform(), 4);
    const advisor::TimelineEvent* brk = find(some, "break");
    REQUIRE(brk);
    CHECK(brk->note == "4 steady steps (tiles 2 to 7 in flight), " + fixed(brk->end_ms - brk->start_ms, 3) + " ms by the model");
    CHECK(last_bar_end(some) == Approx(b.total_ms).epsilon(1e-9));
    for (const auto& e : some)
        if (e.engine != "total" && e.engine != "break") CHECK((e.end_ms <= brk->start_ms + 1e-12 || e.start_ms >= brk->end_ms - 1e-12));

    // The chart's time axis ends at the total, where its red line is.
    const std::string svg = render_timeline_chart(TemplateStore::embedded(), some, b.tiles, "t");
    const auto [total_x, right] = total_line_and_right(svg);
    CHECK(total_x == Approx(right).margin(0.1));
    CHECK(svg.find("predicted total " + fixed(b.total_ms, 3) + " ms") != std::string::npos);
    CHECK(svg.find("The break stands for 4 steady steps (tiles 2 to 7 in flight)") != std::string::npos);
    CHECK(svg.find("not drawn") != std::string::npos);
    CHECK(svg.find("The red line marks") == std::string::npos);  // nothing to explain
}

TEST_CASE("a time loop's middle steps are a break, and the chart ends at the total", "[recipes]") {
    advisor::Problem p = test::unit_problem({1000000, 1, 1}, 1);
    p.time_steps = 100;
    const advisor::Prediction b = predict(p, advisor::Scheme::Basic, {250000, 1, 1});
    REQUIRE(b.tiles == 4);
    const auto ev = advisor::timeline(b, test::unit_platform(), 8);
    const advisor::TimelineEvent* brk = find(ev, "break");
    REQUIRE(brk);
    CHECK(brk->note.rfind("steps 2 to 99 (98 whole-space kernel launches), ", 0) == 0);
    CHECK(brk->end_ms > brk->start_ms);
    CHECK(last_bar_end(ev) == Approx(b.total_ms).epsilon(1e-9));
    std::set<std::int64_t> steps;
    for (const auto& e : ev)
        if (e.tile >= 0) steps.insert(e.step);
    CHECK(steps == std::set<std::int64_t>{1, 100});
    const std::string svg = render_timeline_chart(TemplateStore::embedded(), ev, b.tiles, "t");
    CHECK(svg.find("4 tiles, 100 time steps") != std::string::npos);
    CHECK(svg.find("kernel, tile 0, step 100:") != std::string::npos);  // a tooltip
    const auto [total_x, right] = total_line_and_right(svg);
    CHECK(total_x == Approx(right).margin(0.1));
}

TEST_CASE("where the typical tile's steps cannot end at the total, the total is a marked line and the chart says why", "[recipes]") {
    // Tiles that differ: 3 of 300000 elements and an edge tile of 100000.
    const advisor::Prediction b = predict(test::unit_problem({1000000, 1, 1}, 1), advisor::Scheme::Basic, {300000, 1, 1});
    REQUIRE(b.tiles == 4);
    const auto ev = advisor::timeline(b, test::unit_platform(), 8);
    const advisor::TimelineEvent* total = find(ev, "total");
    REQUIRE(total);
    CHECK(total->end_ms == Approx(b.total_ms));
    REQUIRE_FALSE(total->note.empty());
    CHECK(total->note.rfind("the bars repeat the typical tile's steps and take ", 0) == 0);
    CHECK(std::fabs(last_bar_end(ev) - b.total_ms) > 1e-3);  // not stretched to fit
    const std::string svg = render_timeline_chart(TemplateStore::embedded(), ev, b.tiles, "t");
    CHECK(svg.find("The red line marks the predicted total: the bars repeat") != std::string::npos);
    const auto [total_x, right] = total_line_and_right(svg);
    CHECK(total_x > 130);
    CHECK(total_x <= right + 0.1);
}
