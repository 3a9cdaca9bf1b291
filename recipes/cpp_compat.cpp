#include "recipes/cpp_compat.h"

#include <algorithm>
#include <set>

#include "recipes/byte_spans.h"
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

namespace {

// Edits that rewrite every use of VLA parameter `v` in `fn` outside `skip`
// as a subscript of a pointer to its first element; false when a use is not
// a subscript of every dimension (a row handed on, the array passed whole).
bool flat_uses(const CTree& tree, const analyzer::SourceMap& map, TSNode fn, const VlaParameter& v, const ByteSpans& skip,
               std::vector<Edit>* edits) {
    std::vector<std::string> sizes;  // outer first
    for (TSNode a = v.declarator; is(a, "array_declarator"); a = field(a, "declarator")) {
        const TSNode size = field(a, "size");
        sizes.insert(sizes.begin(), ts_node_is_null(size) ? std::string() : tree.spelled(size));
    }
    bool ok = true;
    walk(field(fn, "body"), [&](TSNode n) {
        if (!ok || !is(n, "identifier") || tree.text(n) != v.name) return;
        if (skip.contains(ts_node_start_byte(n))) return;
        // n[e1][e2]...: climb one subscript per dimension.
        std::vector<TSNode> indices;
        TSNode top = n;
        while (indices.size() < sizes.size()) {
            const TSNode parent = ts_node_parent(top);
            if (!is(parent, "subscript_expression") || !ts_node_eq(field(parent, "argument"), top)) break;
            indices.push_back(field(parent, "index"));
            top = parent;
        }
        if (indices.size() != sizes.size()) {
            ok = false;
            return;
        }
        std::string index = "(" + tree.spelled(indices[0]) + ")";
        for (std::size_t d = 1; d < indices.size(); ++d) {
            if (sizes[d].empty()) {
                ok = false;
                return;
            }
            index = "(" + index + " * (" + sizes[d] + ") + (" + tree.spelled(indices[d]) + "))";
        }
        if (!map.to_original(ts_node_start_byte(top), false) || !map.to_original(ts_node_end_byte(top), true)) {
            ok = false;
            return;
        }
        edits->push_back(Edit{ts_node_start_byte(top), ts_node_end_byte(top), v.name + "[" + index + "]"});
    });
    return ok;
}

}  // namespace

std::vector<CompatFix> cpp_compat_fixes(const CTree& tree,
                                        const std::vector<std::pair<std::uint32_t, std::uint32_t>>& skip,
                                        const analyzer::SourceMap& map,
                                        std::vector<std::pair<std::uint32_t, std::string>>* unfixable) {
    std::vector<CompatFix> found = cpp_compat_fixes(tree, skip);
    const ByteSpans replaced(skip);
    // Variable-length array parameters: C++ has none. Where the function
    // uses the array only in loops the library call replaced, it becomes a
    // pointer to its first element, which the call is given.
    std::set<std::uint32_t> vla_restricts;  // `restrict` inside them: replaced with the declarator
    for (const VlaParameter& v : vla_parameters(tree)) {
        const TSNode fn = enclosing_function(tree, ts_node_start_byte(v.declarator));
        const auto b = map.to_original(ts_node_start_byte(v.declarator), false);
        const auto e = map.to_original(ts_node_end_byte(v.declarator), true);
        // Its uses left in the function: whole subscripts `B[i][j]` become
        // `B[(i) * (nj) + (j)]` on the pointer; any other use cannot be.
        std::vector<Edit> flattened;
        const bool uses_ok = !ts_node_is_null(fn) && b && e && flat_uses(tree, map, fn, v, replaced, &flattened);
        if (!uses_ok) {
            if (unfixable && !ts_node_is_null(fn)) unfixable->emplace_back(ts_node_start_byte(fn), v.name);
            continue;
        }
        walk(v.declarator, [&](TSNode n) {
            if (is(n, "type_qualifier")) vla_restricts.insert(ts_node_start_byte(n));
        });
        // Its callers pass arrays of the C type: cast to the element pointer.
        std::vector<Edit> casts;
        bool callers_ok = true;
        walk(tree.root(), [&](TSNode n) {
            if (!is(n, "call_expression") || tree.text(field(n, "function")) != v.function) return;
            const auto args = named_children(field(n, "arguments"));
            if (v.index >= args.size()) {
                callers_ok = false;
                return;
            }
            const TSNode a = args[v.index];
            if (!map.to_original(ts_node_start_byte(a), false) || !map.to_original(ts_node_end_byte(a), true)) callers_ok = false;
            casts.push_back(Edit{ts_node_start_byte(a), ts_node_start_byte(a), "(" + v.element_type + " *)("});
            casts.push_back(Edit{ts_node_end_byte(a), ts_node_end_byte(a), ")"});
        });
        if (!callers_ok) {
            if (unfixable) unfixable->emplace_back(ts_node_start_byte(fn), v.name);
            continue;
        }
        CompatFix fix;
        fix.edit = Edit{ts_node_start_byte(v.declarator), ts_node_end_byte(v.declarator),
                        std::string(v.restrict_qualified ? "*__restrict__ " : "*") + v.name};  // mapped below
        fix.extra = casts;
        fix.extra.insert(fix.extra.end(), flattened.begin(), flattened.end());
        fix.pos = {static_cast<int>(ts_node_start_point(v.declarator).row) + 1, static_cast<int>(ts_node_start_point(v.declarator).column) + 1};
        fix.before = std::string(tree.text(v.declarator));
        fix.after = fix.edit.replacement;
        fix.why = "C++ has no variable-length arrays: the function receives a pointer to the first element, which the "
                  "library call is given (the loops that indexed it are on the GPU)";
        found.push_back(fix);
    }
    found.erase(std::remove_if(found.begin(), found.end(),
                               [&](const CompatFix& f) { return f.before == "restrict" && vla_restricts.count(f.edit.begin); }),
                found.end());
    std::vector<CompatFix> mapped;
    bool restrict_in_macro = false;
    for (auto& f : found) {
        bool ok = true;
        auto move = [&](Edit* e) {
            const auto b = map.to_original(e->begin, false);
            const auto x = e->end == e->begin ? b : map.to_original(e->end, true);
            if (!b || !x) ok = false;
            else *e = Edit{*b, *x, e->replacement};
        };
        const int line = f.pos.line;
        const bool in_main = map.lines().in_main_file(line);
        move(&f.edit);
        for (auto& e : f.extra) move(&e);
        if (!in_main) continue;  // a header's: the .cu includes it as it is
        if (!ok) {
            // Only `restrict` is fixed where a macro wrote it, by defining it away.
            restrict_in_macro = restrict_in_macro || f.before == "restrict";
            continue;
        }
        const auto place = map.place(f.pos.line, f.pos.column);
        f.pos = {place.line, place.column};
        mapped.push_back(f);
    }
    // The file's own C headers declare functions that other C files define:
    // in C++ they must keep C linkage, or the linker looks for mangled names.
    const auto& lm = map.lines();
    const std::string& og = map.original();
    std::size_t line_start = 0;
    int line_no = 1;
    for (const auto& inc : lm.includes) {
        if (inc.file < 0 || static_cast<std::size_t>(inc.file) >= lm.system.size() || lm.system[static_cast<std::size_t>(inc.file)])
            continue;
        // System headers first included inside it are included before the
        // block (C++'s own wrappers of them must not get C linkage).
        if (inc.system_inside && inc.system_spellings.size() != inc.system_files.size()) continue;
        while (line_no < inc.line && line_start < og.size()) {
            const auto nl = og.find('\n', line_start);
            if (nl == std::string::npos) break;
            line_start = nl + 1;
            ++line_no;
        }
        if (line_no != inc.line) break;
        const auto nl = og.find('\n', line_start);
        const std::size_t line_end = nl == std::string::npos ? og.size() : nl;
        std::string_view text = std::string_view(og).substr(line_start, line_end - line_start);
        const auto first = text.find_first_not_of(" \t");
        if (first == std::string_view::npos || text[first] != '#' || text.find("include") == std::string_view::npos ||
            text.find("/*") != std::string_view::npos || (!text.empty() && text.back() == '\\'))
            continue;
        CompatFix fix;
        std::string before;
        for (const auto& sys : inc.system_spellings) before += "#include " + sys + "\n";
        fix.edit = Edit{static_cast<std::uint32_t>(line_start), static_cast<std::uint32_t>(line_start), before + "extern \"C\" {\n"};
        fix.extra.push_back(Edit{static_cast<std::uint32_t>(line_end), static_cast<std::uint32_t>(line_end), "\n}"});
        fix.pos = {inc.line, 1};
        fix.before = std::string(text.substr(first));
        fix.after = "extern \"C\" { " + fix.before + " }";
        fix.why = "the header is C: C++ must link the functions it declares by their C names";
        const auto spelled = fix.before.find_first_of("<\"", fix.before.find("include"));
        fix.c_header = spelled == std::string::npos ? fix.before : fix.before.substr(spelled);
        mapped.push_back(fix);
    }
    if (restrict_in_macro) {
        CompatFix fix;
        fix.edit = Edit{0, 0, "#define restrict  // C99 `restrict` written by a macro: C++ has none\n"};
        fix.pos = {1, 1};
        fix.before = "restrict";
        fix.after = "(nothing)";
        fix.why = "C++ has no `restrict`, and a macro writes it where no edit can reach: the .cu defines it away";
        mapped.insert(mapped.begin(), fix);
    }
    return mapped;
}

std::vector<CompatFix> cpp_compat_fixes(const CTree& tree,
                                        const std::vector<std::pair<std::uint32_t, std::uint32_t>>& skip) {
    const auto fns = void_pointer_functions(tree);
    std::vector<CompatFix> fixes;
    const ByteSpans replaced(skip);
    auto skipped = [&](TSNode n) { return replaced.contains(ts_node_start_byte(n)); };
    walk(tree.root(), [&](TSNode n) {
        if (skipped(n)) return;
        if (is(n, "type_qualifier") && tree.text(n) == "restrict") {
            // In an array parameter's brackets (`double A[restrict N]`) C++
            // has no place for it at all.
            const bool in_brackets = is(ts_node_parent(n), "array_declarator");
            CompatFix fix;
            fix.edit = Edit{ts_node_start_byte(n), ts_node_end_byte(n), in_brackets ? "" : "__restrict__"};
            fix.pos = pos_of(n);
            fix.before = "restrict";
            fix.after = in_brackets ? "(nothing)" : "__restrict__";
            fix.why = in_brackets ? "C++ has no `restrict` in an array parameter's brackets"
                                  : "C++ has no `restrict`; nvcc spells it `__restrict__`";
            fixes.push_back(fix);
            return;
        }
        if (is(n, "init_declarator")) {
            const TSNode value = field(n, "value");
            const TSNode decl = ts_node_parent(n);
            if (ts_node_is_null(value) || !is(decl, "declaration") || !is_void_pointer(tree, value, fns)) return;
            const TSNode name = declared_name(field(n, "declarator"));
            if (ts_node_is_null(name)) return;  // a declarator the parser could not read
            const std::string type = abstract_type(tree, decl, field(n, "declarator"));
            if (!is_pointer_type(type) || type == "void *") return;
            fixes.push_back(cast_fix(tree, value, type, std::string(tree.text(name))));
            return;
        }
        if (is(n, "assignment_expression") && tree.text(field(n, "operator")) == "=") {
            const TSNode value = field(n, "right");
            if (!is_void_pointer(tree, value, fns)) return;
            TSNode left = field(n, "left");
            if (is(left, "field_expression")) {  // `g.u = calloc(...)`: the field's declared type
                std::string path;
                for (char ch : tree.text(left))
                    if (ch != ' ' && ch != '\t' && ch != '\n') path += ch;
                const std::string type = field_type(tree, path, ts_node_start_byte(n));
                if (is_pointer_type(type) && type != "void *") fixes.push_back(cast_fix(tree, value, type, path));
                return;
            }
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
