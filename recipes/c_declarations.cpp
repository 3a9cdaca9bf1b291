#include "recipes/c_declarations.h"

namespace recipe::recipes {

TSNode enclosing_function(const CTree& tree, std::uint32_t at) { return tree.function_at(at); }

bool find_declaration(const CTree& tree, const std::string& name, std::uint32_t at, Declaration* out) {
    return analyzer::find_declaration(tree, tree.function_at(at), tree.file_declarations(), name, at, out);
}

namespace {

// An array declarator with a size that is not an integer constant.
bool variable_length(TSNode d) {
    bool variable = false;
    for (TSNode a = d; is(a, "array_declarator"); a = field(a, "declarator")) {
        const TSNode size = field(a, "size");
        if (ts_node_is_null(size)) continue;
        bool constant = true;
        walk(size, [&](TSNode n) {
            if (is(n, "identifier") || is(n, "call_expression") || is(n, "field_expression")) constant = false;
        });
        variable = variable || !constant;
    }
    return variable;
}

bool as_vla(const CTree& tree, TSNode param, VlaParameter* out) {
    if (!is(param, "parameter_declaration")) return false;
    const TSNode d = field(param, "declarator");
    if (!is(d, "array_declarator") || !variable_length(d)) return false;
    const TSNode id = declared_name(d);
    if (ts_node_is_null(id)) return false;
    out->name = std::string(tree.text(id));
    out->declarator = d;
    out->element_type.clear();
    for (TSNode c : named_children(param))
        if (is(c, "type_qualifier")) out->element_type += std::string(tree.text(c)) + " ";
    out->element_type += std::string(tree.text(field(param, "type")));
    out->restrict_qualified = std::string(tree.text(d)).find("restrict") != std::string::npos;
    return true;
}

}  // namespace

bool vla_parameter(const CTree& tree, const std::string& name, std::uint32_t at, VlaParameter* out) {
    const TSNode fn = enclosing_function(tree, at);
    if (ts_node_is_null(fn)) return false;
    TSNode d = field(fn, "declarator");
    while (is(d, "pointer_declarator")) d = field(d, "declarator");
    for (TSNode p : named_children(field(d, "parameters"))) {
        VlaParameter v;
        if (as_vla(tree, p, &v) && v.name == name) {
            *out = v;
            return true;
        }
    }
    return false;
}

std::vector<VlaParameter> vla_parameters(const CTree& tree) {
    std::vector<VlaParameter> out;
    for (TSNode top : named_children(tree.root())) {
        if (!is(top, "function_definition")) continue;
        TSNode d = field(top, "declarator");
        while (is(d, "pointer_declarator")) d = field(d, "declarator");
        std::size_t index = 0;
        for (TSNode p : named_children(field(d, "parameters"))) {
            if (!is(p, "parameter_declaration")) continue;
            VlaParameter v;
            if (as_vla(tree, p, &v)) {
                v.index = index;
                v.function = std::string(tree.text(declared_name(d)));
                out.push_back(v);
            }
            ++index;
        }
    }
    return out;
}

std::string field_type(const CTree& tree, const std::string& path, std::uint32_t at) {
    const auto arrow = path.find("->");
    const auto dot = path.find('.');
    const std::size_t cut = arrow != std::string::npos ? arrow : dot;
    if (cut == std::string::npos) return "";
    const std::string base = path.substr(0, cut);
    const std::string member = path.substr(cut + (arrow != std::string::npos ? 2 : 1));
    if (member.find("->") != std::string::npos || member.find('.') != std::string::npos) return "";
    Declaration d;
    if (!find_declaration(tree, base, at, &d)) return "";
    // The struct's name: the declaration's type without qualifiers and stars.
    // Its words less qualifiers and stars: "const grid_t *restrict" -> "grid_t".
    std::string type;
    std::string word;
    auto flush = [&] {
        if (!word.empty() && word != "const" && word != "volatile" && word != "restrict" && word != "__restrict" &&
            word != "__restrict__")
            type += (type.empty() ? "" : " ") + word;
        word.clear();
    };
    for (char ch : d.type) {
        if (ch == '*' || ch == ' ') flush();
        else word += ch;
    }
    flush();
    const bool tagged = type.rfind("struct ", 0) == 0;
    const std::string name = tagged ? type.substr(7) : type;
    // struct_specifier nodes of the file whose tag or typedef name matches.
    std::string found;
    walk(tree.root(), [&](TSNode n) {
        if (!found.empty() || !is(n, "struct_specifier") || ts_node_is_null(field(n, "body"))) return;
        bool named = !ts_node_is_null(field(n, "name")) && tree.text(field(n, "name")) == name;
        const TSNode parent = ts_node_parent(n);
        if (!named && !tagged && is(parent, "type_definition"))
            for (TSNode c : named_children(parent))
                if (is(c, "type_identifier") && tree.text(c) == name) named = true;
        if (!named) return;
        for (TSNode f : named_children(field(n, "body"))) {
            if (!is(f, "field_declaration")) continue;
            for (TSNode dcl : named_children(f)) {
                if (is(dcl, "field_identifier") && tree.text(dcl) == member) {
                    found = std::string(tree.text(field(f, "type")));
                    continue;
                }
                TSNode inner = dcl;
                std::string stars;
                while (is(inner, "pointer_declarator")) {
                    stars += "*";
                    inner = field(inner, "declarator");
                }
                if (is(inner, "field_identifier") && tree.text(inner) == member)
                    found = std::string(tree.text(field(f, "type"))) + " " + stars;
            }
        }
    });
    while (!found.empty() && found.back() == ' ') found.pop_back();
    return found;
}

}  // namespace recipe::recipes
