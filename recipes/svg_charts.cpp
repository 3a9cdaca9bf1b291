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
        if (std::fabs(p.total_ms - q.total_ms) > 1e-3 * std::max(std::fabs(p.total_ms), std::fabs(q.total_ms)) + 1e-9) return false;
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

struct Frame {
    double left = 70, right = 560, top = 50, bottom = 360;
};

}  // namespace

std::string render_tile_chart(const TemplateStore& templates, const advisor::Plan& plan, const std::string& title) {
    const int height = 430;
    Frame f;
    // Without a naive port (it does not fit in the device memory) the best plan sets the scale.
    const double naive_ms = plan.naive_fits ? plan.naive.total_ms : (plan.ranked.empty() ? 1.0 : plan.ranked[0].total_ms);
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
    double lo = std::floor(std::log10(min_e)), hi = std::ceil(std::log10(max_e));
    if (hi <= lo) hi = lo + 1;
    // A scheme far slower than naive would squash the interesting part (the
    // curves near the best and naive) into the bottom: the axis stops at 2.5x
    // naive and what lies above is clipped (a note says so).
    const double top_ms = std::max(naive_ms, plan.ranked.empty() ? 0.0 : plan.ranked[0].total_ms) * 2.5;
    const bool clipped = top_ms > 0 && max_ms > top_ms;
    if (clipped) max_ms = top_ms;
    const double y_step = nice_step(max_ms > 0 ? max_ms : 1, 6);
    const double y_max = std::ceil((max_ms > 0 ? max_ms * 1.05 : 1) / y_step) * y_step;
    auto px = [&](double e) { return f.left + (std::log10(e) - lo) / (hi - lo) * (f.right - f.left); };
    auto py = [&](double ms) { return f.bottom - ms / y_max * (f.bottom - f.top); };

    // The curves in the order drawn: widest line first, so that narrower
    // ones lying on it are drawn over it and both show.
    std::vector<const advisor::SchemeCurve*> curves;
    for (const auto& c : plan.curves)
        if (!c.points.empty()) curves.push_back(&c);
    std::stable_sort(curves.begin(), curves.end(),
                     [](const auto* a, const auto* b) { return style_of(a->scheme).width > style_of(b->scheme).width; });

    // The legend sits right of the plot, in the plan's order; the canvas is
    // as wide as its longest label. A curve wholly above the axis' top is
    // in it all the same, saying so.
    std::vector<std::pair<std::string, SchemeStyle>> legend_rows;
    for (const auto& c : plan.curves) {
        if (c.points.empty()) continue;
        const bool above = std::all_of(c.points.begin(), c.points.end(), [&](const auto& p) { return p.total_ms > y_max; });
        legend_rows.push_back({scheme_label(c) + (above ? ", above " + ms_label(y_max, y_step) + " ms" : ""), style_of(c.scheme)});
    }
    if (plan.naive_fits) legend_rows.push_back({"naive", style_of(advisor::Scheme::Naive)});
    const double legend_x = f.right + 20, legend_text_x = legend_x + 42;
    double legend_w = 0;
    for (const auto& row : legend_rows) legend_w = std::max(legend_w, text_width(row.first, 12, false));
    // Curves that coincide are said to, under the legend.
    std::vector<std::string> coincidences;
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
            coincidences.push_back(and_list(same) + " predict the same time at every tile size: their curves lie on each other.");
    }
    const double caption_w = std::max(legend_w + 42, 190.0);
    const int width = static_cast<int>(std::ceil(std::max(780.0, std::max(legend_text_x + legend_w, legend_x + caption_w) + 16)));

    km::data view;
    view.set("width", std::to_string(width));
    view.set("height", std::to_string(height));
    view.set("title", title);
    view.set("title_x", fixed(width / 2.0, 0));
    view.set("plot_left", fixed(f.left, 1));
    view.set("plot_right", fixed(f.right, 1));
    view.set("plot_top", fixed(f.top, 1));
    view.set("plot_bottom", fixed(f.bottom, 1));
    view.set("x_title", "tile size (elements per tile, log scale)");
    view.set("x_title_x", fixed((f.left + f.right) / 2, 1));
    view.set("x_title_y", fixed(f.bottom + 40, 1));
    view.set("y_title", "predicted run time (ms)");
    view.set("y_title_y", fixed((f.top + f.bottom) / 2, 1));
    view.set("plot_width", fixed(f.right - f.left, 1));
    view.set("plot_height", fixed(f.bottom - f.top, 1));
    Box clip_note_box{0, 0, 0, 0};
    if (clipped) {
        km::data note;
        const std::string text = "curves above " + ms_label(y_max, y_step) + " ms leave the chart";
        note.set("text", text);
        note.set("x", fixed(f.right, 1));
        note.set("y", fixed(f.top - 6, 1));
        view.set("clip_note", note);
        clip_note_box = {f.right - text_width(text, 11, false), f.top - 18, f.right, f.top - 2};
    } else {
        view.set("clip_note", false);
    }

    km::data xt{km::data::type::list};
    for (double k = lo; k <= hi + 1e-9; ++k) {
        km::data t;
        t.set("x", fixed(px(std::pow(10.0, k)), 1));
        t.set("label", si_count(std::pow(10.0, k)));
        t.set("label_y", fixed(f.bottom + 18, 1));
        xt.push_back(t);
    }
    view.set("x_ticks", xt);
    km::data yt{km::data::type::list};
    for (double v = 0; v <= y_max + y_step * 1e-6; v += y_step) {
        km::data t;
        t.set("y", fixed(py(v), 1));
        t.set("label", ms_label(v, y_step));
        t.set("label_x", fixed(f.left - 8, 1));
        t.set("label_y", fixed(py(v) + 4, 1));
        yt.push_back(t);
    }
    view.set("y_ticks", yt);

    km::data naive;
    naive.set("y", fixed(py(plan.naive.total_ms), 1));
    view.set("naive", plan.naive_fits ? naive : km::data(false));

    km::data series{km::data::type::list}, legend{km::data::type::list};
    std::vector<std::vector<std::pair<double, double>>> ink;  // the curves in pixels, for placing the label
    double ly = f.top + 10;
    for (const auto* c : curves) {
        const SchemeStyle st = style_of(c->scheme);
        km::data s;
        s.set("color", st.color);
        s.set("width", fixed(st.width, 1));
        s.set("opacity", fixed(st.opacity, 2));
        s.set("dash", *st.dash ? km::data(std::string(st.dash)) : km::data(false));
        s.set("marker", st.marker);
        s.set("scheme", scheme_label(*c));
        auto points = c->points;
        std::sort(points.begin(), points.end(), [](const auto& a, const auto& b) { return elements(a.tile) < elements(b.tile); });
        // Markers for the points on the chart; the line in runs cut where
        // it leaves the top (a point of a huge time, millions of pixels up,
        // makes renderers draw a wide line wrongly even when clipped).
        km::data markers{km::data::type::list};
        std::vector<std::pair<double, double>> line;
        for (const auto& p : points) {
            const double x = px(static_cast<double>(elements(p.tile))), y = py(p.total_ms);
            line.push_back({x, y});
            if (y < f.top - 10) continue;
            km::data q;
            q.set("x", fixed(x, 1));
            q.set("y", fixed(y, 1));
            q.set("tile", advisor::format_tile(p.tile, 3));
            q.set("ms", fixed(p.total_ms, 3));
            markers.push_back(q);
        }
        const double ceiling = f.top - 20;
        std::vector<std::vector<std::pair<double, double>>> runs(1);
        auto cross = [&](std::pair<double, double> a, std::pair<double, double> b) {
            const double t = (ceiling - a.second) / (b.second - a.second);
            return std::pair<double, double>{a.first + t * (b.first - a.first), ceiling};
        };
        for (std::size_t i = 0; i < line.size(); ++i) {
            const bool in = line[i].second >= ceiling;
            if (i > 0 && in != (line[i - 1].second >= ceiling)) {
                runs.back().push_back(cross(line[i - 1], line[i]));
                if (!in) runs.emplace_back();
            }
            if (in) runs.back().push_back(line[i]);
        }
        km::data run_list{km::data::type::list};
        for (const auto& run : runs) {
            if (run.empty()) continue;
            std::string pts;
            for (const auto& [x, y] : run) pts += fixed(x, 1) + "," + fixed(y, 1) + " ";
            km::data r;
            r.set("points", pts);
            run_list.push_back(r);
            ink.push_back(run);
        }
        s.set("runs", run_list);
        s.set("points", markers);
        series.push_back(s);
    }
    // The legend lists the schemes in the plan's order.
    for (const auto& [label, st] : legend_rows) {
        km::data l;
        l.set("x1", fixed(legend_x, 1));
        l.set("x2", fixed(legend_x + 34, 1));
        l.set("marker_x", fixed(legend_x + 17, 1));
        l.set("y", fixed(ly, 1));
        l.set("text_x", fixed(legend_text_x, 1));
        l.set("text_y", fixed(ly + 4, 1));
        l.set("label", label);
        l.set("color", st.color);
        l.set("width", fixed(st.width, 1));
        l.set("opacity", fixed(st.opacity, 2));
        l.set("dash", *st.dash ? km::data(std::string(st.dash)) : km::data(false));
        l.set("marker", *st.marker ? km::data(std::string(st.marker)) : km::data(false));
        legend.push_back(l);
        ly += 22;
    }
    view.set("series", series);
    view.set("legend", legend);
    std::vector<std::string> caption;
    for (const auto& c : coincidences)
        for (const auto& line : wrap(c, caption_w, 11)) caption.push_back(line);
    view.set("caption", text_lines(caption, legend_x, ly + 8, 15));
    if (plan.naive_fits) ink.push_back({{f.left, py(plan.naive.total_ms)}, {f.right, py(plan.naive.total_ms)}});

    if (!plan.ranked.empty()) {
        const auto& best = plan.ranked[0];
        const bool naive_best = !scheme_traits(best.config.scheme).pipelined;
        const double x = naive_best ? f.right : px(static_cast<double>(elements(best.config.tile)));
        const double y = py(best.total_ms);
        km::data ch;
        ch.set("x", fixed(x, 1));
        ch.set("y", fixed(y, 1));
        const std::string label = std::string("chosen: ") + advisor::to_string(best.config.scheme) + " " +
                                  advisor::format_tile(best.config.tile, best.problem.dims) + ", " + fixed(best.total_ms, 2) + " ms";
        ch.set("label", label);
        // The label goes where the fewest curve pixels would lie under it,
        // near the point, inside the plot; a white box keeps what remains
        // from crossing it, and a leader joins it to the point when it is away.
        const double w = text_width(label, 12, true) + 10, h = 19;
        Box best_box{};
        double best_score = 1e300;
        for (double dy : {-30.0, 14.0, -50.0, 34.0, -70.0, 54.0, -95.0, 80.0, -125.0, 110.0, -160.0, 145.0})
            for (double dx : {12.0, -12.0 - w, -w / 2}) {
                Box b{x + dx, y + dy - h / 2, x + dx + w, y + dy + h / 2};
                if (b.x0 < f.left + 4 || b.x1 > f.right - 2 || b.y0 < f.top + 2 || b.y1 > f.bottom - 2) continue;
                if (Box{b.x0 - 8, b.y0 - 8, b.x1 + 8, b.y1 + 8}.contains(x, y)) continue;  // on its own point
                const bool on_note = clipped && !(b.x1 < clip_note_box.x0 || b.y0 > clip_note_box.y1);
                const double score = ink_inside(b, ink) * 10 + std::fabs(dy) * 0.3 + (dx == -w / 2 ? 4 : 0) + (on_note ? 1e6 : 0);
                if (score < best_score) {
                    best_score = score;
                    best_box = b;
                }
            }
        if (best_score >= 1e300) best_box = {std::max(f.left + 4, std::min(x + 12, f.right - 2 - w)), f.top + 4, 0, f.top + 4 + h};
        best_box.x1 = best_box.x0 + w;
        ch.set("box_x", fixed(best_box.x0, 1));
        ch.set("box_y", fixed(best_box.y0, 1));
        ch.set("box_w", fixed(w, 1));
        ch.set("box_h", fixed(h, 1));
        ch.set("label_x", fixed(best_box.x0 + 5, 1));
        ch.set("label_y", fixed(best_box.y0 + h / 2 + 4.5, 1));
        // The leader: from the marker's ring to the nearest point of the box.
        const double nx = std::clamp(x, best_box.x0, best_box.x1), ny = std::clamp(y, best_box.y0, best_box.y1);
        const double dist = std::hypot(nx - x, ny - y);
        if (dist > 12) {
            km::data leader;
            leader.set("x1", fixed(x + (nx - x) / dist * 8, 1));
            leader.set("y1", fixed(y + (ny - y) / dist * 8, 1));
            leader.set("x2", fixed(nx, 1));
            leader.set("y2", fixed(ny, 1));
            ch.set("leader", leader);
        } else {
            ch.set("leader", false);
        }
        view.set("chosen", ch);
    }
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
};

}  // namespace

std::string render_timeline_chart(const TemplateStore& templates, const std::vector<advisor::TimelineEvent>& events,
                                  std::int64_t total_tiles, const std::string& title) {
    const int width = 780;
    // Lanes in pipeline order; only the engines that appear.
    // Events of no tile (tile < 0: allocation and registration before the
    // pipeline, unregistration after) get a lane of their own. A break and
    // the total are marks across the lanes, not bars.
    auto lane_of = [](const advisor::TimelineEvent& e) { return e.tile < 0 ? std::string("setup") : e.engine; };
    static const std::vector<std::pair<std::string, std::string>> kLanes = {
        {"setup", "setup, teardown"}, {"host", "host staging"}, {"H2D", "copy in (H2D)"}, {"kernel", "kernel"}, {"D2H", "copy out (D2H)"}};
    static const std::map<std::string, std::string> kColors = {
        {"setup", "#9a9a9a"}, {"host", "#8c564b"}, {"H2D", "#1f77b4"}, {"kernel", "#2ca02c"}, {"D2H", "#ff7f0e"}};
    std::vector<advisor::TimelineEvent> bars;
    const advisor::TimelineEvent* brk = nullptr;
    const advisor::TimelineEvent* total = nullptr;
    std::int64_t steps = 0;
    for (const auto& e : events) {
        if (e.engine == "break") brk = &e;
        else if (e.engine == "total") total = &e;
        else bars.push_back(e);
        steps = std::max(steps, e.step);
    }
    std::vector<std::pair<std::string, std::string>> lanes;
    for (const auto& l : kLanes)
        if (std::any_of(bars.begin(), bars.end(), [&](const auto& e) { return lane_of(e) == l.first; })) lanes.push_back(l);
    for (const auto& e : bars)
        if (std::none_of(lanes.begin(), lanes.end(), [&](const auto& l) { return l.first == lane_of(e); }))
            lanes.push_back({e.engine, e.engine});

    // What the chart shows, in words under the title.
    std::string summary = std::to_string(total_tiles) + (total_tiles == 1 ? " tile" : " tiles");
    if (steps > 1) summary += ", " + std::to_string(steps) + " time steps";
    summary += steps > 1 && brk ? ": time steps 1 and " + std::to_string(steps) + " drawn"
               : brk            ? ": the pipeline's first and last steps drawn"
                                : ": every step of the pipeline drawn";
    summary += ", with the typical tile's times";
    summary += "; numbers are tile indices";
    std::vector<std::string> subtitle = wrap(summary, width - 60, 12);
    if (brk)
        for (const auto& l : wrap("The break stands for " + brk->note + ".", width - 60, 12)) subtitle.push_back(l);
    if (total && !total->note.empty())
        for (const auto& l : wrap("The red line marks the predicted total: " + total->note + ".", width - 60, 12))
            subtitle.push_back(l);

    const double lane_h = 40, left = 130, right = width - 30.0;
    const double top = 40 + 15.0 * static_cast<double>(subtitle.size()) + 24;  // room for the marks' labels above the lanes
    const double bottom = top + lane_h * static_cast<double>(std::max<std::size_t>(1, lanes.size()));
    const int height = static_cast<int>(bottom + 60);
    double t0 = 0, t1 = 0;
    for (const auto& e : bars) {
        t0 = std::min(t0, e.start_ms);
        t1 = std::max(t1, e.end_ms);
    }
    if (total) t1 = std::max(t1, total->end_ms);
    if (t1 <= t0) t1 = t0 + 1e-3;
    TimeAxis axis;
    axis.left = left;
    axis.right = right;
    axis.t0 = t0;
    axis.t1 = t1;
    if (brk && brk->end_ms > brk->start_ms - 1e-12) {
        axis.break_from = brk->start_ms;
        axis.break_to = brk->end_ms;
        axis.break_px = 64;
    }
    const double shown_ms = (t1 - t0) - (axis.break_to - axis.break_from);
    const double step = nice_step(shown_ms, 12);

    km::data view;
    view.set("width", std::to_string(width));
    view.set("height", std::to_string(height));
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
    // Ticks on both sides of the break, none too close to it or to the end.
    km::data xt{km::data::type::list};
    auto add_tick = [&](double v) {
        const double x = axis.x(v);
        if (axis.break_px > 0 && x > axis.x(axis.break_from) - 18 && x < axis.x(axis.break_from) + axis.break_px + 18) return;
        km::data t;
        t.set("x", fixed(x, 1));
        t.set("label", ms_label(v, step));
        t.set("label_y", fixed(bottom + 18, 1));
        xt.push_back(t);
    };
    for (double v = std::ceil(t0 / step - 1e-9) * step; v <= t1 + step * 1e-6; v += step)
        if (axis.break_px == 0 || v <= axis.break_from || v >= axis.break_to) add_tick(v);
    view.set("x_ticks", xt);
    // The axis line, in two pieces around a break.
    km::data axis_lines{km::data::type::list};
    auto axis_piece = [&](double x0, double x1) {
        km::data a;
        a.set("x1", fixed(x0, 1));
        a.set("x2", fixed(x1, 1));
        axis_lines.push_back(a);
    };
    if (axis.break_px > 0) {
        axis_piece(left, axis.x(axis.break_from));
        axis_piece(axis.x(axis.break_from) + axis.break_px, right);
    } else {
        axis_piece(left, right);
    }
    view.set("axis", axis_lines);

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

    // Bars: at least kMinBar pixels wide, so that a short kernel shows; the
    // tile index inside a bar wide enough for it, else above it where it
    // meets no other label and no break (the tooltip always has it).
    const double kMinBar = 3, bar_h = 22, bar_top = 13;
    const double cut_x0 = axis.break_px > 0 ? axis.x(axis.break_from) : 1e300, cut_x1 = cut_x0 + axis.break_px;
    std::map<std::string, double> label_end;  // per lane: where the last label above a bar ends
    km::data bar_list{km::data::type::list};
    for (const auto& e : bars) {
        const double x0 = axis.x(e.start_ms), x1 = axis.x(e.end_ms);
        const double w = std::max(kMinBar, x1 - x0);
        const std::string lane_key = lane_of(e);
        const double y = lane_y[lane_key] + bar_top;
        km::data b;
        b.set("x", fixed(x0, 2));
        b.set("y", fixed(y, 1));
        b.set("w", fixed(w, 2));
        b.set("h", fixed(bar_h, 1));
        const auto color = kColors.find(lane_key);
        b.set("color", color != kColors.end() ? color->second : "#7f7f7f");
        const auto lane = std::find_if(lanes.begin(), lanes.end(), [&](const auto& l) { return l.first == lane_key; });
        b.set("lane", lane->second);
        b.set("tile", e.tile < 0 ? km::data(false) : km::data("tile " + std::to_string(e.tile)));
        b.set("step", e.step > 0 ? km::data("step " + std::to_string(e.step)) : km::data(false));
        b.set("start", fixed(e.start_ms, 3));
        b.set("end", fixed(e.end_ms, 3));
        km::data label{false};
        if (e.tile >= 0) {
            const std::string text = std::to_string(e.tile);
            km::data l;
            l.set("text", text);
            const double inside_w = text_width(text, 10, false), above_w = text_width(text, 9, false);
            const double mid = x0 + w / 2;
            auto& free_from = label_end.try_emplace(lane_key, -1e300).first->second;
            if (w >= inside_w + 1.5) {
                l.set("x", fixed(mid, 1));
                l.set("y", fixed(y + bar_h / 2 + 4, 1));
                l.set("inside", true);
                label = std::move(l);
            } else {
                // Above the bar, centred; beside a break's edge, moved off the break.
                double at = mid;
                if (at + above_w / 2 > cut_x0 && at - above_w / 2 < cut_x1)
                    at = mid > cut_x1 ? cut_x1 + above_w / 2 + 1 : cut_x0 - above_w / 2 - 1;
                if (at - above_w / 2 >= free_from + 1) {
                    l.set("x", fixed(at, 1));
                    l.set("y", fixed(y - 3, 1));
                    l.set("inside", false);
                    label = std::move(l);
                    free_from = at + above_w / 2;
                }
            }
        }
        b.set("label", label);
        bar_list.push_back(b);
    }
    view.set("bars", bar_list);

    if (axis.break_px > 0) {
        km::data b;
        const double x = axis.x(axis.break_from);
        b.set("x", fixed(x, 1));
        b.set("w", fixed(axis.break_px, 1));
        b.set("x2", fixed(x + axis.break_px, 1));
        b.set("mid_x", fixed(x + axis.break_px / 2, 1));
        b.set("top", fixed(top, 1));
        b.set("bottom", fixed(bottom, 1));
        b.set("height", fixed(bottom - top, 1));
        b.set("label_y", fixed(bottom + 18, 1));
        b.set("label_y2", fixed(top + 14, 1));
        b.set("ms", fixed(axis.break_to - axis.break_from, 3));
        b.set("from", fixed(axis.break_from, 3));
        b.set("to", fixed(axis.break_to, 3));
        b.set("note", brk->note);
        // A zigzag down each edge of the gap: the time axis is cut here.
        auto zigzag = [&](double zx) {
            std::string pts;
            int k = 0;
            for (double zy = top; zy <= bottom + 8 + 1e-9; zy += 6, ++k) pts += fixed(zx + (k % 2 ? 3 : -3), 1) + "," + fixed(zy, 1) + " ";
            return pts;
        };
        b.set("zigzag_left", zigzag(x + 3));
        b.set("zigzag_right", zigzag(x + axis.break_px - 3));
        view.set("break", b);
    } else {
        view.set("break", false);
    }
    if (total) {
        km::data m;
        const double x = axis.x(total->end_ms);
        const std::string text = "predicted total " + fixed(total->end_ms, 3) + " ms";
        m.set("x", fixed(x, 1));
        m.set("top", fixed(top - 6, 1));
        m.set("bottom", fixed(bottom, 1));
        m.set("label", text);
        // Right-aligned at the mark unless that runs off the left.
        const bool end_anchor = x - text_width(text, 11, true) > 4;
        m.set("anchor", end_anchor ? "end" : "start");
        m.set("label_x", fixed(end_anchor ? std::min(x + 4, width - 4.0) : x, 1));
        m.set("label_y", fixed(top - 10, 1));
        view.set("total", m);
    } else {
        view.set("total", false);
    }
    return templates.render("timeline_chart.svg", view, Escape::Xml);
}

}  // namespace recipe::recipes
