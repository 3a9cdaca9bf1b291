#include "recipes/source_rewriter.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace recipe::recipes {

std::string apply_edits(std::string_view source, std::vector<Edit> edits) {
    std::stable_sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) {
        if (a.begin != b.begin) return a.begin < b.begin;
        return (a.end == a.begin) && (b.end != b.begin);  // insertions first
    });
    std::string out;
    out.reserve(source.size() + 256);
    std::uint32_t at = 0;
    for (const auto& e : edits) {
        if (e.end < e.begin || e.end > source.size())
            throw std::logic_error("edit [" + std::to_string(e.begin) + ", " + std::to_string(e.end) +
                                   ") is outside the source of " + std::to_string(source.size()) + " bytes");
        if (e.begin < at)
            throw std::logic_error("edit at byte " + std::to_string(e.begin) + " overlaps the previous one");
        out.append(source.substr(at, e.begin - at));
        out.append(e.replacement);
        at = e.end;
    }
    out.append(source.substr(at));
    return out;
}

std::string line_indent(std::string_view source, std::uint32_t offset) {
    const std::string_view before = source.substr(0, std::min<std::size_t>(offset, source.size()));
    const auto nl = before.rfind('\n');
    std::size_t start = nl == std::string_view::npos ? 0 : nl + 1;
    std::size_t end = start;
    while (end < source.size() && (source[end] == ' ' || source[end] == '\t')) ++end;
    return std::string(source.substr(start, end - start));
}

namespace {
std::vector<std::string_view> split_lines(std::string_view text) {
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (true) {
        const auto nl = text.find('\n', start);
        if (nl == std::string_view::npos) {
            lines.push_back(text.substr(start));
            break;
        }
        lines.push_back(text.substr(start, nl - start));
        start = nl + 1;
    }
    return lines;
}

bool blank(std::string_view line) {
    return std::all_of(line.begin(), line.end(), [](char c) { return c == ' ' || c == '\t' || c == '\r'; });
}
}  // namespace

std::string reindent(std::string_view text, std::string_view indent, bool first_line_too) {
    const auto lines = split_lines(text);
    std::size_t common = std::string_view::npos;
    const std::size_t first = first_line_too ? 0 : 1;
    for (std::size_t i = first; i < lines.size(); ++i) {
        if (blank(lines[i])) continue;
        std::size_t n = 0;
        while (n < lines[i].size() && (lines[i][n] == ' ' || lines[i][n] == '\t')) ++n;
        common = std::min(common, n);
    }
    if (common == std::string_view::npos) common = 0;
    std::string out;
    if (!first_line_too) out = lines[0];
    for (std::size_t i = first; i < lines.size(); ++i) {
        if (i > 0) out += '\n';
        if (blank(lines[i])) continue;
        out += indent;
        out += lines[i].substr(common);
    }
    return out;
}

namespace {

// Calls `found` with each identifier of C text outside comments and string
// or character literals, in order, until it returns true.
template <class F>
bool any_identifier(std::string_view text, F&& found) {
    auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    std::size_t i = 0;
    while (i < text.size()) {
        if (text.compare(i, 2, "//") == 0) {
            i = text.find('\n', i);
            if (i == std::string_view::npos) return false;
        } else if (text.compare(i, 2, "/*") == 0) {
            i = text.find("*/", i + 2);
            if (i == std::string_view::npos) return false;
            i += 2;
        } else if (text[i] == '"' || text[i] == '\'') {
            const char q = text[i++];
            while (i < text.size() && text[i] != q) i += (text[i] == '\\') ? 2 : 1;
            ++i;
        } else if (ident(text[i])) {
            std::size_t j = i;
            while (j < text.size() && ident(text[j])) ++j;
            if (found(text.substr(i, j - i))) return true;
            i = j;
        } else {
            ++i;
        }
    }
    return false;
}

}  // namespace

bool contains_identifier(std::string_view text, std::string_view word) {
    return any_identifier(text, [&](std::string_view id) { return id == word; });
}

std::set<std::string, std::less<>> identifiers(std::string_view text) {
    std::set<std::string, std::less<>> out;
    any_identifier(text, [&](std::string_view id) {
        out.emplace(id);
        return false;
    });
    return out;
}

}  // namespace recipe::recipes
