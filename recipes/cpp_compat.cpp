#include "recipes/cpp_compat.h"

#include <set>

#include "recipes/c_declarations.h"
#include "recipes/c_tree.h"

namespace recipe::recipes {

namespace {

const std::set<std::string> kAllocators = {"malloc", "calloc", "realloc", "aligned_alloc"};

// Functions of this file declared to return void* (`static void *f(...)`).
std::set<std::string> void_pointer_functions(const CTree& tree) {
    std::set<std::string> names;
    walk(tree.root(), [&](TSNode n) {
        if (!is(n, "function_definition") && !is(n, "declaration")) return;
        if (tree.text(field(n, "type")) != "void") return;
        const TSNode d = field(n, "declarator");
        if (!is(d, "pointer_declarator")) return;
        const TSNode f = field(d, "declarator");
        if (!is(f, "function_declarator") || is(field(d, "declarator"), "pointer_declarator")) return;
        const TSNode id = declared_name(f);
        if (!ts_node_is_null(id)) names.emplace(tree.text(id));
    });
    return names;
}

// Whether `value` has type void*: a call of an allocator or of such a
// function, or a ?: whose branches are.
bool is_void_pointer(const CTree& tree, TSNode value, const std::set<std::string>& fns) {
    while (is(value, "parenthesized_expression")) value = ts_node_named_child(value, 0);
    if (is(value, "call_expression")) {
        const std::string f(tree.text(field(value, "function")));
        return kAllocators.count(f) || fns.count(f);
    }
    if (is(value, "conditional_expression"))
        return is_void_pointer(tree, field(value, "consequence"), fns) &&
               is_void_pointer(tree, field(value, "alternative"), fns);
    return false;
}

analyzer::SourcePos pos_of(TSNode n) {
    const TSPoint p = ts_node_start_point(n);
    return {static_cast<int>(p.row) + 1, static_cast<int>(p.column) + 1};
}

std::string shorten(std::string_view text) {
    std::string s(text);
    const auto paren = s.find('(');
    if (paren != std::string::npos && s.size() > paren + 1) s = s.substr(0, paren) + "(...)";
    return s;
}

// A cast of `value` to `type`: `(T)call(...)`, or `(T)(a ? b : c)`.
CompatFix cast_fix(const CTree& tree, TSNode value, const std::string& type, const std::string& target) {
    CompatFix fix;
    const std::uint32_t b = ts_node_start_byte(value), e = ts_node_end_byte(value);
    const bool call = is(value, "call_expression") || is(value, "parenthesized_expression");
    fix.edit = Edit{b, b, "(" + type + ")" + (call ? "" : "(")};
    if (!call) fix.extra.push_back(Edit{e, e, ")"});
    fix.pos = pos_of(value);
    fix.before = shorten(tree.text(value));
    fix.after = "(" + type + ")" + (call ? fix.before : "(" + fix.before + ")");
    fix.why = "C++ does not convert `void *` to `" + type + "` (the type of `" + target + "`) implicitly";
    return fix;
}

bool is_pointer_type(const std::string& type) { return type.find('*') != std::string::npos; }

// `float **` -> `float *` for rows[i] or *rows.
std::string pointee(const std::string& type) {
    const auto star = type.rfind('*');
    std::string t = type.substr(0, star);
    while (!t.empty() && t.back() == ' ') t.pop_back();
    return t;
}

}  // namespace

std::vector<CompatFix> cpp_compat_fixes(const CTree& tree,
                                        const std::vector<std::pair<std::uint32_t, std::uint32_t>>& skip) {
    const auto fns = void_pointer_functions(tree);
    std::vector<CompatFix> fixes;
    auto skipped = [&](TSNode n) {
        const std::uint32_t b = ts_node_start_byte(n);
        for (const auto& [s, e] : skip)
            if (b >= s && b < e) return true;
        return false;
    };
    walk(tree.root(), [&](TSNode n) {
        if (skipped(n)) return;
        if (is(n, "type_qualifier") && tree.text(n) == "restrict") {
            CompatFix fix;
            fix.edit = Edit{ts_node_start_byte(n), ts_node_end_byte(n), "__restrict__"};
            fix.pos = pos_of(n);
            fix.before = "restrict";
            fix.after = "__restrict__";
            fix.why = "C++ has no `restrict`; nvcc spells it `__restrict__`";
            fixes.push_back(fix);
            return;
        }
        if (is(n, "init_declarator")) {
            const TSNode value = field(n, "value");
            const TSNode decl = ts_node_parent(n);
            if (ts_node_is_null(value) || !is(decl, "declaration") || !is_void_pointer(tree, value, fns)) return;
            const std::string type = abstract_type(tree, decl, field(n, "declarator"));
            if (!is_pointer_type(type) || type == "void *") return;
            fixes.push_back(cast_fix(tree, value, type, std::string(tree.text(declared_name(field(n, "declarator"))))));
            return;
        }
        if (is(n, "assignment_expression") && tree.text(field(n, "operator")) == "=") {
            const TSNode value = field(n, "right");
            if (!is_void_pointer(tree, value, fns)) return;
            TSNode left = field(n, "left");
            int derefs = 0;
            while (is(left, "subscript_expression") || is(left, "pointer_expression")) {
                left = is(left, "subscript_expression") ? field(left, "argument") : field(left, "argument");
                ++derefs;
            }
            if (!is(left, "identifier")) return;
            Declaration d;
            if (!find_declaration(tree, std::string(tree.text(left)), ts_node_start_byte(n), &d)) return;
            std::string type = d.type;
            for (int i = 0; i < derefs; ++i) type = pointee(type);
            if (!is_pointer_type(type) || type == "void *") return;
            fixes.push_back(cast_fix(tree, value, type, std::string(tree.text(field(n, "left")))));
        }
    });
    return fixes;
}

}  // namespace recipe::recipes
