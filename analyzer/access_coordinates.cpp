#include "analyzer/access_coordinates.h"

#include <algorithm>
#include <cctype>

namespace recipe::analyzer {

namespace {

// A factor without its blanks and outer parentheses: "( W )" is "W".
std::string bare(std::string_view s) {
    std::string out;
    for (char c : s)
        if (!std::isspace(static_cast<unsigned char>(c))) out += c;
    while (out.size() >= 2 && out.front() == '(' && out.back() == ')') {
        int depth = 0;
        bool wraps = true;
        for (std::size_t i = 0; i < out.size(); ++i) {
            depth += out[i] == '(' ? 1 : out[i] == ')' ? -1 : 0;
            if (depth == 0 && i + 1 < out.size()) wraps = false;
        }
        if (!wraps) break;
        out = out.substr(1, out.size() - 2);
    }
    return out;
}

std::string quoted(std::string_view text) {
    std::string q;
    q.reserve(text.size() + 2);
    q += '`';
    q.append(text);
    q += '`';
    return q;
}

struct Term {
    int sign = 1;
    std::vector<TSNode> factors;
};

// The text of one subscript or coordinate: a lone parenthesised one loses
// its parentheses ("(y + 1)" -> "y + 1").
std::string_view unwrapped(TSNode n, const std::string& src) {
    return text(is(n, "parenthesized_expression") ? strip_parens(n) : n, src);
}

bool is_sum(TSNode n, const std::string& src) {
    n = strip_parens(n);
    if (!is(n, "binary_expression")) return false;
    const std::string_view op = text(field(n, "operator"), src);
    return op == "+" || op == "-";
}

void collect_factors(TSNode n, const std::string& src, std::vector<TSNode>* out) {
    const TSNode inner = strip_parens(n);
    if (is(inner, "binary_expression") && text(field(inner, "operator"), src) == "*") {
        collect_factors(field(inner, "left"), src, out);
        collect_factors(field(inner, "right"), src, out);
    } else {
        out->push_back(n);
    }
}

void collect_terms(TSNode n, int sign, const std::string& src, std::vector<Term>* out) {
    const TSNode inner = strip_parens(n);
    if (is_sum(inner, src)) {
        const bool minus = text(field(inner, "operator"), src) == "-";
        collect_terms(field(inner, "left"), sign, src, out);
        collect_terms(field(inner, "right"), minus ? -sign : sign, src, out);
        return;
    }
    Term term;
    term.sign = sign;
    collect_factors(n, src, &term.factors);
    out->push_back(term);
}

bool matches_extent(std::string_view factor, const Extent& e) {
    const std::string f = bare(factor);
    if (!e.expr.empty() && f == bare(e.expr)) return true;
    if (e.value && !f.empty() && std::all_of(f.begin(), f.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
        return std::to_string(*e.value) == f;
    return false;
}

std::string term_text(const Term& term, const std::string& src) {
    std::string s;
    for (std::size_t i = 0; i < term.factors.size(); ++i) {
        if (i) s += " * ";
        s += text(term.factors[i], src);
    }
    return s;
}

std::string sum_text(const std::vector<Term>& terms, const std::string& src) {
    if (terms.empty()) return "0";
    if (terms.size() == 1 && terms[0].sign > 0 && terms[0].factors.size() == 1) return std::string(unwrapped(terms[0].factors[0], src));
    std::string s;
    for (std::size_t i = 0; i < terms.size(); ++i) {
        const std::string body = term_text(terms[i], src);
        if (i == 0) s += terms[i].sign < 0 ? "-" + body : body;
        else s += (terms[i].sign < 0 ? " - " : " + ") + body;
    }
    return s;
}

// Splits a flat index into coordinates: terms without the x pitch belong to
// x; the others, with the pitch removed, are split again by the y extent.
bool split_flat(TSNode index, const std::string& src, const std::vector<Extent>& extents, std::vector<std::string>* coords,
                std::string* why) {
    const std::size_t dims = extents.size();
    std::vector<Term> rest;
    collect_terms(index, 1, src, &rest);
    for (std::size_t d = 0; d + 1 < dims; ++d) {
        std::vector<Term> here, upper;
        for (auto& term : rest) {
            auto pitch = std::find_if(term.factors.begin(), term.factors.end(),
                                      [&](TSNode f) { return matches_extent(text(f, src), extents[d]); });
            if (pitch == term.factors.end()) {
                here.push_back(term);
                continue;
            }
            term.factors.erase(pitch);
            if (term.factors.empty()) {
                *why = "the index multiplies the row pitch by nothing";
                return false;
            }
            // "(y + NY * z)" left after removing NX is split again.
            if (term.factors.size() == 1 && is_sum(term.factors[0], src)) {
                std::vector<Term> inner;
                collect_terms(term.factors[0], term.sign, src, &inner);
                upper.insert(upper.end(), inner.begin(), inner.end());
            } else {
                upper.push_back(term);
            }
        }
        if (upper.empty()) {
            *why = "no term of the index is multiplied by the extent '" + extents[d].expr + "'";
            return false;
        }
        coords->push_back(sum_text(here, src));
        rest = std::move(upper);
    }
    coords->push_back(sum_text(rest, src));
    return true;
}

void split(TSNode within, const std::string& src, const ArrayProperties& a, ArrayAccess* acc) {
    const TSNode n = node_spanning(within, acc->span);
    std::string array, why;
    std::vector<std::string> coords;
    if (ts_node_is_null(n)) {
        const std::uint32_t b = std::min<std::uint32_t>(acc->span.begin_byte, static_cast<std::uint32_t>(src.size()));
        const std::uint32_t e = std::clamp<std::uint32_t>(acc->span.end_byte, b, static_cast<std::uint32_t>(src.size()));
        acc->why_no_coordinates = quoted(std::string_view(src).substr(b, e - b)) + " does not parse as an expression";
    } else if (!access_coordinates(n, src, a.size, &array, &coords, &why)) {
        acc->why_no_coordinates = why;
    } else if (array == a.name) {
        acc->coordinates = std::move(coords);
    }
}

}  // namespace

bool access_coordinates(TSNode node, const std::string& source, const std::vector<Extent>& extents,
                        std::string* array, std::vector<std::string>* coords, std::string* why) {
    const std::string_view written = text(node, source);
    TSNode n = strip_parens(node);
    if (ts_node_is_null(n) || ts_node_has_error(n)) {
        *why = quoted(written) + " does not parse as an expression";
        return false;
    }
    const std::size_t dims = std::max<std::size_t>(1, extents.size());
    std::vector<TSNode> subscripts;  // outermost first
    while (is(n, "subscript_expression")) {
        subscripts.insert(subscripts.begin(), field(n, "index"));
        n = strip_parens(field(n, "argument"));
    }
    TSNode flat_index{};
    if (subscripts.empty() && is(n, "pointer_expression") && text(field(n, "operator"), source) == "*") {
        // *(a + index)
        const TSNode sum = strip_parens(field(n, "argument"));
        if (is(sum, "binary_expression") && text(field(sum, "operator"), source) == "+" &&
            is(strip_parens(field(sum, "left")), "identifier")) {
            flat_index = field(sum, "right");
            n = strip_parens(field(sum, "left"));
        }
    } else if (subscripts.size() == 1) {
        flat_index = subscripts[0];
    }
    if (!is(n, "identifier")) {
        *why = quoted(written) + " is not an access to a named array";
        return false;
    }
    *array = std::string(text(n, source));
    coords->clear();
    if (subscripts.size() == dims && dims > 1) {
        for (auto it = subscripts.rbegin(); it != subscripts.rend(); ++it) coords->emplace_back(unwrapped(*it, source));
        return true;
    }
    if (ts_node_is_null(flat_index)) {
        *why = quoted(written) + " has " + std::to_string(subscripts.size()) + " subscripts for an array of " +
               std::to_string(dims) + " dimensions";
        return false;
    }
    if (dims == 1) {
        coords->emplace_back(unwrapped(flat_index, source));
        return true;
    }
    return split_flat(flat_index, source, extents, coords, why);
}

void split_accesses(TSNode within, const std::string& source, LoopNest* nest) {
    for (auto* arrays : {&nest->input_arrays, &nest->output_arrays})
        for (auto& a : *arrays)
            for (auto& acc : a.accesses) split(within, source, a, &acc);
}

}  // namespace recipe::analyzer
