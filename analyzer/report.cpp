#include "analyzer/report.h"

#include <algorithm>
#include <sstream>
#include <vector>

namespace recipe::analyzer {

SourceLines::SourceLines(std::string_view text) : text_(text) {
    starts_.push_back(0);
    for (std::size_t i = 0; i < text.size(); ++i)
        if (text[i] == '\n') starts_.push_back(i + 1);
}

std::string_view SourceLines::line(int n) const {
    if (n < 1 || static_cast<std::size_t>(n) > starts_.size()) return {};
    const std::size_t b = starts_[static_cast<std::size_t>(n - 1)];
    const std::size_t e = static_cast<std::size_t>(n) < starts_.size() ? starts_[static_cast<std::size_t>(n)] : text_.size();
    std::string_view l = text_.substr(b, e - b);
    while (!l.empty() && (l.back() == '\n' || l.back() == '\r')) l.remove_suffix(1);
    return l;
}

namespace {

std::string diagnostic(const std::string& file, const SourceLines* lines, const Diagnostic& d) {
    std::ostringstream os;
    os << diagnostic_line(file, d.pos, to_string(d.severity), d.message, d.rule_id) << "\n";
    if (!lines) return os.str();
    std::string_view l = lines->line(d.pos.line);
    if (l.empty()) return os.str();
    std::string number = std::to_string(d.pos.line);
    std::string gutter(std::max<std::size_t>(5, number.size() + 1), ' ');
    os << std::string(gutter.size() - number.size(), ' ') << number << " | " << l << "\n";
    os << gutter << " | ";
    std::size_t col = static_cast<std::size_t>(std::max(1, d.pos.column) - 1);
    for (std::size_t i = 0; i < col && i < l.size(); ++i) os << (l[i] == '\t' ? '\t' : ' ');
    os << "^\n";
    return os.str();
}

std::string offsets(const std::vector<int>& v) {
    std::string s = "(";
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
    return s + ")";
}

std::string sizes(const std::vector<Extent>& size) {
    std::string s;
    for (std::size_t i = 0; i < size.size(); ++i) s += (i ? " x " : "") + format_extent(size[i]);
    return s;
}

void array_line(std::ostream& os, const char* role, const ArrayProperties& a) {
    os << "  " << role << " " << a.name << ": " << (a.element_type.empty() ? "?" : a.element_type) << " ("
       << a.bytes_per_element << " bytes), " << to_string(a.layout);
    if (!a.linear_index.empty()) os << " [" << a.linear_index << "]";
    os << ", size " << sizes(a.size) << " (x first)";
    if (a.reads_own_element) os << ", also read at its own element";
    if (a.pinned_host) os << ", pinned host memory";
    os << "\n";
    if (!a.stencil.empty()) {
        os << "      stencil:";
        constexpr std::size_t kShown = 27;
        for (std::size_t i = 0; i < a.stencil.size() && i < kShown; ++i) os << " " << offsets(a.stencil[i]);
        if (a.stencil.size() > kShown) os << " ... (" << a.stencil.size() << " offsets)";
        os << "\n";
    }
}

// One nest's part of the report.
void nest_text(std::ostream& os, const Program& p, const SourceLines& lines, const LoopNest& n) {
    os << "\nnest " << n.id << ": " << (n.function.empty() ? "(outside a function)" : n.function + "()") << ", lines "
       << n.span.begin.line << "-" << n.span.end.line << ": ";
    if (n.accepted) os << "accepted, " << to_string(n.kind) << "\n";
    else os << "rejected\n";
    os << "  dimensions: " << n.dimensionality << " (x first)\n";
    for (const auto& l : n.iteration_space) {
        os << "    " << l.var << " from " << format_extent(l.lower) << " to " << format_extent(l.upper)
           << " (exclusive), stride " << l.stride << ", loop depth " << l.depth << "\n";
    }
    if (!n.iteration_space.empty())
        os << "  innermost loop walks the contiguous dimension: " << (n.innermost_is_contiguous ? "yes" : "no") << "\n";
    for (const auto& a : n.input_arrays) array_line(os, "input ", a);
    for (const auto& a : n.output_arrays) array_line(os, "output", a);
    for (const auto& w : n.window_loops)
        os << "  window loop: " << w.var << " from " << w.lower << " to " << w.upper << " (exclusive)\n";
    for (const auto& b : n.boundaries)
        os << "  boundary: " << to_string(b.kind) << " `" << b.text << "` at " << b.span.begin.line << ":"
           << b.span.begin.column << "\n";
    if (n.time_loop) {
        const TimeLoop& t = *n.time_loop;
        os << "  time loop: " << to_string(t.form);
        if (!t.var.empty()) os << " over " << t.var;
        if (!t.iterations.expr.empty() || t.iterations.value) os << ", " << format_extent(t.iterations) << " iterations";
        else if (!t.condition.empty()) os << " while " << t.condition;
        os << ", exchange " << to_string(t.exchange);
        if (!t.arrays.empty()) {
            os << " of";
            for (const auto& a : t.arrays) os << " " << a;
        }
        os << " (line " << t.span.begin.line << ")\n";
    }
    if (!n.scalars_read.empty()) {
        os << "  scalars:";
        for (const auto& s : n.scalars_read) os << " " << s.name << " (" << s.type << ")";
        os << "\n";
    }
    if (!n.invariant_reads.empty()) {
        os << "  read once per launch:";
        for (const auto& r : n.invariant_reads) os << " " << r.text << " (" << r.element_type << ")";
        os << "\n";
    }
    os << "  per iteration: " << n.ops.adds << " add, " << n.ops.muls << " mul, " << n.ops.divs << " div, "
       << n.ops.other << " other; " << n.ops.reads << " reads, " << n.ops.writes << " writes\n";
    for (const auto& d : n.reasons) os << diagnostic(p.file, &lines, d);
}

}  // namespace

std::string format_extent(const Extent& e) {
    if (!e.value) return e.expr + " (symbolic)";
    std::string v = std::to_string(*e.value);
    if (e.expr.empty() || e.expr == v) return v;
    return e.expr + " = " + v;
}

std::string diagnostic_line(const std::string& file, const SourcePos& pos, const std::string& severity,
                            const std::string& message, const std::string& rule) {
    return file + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.column) + ": " + severity + ": " + message +
           " [" + rule + "]";
}

std::string format_diagnostic(const std::string& file, const SourceLines& lines, const Diagnostic& d) {
    return diagnostic(file, &lines, d);
}

std::string format_report(const Program& p, std::string_view source) {
    std::ostringstream os;
    write_report(os, p, source);
    return os.str();
}

void write_report(std::ostream& out, const Program& p, std::string_view source) {
    SourceLines lines(source);
    for (const auto& d : p.diagnostics) out << diagnostic(p.file, &lines, d);
    int accepted = 0;
    for (const auto& n : p.nests) accepted += n.accepted ? 1 : 0;
    out << p.file << ": " << p.nests.size() << " loop nest" << (p.nests.size() == 1 ? "" : "s") << ", " << accepted
        << " accepted\n";
    for (const auto& n : p.nests) nest_text(out, p, lines, n);
}

}  // namespace recipe::analyzer
