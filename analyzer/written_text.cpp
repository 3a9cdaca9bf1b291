#include "analyzer/written_text.h"

#include "analyzer/source_map.h"

namespace recipe::analyzer {

std::string_view WrittenText::text(TSNode node) const {
    if (ts_node_is_null(node)) return {};
    const std::uint32_t b = ts_node_start_byte(node), e = ts_node_end_byte(node);
    return std::string_view(source_).substr(b, e - b);
}

std::string WrittenText::spelled(TSNode node) const {
    if (map_ && !ts_node_is_null(node))
        if (auto o = map_->original_text(ts_node_start_byte(node), ts_node_end_byte(node))) return *o;
    return std::string(text(node));
}

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

std::string abstract_type(const WrittenText& t, TSNode decl, TSNode declarator) {
    std::string type;
    for_each_named_child(decl, [&](TSNode c) {
        if (is(c, "type_qualifier")) type += std::string(t.text(c)) + " ";
    });
    type += t.spelled(field(decl, "type"));
    const TSNode name = declared_name(declarator);
    std::string rest(t.text(declarator));
    if (!ts_node_is_null(name)) {
        const std::uint32_t off = ts_node_start_byte(name) - ts_node_start_byte(declarator);
        rest.erase(off, ts_node_end_byte(name) - ts_node_start_byte(name));
        // As the user spelled it (`[N + 2]`, not `[1024 + 2]`), where the
        // declarator maps back and holds the name once.
        std::string spelled = t.spelled(declarator);
        const std::string n(t.text(name));
        const auto at = spelled.find(n);
        if (at != std::string::npos && spelled.find(n, at + 1) == std::string::npos) rest = spelled.erase(at, n.size());
    }
    while (!rest.empty() && rest.back() == ' ') rest.pop_back();
    if (!rest.empty()) type += " " + rest;
    return type;
}

namespace {

// Declarators of a declaration node, without initializers: the named
// children after its type (`int x, y = 0;` -> x, y).
std::vector<TSNode> declarators(TSNode decl) {
    std::vector<TSNode> out;
    const TSNode type = field(decl, "type");
    bool after_type = false;
    for_each_named_child(decl, [&](TSNode c) {
        if (ts_node_eq(c, type)) {
            after_type = true;
            return;
        }
        if (!after_type || is(c, "comment")) return;
        out.push_back(is(c, "init_declarator") ? field(c, "declarator") : c);
    });
    return out;
}

bool match(const WrittenText& t, TSNode decl, const std::string& name, WrittenDeclaration* out) {
    for (TSNode d : declarators(decl)) {
        const TSNode id = declared_name(d);
        if (ts_node_is_null(id) || t.text(id) != name) continue;
        if (is(d, "function_declarator")) continue;
        out->node = decl;
        out->declarator = d;
        out->type = abstract_type(t, decl, d);
        return true;
    }
    return false;
}

}  // namespace

bool find_declaration(const WrittenText& t, TSNode function, const std::vector<TSNode>& file_declarations,
                      const std::string& name, std::uint32_t at, WrittenDeclaration* out) {
    bool found = false;
    if (!ts_node_is_null(function)) {
        walk(function, [&](TSNode n) {
            if (ts_node_start_byte(n) >= at) return false;  // nor its children, which start later still
            if ((is(n, "declaration") || is(n, "parameter_declaration")) && match(t, n, name, out)) found = true;
            return true;
        });
        if (found) return true;
    }
    for (TSNode n : file_declarations) {
        if (ts_node_start_byte(n) >= at) break;
        if (match(t, n, name, out)) {
            out->file_scope = true;
            found = true;
        }
    }
    return found;
}

}  // namespace recipe::analyzer
