#include "analyzer/definitions.h"

#include <algorithm>
#include <cctype>


namespace recipe::analyzer {

namespace {

std::string clean_macro_body(std::string_view raw) {
    std::string out;
    out.reserve(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] == '\\' && i + 1 < raw.size() && (raw[i + 1] == '\n' || raw[i + 1] == '\r')) {
            out += ' ';
            ++i;
            if (i + 1 < raw.size() && raw[i] == '\r' && raw[i + 1] == '\n') ++i;
            continue;
        }
        if (raw[i] == '/' && i + 1 < raw.size() && raw[i + 1] == '/') break;
        if (raw[i] == '/' && i + 1 < raw.size() && raw[i + 1] == '*') {
            std::size_t end = raw.find("*/", i + 2);
            if (end == std::string_view::npos) break;
            out += ' ';
            i = end + 1;
            continue;
        }
        out += raw[i];
    }
    return squeeze(out);
}

// `((x) + NX * (y))` parses as a cast of `+NX` to type `x`: C's grammar
// cannot tell a parenthesised name from a type name. The parentheses
// around a lone parameter change nothing, so drop them.
std::string unwrap_parameters(std::string body, const std::vector<std::string>& params) {
    auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (const auto& p : params) {
        for (const std::string& wrapped : {"(" + p + ")", "( " + p + " )"}) {
            std::size_t at = 0;
            while ((at = body.find(wrapped, at)) != std::string::npos) {
                // Not a call like f(x): the character before '(' is no name.
                if (at > 0 && word(body[at - 1])) {
                    at += wrapped.size();
                    continue;
                }
                body.replace(at, wrapped.size(), p);
                at += p.size();
            }
        }
    }
    return body;
}

// Expressions, declarators and the like whose subtrees this pass need not
// enter unless their text can hold something it records: a call, an
// assignment, an address `&`, an increment `++`/`--`, or a block `{`
// (declarations, loops and enums inside GNU statement expressions or
// compound literals). Subtrees with syntax errors are always entered: a
// MISSING token has no text.
bool is_skippable_expression(TSSymbol s) {
    static const std::vector<bool> kinds = [] {
        std::vector<bool> v(ts_language_symbol_count(tree_sitter_c()) + 1, false);
        for (const char* t : {"binary_expression", "unary_expression", "subscript_expression", "parenthesized_expression",
                              "conditional_expression", "cast_expression", "field_expression", "pointer_expression",
                              "sizeof_expression", "comma_expression", "argument_list", "initializer_list",
                              "string_literal", "concatenated_string", "char_literal",
                              // declarators and parameter lists: only array sizes hold expressions
                              "parameter_list", "pointer_declarator", "array_declarator",
                              "abstract_pointer_declarator", "abstract_array_declarator",
                              // leaves: nothing below them at all
                              "identifier", "number_literal", "comment", "type_identifier", "primitive_type",
                              "field_identifier", "statement_identifier", "string_content", "escape_sequence"}) {
            TSSymbol k = symbol_of(t);
            if (k != 0 && k < v.size()) v[k] = true;
        }
        return v;
    }();
    return s < kinds.size() && kinds[s];
}

bool subtree_may_hold_definitions(TSNode n, const std::string& src) {
    if (ts_node_has_error(n)) return true;
    return may_hold_definitions(text(n, src));
}

TSNode function_declarator_of(TSNode d) {
    for (int guard = 0; guard < 64 && !is_null(d); ++guard) {
        if (IS(d, "function_declarator")) return d;
        d = field(d, "declarator");
    }
    return TSNode{};
}

}  // namespace

std::string declarator_name(TSNode d, const std::string& source) {
    for (int guard = 0; guard < 64 && !is_null(d); ++guard) {
        if (IS(d, "identifier") || IS(d, "field_identifier") || IS(d, "type_identifier")) return std::string(text(d, source));
        if (IS(d, "parenthesized_declarator")) {
            d = ts_node_named_child(d, 0);
            continue;
        }
        TSNode next = field(d, "declarator");
        if (is_null(next)) return {};
        d = next;
    }
    return {};
}

// Stencil code is full of parentheses that group arithmetic and of
// comparisons, which hold none of these: telling them apart spares the
// definitions pass most expression subtrees (each node it enters costs a
// walk over its children).
bool may_hold_definitions(std::string_view t) {
    auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; };
    auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
    const std::size_t n = t.size();
    for (std::size_t i = t.find_first_of("(=&{+-"); i < n; i = t.find_first_of("(=&{+-", i + 1)) {
        const char c = t[i];
        const char next = i + 1 < n ? t[i + 1] : '\0';
        switch (c) {
            case '{': return true;
            case '+':
            case '-':
                if (next == c) return true;  // ++, --
                break;
            case '&':
                if (next != '&') return true;  // an address (or a bitwise and)
                ++i;                           // &&
                break;
            case '=': {
                if (next == '=') {  // ==
                    ++i;
                    break;
                }
                const char before = i > 0 ? t[i - 1] : '\0';
                if (before == '!') break;  // !=
                if ((before == '<' || before == '>') && !(i > 1 && t[i - 2] == before)) break;  // <=, >= (not <<=, >>=)
                return true;  // =, and +=, <<= and the other compound assignments
            }
            case '(': {
                // A call: the callee ends right before the parenthesis, in a
                // name, `)` or `]` (a comment in between ends in `/`). A
                // parenthesis after an operator or at the start groups.
                std::size_t j = i;
                while (j > 0 && blank(t[j - 1])) --j;
                if (j > 0 && (word(t[j - 1]) || t[j - 1] == ')' || t[j - 1] == ']' || t[j - 1] == '/')) return true;
                break;
            }
            default: break;
        }
    }
    return false;
}

FileDefinitions::FileDefinitions(const SyntaxTree& tree, const std::vector<std::pair<std::string, std::string>>& defines)
    : tree_(tree) {
    for (const auto& [name, value] : defines) overrides_[name] = value;
    std::vector<TSNode> calls;
    collect(calls);
    // functions_ is in source order (a preorder walk), as function_at needs.
    for (std::size_t i = 0; i < functions_.size(); ++i) function_index_.emplace(functions_[i].name, i);
    for (TSNode call : calls) {
        TSNode callee = field(call, "function");
        if (!IS(callee, "identifier")) continue;
        std::string name(text(callee, source()));
        if (function_index_.count(name)) calls_[name].push_back(call);
    }
}

void FileDefinitions::collect(std::vector<TSNode>& calls) {
    const std::string& src = source();
    std::vector<std::pair<TSNode, TSNode>> const_decls;  // declaration, enclosing function (or null)
    std::vector<TSNode> functions;  // enclosing function_definition nodes
    std::vector<int> owners;        // their index in functions_ (-1: not recorded)
    int loop_depth = 0;
    static const TSSymbol kFor = symbol_of("for_statement"), kWhile = symbol_of("while_statement"),
                          kDo = symbol_of("do_statement");
    auto is_loop = [](TSNode n) {
        TSSymbol s = ts_node_symbol(n);
        return s == kFor || s == kWhile || s == kDo;
    };
    walk_tree(
        tree_.root(),
        [&](TSNode n) {
            if (!ts_node_is_named(n)) return false;  // punctuation and keywords hold nothing
            const TSSymbol kind = ts_node_symbol(n);
            if (kind == SYM("preproc_def") || kind == SYM("preproc_function_def")) {
                add_macro(n);
                return false;
            }
            if (kind == SYM("pointer_expression")) {
                if (!owners.empty() && owners.back() >= 0 && text(field(n, "operator"), src) == "&" &&
                    IS(strip_parens(field(n, "argument")), "identifier"))
                    functions_[static_cast<std::size_t>(owners.back())].assignments.push_back(n);
            } else if (kind == SYM("enumerator_list")) {
                add_enumerators(n);
            } else if (kind == SYM("type_definition")) {
                add_typedef(n);
            } else if (kind == SYM("function_definition")) {
                owners.push_back(add_function(n) ? static_cast<int>(functions_.size()) - 1 : -1);
                functions.push_back(n);
            } else if (kind == kFor || kind == kWhile || kind == kDo) {
                if (loop_depth++ == 0) loops_.push_back(n);
            } else if (kind == SYM("declaration")) {
                if (functions.empty()) globals_.push_back(n);
                else if (owners.back() >= 0) functions_[static_cast<std::size_t>(owners.back())].declarations.push_back(n);
                const_decls.emplace_back(n, functions.empty() ? TSNode{} : functions.back());
            } else if (kind == SYM("call_expression")) {
                calls.push_back(n);
            } else if (kind == SYM("assignment_expression") || kind == SYM("update_expression")) {
                if (!owners.empty() && owners.back() >= 0) {
                    TSNode target = strip_parens(field(n, kind == SYM("update_expression") ? "argument" : "left"));
                    if (IS(target, "identifier")) functions_[static_cast<std::size_t>(owners.back())].assignments.push_back(n);
                }
            }
            return !is_skippable_expression(kind) || subtree_may_hold_definitions(n, src);
        },
        [&](TSNode n) {
            if (!ts_node_is_named(n)) return;
            if (is_loop(n)) --loop_depth;
            else if (!functions.empty() && ts_node_eq(n, functions.back())) {
                functions.pop_back();
                owners.pop_back();
            }
        });
    for (const auto& [decl, fn] : const_decls) add_consts(decl, fn);
}

void FileDefinitions::add_macro(TSNode def) {
    const std::string& src = source();
    std::string name(text(field(def, "name"), src));
    if (name.empty() || macros_.count(name)) return;  // first definition wins (#ifndef N / #define N guards)
    Macro mac{name, IS(def, "preproc_function_def"), {}, clean_macro_body(text(field(def, "value"), src))};
    if (mac.function_like) {
        for (TSNode p : named_children(field(def, "parameters")))
            if (IS(p, "identifier")) mac.params.emplace_back(text(p, src));
        mac.body = unwrap_parameters(mac.body, mac.params);
    }
    macros_[name] = std::move(mac);
}

// `enum { NX = 100, NY };`: values follow one another.
void FileDefinitions::add_enumerators(TSNode list) {
    const std::string& src = source();
    std::string previous;
    for (TSNode e : named_children(list)) {
        if (!IS(e, "enumerator")) continue;
        std::string name(text(field(e, "name"), src));
        if (name.empty()) continue;
        enumerators_.emplace(name, Enumerator{field(e, "value"), previous});
        previous = name;
    }
}

// `typedef float real;`
void FileDefinitions::add_typedef(TSNode def) {
    const std::string& src = source();
    TSNode d = field(def, "declarator");
    if (!IS(d, "type_identifier")) return;
    std::string name(text(d, src));
    if (!typedefs_.count(name)) typedefs_[name] = squeeze(text(field(def, "type"), src));
}

bool FileDefinitions::add_function(TSNode def) {
    const std::string& src = source();
    TSNode fd = function_declarator_of(field(def, "declarator"));
    TSNode body = field(def, "body");
    if (is_null(fd) || !IS(body, "compound_statement")) return false;
    FunctionInfo f;
    f.name = declarator_name(field(fd, "declarator"), src);
    if (f.name.empty()) return false;
    f.node = def;
    f.body = body;
    for (TSNode p : named_children(field(fd, "parameters"))) {
        if (!IS(p, "parameter_declaration")) continue;
        f.params.push_back(p);
        f.param_names.push_back(declarator_name(field(p, "declarator"), src));
    }
    // The body's statements (comments aside), up to the second: a body of
    // one `return expr;` makes a helper.
    TSNode only{};
    int statements = 0;
    {
        Cursor cursor(f.body);
        TSTreeCursor* c = cursor.get();
        if (ts_tree_cursor_goto_first_child(c)) {
            do {
                TSNode k = ts_tree_cursor_current_node(c);
                if (!ts_node_is_named(k) || IS(k, "comment")) continue;
                only = k;
                ++statements;
            } while (statements < 2 && ts_tree_cursor_goto_next_sibling(c));
        }
    }
    if (statements == 1 && IS(only, "return_statement") && ts_node_named_child_count(only) == 1)
        f.single_return = ts_node_named_child(only, 0);
    functions_.push_back(std::move(f));
    return true;
}

// `const int N = 1000;` at file scope or in a function.
void FileDefinitions::add_consts(TSNode decl, TSNode function) {
    const std::string& src = source();
    if (!text_contains(decl, src, "const")) return;  // no `const` qualifier can be among its children
    bool is_const = false;
    for (TSNode k : named_children(decl))
        if (IS(k, "type_qualifier") && text(k, src) == "const") is_const = true;
    if (!is_const) return;
    for (TSNode d : named_children(decl)) {
        if (!IS(d, "init_declarator") || !IS(field(d, "declarator"), "identifier")) continue;
        ConstVariable v;
        v.name = std::string(text(field(d, "declarator"), src));
        v.value = field(d, "value");
        v.type = "const " + squeeze(text(field(decl, "type"), src));
        v.scope_begin = ts_node_end_byte(decl);
        v.scope_end = is_null(function) ? static_cast<std::uint32_t>(src.size()) : ts_node_end_byte(function);
        consts_.emplace(v.name, v);
    }
}

std::optional<bool> FileDefinitions::known_purity(const std::string& name) const {
    auto it = purity_.find(name);
    if (it == purity_.end()) return std::nullopt;
    return it->second;
}

const Macro* FileDefinitions::macro(const std::string& name) const {
    auto it = macros_.find(name);
    return it == macros_.end() ? nullptr : &it->second;
}

void FileDefinitions::remember_purity(const std::string& name, bool pure) const {
    purity_[name] = pure;
}

Expr FileDefinitions::macro_expression(const std::string& name) const {
    if (auto it = parsed_.find(name); it != parsed_.end()) return it->second.value;
    auto o = overrides_.find(name);
    auto m = macros_.find(name);
    if (o == overrides_.end() && m == macros_.end()) return {};  // neither a macro nor a -D name
    ParsedMacro& parsed = parsed_[name];
    const std::string& body = o != overrides_.end() ? o->second : m->second.body;
    if (body.empty()) return {};
    parsed.tree = std::make_unique<SyntaxTree>("int recipe_macro_value = (" + body + "\n);");
    TSNode root = parsed.tree->root();
    if (!parsed.tree->whole() || ts_node_has_error(root)) return {};
    TSNode decl = ts_node_named_child(root, 0);
    TSNode init = field(decl, "declarator");
    TSNode value = field(init, "value");
    if (IS(value, "parenthesized_expression")) parsed.value = Expr{value, &parsed.tree->source()};
    return parsed.value;
}

const Enumerator* FileDefinitions::enumerator(const std::string& name) const {
    auto it = enumerators_.find(name);
    return it == enumerators_.end() ? nullptr : &it->second;
}

std::optional<std::string> FileDefinitions::typedef_of(const std::string& name) const {
    auto it = typedefs_.find(name);
    if (it == typedefs_.end()) return std::nullopt;
    return it->second;
}

const ConstVariable* FileDefinitions::const_variable(const std::string& name, std::uint32_t at) const {
    const ConstVariable* best = nullptr;
    auto range = consts_.equal_range(name);
    for (auto it = range.first; it != range.second; ++it) {
        const ConstVariable& v = it->second;
        if (at < v.scope_begin || at > v.scope_end) continue;
        if (!best || v.scope_begin > best->scope_begin) best = &v;
    }
    return best;
}

const FunctionInfo* FileDefinitions::function(const std::string& name) const {
    auto it = function_index_.find(name);
    return it == function_index_.end() ? nullptr : &functions_[it->second];
}

const FunctionInfo* FileDefinitions::function_at(std::uint32_t at) const {
    auto it = std::upper_bound(functions_.begin(), functions_.end(), at,
                               [](std::uint32_t b, const FunctionInfo& f) { return b < ts_node_start_byte(f.node); });
    if (it == functions_.begin()) return nullptr;
    --it;
    if (at >= ts_node_start_byte(it->node) && at < ts_node_end_byte(it->node)) return &*it;
    return nullptr;
}

const std::vector<TSNode>& FileDefinitions::calls_to(const std::string& name) const {
    static const std::vector<TSNode> none;
    auto it = calls_.find(name);
    return it == calls_.end() ? none : it->second;
}

}  // namespace recipe::analyzer
