#include "analyzer/definitions.h"

#include <algorithm>
#include <cctype>

#include "analyzer/query.h"

namespace recipe::analyzer {

namespace {

// `#define W 8000` — @name: W; @value: " 8000" (raw text to the end of the line).
constexpr char kObjectMacroQuery[] = "(preproc_def name: (identifier) @name value: (preproc_arg) @value)";

// `#define IDX(x, y) ((x) + W * (y))` — @name: IDX; @params: "(x, y)";
// @value: " ((x) + W * (y))".
constexpr char kFunctionMacroQuery[] =
    "(preproc_function_def name: (identifier) @name parameters: (preproc_params) @params value: (preproc_arg) @value)";

// `enum { NX = 100, NY };` — @list: the braces with both enumerators.
constexpr char kEnumListQuery[] = "(enumerator_list) @list";

// `typedef float real;` — @type: float; @name: real.
constexpr char kTypedefQuery[] = "(type_definition type: (_) @type declarator: (type_identifier) @name)";

// `const int N = 1000;` (at file scope or in a function) — @decl: the whole
// declaration; @qualifier: const (other qualifiers also match and are
// filtered); @name: N; @value: 1000.
constexpr char kConstDeclarationQuery[] =
    "(declaration (type_qualifier) @qualifier declarator: (init_declarator declarator: (identifier) @name value: (_) @value)) @decl";

// `static void step(float *a) { ... }` — @function: the definition;
// @declarator: `step(float *a)` (maybe under pointer declarators).
constexpr char kFunctionQuery[] = "(function_definition declarator: (_) @declarator body: (compound_statement) @body) @function";

// `emboss(in, out)` — @call: the call; @callee: emboss.
constexpr char kCallQuery[] = "(call_expression function: (identifier) @callee) @call";

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

TSNode function_declarator_of(TSNode d) {
    for (int guard = 0; guard < 64 && !is_null(d); ++guard) {
        if (is(d, "function_declarator")) return d;
        d = field(d, "declarator");
    }
    return TSNode{};
}

}  // namespace

std::string declarator_name(TSNode d, const std::string& source) {
    for (int guard = 0; guard < 64 && !is_null(d); ++guard) {
        if (is(d, "identifier") || is(d, "field_identifier") || is(d, "type_identifier")) return std::string(text(d, source));
        if (is(d, "parenthesized_declarator")) {
            d = ts_node_named_child(d, 0);
            continue;
        }
        TSNode next = field(d, "declarator");
        if (is_null(next)) return {};
        d = next;
    }
    return {};
}

FileDefinitions::FileDefinitions(const SyntaxTree& tree, const std::vector<std::pair<std::string, std::string>>& defines)
    : tree_(tree) {
    for (const auto& [name, value] : defines) overrides_[name] = value;
    collect_macros();
    collect_enums();
    collect_typedefs();
    collect_consts_and_functions();
    collect_calls();
}

void FileDefinitions::collect_macros() {
    const std::string& src = source();
    for_each_match(kObjectMacroQuery, tree_.root(), [&](const QueryMatch& m) {
        std::string name(text(m["name"], src));
        if (macros_.count(name)) return;  // first definition wins (#ifndef N / #define N guards)
        macros_[name] = Macro{name, false, {}, clean_macro_body(text(m["value"], src))};
    });
    for_each_match(kFunctionMacroQuery, tree_.root(), [&](const QueryMatch& m) {
        std::string name(text(m["name"], src));
        if (macros_.count(name)) return;
        Macro mac{name, true, {}, clean_macro_body(text(m["value"], src))};
        for (TSNode p : named_children(m["params"]))
            if (is(p, "identifier")) mac.params.emplace_back(text(p, src));
        mac.body = unwrap_parameters(mac.body, mac.params);
        macros_[name] = std::move(mac);
    });
}

void FileDefinitions::collect_enums() {
    const std::string& src = source();
    for_each_match(kEnumListQuery, tree_.root(), [&](const QueryMatch& m) {
        std::string previous;
        for (TSNode e : named_children(m["list"])) {
            if (!is(e, "enumerator")) continue;
            std::string name(text(field(e, "name"), src));
            if (name.empty()) continue;
            enumerators_.emplace(name, Enumerator{field(e, "value"), previous});
            previous = name;
        }
    });
}

void FileDefinitions::collect_typedefs() {
    const std::string& src = source();
    for_each_match(kTypedefQuery, tree_.root(), [&](const QueryMatch& m) {
        std::string name(text(m["name"], src));
        if (!typedefs_.count(name)) typedefs_[name] = squeeze(text(m["type"], src));
    });
}

void FileDefinitions::collect_consts_and_functions() {
    const std::string& src = source();
    for_each_match(kFunctionQuery, tree_.root(), [&](const QueryMatch& m) {
        TSNode fd = function_declarator_of(m["declarator"]);
        if (is_null(fd)) return;
        FunctionInfo f;
        f.name = declarator_name(field(fd, "declarator"), src);
        f.node = m["function"];
        f.body = m["body"];
        for (TSNode p : named_children(field(fd, "parameters"))) {
            if (!is(p, "parameter_declaration")) continue;
            f.params.push_back(p);
            f.param_names.push_back(declarator_name(field(p, "declarator"), src));
        }
        std::vector<TSNode> stmts;
        for (TSNode s : named_children(f.body))
            if (!is(s, "comment")) stmts.push_back(s);
        if (stmts.size() == 1 && is(stmts[0], "return_statement") && ts_node_named_child_count(stmts[0]) == 1)
            f.single_return = ts_node_named_child(stmts[0], 0);
        if (f.name.empty()) return;
        functions_.push_back(f);
    });
    std::sort(functions_.begin(), functions_.end(),
              [](const FunctionInfo& a, const FunctionInfo& b) { return ts_node_start_byte(a.node) < ts_node_start_byte(b.node); });
    for (std::size_t i = 0; i < functions_.size(); ++i) function_index_.emplace(functions_[i].name, i);

    for_each_match(kConstDeclarationQuery, tree_.root(), [&](const QueryMatch& m) {
        if (text(m["qualifier"], src) != "const") return;
        TSNode decl = m["decl"];
        ConstVariable v;
        v.name = std::string(text(m["name"], src));
        v.value = m["value"];
        v.type = "const " + squeeze(text(field(decl, "type"), src));
        std::uint32_t at = ts_node_start_byte(decl);
        if (const FunctionInfo* f = function_at(at)) {
            v.scope_begin = ts_node_end_byte(decl);
            v.scope_end = ts_node_end_byte(f->node);
        } else {
            v.scope_begin = ts_node_end_byte(decl);
            v.scope_end = static_cast<std::uint32_t>(src.size());
        }
        consts_.emplace(v.name, v);
    });
}

void FileDefinitions::collect_calls() {
    const std::string& src = source();
    for_each_match(kCallQuery, tree_.root(), [&](const QueryMatch& m) {
        std::string callee(text(m["callee"], src));
        if (function_index_.count(callee)) calls_[callee].push_back(m["call"]);
    });
}

const Macro* FileDefinitions::macro(const std::string& name) const {
    auto it = macros_.find(name);
    return it == macros_.end() ? nullptr : &it->second;
}

Expr FileDefinitions::macro_expression(const std::string& name) const {
    auto p = parsed_.find(name);
    if (p == parsed_.end()) {
        if (unparsable_.count(name)) return {};
        std::string body;
        auto o = overrides_.find(name);
        if (o != overrides_.end()) {
            body = o->second;
        } else if (const Macro* m = macro(name)) {
            body = m->body;
        } else {
            return {};
        }
        if (body.empty()) {
            unparsable_.insert(name);
            return {};
        }
        auto t = std::make_unique<SyntaxTree>("int recipe_macro_value = (" + body + "\n);");
        p = parsed_.emplace(name, std::move(t)).first;
    }
    const SyntaxTree& t = *p->second;
    TSNode root = t.root();
    if (ts_node_has_error(root)) {
        unparsable_.insert(name);
        return {};
    }
    TSNode decl = ts_node_named_child(root, 0);
    TSNode init = field(decl, "declarator");
    TSNode value = field(init, "value");
    if (!is(value, "parenthesized_expression")) return {};
    return Expr{value, &t.source()};
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
