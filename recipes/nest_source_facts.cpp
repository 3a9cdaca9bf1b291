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

namespace {

// Whether `name` is a pointer temporary of the function around loop body
// `block`, declared in that function outside the loop (C89 style: `float
// *tmp;` at the top, not static), mentioned in the loop only by plain
// pointer assignments of the body's own statements (`tmp = a;`, `b = tmp;`)
// and, unless `mentioned_after` allows it, nowhere after the loop: a swap
// through it is the body's alone, and code that replaces the loop loses
// nothing the program reads.
bool outer_pointer_temporary(const CTree& t, TSNode block, const std::string& name, bool mentioned_after) {
    const TSNode loop = ts_node_parent(block);
    const TSNode function = enclosing_function(t, ts_node_start_byte(block));
    if (ts_node_is_null(function) || ts_node_is_null(loop)) return false;
    const std::uint32_t loop_begin = ts_node_start_byte(loop), loop_end = ts_node_end_byte(loop);
    // Inside another loop, a mention before this one comes after it too, on the next turn.
    bool nested = false;
    for (TSNode a = ts_node_parent(loop); !ts_node_is_null(a) && !ts_node_eq(a, function); a = ts_node_parent(a))
        nested = nested || is(a, "for_statement") || is(a, "while_statement") || is(a, "do_statement");
    bool declared = false, other_use = false;
    walk(field(function, "body"), [&](TSNode n) {
        if (other_use) return;
        if (is(n, "declaration") && ts_node_end_byte(n) <= loop_begin) {
            bool storage = false;
            for (TSNode c : named_children(n)) storage = storage || is(c, "storage_class_specifier");
            for (TSNode c : named_children(n)) {
                const TSNode d = is(c, "init_declarator") ? field(c, "declarator") : c;
                if (is(d, "pointer_declarator") && t.text(declared_name(d)) == name) declared = !storage;
            }
            return;
        }
        if (!is(n, "identifier") || t.text(n) != name) return;
        const std::uint32_t at = ts_node_start_byte(n);
        if (at < loop_begin) {  // before the loop: the body assigns it before it reads it
            other_use = nested && !mentioned_after;
            return;
        }
        if (at >= loop_end) {
            other_use = !mentioned_after;
            return;
        }
        const TSNode e = ts_node_parent(n);
        const bool plain = is(e, "assignment_expression") && t.text(ts_node_child(e, 1)) == "=" &&
                           is(field(e, "left"), "identifier") && is(field(e, "right"), "identifier") &&
                           is(ts_node_parent(e), "expression_statement") && ts_node_eq(ts_node_parent(ts_node_parent(e)), block);
        if (!plain) other_use = true;
    });
    return declared && !other_use;
}

}  // namespace

TSNode loop_body_extra(const CTree& t, TSNode block, const std::string& counter, std::set<std::string> movable,
                       const std::function<bool(TSNode)>& allowed, bool* swapped, bool loop_stays) {
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
            is(field(e, "right"), "identifier") && movable.count(std::string(t.text(field(e, "right"))))) {
            // A pointer moved: between the pointers, or into a temporary of
            // the function declared before the loop, which then joins them.
            const std::string left(t.text(field(e, "left")));
            if (movable.count(left) || outer_pointer_temporary(t, block, left, loop_stays)) {
                movable.insert(left);
                if (swapped) *swapped = true;
                continue;
            }
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
