#include "recipes/svg_charts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace recipe::recipes {

namespace km = kainjow::mustache;

std::string fixed(double value, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
    std::string s = buf;
    if (s == "-0" || s.rfind("-0.", 0) == 0) {
        bool zero = std::all_of(s.begin() + 1, s.end(), [](char c) { return c == '0' || c == '.'; });
        if (zero) s.erase(0, 1);
    }
    return s;
}

double text_width(const std::string& text, double size, bool bold) {
    // Advance widths (em) of DejaVu Sans, what "Helvetica, Arial,
    // sans-serif" falls back to where neither is installed; both are
    // narrower, so the estimate errs on the wide side.
    double em = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x80) {
            if ((c & 0xC0) == 0x80) continue;  // a UTF-8 continuation byte
            em += 0.8;                         // ×, –, …: take a wide one
        } else if (c == ' ') em += 0.318;
        else if (std::string(".,:;'|!").find(static_cast<char>(c)) != std::string::npos) em += 0.318;
        else if (std::string("ijl").find(static_cast<char>(c)) != std::string::npos) em += 0.278;
        else if (std::string("()[]{}ft-").find(static_cast<char>(c)) != std::string::npos) em += 0.39;
        else if (c == 'r') em += 0.411;
        else if (c == 'm') em += 0.974;
        else if (c == 'w' || c == 'W' || c == 'M') em += 0.9;
        else if (c >= 'A' && c <= 'Z') em += 0.75;
        else em += 0.64;  // digits, the other lower-case letters, '=' '+' '%'
    }
    return em * size * (bold ? 1.1 : 1.0);
}

namespace {

// Tick spacing of 1, 2 or 5 times a power of ten giving about `count` ticks.
double nice_step(double range, int count) {
    const double raw = range / std::max(1, count);
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double f = raw / mag;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

std::string ms_label(double ms, double step) {
    const int decimals = step >= 1 ? 0 : step >= 0.1 ? 1 : step >= 0.01 ? 2 : 3;
    return fixed(ms, decimals);
}

std::string si_count(double v) {
    // 1e3 -> "1k", 2.5e5 -> "250k", 1e6 -> "1M"
    const char* units[] = {"", "k", "M", "G", "T"};
    int u = 0;
    while (v >= 1000 && u < 4) {
        v /= 1000;
        ++u;
    }
    std::string s = fixed(v, v < 10 && std::fabs(v - std::round(v)) > 1e-9 ? 1 : 0);
    return s + units[u];
}

std::int64_t elements(const Index3& t) { return t[0] * t[1] * t[2]; }

// Lines of at most `width` pixels at `size`, broken at spaces.
std::vector<std::string> wrap(const std::string& text, double width, double size) {
    std::vector<std::string> lines;
    std::string line;
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t space = text.find(' ', at);
        if (space == std::string::npos) space = text.size();
        const std::string word = text.substr(at, space - at);
        const std::string longer = line.empty() ? word : line + " " + word;
        if (!line.empty() && text_width(longer, size, false) > width) {
            lines.push_back(line);
            line = word;
        } else {
            line = longer;
        }
        at = space + 1;
    }
    if (!line.empty()) lines.push_back(line);
    return lines;
}

km::data text_lines(const std::vector<std::string>& lines, double x, double y, double leading) {
    km::data list{km::data::type::list};
    for (const auto& l : lines) {
        km::data d;
        d.set("text", l);
        d.set("x", fixed(x, 1));
        d.set("y", fixed(y, 1));
        list.push_back(d);
        y += leading;
    }
    return list;
}

// How each scheme's curve looks, so that curves lying on each other all
// show: the widest line is drawn first and the narrower ones, dashed
// differently, on top of it; the markers differ in shape and size (a hollow
// square around a circle, a triangle inside it). The marker shapes are
// defined in the template.
struct SchemeStyle {
    const char* color;
    double width;
    const char* dash;    // stroke-dasharray; "" = solid
    const char* marker;  // the template's marker id
    double opacity;
};

SchemeStyle style_of(advisor::Scheme s) {
    switch (s) {
        case advisor::Scheme::Basic: return {"#1f77b4", 6.0, "", "circle", 0.55};
        case advisor::Scheme::Scalable: return {"#2ca02c", 3.0, "9 5", "square", 1.0};
        case advisor::Scheme::Buffered: return {"#9467bd", 1.6, "2 3", "triangle", 1.0};
        case advisor::Scheme::Streams: return {"#ff7f0e", 4.0, "12 4 3 4", "diamond", 0.8};
        case advisor::Scheme::Hybrid: return {"#8c564b", 2.0, "5 3", "cross", 1.0};
        case advisor::Scheme::Mapped: return {"#e377c2", 2.0, "1 3", "circle", 1.0};
        case advisor::Scheme::Naive: break;
    }
    return {"#888888", 2.0, "6 4", "", 1.0};
}

std::string scheme_label(const advisor::SchemeCurve& c) {
    std::string s = advisor::to_string(c.scheme);
    if (scheme_traits(c.scheme).stream_per_tile)
        s += std::string(" (") + to_string(c.copy) + ", a stream per tile)";
    else if (scheme_traits(c.scheme).tiled)
        s += std::string(" (") + to_string(c.copy) + ", " + std::to_string(c.streams) + " streams)";
    return s;
}

// Two curves coincide when they have the same tiles and times within 0.1%.
bool coincide(const advisor::SchemeCurve& a, const advisor::SchemeCurve& b) {
    if (a.points.size() != b.points.size() || a.points.empty()) return false;
    for (std::size_t i = 0; i < a.points.size(); ++i) {
        const auto& p = a.points[i];
        const auto& q = b.points[i];
        if (elements(p.tile) != elements(q.tile)) return false;
        const double larger = std::max(std::fabs(p.total_ms), std::fabs(q.total_ms));
        if (std::fabs(p.total_ms - q.total_ms) > 1e-3 * larger + 1e-9) return false;
    }
    return true;
}

std::string and_list(const std::vector<std::string>& names) {
    std::string s;
    for (std::size_t i = 0; i < names.size(); ++i) s += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    return s;
}

struct Box {
    double x0, y0, x1, y1;
    bool contains(double x, double y) const { return x >= x0 && x <= x1 && y >= y0 && y <= y1; }
};

// Pixels of the polylines that fall inside `b`, sampled every pixel or so.
double ink_inside(const Box& b, const std::vector<std::vector<std::pair<double, double>>>& lines) {
    double ink = 0;
    for (const auto& line : lines)
        for (std::size_t i = 0; i + 1 < line.size(); ++i) {
            const auto [xa, ya] = line[i];
            const auto [xb, yb] = line[i + 1];
            const double len = std::hypot(xb - xa, yb - ya);
            const int n = std::max(1, static_cast<int>(len));
            for (int k = 0; k <= n; ++k) {
                const double f = static_cast<double>(k) / n;
                if (b.contains(xa + f * (xb - xa), ya + f * (yb - ya))) ink += len / (n + 1);
            }
        }
    return ink;
}

using Point = std::pair<double, double>;  // pixels
using Polyline = std::vector<Point>;

// The tile chart's axes: tile size across (log scale), time up.
struct TileAxes {
    double left = 70, right = 560, top = 50, bottom = 360;  // the plot, pixels
    double lo = 0, hi = 1;                                 // log10 of the elements at left and right
    double y_max = 1, y_step = 1;
    bool clipped = false;  // curves go above y_max
    double x(double elements) const { return left + (std::log10(elements) - lo) / (hi - lo) * (right - left); }
    double y(double ms) const { return bottom - ms / y_max * (bottom - top); }
    std::string ms(double v) const { return ms_label(v, y_step); }
};

TileAxes tile_axes(const advisor::Plan& plan) {
    TileAxes a;
    // Without a naive port (it does not fit in the device memory) the best plan sets the scale.
    const double best_ms = plan.ranked.empty() ? 0.0 : plan.ranked[0].total_ms;
    const double naive_ms = plan.naive_fits ? plan.naive.total_ms : (plan.ranked.empty() ? 1.0 : best_ms);
    double min_e = 1e300, max_e = 0, max_ms = naive_ms;
    for (const auto& c : plan.curves)
        for (const auto& p : c.points) {
            const double e = static_cast<double>(elements(p.tile));
            min_e = std::min(min_e, e);
            max_e = std::max(max_e, e);
            max_ms = std::max(max_ms, p.total_ms);
        }
    if (!plan.ranked.empty()) {
        const double e = static_cast<double>(elements(plan.ranked[0].config.tile));
        min_e = std::min(min_e, e);
        max_e = std::max(max_e, e);
    }
    if (max_e <= 0) min_e = max_e = 1;
    a.lo = std::floor(std::log10(min_e));
    a.hi = std::max(a.lo + 1, std::ceil(std::log10(max_e)));
    // A scheme far slower than naive would squash the interesting part (the
    // curves near the best and naive) into the bottom: the axis stops at 2.5x
    // naive and what lies above is clipped (a note says so).
    const double top_ms = std::max(naive_ms, best_ms) * 2.5;
    a.clipped = top_ms > 0 && max_ms > top_ms;
    if (a.clipped) max_ms = top_ms;
    a.y_step = nice_step(max_ms > 0 ? max_ms : 1, 6);
    a.y_max = std::ceil((max_ms > 0 ? max_ms * 1.05 : 1) / a.y_step) * a.y_step;
    return a;
}

void set_tile_ticks(const TileAxes& a, km::data* view) {
    km::data xt{km::data::type::list};
    for (double k = a.lo; k <= a.hi + 1e-9; ++k) {
        km::data t;
        t.set("x", fixed(a.x(std::pow(10.0, k)), 1));
        t.set("label", si_count(std::pow(10.0, k)));
        t.set("label_y", fixed(a.bottom + 18, 1));
        xt.push_back(t);
    }
    view->set("x_ticks", xt);
    km::data yt{km::data::type::list};
    for (double v = 0; v <= a.y_max + a.y_step * 1e-6; v += a.y_step) {
        km::data t;
        t.set("y", fixed(a.y(v), 1));
        t.set("label", a.ms(v));
        t.set("label_x", fixed(a.left - 8, 1));
        t.set("label_y", fixed(a.y(v) + 4, 1));
        yt.push_back(t);
    }
    view->set("y_ticks", yt);
}

void set_style(const SchemeStyle& st, km::data* d) {
    d->set("color", st.color);
    d->set("width", fixed(st.width, 1));
    d->set("opacity", fixed(st.opacity, 2));
    d->set("dash", *st.dash ? km::data(std::string(st.dash)) : km::data(false));
    d->set("marker", *st.marker ? km::data(std::string(st.marker)) : km::data(false));
}

// `line` in runs cut where it leaves the top by more than a little: a point
// of a huge time (millions of pixels up) makes renderers draw a wide line
// wrongly even where it is clipped.
std::vector<Polyline> below(const Polyline& line, double ceiling) {
    std::vector<Polyline> runs(1);
    for (std::size_t i = 0; i < line.size(); ++i) {
        const bool in = line[i].second >= ceiling;
        if (i > 0 && in != (line[i - 1].second >= ceiling)) {
            const Point& a = line[i - 1];
            const Point& b = line[i];
            const double t = (ceiling - a.second) / (b.second - a.second);
            runs.back().push_back({a.first + t * (b.first - a.first), ceiling});
            if (!in) runs.emplace_back();
        }
        if (in) runs.back().push_back(line[i]);
    }
    runs.erase(std::remove_if(runs.begin(), runs.end(), [](const Polyline& r) { return r.empty(); }), runs.end());
    return runs;
}

// One curve: its line (in runs) and a marker per point on the chart. Adds the line to `ink`.
km::data curve_view(const advisor::SchemeCurve& c, const TileAxes& a, std::vector<Polyline>* ink) {
    km::data s;
    set_style(style_of(c.scheme), &s);
    s.set("scheme", scheme_label(c));
    auto points = c.points;
    std::sort(points.begin(), points.end(),
              [](const auto& p, const auto& q) { return elements(p.tile) < elements(q.tile); });
    km::data markers{km::data::type::list};
    Polyline line;
    for (const auto& p : points) {
        const double x = a.x(static_cast<double>(elements(p.tile))), y = a.y(p.total_ms);
        line.push_back({x, y});
        if (y < a.top - 10) continue;
        km::data q;
        q.set("x", fixed(x, 1));
        q.set("y", fixed(y, 1));
        q.set("tile", advisor::format_tile(p.tile, 3));
        q.set("ms", fixed(p.total_ms, 3));
        markers.push_back(q);
    }
    km::data runs{km::data::type::list};
    for (const auto& run : below(line, a.top - 20)) {
        std::string pts;
        for (const auto& [x, y] : run) pts += fixed(x, 1) + "," + fixed(y, 1) + " ";
        km::data r;
        r.set("points", pts);
        runs.push_back(r);
        ink->push_back(run);
    }
    s.set("runs", runs);
    s.set("points", markers);
    return s;
}

// The legend's rows, in the plan's order; a curve wholly above the axis'
// top is in it all the same, saying so.
std::vector<std::pair<std::string, SchemeStyle>> legend_rows(const advisor::Plan& plan, const TileAxes& a) {
    std::vector<std::pair<std::string, SchemeStyle>> rows;
    for (const auto& c : plan.curves) {
        if (c.points.empty()) continue;
        const bool above =
            std::all_of(c.points.begin(), c.points.end(), [&](const auto& p) { return p.total_ms > a.y_max; });
        rows.push_back({scheme_label(c) + (above ? ", above " + a.ms(a.y_max) + " ms" : ""), style_of(c.scheme)});
    }
    if (plan.naive_fits) rows.push_back({"naive", style_of(advisor::Scheme::Naive)});
    return rows;
}

// Sentences naming the curves that lie on each other.
std::vector<std::string> coincidences(const advisor::Plan& plan) {
    std::vector<std::string> out;
    std::vector<bool> told(plan.curves.size(), false);
    for (std::size_t i = 0; i < plan.curves.size(); ++i) {
        if (plan.curves[i].points.empty() || told[i]) continue;
        std::vector<std::string> same = {advisor::to_string(plan.curves[i].scheme)};
        for (std::size_t j = i + 1; j < plan.curves.size(); ++j)
            if (!told[j] && coincide(plan.curves[i], plan.curves[j])) {
                same.push_back(advisor::to_string(plan.curves[j].scheme));
                told[j] = true;
            }
        if (same.size() > 1)
            out.push_back(and_list(same) + " predict the same time at every tile size: their curves lie on each other.");
    }
    return out;
}

// The legend right of the plot: a sample of each line with its marker, then
// the coincidences, wrapped to `caption_w`.
void set_legend(const std::vector<std::pair<std::string, SchemeStyle>>& rows, const std::vector<std::string>& notes,
                double x, double y, double caption_w, km::data* view) {
    km::data legend{km::data::type::list};
    for (const auto& [label, st] : rows) {
        km::data l;
        l.set("x1", fixed(x, 1));
        l.set("x2", fixed(x + 34, 1));
        l.set("marker_x", fixed(x + 17, 1));
        l.set("y", fixed(y, 1));
        l.set("text_x", fixed(x + 42, 1));
        l.set("text_y", fixed(y + 4, 1));
        l.set("label", label);
        set_style(st, &l);
        legend.push_back(l);
        y += 22;
    }
    view->set("legend", legend);
    std::vector<std::string> caption;
    for (const auto& c : notes)
        for (const auto& line : wrap(c, caption_w, 11)) caption.push_back(line);
    view->set("caption", text_lines(caption, x, y + 8, 15));
}

// Where the chosen label goes: among spots around (x, y) inside the plot,
// the one with the fewest curve pixels under it, near the point; beside it
// rather than centred over it.
Box label_spot(double x, double y, double w, double h, const TileAxes& a, const std::vector<Polyline>& ink) {
    Box best{std::max(a.left + 4, std::min(x + 12, a.right - 2 - w)), a.top + 4, 0, a.top + 4 + h};
    double best_score = 1e300;
    for (double dy : {-30.0, 14.0, -50.0, 34.0, -70.0, 54.0, -95.0, 80.0, -125.0, 110.0, -160.0, 145.0})
        for (double dx : {12.0, -12.0 - w, -w / 2}) {
            const Box b{x + dx, y + dy - h / 2, x + dx + w, y + dy + h / 2};
            if (b.x0 < a.left + 4 || b.x1 > a.right - 2 || b.y0 < a.top + 2 || b.y1 > a.bottom - 2) continue;
            if (Box{b.x0 - 8, b.y0 - 8, b.x1 + 8, b.y1 + 8}.contains(x, y)) continue;  // on its own point
            const double score = ink_inside(b, ink) * 10 + std::fabs(dy) * 0.3 + (dx == -w / 2 ? 4 : 0);
            if (score < best_score) {
                best_score = score;
                best = b;
            }
        }
    best.x1 = best.x0 + w;
    return best;
}

// The chosen plan's point, and its label on a white box where no curve
// crosses it, with a leader to the point when it is away from it.
km::data chosen_view(const advisor::Plan& plan, const TileAxes& a, const std::vector<Polyline>& ink) {
    const auto& best = plan.ranked[0];
    const bool naive_best = !scheme_traits(best.config.scheme).pipelined;
    const double x = naive_best ? a.right : a.x(static_cast<double>(elements(best.config.tile)));
    const double y = a.y(best.total_ms);
    km::data ch;
    ch.set("x", fixed(x, 1));
    ch.set("y", fixed(y, 1));
    const std::string label = std::string("chosen: ") + advisor::to_string(best.config.scheme) + " " +
                              advisor::format_tile(best.config.tile, best.problem.dims) + ", " +
                              fixed(best.total_ms, 2) + " ms";
    ch.set("label", label);
    const double w = text_width(label, 12, true) + 10, h = 19;
    const Box box = label_spot(x, y, w, h, a, ink);
    ch.set("box_x", fixed(box.x0, 1));
    ch.set("box_y", fixed(box.y0, 1));
    ch.set("box_w", fixed(w, 1));
    ch.set("box_h", fixed(h, 1));
    ch.set("label_x", fixed(box.x0 + 5, 1));
    ch.set("label_y", fixed(box.y0 + h / 2 + 4.5, 1));
    // The leader: from the marker's ring to the nearest point of the box.
    const double nx = std::clamp(x, box.x0, box.x1), ny = std::clamp(y, box.y0, box.y1);
    const double dist = std::hypot(nx - x, ny - y);
    km::data leader{false};
    if (dist > 12) {
        leader = km::data{};
        leader.set("x1", fixed(x + (nx - x) / dist * 8, 1));
        leader.set("y1", fixed(y + (ny - y) / dist * 8, 1));
        leader.set("x2", fixed(nx, 1));
        leader.set("y2", fixed(ny, 1));
    }
    ch.set("leader", leader);
    return ch;
}

}  // namespace

std::string render_tile_chart(const TemplateStore& templates, const advisor::Plan& plan, const std::string& title) {
    const TileAxes a = tile_axes(plan);
    // The legend sits right of the plot; the canvas is as wide as its longest label.
    const auto rows = legend_rows(plan, a);
    const auto notes = coincidences(plan);
    const double legend_x = a.right + 20;
    double legend_w = 0;
    for (const auto& row : rows) legend_w = std::max(legend_w, text_width(row.first, 12, false));
    const double caption_w = std::max(legend_w + 42, 190.0);
    const int width = static_cast<int>(std::ceil(std::max(780.0, legend_x + std::max(42 + legend_w, caption_w) + 16)));
    const int height = 430;

    km::data view;
    view.set("width", std::to_string(width));
    view.set("height", std::to_string(height));
    view.set("title", title);
    view.set("title_x", fixed(width / 2.0, 0));
    view.set("plot_left", fixed(a.left, 1));
    view.set("plot_right", fixed(a.right, 1));
    view.set("plot_top", fixed(a.top, 1));
    view.set("plot_bottom", fixed(a.bottom, 1));
    view.set("plot_width", fixed(a.right - a.left, 1));
    view.set("plot_height", fixed(a.bottom - a.top, 1));
    view.set("x_title", "tile size (elements per tile, log scale)");
    view.set("x_title_x", fixed((a.left + a.right) / 2, 1));
    view.set("x_title_y", fixed(a.bottom + 40, 1));
    view.set("y_title", "predicted run time (ms)");
    view.set("y_title_y", fixed((a.top + a.bottom) / 2, 1));
    set_tile_ticks(a, &view);
    km::data note{false};
    if (a.clipped) {
        const std::string text = "curves above " + a.ms(a.y_max) + " ms leave the chart";
        note = km::data{};
        note.set("text", text);
        note.set("x", fixed(a.right, 1));
        note.set("y", fixed(a.top - 6, 1));
    }
    view.set("clip_note", note);
    km::data naive;
    naive.set("y", fixed(a.y(plan.naive.total_ms), 1));
    view.set("naive", plan.naive_fits ? naive : km::data(false));

    // The curves in the order drawn: widest line first, so that narrower
    // ones lying on it are drawn over it and both show.
    std::vector<const advisor::SchemeCurve*> curves;
    for (const auto& c : plan.curves)
        if (!c.points.empty()) curves.push_back(&c);
    std::stable_sort(curves.begin(), curves.end(),
                     [](const auto* p, const auto* q) { return style_of(p->scheme).width > style_of(q->scheme).width; });
    km::data series{km::data::type::list};
    std::vector<Polyline> ink;  // the curves in pixels, for placing the label
    for (const auto* c : curves) series.push_back(curve_view(*c, a, &ink));
    view.set("series", series);
    set_legend(rows, notes, legend_x, a.top + 10, caption_w, &view);
    if (plan.naive_fits) ink.push_back({{a.left, a.y(plan.naive.total_ms)}, {a.right, a.y(plan.naive.total_ms)}});
    if (!plan.ranked.empty()) view.set("chosen", chosen_view(plan, a, ink));
    return templates.render("tile_chart.svg", view, Escape::Xml);
}

namespace {

// The time axis of the pipeline chart: linear, but for a break of fixed
// width that stands for the steps not drawn.
struct TimeAxis {
    double left = 0, right = 0;  // pixels
    double t0 = 0, t1 = 0;       // ms at left and right
    double break_from = 0, break_to = 0;  // ms; equal: no break
    double break_px = 0;
    double scale() const { return (right - left - break_px) / std::max(1e-12, (t1 - t0) - (break_to - break_from)); }
    double x(double ms) const {
        if (break_px > 0 && ms > break_from) {
            const double gap = left + (break_from - t0) * scale();
            if (ms < break_to) return gap + (ms - break_from) / (break_to - break_from) * break_px;  // inside the cut
            return gap + break_px + (ms - break_to) * scale();
        }
        return left + (ms - t0) * scale();
    }
    double cut_x0() const { return break_px > 0 ? x(break_from) : 1e300; }  // the break's pixels
    double cut_x1() const { return cut_x0() + break_px; }
};

// The events of a timeline sorted out: the bars, the break and the total marks.
struct Marks {
    std::vector<advisor::TimelineEvent> bars;
    const advisor::TimelineEvent* brk = nullptr;
    const advisor::TimelineEvent* total = nullptr;
    std::int64_t steps = 0;  // a time loop's steps (0: none)
};

Marks marks_of(const std::vector<advisor::TimelineEvent>& events) {
    Marks m;
    for (const auto& e : events) {
        if (e.engine == "break") m.brk = &e;
        else if (e.engine == "total") m.total = &e;
        else m.bars.push_back(e);
        m.steps = std::max(m.steps, e.step);
    }
    return m;
}

// Events of no tile (tile < 0: allocation and registration before the
// pipeline, unregistration after) get a lane of their own.
std::string lane_of(const advisor::TimelineEvent& e) { return e.tile < 0 ? std::string("setup") : e.engine; }

// The lanes in pipeline order, only the engines that appear: key and label.
std::vector<std::pair<std::string, std::string>> lanes_of(const std::vector<advisor::TimelineEvent>& bars) {
    static const std::vector<std::pair<std::string, std::string>> kLanes = {{"setup", "setup, teardown"},
                                                                           {"host", "host staging"},
                                                                           {"H2D", "copy in (H2D)"},
                                                                           {"kernel", "kernel"},
                                                                           {"D2H", "copy out (D2H)"}};
    std::vector<std::pair<std::string, std::string>> lanes;
    for (const auto& l : kLanes)
        if (std::any_of(bars.begin(), bars.end(), [&](const auto& e) { return lane_of(e) == l.first; })) lanes.push_back(l);
    for (const auto& e : bars)
        if (std::none_of(lanes.begin(), lanes.end(), [&](const auto& l) { return l.first == lane_of(e); }))
            lanes.push_back({e.engine, e.engine});
    return lanes;
}

// What the chart shows, in words under the title: what is drawn, what the
// break stands for, why the bars miss the total where they do.
std::vector<std::string> subtitle_of(const Marks& m, std::int64_t total_tiles, double width) {
    std::string summary = std::to_string(total_tiles) + (total_tiles == 1 ? " tile" : " tiles");
    if (m.steps > 1) summary += ", " + std::to_string(m.steps) + " time steps";
    summary += m.steps > 1 && m.brk ? ": time steps 1 and " + std::to_string(m.steps) + " drawn"
               : m.brk              ? ": the pipeline's first and last steps drawn"
                                    : ": every step of the pipeline drawn";
    summary += ", with the typical tile's times; numbers are tile indices";
    std::vector<std::string> lines = wrap(summary, width, 12);
    if (m.brk)
        for (const auto& l : wrap("The break stands for " + m.brk->note + ".", width, 12)) lines.push_back(l);
    if (m.total && !m.total->note.empty())
        for (const auto& l : wrap("The red line marks the predicted total: " + m.total->note + ".", width, 12))
            lines.push_back(l);
    return lines;
}

// From the first event to the total (or the last bar), cut at the break.
TimeAxis time_axis(const Marks& m, double left, double right) {
    TimeAxis axis;
    axis.left = left;
    axis.right = right;
    for (const auto& e : m.bars) {
        axis.t0 = std::min(axis.t0, e.start_ms);
        axis.t1 = std::max(axis.t1, e.end_ms);
    }
    if (m.total) axis.t1 = std::max(axis.t1, m.total->end_ms);
    if (axis.t1 <= axis.t0) axis.t1 = axis.t0 + 1e-3;
    if (m.brk && m.brk->end_ms > m.brk->start_ms - 1e-12) {
        axis.break_from = m.brk->start_ms;
        axis.break_to = m.brk->end_ms;
        axis.break_px = 64;
    }
    return axis;
}

// Ticks on both sides of the break, none too close to it; the axis line in
// pieces around it.
void set_time_ticks(const TimeAxis& axis, double bottom, km::data* view) {
    const double step = nice_step((axis.t1 - axis.t0) - (axis.break_to - axis.break_from), 12);
    km::data ticks{km::data::type::list};
    for (double v = std::ceil(axis.t0 / step - 1e-9) * step; v <= axis.t1 + step * 1e-6; v += step) {
        const double x = axis.x(v);
        if (axis.break_px > 0 && ((v > axis.break_from && v < axis.break_to) ||
                                  (x > axis.cut_x0() - 18 && x < axis.cut_x1() + 18)))
            continue;
        km::data t;
        t.set("x", fixed(x, 1));
        t.set("label", ms_label(v, step));
        t.set("label_y", fixed(bottom + 18, 1));
        ticks.push_back(t);
    }
    view->set("x_ticks", ticks);
    km::data pieces{km::data::type::list};
    auto piece = [&](double x0, double x1) {
        km::data a;
        a.set("x1", fixed(x0, 1));
        a.set("x2", fixed(x1, 1));
        pieces.push_back(a);
    };
    if (axis.break_px > 0) {
        piece(axis.left, axis.cut_x0());
        piece(axis.cut_x1(), axis.right);
    } else {
        piece(axis.left, axis.right);
    }
    view->set("axis", pieces);
}

// A bar's tile index: inside a bar wide enough for it, else above it where
// it meets no other label of the lane (`*free_from`: where the last one
// ends) and no break; false where there is no room (the tooltip has it).
km::data bar_label(const advisor::TimelineEvent& e, double x0, double w, double y, double bar_h, const TimeAxis& axis,
                   double* free_from) {
    if (e.tile < 0) return km::data(false);
    const std::string text = std::to_string(e.tile);
    km::data l;
    l.set("text", text);
    const double mid = x0 + w / 2;
    if (w >= text_width(text, 10, false) + 1.5) {
        l.set("x", fixed(mid, 1));
        l.set("y", fixed(y + bar_h / 2 + 4, 1));
        l.set("inside", true);
        return l;
    }
    // Above the bar, centred; beside a break's edge, moved off the break.
    const double half = text_width(text, 9, false) / 2;
    double at = mid;
    if (at + half > axis.cut_x0() && at - half < axis.cut_x1())
        at = mid > axis.cut_x1() ? axis.cut_x1() + half + 1 : axis.cut_x0() - half - 1;
    if (at - half < *free_from + 1) return km::data(false);
    *free_from = at + half;
    l.set("x", fixed(at, 1));
    l.set("y", fixed(y - 3, 1));
    l.set("inside", false);
    return l;
}

// The bars, at least 3 px wide so that a short kernel shows, each with its
// lane's colour, a tooltip and its tile index where there is room.
km::data bar_views(const std::vector<advisor::TimelineEvent>& bars, const TimeAxis& axis,
                   const std::vector<std::pair<std::string, std::string>>& lanes,
                   const std::map<std::string, double>& lane_y) {
    static const std::map<std::string, std::string> kColors = {
        {"setup", "#9a9a9a"}, {"host", "#8c564b"}, {"H2D", "#1f77b4"}, {"kernel", "#2ca02c"}, {"D2H", "#ff7f0e"}};
    const double kMinBar = 3, bar_h = 22, bar_top = 13;
    std::map<std::string, double> label_end;  // per lane: where the last label above a bar ends
    km::data list{km::data::type::list};
    for (const auto& e : bars) {
        const double x0 = axis.x(e.start_ms), w = std::max(kMinBar, axis.x(e.end_ms) - x0);
        const std::string key = lane_of(e);
        const double y = lane_y.at(key) + bar_top;
        km::data b;
        b.set("x", fixed(x0, 2));
        b.set("y", fixed(y, 1));
        b.set("w", fixed(w, 2));
        b.set("h", fixed(bar_h, 1));
        const auto color = kColors.find(key);
        b.set("color", color != kColors.end() ? color->second : "#7f7f7f");
        b.set("lane", std::find_if(lanes.begin(), lanes.end(), [&](const auto& l) { return l.first == key; })->second);
        b.set("tile", e.tile < 0 ? km::data(false) : km::data("tile " + std::to_string(e.tile)));
        b.set("step", e.step > 0 ? km::data("step " + std::to_string(e.step)) : km::data(false));
        b.set("start", fixed(e.start_ms, 3));
        b.set("end", fixed(e.end_ms, 3));
        b.set("label", bar_label(e, x0, w, y, bar_h, axis, &label_end.try_emplace(key, -1e300).first->second));
        list.push_back(b);
    }
    return list;
}

// The break: a band across the lanes with a zigzag down each edge (the time
// axis is cut here), "not drawn" in it and the time it holds under it.
km::data break_view(const TimeAxis& axis, const advisor::TimelineEvent& brk, double top, double bottom) {
    km::data b;
    const double x = axis.cut_x0();
    b.set("x", fixed(x, 1));
    b.set("w", fixed(axis.break_px, 1));
    b.set("mid_x", fixed(x + axis.break_px / 2, 1));
    b.set("top", fixed(top, 1));
    b.set("height", fixed(bottom - top, 1));
    b.set("label_y", fixed(bottom + 18, 1));
    b.set("label_y2", fixed(top + 14, 1));
    b.set("ms", fixed(axis.break_to - axis.break_from, 3));
    b.set("from", fixed(axis.break_from, 3));
    b.set("to", fixed(axis.break_to, 3));
    b.set("note", brk.note);
    auto zigzag = [&](double zx) {
        std::string pts;
        int k = 0;
        for (double zy = top; zy <= bottom + 8 + 1e-9; zy += 6, ++k)
            pts += fixed(zx + (k % 2 ? 3 : -3), 1) + "," + fixed(zy, 1) + " ";
        return pts;
    };
    b.set("zigzag_left", zigzag(x + 3));
    b.set("zigzag_right", zigzag(x + axis.break_px - 3));
    return b;
}

// The predicted total: a red line across the lanes, labelled above them.
km::data total_view(const TimeAxis& axis, const advisor::TimelineEvent& total, double top, double bottom, double width) {
    km::data m;
    const double x = axis.x(total.end_ms);
    const std::string text = "predicted total " + fixed(total.end_ms, 3) + " ms";
    m.set("x", fixed(x, 1));
    m.set("top", fixed(top - 6, 1));
    m.set("bottom", fixed(bottom, 1));
    m.set("label", text);
    // Right-aligned at the mark unless that runs off the left.
    const bool end_anchor = x - text_width(text, 11, true) > 4;
    m.set("anchor", end_anchor ? "end" : "start");
    m.set("label_x", fixed(end_anchor ? std::min(x + 4, width - 4) : x, 1));
    m.set("label_y", fixed(top - 10, 1));
    return m;
}

}  // namespace

std::string render_timeline_chart(const TemplateStore& templates, const std::vector<advisor::TimelineEvent>& events,
                                  std::int64_t total_tiles, const std::string& title) {
    const int width = 780;
    const Marks m = marks_of(events);
    const auto lanes = lanes_of(m.bars);
    const std::vector<std::string> subtitle = subtitle_of(m, total_tiles, width - 60);
    const double lane_h = 40, left = 130, right = width - 30.0;
    const double top = 40 + 15.0 * static_cast<double>(subtitle.size()) + 24;  // room for the marks' labels above the lanes
    const double bottom = top + lane_h * static_cast<double>(std::max<std::size_t>(1, lanes.size()));
    const TimeAxis axis = time_axis(m, left, right);

    km::data view;
    view.set("width", std::to_string(width));
    view.set("height", std::to_string(static_cast<int>(bottom + 60)));
    view.set("title", title);
    view.set("subtitle", text_lines(subtitle, width / 2.0, 40, 15));
    view.set("title_x", fixed(width / 2.0, 0));
    view.set("plot_left", fixed(left, 1));
    view.set("plot_right", fixed(right, 1));
    view.set("plot_top", fixed(top, 1));
    view.set("plot_bottom", fixed(bottom, 1));
    view.set("x_title", "time (ms)");
    view.set("x_title_x", fixed((left + right) / 2, 1));
    view.set("x_title_y", fixed(bottom + 40, 1));
    set_time_ticks(axis, bottom, &view);
    km::data lane_list{km::data::type::list};
    std::map<std::string, double> lane_y;
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        const double y = top + lane_h * static_cast<double>(i);
        lane_y[lanes[i].first] = y;
        km::data l;
        l.set("label", lanes[i].second);
        l.set("label_x", fixed(left - 10, 1));
        l.set("label_y", fixed(y + lane_h / 2 + 4, 1));
        l.set("base_y", fixed(y + lane_h, 1));
        lane_list.push_back(l);
    }
    view.set("lanes", lane_list);
    view.set("bars", bar_views(m.bars, axis, lanes, lane_y));
    view.set("break", axis.break_px > 0 ? break_view(axis, *m.brk, top, bottom) : km::data(false));
    view.set("total", m.total ? total_view(axis, *m.total, top, bottom, width) : km::data(false));
    return templates.render("timeline_chart.svg", view, Escape::Xml);
}

}  // namespace recipe::recipes
