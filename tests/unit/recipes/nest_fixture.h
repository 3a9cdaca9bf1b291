// nest_fixture.h — LoopNests built by hand over a source text, so the
// generator's tests do not depend on the analyzer: spans are found by
// searching the text.
#pragma once

#include <stdexcept>
#include <string>

#include "analyzer/program.h"

namespace recipe::test {

inline analyzer::SourcePos pos_at(const std::string& src, std::size_t byte) {
    analyzer::SourcePos p{1, 1};
    for (std::size_t i = 0; i < byte; ++i) {
        if (src[i] == '\n') {
            ++p.line;
            p.column = 1;
        } else {
            ++p.column;
        }
    }
    return p;
}

inline analyzer::SourceSpan span_at(const std::string& src, std::size_t begin, std::size_t end) {
    analyzer::SourceSpan s;
    s.begin = pos_at(src, begin);
    s.end = pos_at(src, end);
    s.begin_byte = static_cast<std::uint32_t>(begin);
    s.end_byte = static_cast<std::uint32_t>(end);
    return s;
}

// The `occurrence`-th match of `text`.
inline analyzer::SourceSpan find_span(const std::string& src, const std::string& text, int occurrence = 0) {
    std::size_t at = src.find(text);
    for (int i = 0; i < occurrence && at != std::string::npos; ++i) at = src.find(text, at + 1);
    if (at == std::string::npos) throw std::logic_error("fixture text not found: " + text);
    return span_at(src, at, at + text.size());
}

// From the `occurrence`-th `start` to the end of the statement or block that
// starts there (matching braces; a statement without braces ends at ';').
inline analyzer::SourceSpan statement_span(const std::string& src, const std::string& start, int occurrence = 0) {
    const auto s = find_span(src, start, occurrence);
    std::size_t i = s.begin_byte;
    int parens = 0, braces = 0;
    bool seen_brace = false;
    for (; i < src.size(); ++i) {
        const char c = src[i];
        if (c == '(') ++parens;
        if (c == ')') --parens;
        if (c == '{') ++braces, seen_brace = true;
        if (c == '}' && --braces == 0 && parens == 0) return span_at(src, s.begin_byte, i + 1);
        if (c == ';' && parens == 0 && braces == 0 && !seen_brace) {
            // `for (...) for (...) stmt;` ends at the first ';' outside parentheses.
            return span_at(src, s.begin_byte, i + 1);
        }
    }
    throw std::logic_error("unterminated statement: " + start);
}

// `coordinates` as the analyzer splits the access (x first, as written).
inline analyzer::ArrayAccess access(const std::string& src, const std::string& text, std::vector<int> offset,
                                    std::vector<std::string> coordinates, bool write = false, int occurrence = 0) {
    analyzer::ArrayAccess a;
    a.span = find_span(src, text, occurrence);
    a.text = text;
    a.offset = std::move(offset);
    a.coordinates = std::move(coordinates);
    a.write = write;
    return a;
}

// The bounds as written are `lower_expr` and `upper_expr`; the counter is
// declared `counter_type`.
inline analyzer::LoopProperties loop(const std::string& src, const std::string& var, const std::string& header,
                                     std::int64_t lower, std::string lower_expr, std::int64_t upper,
                                     std::string upper_expr, std::string counter_type, int depth, int occurrence = 0) {
    analyzer::LoopProperties l;
    l.var = var;
    l.lower_written = lower_expr;
    l.upper_written = upper_expr;
    l.counter_type = std::move(counter_type);
    l.lower = {lower, std::move(lower_expr)};
    l.upper = {upper, std::move(upper_expr)};
    l.depth = depth;
    l.span = statement_span(src, header, occurrence);
    return l;
}

inline analyzer::ArrayProperties array(std::string name, std::string type, std::vector<analyzer::Extent> size) {
    analyzer::ArrayProperties a;
    a.name = std::move(name);
    a.element_type = std::move(type);
    a.bytes_per_element = a.element_type == "double" ? 8 : 4;
    a.size = std::move(size);
    for (std::size_t i = 0; i < a.size.size(); ++i) {
        a.mapping.push_back(std::vector<int>(a.size.size(), 0));
        a.mapping.back()[i] = 1;
    }
    return a;
}

}  // namespace recipe::test
