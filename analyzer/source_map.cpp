#include "analyzer/source_map.h"

#include <algorithm>

namespace recipe::analyzer {

namespace {

bool ident_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           static_cast<unsigned char>(c) >= 0x80;
}

std::vector<std::uint32_t> line_starts(std::string_view text) {
    std::vector<std::uint32_t> starts{0};
    for (std::size_t i = 0; i < text.size(); ++i)
        if (text[i] == '\n') starts.push_back(static_cast<std::uint32_t>(i + 1));
    return starts;
}

// One token starting at text[i] (not a blank, not a comment): its end.
std::size_t token_end(std::string_view text, std::size_t i) {
    const char c = text[i];
    if (c == '"' || c == '\'') {
        std::size_t j = i + 1;
        while (j < text.size() && text[j] != c && text[j] != '\n') j += text[j] == '\\' ? 2 : 1;
        return std::min(text.size(), j + 1);
    }
    if ((c >= '0' && c <= '9') || (c == '.' && i + 1 < text.size() && text[i + 1] >= '0' && text[i + 1] <= '9')) {
        std::size_t j = i + 1;  // a pp-number: digits, letters, dots, exponent signs
        while (j < text.size() && (ident_char(text[j]) || text[j] == '.' ||
                                   ((text[j] == '+' || text[j] == '-') && (text[j - 1] | 0x20) == 'e') ||
                                   ((text[j] == '+' || text[j] == '-') && (text[j - 1] | 0x20) == 'p')))
            ++j;
        return j;
    }
    if (ident_char(c)) {
        std::size_t j = i + 1;
        while (j < text.size() && ident_char(text[j])) ++j;
        return j;
    }
    return i + 1;
}

}  // namespace

std::vector<std::pair<std::uint32_t, std::uint32_t>> c_tokens(std::string_view text) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
    std::size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
            ++i;
            continue;
        }
        const std::size_t e = token_end(text, i);
        out.emplace_back(static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(e));
        i = e;
    }
    return out;
}

SourceMap::SourceMap(std::string preprocessed, LineMap lines, std::string original, std::map<std::string, std::string> macros)
    : preprocessed_(std::move(preprocessed)), lines_(std::move(lines)), original_(std::move(original)), macros_(std::move(macros)) {
    pp_line_starts_ = line_starts(preprocessed_);
    const int pp_lines = static_cast<int>(pp_line_starts_.size());
    group_first_.assign(static_cast<std::size_t>(pp_lines) + 2, 0);
    group_last_.assign(static_cast<std::size_t>(pp_lines) + 2, 0);
    for (int l = 1, last_real = 0; l <= pp_lines; ++l) {
        const LineOrigin o = lines_.origin(l);
        group_first_[static_cast<std::size_t>(l)] = l;
        if (o.file < 0) continue;  // a marker line, empty
        const LineOrigin prev = lines_.origin(last_real);
        if (last_real > 0 && prev.file == o.file && prev.line == o.line) group_first_[static_cast<std::size_t>(l)] = group_first_[static_cast<std::size_t>(last_real)];
        last_real = l;
    }
    for (int l = 1; l <= pp_lines; ++l) group_last_[static_cast<std::size_t>(group_first_[static_cast<std::size_t>(l)])] = l;
    for (int l = 1; l <= pp_lines; ++l) group_last_[static_cast<std::size_t>(l)] = group_last_[static_cast<std::size_t>(group_first_[static_cast<std::size_t>(l)])];
    original_line_starts_ = line_starts(original_);
    original_token_at_.assign(original_line_starts_.size() + 1, 0);
    // The original's tokens by line, outside comments and directives (the
    // preprocessor drops both; #pragma lines stay).
    const std::string_view t = original_;
    std::size_t i = 0, line = 0;
    bool line_start = true;
    auto skip_line = [&] {  // to the end of a directive, continuations included
        while (i < t.size() && t[i] != '\n') {
            if (t[i] == '\\' && i + 1 < t.size() && t[i + 1] == '\n') {
                i += 2;
                ++line;
                continue;
            }
            if (t[i] == '/' && i + 1 < t.size() && t[i + 1] == '*') {
                const auto close = t.find("*/", i + 2);
                const std::size_t stop = close == std::string_view::npos ? t.size() : close + 2;
                line += static_cast<std::size_t>(std::count(t.begin() + static_cast<std::ptrdiff_t>(i), t.begin() + static_cast<std::ptrdiff_t>(stop), '\n'));
                i = stop;
                continue;
            }
            ++i;
        }
    };
    while (i < t.size()) {
        const char c = t[i];
        if (c == '\n') {
            ++line;
            ++i;
            line_start = true;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            ++i;
            continue;
        }
        if (c == '\\' && i + 1 < t.size() && t[i + 1] == '\n') {
            i += 2;
            ++line;
            continue;
        }
        if (c == '/' && i + 1 < t.size() && t[i + 1] == '/') {
            while (i < t.size() && t[i] != '\n') ++i;
            continue;
        }
        if (c == '/' && i + 1 < t.size() && t[i + 1] == '*') {
            const auto close = t.find("*/", i + 2);
            const std::size_t stop = close == std::string_view::npos ? t.size() : close + 2;
            line += static_cast<std::size_t>(std::count(t.begin() + static_cast<std::ptrdiff_t>(i), t.begin() + static_cast<std::ptrdiff_t>(stop), '\n'));
            i = stop;
            continue;
        }
        if (c == '#' && line_start) {
            std::size_t j = i + 1;
            while (j < t.size() && (t[j] == ' ' || t[j] == '\t')) ++j;
            if (t.substr(j, 6) != "pragma") {
                skip_line();
                continue;
            }
        }
        line_start = false;
        const std::size_t e = token_end(t, i);
        if (line < original_line_starts_.size()) {
            original_tokens_.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(e)});
            ++original_token_at_[line + 1];  // counts per line; summed below
        }
        i = e;
    }
    for (std::size_t l = 1; l < original_token_at_.size(); ++l) original_token_at_[l] += original_token_at_[l - 1];
}

SourceMap SourceMap::identity(std::string text, const std::string& name) {
    LineMap lines;
    lines.files = {name};
    lines.system = {false};
    lines.main_file = 0;
    const int count = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
    for (int l = 1; l <= count; ++l) lines.lines.push_back({0, l});
    std::string copy = text;
    return SourceMap(std::move(copy), std::move(lines), std::move(text));
}

int SourceMap::pp_line_of(std::uint32_t offset) const {
    const auto it = std::upper_bound(pp_line_starts_.begin(), pp_line_starts_.end(), offset);
    return static_cast<int>(it - pp_line_starts_.begin());
}

SourceMap::Alignment SourceMap::align(int pp_line) const {
    Alignment a;
    const LineOrigin o = lines_.origin(pp_line);
    const int first = group_first_[static_cast<std::size_t>(pp_line)], last = group_last_[static_cast<std::size_t>(pp_line)];
    const std::uint32_t start = pp_line_starts_[static_cast<std::size_t>(first - 1)];
    const std::uint32_t stop = static_cast<std::size_t>(last) < pp_line_starts_.size()
                                   ? pp_line_starts_[static_cast<std::size_t>(last)]
                                   : static_cast<std::uint32_t>(preprocessed_.size());
    for (const auto& [b, e] : c_tokens(std::string_view(preprocessed_).substr(start, stop - start))) a.pp.push_back({start + b, start + e});
    a.match.assign(a.pp.size(), -1);
    if (o.file != lines_.main_file || o.line < 1 || static_cast<std::size_t>(o.line) >= original_token_at_.size()) return a;
    a.original.assign(original_tokens_.begin() + original_token_at_[static_cast<std::size_t>(o.line - 1)],
                      original_tokens_.begin() + original_token_at_[static_cast<std::size_t>(o.line)]);
    const std::string_view pp = preprocessed_;
    const std::string_view og = original_;
    auto same = [&](const Token& x, const Token& y) {
        return pp.substr(x.begin, x.end - x.begin) == og.substr(y.begin, y.end - y.begin);
    };
    const std::size_t n = a.pp.size(), m = a.original.size();
    // Equal token runs at both ends need no table (most lines).
    std::size_t head = 0;
    while (head < n && head < m && same(a.pp[head], a.original[head])) {
        a.match[head] = static_cast<int>(head);
        ++head;
    }
    std::size_t tail = 0;
    while (tail < n - head && tail < m - head && same(a.pp[n - 1 - tail], a.original[m - 1 - tail])) {
        a.match[n - 1 - tail] = static_cast<int>(m - 1 - tail);
        ++tail;
    }
    const std::size_t pn = n - head - tail, on = m - head - tail;
    if (pn == 0 || on == 0 || pn * on > 4'000'000) return a;
    std::vector<std::uint32_t> lcs((pn + 1) * (on + 1), 0);
    auto at = [&](std::size_t i, std::size_t j) -> std::uint32_t& { return lcs[i * (on + 1) + j]; };
    for (std::size_t i = pn; i-- > 0;)
        for (std::size_t j = on; j-- > 0;)
            at(i, j) = same(a.pp[head + i], a.original[head + j]) ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
    for (std::size_t i = 0, j = 0; i < pn && j < on;) {
        if (same(a.pp[head + i], a.original[head + j]) && at(i, j) == at(i + 1, j + 1) + 1) {
            a.match[head + i] = static_cast<int>(head + j);
            ++i;
            ++j;
        } else if (at(i + 1, j) >= at(i, j + 1)) {
            ++i;
        } else {
            ++j;
        }
    }
    return a;
}

SourceMap::Place SourceMap::place(int line, int column) const {
    Place p;
    const LineOrigin o = lines_.origin(line);
    if (o.file < 0) return p;
    p.file = o.file;
    p.line = o.line;
    p.column = column;
    if (o.file != lines_.main_file || line < 1 || static_cast<std::size_t>(line) > pp_line_starts_.size()) return p;
    const std::uint32_t offset = pp_line_starts_[static_cast<std::size_t>(line - 1)] + static_cast<std::uint32_t>(std::max(0, column - 1));
    if (const auto mapped = to_original(offset, false)) {
        p.column = static_cast<int>(*mapped - original_line_starts_[static_cast<std::size_t>(o.line - 1)]) + 1;
        return p;
    }
    // Inside an expansion: the macro's name, the first original token after
    // the last one matched before the position.
    const Alignment a = align(line);
    int previous = -1;
    for (std::size_t k = 0; k < a.pp.size() && a.pp[k].begin <= offset; ++k)
        if (a.match[k] >= 0) previous = a.match[k];
    const std::size_t next = static_cast<std::size_t>(previous + 1);
    if (next < a.original.size())
        p.column = static_cast<int>(a.original[next].begin - original_line_starts_[static_cast<std::size_t>(o.line - 1)]) + 1;
    return p;
}

std::optional<std::uint32_t> SourceMap::to_original(std::uint32_t offset, bool end) const {
    if (offset > preprocessed_.size()) return std::nullopt;
    // An end offset belongs to the line of the character before it.
    const int line = pp_line_of(end && offset > 0 ? offset - 1 : offset);
    const LineOrigin o = lines_.origin(line);
    if (o.file != lines_.main_file || o.file < 0 || o.line < 1 || static_cast<std::size_t>(o.line) > original_line_starts_.size())
        return std::nullopt;
    const std::uint32_t pp_start = pp_line_starts_[static_cast<std::size_t>(line - 1)];
    const std::uint32_t og_start = original_line_starts_[static_cast<std::size_t>(o.line - 1)];
    const std::uint32_t column = offset - pp_start;
    // The line's leading blanks, when both texts have the same ones.
    const std::string_view pp_line = std::string_view(preprocessed_).substr(pp_start);
    const std::string_view og_line = std::string_view(original_).substr(og_start);
    if (pp_line.substr(0, column).find_first_not_of(" \t") == std::string_view::npos && og_line.substr(0, column) == pp_line.substr(0, column))
        return og_start + column;
    const Alignment a = align(line);
    for (std::size_t k = 0; k < a.pp.size(); ++k) {
        if (end ? a.pp[k].end != offset : a.pp[k].begin != offset) continue;
        if (a.match[k] >= 0) {
            const Token& orig = a.original[static_cast<std::size_t>(a.match[k])];
            return end ? orig.end : orig.begin;
        }
        // A whole expansion maps to the whole invocation: the run of
        // unmatched tokens between two matched ones on each side.
        std::size_t first = k, last = k;
        while (first > 0 && a.match[first - 1] < 0) --first;
        while (last + 1 < a.pp.size() && a.match[last + 1] < 0) ++last;
        if ((end ? last : first) != k) return std::nullopt;
        const int before = first > 0 ? a.match[first - 1] : -1;
        const int after = last + 1 < a.pp.size() ? a.match[last + 1] : static_cast<int>(a.original.size());
        if (after - before < 2) return std::nullopt;
        return end ? a.original[static_cast<std::size_t>(after - 1)].end : a.original[static_cast<std::size_t>(before + 1)].begin;
    }
    return std::nullopt;
}

std::optional<std::string> SourceMap::original_text(std::uint32_t begin, std::uint32_t end) const {
    const auto b = to_original(begin, false);
    const auto e = to_original(end, true);
    if (!b || !e || *e < *b) return std::nullopt;
    return original_.substr(*b, *e - *b);
}

}  // namespace recipe::analyzer
