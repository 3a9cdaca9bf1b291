#include "analyzer/declarations.h"

#include <algorithm>

namespace recipe::analyzer {

namespace {

bool is_declarator(TSNode n) {
    return IS(n, "identifier") || IS(n, "init_declarator") || IS(n, "pointer_declarator") ||
           IS(n, "array_declarator") || IS(n, "parenthesized_declarator") || IS(n, "attributed_declarator") ||
           IS(n, "abstract_pointer_declarator") || IS(n, "abstract_array_declarator");
}

bool is_restrict(std::string_view q) { return q == "restrict" || q == "__restrict" || q == "__restrict__"; }

bool has_restrict(TSNode n, const std::string& src) {
    bool found = false;
    if (!text_contains(n, src, "restrict")) return false;  // every spelling has it
    for_each_named_child(n, [&](TSNode k) {
        if (IS(k, "type_qualifier") && is_restrict(text(k, src))) found = true;
    });
    return found;
}

// What a declaration says for all its declarators: type and qualifiers.
struct Specifiers {
    std::string type;
    bool restrict_qualified = false;
};

Specifiers specifiers_of(TSNode decl, const std::string& src) {
    Specifiers s;
    std::string qualifiers;
    // Only const, volatile and restrict matter here: a declaration that
    // spells none of them has no qualifier to read.
    std::string_view all = text(decl, src);
    bool qualified = all.find("const") != std::string_view::npos || all.find("volatile") != std::string_view::npos ||
                     all.find("restrict") != std::string_view::npos;
    if (qualified) {
        for_each_named_child(decl, [&](TSNode k) {
            if (!IS(k, "type_qualifier")) return;
            std::string_view q = text(k, src);
            if (q == "const" || q == "volatile") qualifiers += std::string(q) + " ";
            if (is_restrict(q)) s.restrict_qualified = true;
        });
    }
    std::string_view type = text(field(decl, "type"), src);
    s.type = qualifiers + (type.find_first_of(" \t\n\r") == std::string_view::npos ? std::string(type) : squeeze(type));
    return s;
}

VarDecl describe(TSNode decl, TSNode d, const std::string& src, const Specifiers& spec) {
    VarDecl v;
    v.declaration = decl;
    v.declarator = d;
    v.type = spec.type;
    v.at = ts_node_start_byte(decl);
    v.restrict_qualified = spec.restrict_qualified;
    // Walk from the outside in; levels are then reversed (name outward).
    std::vector<DeclLevel> outside_in;
    for (int guard = 0; guard < 64 && !is_null(d); ++guard) {
        if (IS(d, "identifier")) {
            v.name = std::string(text(d, src));
            break;
        }
        if (IS(d, "init_declarator")) {
            v.value = field(d, "value");
            d = field(d, "declarator");
        } else if (IS(d, "pointer_declarator") || IS(d, "abstract_pointer_declarator")) {
            outside_in.push_back({DeclLevel::Kind::Pointer, {}});
            if (has_restrict(d, src)) v.restrict_qualified = true;
            d = field(d, "declarator");
        } else if (IS(d, "array_declarator") || IS(d, "abstract_array_declarator")) {
            outside_in.push_back({DeclLevel::Kind::Array, field(d, "size")});
            if (has_restrict(d, src)) v.restrict_qualified = true;
            d = field(d, "declarator");
        } else if (IS(d, "parenthesized_declarator") || IS(d, "attributed_declarator")) {
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
    if (IS(decl, "parameter_declaration")) {
        TSNode d = field(decl, "declarator");
        if (is_null(d)) return out;
        VarDecl v = describe(decl, d, source, specifiers_of(decl, source));
        v.is_param = true;
        if (!v.name.empty()) out.push_back(std::move(v));
        return out;
    }
    TSNode type = field(decl, "type");
    Specifiers spec = specifiers_of(decl, source);
    for_each_named_child(decl, [&](TSNode k) {
        if (ts_node_eq(k, type) || !is_declarator(k)) return;
        VarDecl v = describe(decl, k, source, spec);
        if (!v.name.empty()) out.push_back(std::move(v));
    });
    return out;
}

GlobalTable global_declarations(const FileDefinitions& defs) {
    GlobalTable out;
    for (TSNode n : defs.global_declarations()) {
        for (auto& v : declarations_in(n, defs.source())) {
            v.is_global = true;
            out.emplace(v.name, std::move(v));
        }
    }
    return out;
}

Scope::Scope(const FileDefinitions& defs, const FunctionInfo* function, const GlobalTable* globals, std::vector<TSNode> declarations)
    : source_(defs.source()), function_(function), globals_(globals), declarations_(std::move(declarations)) {}

const Scope::Named& Scope::named(const std::string& name) const {
    auto [it, fresh] = named_.try_emplace(name);
    Named& n = it->second;
    if (!fresh || !function_) return n;
    // Only declarations whose text spells the name can declare it.
    for (TSNode d : declarations_) {
        if (!text_contains_name(d, source_, name)) continue;
        for (auto& v : declarations_in(d, source_))
            if (v.name == name) n.locals.push_back(std::move(v));
    }
    for (TSNode p : function_->params) {
        if (!text_contains_name(p, source_, name)) continue;
        for (auto& v : declarations_in(p, source_))
            if (v.name == name) n.params.push_back(std::move(v));
    }
    return n;
}

const VarDecl* Scope::find(const std::string& name, std::uint32_t at) const {
    const Named& n = named(name);
    const VarDecl* best = nullptr;
    for (const VarDecl& v : n.locals)
        if (v.at <= at && (!best || v.at > best->at)) best = &v;
    if (best) return best;
    if (!n.params.empty()) return &n.params.front();
    if (globals_) {
        auto it = globals_->find(name);
        if (it != globals_->end()) return &it->second;
    }
    return nullptr;
}

std::vector<const VarDecl*> Scope::locals(const std::string& name) const {
    std::vector<const VarDecl*> out;
    for (const VarDecl& v : named(name).locals) out.push_back(&v);
    return out;
}

}  // namespace recipe::analyzer
