#include "recipes/access_coordinates.h"

#include <algorithm>
#include <cctype>

#include "analyzer/syntax_tree.h"
#include "recipes/c_tree.h"

namespace recipe::recipes {

namespace {

// Wraps an expression so that tree-sitter parses it as one.
constexpr std::string_view kPrefix = "void recipe_expression_(void) { (void)(";
constexpr std::string_view kSuffix = "); }\n";

std::string squeeze(std::string_view s) {
    std::string out;
    for (char c : s)
        if (!std::isspace(static_cast<unsigned char>(c))) out += c;
    // Outer parentheses do not change a factor: "(W)" is "W".
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

TSNode unparen(TSNode n) {
    while (is(n, "parenthesized_expression") && ts_node_named_child_count(n) == 1) n = ts_node_named_child(n, 0);
    return n;
}

bool is_sum(TSNode n, const CTree& t) {
    n = unparen(n);
    if (!is(n, "binary_expression")) return false;
    const std::string_view op = t.text(field(n, "operator"));
    return op == "+" || op == "-";
}

void collect_factors(TSNode n, const CTree& t, std::vector<TSNode>* out) {
    const TSNode inner = unparen(n);
    if (is(inner, "binary_expression") && t.text(field(inner, "operator")) == "*") {
        collect_factors(field(inner, "left"), t, out);
        collect_factors(field(inner, "right"), t, out);
    } else {
        out->push_back(n);
    }
}

void collect_terms(TSNode n, int sign, const CTree& t, std::vector<Term>* out) {
    const TSNode inner = unparen(n);
    if (is_sum(inner, t)) {
        const bool minus = t.text(field(inner, "operator")) == "-";
        collect_terms(field(inner, "left"), sign, t, out);
        collect_terms(field(inner, "right"), minus ? -sign : sign, t, out);
        return;
    }
    Term term;
    term.sign = sign;
    collect_factors(n, t, &term.factors);
    out->push_back(term);
}

bool matches_extent(std::string_view factor, const analyzer::Extent& e) {
    const std::string f = squeeze(factor);
    if (!e.expr.empty() && f == squeeze(e.expr)) return true;
    if (e.value && !f.empty() && std::all_of(f.begin(), f.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
        return std::to_string(*e.value) == f;
    return false;
}

std::string term_text(const Term& term, const CTree& t) {
    std::string s;
    for (std::size_t i = 0; i < term.factors.size(); ++i) {
        if (i) s += " * ";
        s += t.text(term.factors[i]);
    }
    return s;
}

std::string sum_text(const std::vector<Term>& terms, const CTree& t) {
    if (terms.empty()) return "0";
    if (terms.size() == 1 && terms[0].sign > 0 && terms[0].factors.size() == 1) {
        // A lone parenthesised coordinate loses its parentheses: "(y + 1)" -> "y + 1".
        const TSNode f = terms[0].factors[0];
        return std::string(t.text(is(f, "parenthesized_expression") ? unparen(f) : f));
    }
    std::string s;
    for (std::size_t i = 0; i < terms.size(); ++i) {
        const std::string body = term_text(terms[i], t);
        if (i == 0) s += terms[i].sign < 0 ? "-" + body : body;
        else s += (terms[i].sign < 0 ? " - " : " + ") + body;
    }
    return s;
}

// Splits a flat index into coordinates: terms without the x pitch belong to
// x; the others, with the pitch removed, are split again by the y extent.
bool split_flat(TSNode index, const CTree& t, const std::vector<analyzer::Extent>& extents,
                std::vector<std::string>* coords, std::string* why) {
    const std::size_t dims = extents.size();
    std::vector<Term> rest;
    collect_terms(index, 1, t, &rest);
    for (std::size_t d = 0; d + 1 < dims; ++d) {
        std::vector<Term> here, upper;
        for (auto& term : rest) {
            auto pitch = std::find_if(term.factors.begin(), term.factors.end(),
                                      [&](TSNode f) { return matches_extent(t.text(f), extents[d]); });
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
            if (term.factors.size() == 1 && is_sum(term.factors[0], t)) {
                std::vector<Term> inner;
                collect_terms(term.factors[0], term.sign, t, &inner);
                upper.insert(upper.end(), inner.begin(), inner.end());
            } else {
                upper.push_back(term);
            }
        }
        if (upper.empty()) {
            *why = "no term of the index is multiplied by the extent '" + extents[d].expr + "'";
            return false;
        }
        coords->push_back(sum_text(here, t));
        rest = std::move(upper);
    }
    coords->push_back(sum_text(rest, t));
    return true;
}

}  // namespace

bool access_coordinates(std::string_view access_text, const std::vector<analyzer::Extent>& extents, AccessShape* shape,
                        std::string* why) {
    const std::string text(access_text);
    const analyzer::SyntaxTree parsed(std::string(kPrefix) + text + std::string(kSuffix));
    const CTree tree(parsed);
    TSNode n = unparen(tree.node_at(static_cast<std::uint32_t>(kPrefix.size()),
                                    static_cast<std::uint32_t>(kPrefix.size() + text.size())));
    if (ts_node_is_null(n) || ts_node_has_error(n)) {
        *why = quoted(access_text) + " does not parse as an expression";
        return false;
    }
    const std::size_t dims = std::max<std::size_t>(1, extents.size());
    std::vector<TSNode> subscripts;  // outermost first
    while (is(n, "subscript_expression")) {
        subscripts.insert(subscripts.begin(), field(n, "index"));
        n = unparen(field(n, "argument"));
    }
    TSNode flat_index{};
    if (subscripts.empty() && is(n, "pointer_expression") && tree.text(field(n, "operator")) == "*") {
        // *(a + index)
        const TSNode sum = unparen(field(n, "argument"));
        if (is(sum, "binary_expression") && tree.text(field(sum, "operator")) == "+" && is(unparen(field(sum, "left")), "identifier")) {
            flat_index = field(sum, "right");
            n = unparen(field(sum, "left"));
        }
    } else if (subscripts.size() == 1) {
        flat_index = subscripts[0];
    }
    if (!is(n, "identifier")) {
        *why = quoted(access_text) + " is not an access to a named array";
        return false;
    }
    shape->array = std::string(tree.text(n));
    shape->coords.clear();
    if (subscripts.size() == dims && dims > 1) {
        for (auto it = subscripts.rbegin(); it != subscripts.rend(); ++it) {
            const TSNode s = *it;
            shape->coords.emplace_back(tree.text(is(s, "parenthesized_expression") ? unparen(s) : s));
        }
        return true;
    }
    if (ts_node_is_null(flat_index)) {
        *why = quoted(access_text) + " has " + std::to_string(subscripts.size()) +
               " subscripts for an array of " + std::to_string(dims) + " dimensions";
        return false;
    }
    if (dims == 1) {
        const TSNode s = flat_index;
        shape->coords.emplace_back(tree.text(is(s, "parenthesized_expression") ? unparen(s) : s));
        return true;
    }
    return split_flat(flat_index, tree, extents, &shape->coords, why);
}

}  // namespace recipe::recipes
