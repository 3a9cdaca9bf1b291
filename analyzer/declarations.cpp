#include "analyzer/declarations.h"

#include <algorithm>

namespace recipe::analyzer {

namespace {

bool is_declarator(TSNode n) {
    return is(n, "identifier") || is(n, "init_declarator") || is(n, "pointer_declarator") ||
           is(n, "array_declarator") || is(n, "parenthesized_declarator") || is(n, "attributed_declarator") ||
           is(n, "abstract_pointer_declarator") || is(n, "abstract_array_declarator");
}

bool has_restrict(TSNode n, const std::string& src) {
    for (TSNode k : named_children(n)) {
        if (!is(k, "type_qualifier")) continue;
        std::string_view q = text(k, src);
        if (q == "restrict" || q == "__restrict" || q == "__restrict__") return true;
    }
    return false;
}

std::string declared_type(TSNode decl, const std::string& src) {
    std::string qualifiers;
    for (TSNode k : named_children(decl)) {
        if (!is(k, "type_qualifier")) continue;
        std::string_view q = text(k, src);
        if (q == "const" || q == "volatile") qualifiers += std::string(q) + " ";
    }
    return qualifiers + squeeze(text(field(decl, "type"), src));
}

VarDecl describe(TSNode decl, TSNode d, const std::string& src) {
    VarDecl v;
    v.declaration = decl;
    v.declarator = d;
    v.type = declared_type(decl, src);
    v.at = ts_node_start_byte(decl);
    v.restrict_qualified = has_restrict(decl, src);
    // Walk from the outside in; levels are then reversed (name outward).
    std::vector<DeclLevel> outside_in;
    for (int guard = 0; guard < 64 && !is_null(d); ++guard) {
        if (is(d, "identifier")) {
            v.name = std::string(text(d, src));
            break;
        }
        if (is(d, "init_declarator")) {
            v.value = field(d, "value");
            d = field(d, "declarator");
        } else if (is(d, "pointer_declarator") || is(d, "abstract_pointer_declarator")) {
            outside_in.push_back({DeclLevel::Kind::Pointer, {}});
            if (has_restrict(d, src)) v.restrict_qualified = true;
            d = field(d, "declarator");
        } else if (is(d, "array_declarator") || is(d, "abstract_array_declarator")) {
            outside_in.push_back({DeclLevel::Kind::Array, field(d, "size")});
            if (has_restrict(d, src)) v.restrict_qualified = true;
            d = field(d, "declarator");
        } else if (is(d, "parenthesized_declarator") || is(d, "attributed_declarator")) {
            d = ts_node_named_child(d, 0);
        } else {
            break;  // function declarators and the like: not a variable
        }
    }
    v.levels.assign(outside_in.rbegin(), outside_in.rend());
    return v;
}

}  // namespace

std::string VarDecl::full_type() const {
    std::string t = type;
    for (const auto& l : levels) t += l.kind == DeclLevel::Kind::Pointer ? "*" : "[]";
    return t;
}

std::vector<VarDecl> declarations_in(TSNode decl, const std::string& source) {
    std::vector<VarDecl> out;
    if (is(decl, "parameter_declaration")) {
        TSNode d = field(decl, "declarator");
        if (is_null(d)) return out;
        VarDecl v = describe(decl, d, source);
        v.is_param = true;
        if (!v.name.empty()) out.push_back(std::move(v));
        return out;
    }
    TSNode type = field(decl, "type");
    for (TSNode k : named_children(decl)) {
        if (ts_node_eq(k, type) || !is_declarator(k)) continue;
        VarDecl v = describe(decl, k, source);
        if (!v.name.empty()) out.push_back(std::move(v));
    }
    return out;
}

GlobalTable global_declarations(const SyntaxTree& tree) {
    GlobalTable out;
    const std::string& src = tree.source();
    walk(tree.root(), [&](TSNode n) {
        if (is(n, "function_definition")) return false;
        if (is(n, "declaration")) {
            for (auto& v : declarations_in(n, src)) {
                v.is_global = true;
                out.emplace(v.name, std::move(v));
            }
            return false;
        }
        return true;
    });
    return out;
}

Scope::Scope(const FileDefinitions& defs, const FunctionInfo* function, const GlobalTable* globals)
    : function_(function), globals_(globals) {
    if (!function) return;
    const std::string& src = defs.source();
    for (TSNode p : function->params)
        for (auto& v : declarations_in(p, src)) params_.push_back(std::move(v));
    walk(function->body, [&](TSNode n) {
        if (is(n, "declaration")) {
            for (auto& v : declarations_in(n, src)) locals_.emplace(v.name, std::move(v));
            return true;  // initializers hold no declarations we need, but statement expressions might
        }
        return true;
    });
}

const VarDecl* Scope::find(const std::string& name, std::uint32_t at) const {
    const VarDecl* best = nullptr;
    auto range = locals_.equal_range(name);
    for (auto it = range.first; it != range.second; ++it)
        if (it->second.at <= at && (!best || it->second.at > best->at)) best = &it->second;
    if (best) return best;
    for (const auto& p : params_)
        if (p.name == name) return &p;
    if (globals_) {
        auto it = globals_->find(name);
        if (it != globals_->end()) return &it->second;
    }
    return nullptr;
}

std::vector<const VarDecl*> Scope::locals(const std::string& name) const {
    std::vector<const VarDecl*> out;
    auto range = locals_.equal_range(name);
    for (auto it = range.first; it != range.second; ++it) out.push_back(&it->second);
    return out;
}

}  // namespace recipe::analyzer
