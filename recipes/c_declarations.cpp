#include "recipes/c_declarations.h"

namespace recipe::recipes {

TSNode declared_name(TSNode d) {
    while (!ts_node_is_null(d) && !is(d, "identifier")) {
        if (is(d, "parenthesized_declarator")) {
            d = ts_node_named_child(d, 0);
            continue;
        }
        const TSNode inner = field(d, "declarator");
        if (ts_node_is_null(inner)) return TSNode{};
        d = inner;
    }
    return d;
}

std::string abstract_type(const CTree& tree, TSNode decl, TSNode declarator) {
    std::string type;
    for (TSNode c : named_children(decl))
        if (is(c, "type_qualifier")) type += std::string(tree.text(c)) + " ";
    type += tree.spelled(field(decl, "type"));
    const TSNode name = declared_name(declarator);
    std::string rest(tree.text(declarator));
    if (!ts_node_is_null(name)) {
        const std::uint32_t off = ts_node_start_byte(name) - ts_node_start_byte(declarator);
        rest.erase(off, ts_node_end_byte(name) - ts_node_start_byte(name));
        // As the user spelled it (`[N + 2]`, not `[1024 + 2]`), where the
        // declarator maps back and holds the name once.
        std::string spelled = tree.spelled(declarator);
        const std::string n(tree.text(name));
        const auto at = spelled.find(n);
        if (at != std::string::npos && spelled.find(n, at + 1) == std::string::npos) rest = spelled.erase(at, n.size());
    }
    while (!rest.empty() && rest.back() == ' ') rest.pop_back();
    if (!rest.empty()) type += " " + rest;
    return type;
}

TSNode enclosing_function(const CTree& tree, std::uint32_t at) {
    TSNode n = ts_node_descendant_for_byte_range(tree.root(), at, at);
    while (!ts_node_is_null(n) && !is(n, "function_definition")) n = ts_node_parent(n);
    return n;
}

namespace {

// Declarators of a declaration node, without initializers: the named
// children after its type (`int x, y = 0;` -> x, y).
std::vector<TSNode> declarators(TSNode decl) {
    std::vector<TSNode> out;
    const TSNode type = field(decl, "type");
    bool after_type = false;
    for (TSNode c : named_children(decl)) {
        if (ts_node_eq(c, type)) {
            after_type = true;
            continue;
        }
        if (!after_type || is(c, "comment")) continue;
        out.push_back(is(c, "init_declarator") ? field(c, "declarator") : c);
    }
    return out;
}

bool match(const CTree& tree, TSNode decl, const std::string& name, Declaration* out) {
    for (TSNode d : declarators(decl)) {
        const TSNode id = declared_name(d);
        if (ts_node_is_null(id) || tree.text(id) != name) continue;
        if (is(d, "function_declarator")) continue;
        out->node = decl;
        out->declarator = d;
        out->type = abstract_type(tree, decl, d);
        return true;
    }
    return false;
}

}  // namespace

bool find_declaration(const CTree& tree, const std::string& name, std::uint32_t at, Declaration* out) {
    const TSNode fn = enclosing_function(tree, at);
    bool found = false;
    if (!ts_node_is_null(fn)) {
        walk(fn, [&](TSNode n) {
            if (ts_node_start_byte(n) >= at) return;
            if ((is(n, "declaration") || is(n, "parameter_declaration")) && match(tree, n, name, out)) found = true;
        });
        if (found) return true;
    }
    for (TSNode n : named_children(tree.root())) {
        if (ts_node_start_byte(n) >= at) break;
        if (is(n, "declaration") && match(tree, n, name, out)) {
            out->file_scope = true;
            found = true;
        }
    }
    return found;
}

}  // namespace recipe::recipes
