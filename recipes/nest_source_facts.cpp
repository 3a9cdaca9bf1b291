#include "recipes/nest_source_facts.h"

#include <algorithm>
#include <cctype>

#include "recipes/c_declarations.h"
#include "recipes/source_rewriter.h"

namespace recipe::recipes::facts {

TSNode node_for(const CTree& t, const analyzer::SourceSpan& s) { return t.node_at(s.begin_byte, s.end_byte); }

// The start of the line holding `at`.
std::uint32_t line_start(std::string_view src, std::uint32_t at) {
    while (at > 0 && src[at - 1] != '\n') --at;
    return at;
}

bool only_blanks_before(std::string_view src, std::uint32_t at) {
    for (std::uint32_t i = line_start(src, at); i < at; ++i)
        if (src[i] != ' ' && src[i] != '\t') return false;
    return true;
}

std::string without_const(std::string type) {
    for (const std::string q : {"const ", "volatile "}) {
        for (auto at = type.find(q); at != std::string::npos; at = type.find(q)) type.erase(at, q.size());
    }
    return type;
}

bool is_pointer_or_array(const std::string& type) {
    return type.find('*') != std::string::npos || type.find('[') != std::string::npos;
}

// Whether a write at `n` happens only on some paths through the body.
TSNode loop_body_extra(const CTree& t, TSNode block, const std::string& counter, std::set<std::string> movable,
                       const std::function<bool(TSNode)>& allowed, bool* swapped) {
    for (TSNode s : named_children(block)) {
        if (is(s, "comment") || allowed(s)) continue;
        if (is(s, "declaration")) {
            // Temporaries for the swap: declared bare, or from one of the pointers.
            bool plain = true;
            std::vector<std::string> names;
            for (TSNode d : named_children(s)) {
                if (is(d, "init_declarator")) {
                    const TSNode v = field(d, "value");
                    if (is(v, "identifier") && movable.count(std::string(t.text(v))))
                        names.emplace_back(t.text(declared_name(field(d, "declarator"))));
                    else
                        plain = false;
                } else if ((is(d, "identifier") || is(d, "pointer_declarator")) && !ts_node_is_null(declared_name(d))) {
                    names.emplace_back(t.text(declared_name(d)));
                }
            }
            if (plain) {
                movable.insert(names.begin(), names.end());
                continue;
            }
        }
        const TSNode e = is(s, "expression_statement") ? ts_node_named_child(s, 0) : TSNode{};
        if (is(e, "assignment_expression") && t.text(ts_node_child(e, 1)) == "=" && is(field(e, "left"), "identifier") &&
            is(field(e, "right"), "identifier") && movable.count(std::string(t.text(field(e, "left")))) &&
            movable.count(std::string(t.text(field(e, "right"))))) {
            if (swapped) *swapped = true;
            continue;
        }
        const bool counts = !counter.empty() && ((is(e, "update_expression") && t.text(field(e, "argument")) == counter) ||
                                                 (is(e, "assignment_expression") && t.text(field(e, "left")) == counter));
        if (!counts) return s;
    }
    return TSNode{};
}

std::string extent_text(const analyzer::Extent& e) {
    if (!e.expr.empty()) return e.expr;
    if (e.value) return std::to_string(*e.value);
    return "";
}

bool same_extent(const analyzer::Extent& a, const analyzer::Extent& b) {
    if (a.value && b.value) return *a.value == *b.value;
    auto squeeze = [](std::string s) {
        s.erase(std::remove_if(s.begin(), s.end(), [](char c) { return c == ' ' || c == '(' || c == ')'; }), s.end());
        return s;
    };
    return squeeze(a.expr) == squeeze(b.expr);
}

std::string identifier_for(const std::string& expression) {
    std::string out;
    bool gap = false;  // other characters since the last one kept
    for (const char ch : expression) {
        if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_') {
            gap = true;
            continue;
        }
        if (gap && !out.empty() && out.back() != '_') out += '_';
        gap = false;
        out += ch;
    }
    if (out.empty() || std::isdigit(static_cast<unsigned char>(out.front()))) out = "v_" + out;
    return out;
}

std::string unique_name(const std::string& want, const CTree& t, std::set<std::string>* taken) {
    std::string name = want;
    for (int i = 2; taken->count(name) || t.has_identifier(name); ++i) name = want + "_" + std::to_string(i);
    taken->insert(name);
    return name;
}

// Names the body declares itself (block-scoped variables, inner loop counters).
std::set<std::string> declared_in(const CTree& t, TSNode body) {
    std::set<std::string> names;
    walk(body, [&](TSNode n) {
        if (!is(n, "declaration")) return;
        for (TSNode c : named_children(n)) {
            const TSNode d = is(c, "init_declarator") ? field(c, "declarator") : c;
            const TSNode id = declared_name(d);
            if (!ts_node_is_null(id) && !is(c, "type_qualifier") && !is(c, "storage_class_specifier")) names.emplace(t.text(id));
        }
    });
    return names;
}

std::set<std::string> assigned_in(const CTree& t, TSNode body) {
    std::set<std::string> names;
    walk(body, [&](TSNode n) {
        TSNode target{};
        if (is(n, "assignment_expression")) target = field(n, "left");
        if (is(n, "update_expression")) target = field(n, "argument");
        if (is(target, "identifier")) names.emplace(t.text(target));
    });
    return names;
}

// `expr` as an initialiser of std::int64_t in a braced list: literals,
// macros and variables of signed integer types stay as written; anything
// else (size_t, unsigned, unknown names) is cast, or the list would narrow.
std::string int64_code(const CTree& t, const std::string& expr, const std::set<std::string>& macros, std::uint32_t at) {
    static const std::set<std::string> kSigned = {"int", "short", "char", "signed", "long", "long int", "long long",
                                                  "long long int", "signed int", "short int", "signed char",
                                                  "int64_t", "int32_t", "int16_t", "int8_t", "ptrdiff_t"};
    bool safe = true;
    for (std::size_t i = 0; i < expr.size() && safe;) {
        if (std::isalpha(static_cast<unsigned char>(expr[i])) || expr[i] == '_') {
            std::size_t j = i;
            while (j < expr.size() && (std::isalnum(static_cast<unsigned char>(expr[j])) || expr[j] == '_')) ++j;
            const std::string id = expr.substr(i, j - i);
            i = j;
            if (macros.count(id)) continue;
            Declaration d;
            safe = find_declaration(t, id, at, &d) && kSigned.count(without_const(d.type));
        } else if (std::isdigit(static_cast<unsigned char>(expr[i]))) {
            std::size_t j = i;
            while (j < expr.size() && std::isalnum(static_cast<unsigned char>(expr[j]))) ++j;
            const std::string lit = expr.substr(i, j - i);
            safe = lit.find_first_of("uU") == std::string::npos;  // 10u is unsigned
            i = j;
        } else {
            ++i;
        }
    }
    return safe ? expr : "static_cast<std::int64_t>(" + expr + ")";
}

}  // namespace recipe::recipes::facts
