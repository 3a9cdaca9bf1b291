#include "recipes/c_tree.h"

#include "analyzer/source_map.h"
#include "analyzer/syntax_tree.h"
#include "recipes/c_declarations.h"
#include "recipes/source_rewriter.h"

#include <algorithm>

namespace recipe::recipes {

CTree::CTree(const analyzer::SyntaxTree& tree, const analyzer::SourceMap* map) : WrittenText(tree, map) { index(); }

void CTree::index() {
    identifiers_ = identifiers(source());
    for (const TSNode top : named_children(root())) {
        if (is(top, "declaration")) file_declarations_.push_back(top);
        const bool def = is(top, "function_definition");
        if (!def && !is(top, "declaration")) continue;
        TSNode d = field(top, "declarator");
        while (is(d, "pointer_declarator")) d = field(d, "declarator");
        if (!is(d, "function_declarator")) continue;
        const std::string name(text(declared_name(d)));
        if (def) function_definitions_[name] = top;
        function_declarations_[name].push_back(ts_node_start_byte(top));
    }
    walk(root(), [&](TSNode n) {
        if (is(n, "function_definition")) functions_.push_back(n);
        if (is(n, "preproc_def") || is(n, "preproc_function_def")) defined_macros_.emplace(text(field(n, "name")));
        if (is(n, "call_expression"))
            if (std::string name = called_function(*this, n); !name.empty()) calls_[std::move(name)].push_back(n);
    });
}

TSNode CTree::function_at(std::uint32_t at) const {
    auto it = std::upper_bound(functions_.begin(), functions_.end(), at,
                               [](std::uint32_t b, TSNode f) { return b < ts_node_start_byte(f); });
    if (it == functions_.begin()) return TSNode{};
    --it;
    return at < ts_node_end_byte(*it) ? *it : TSNode{};
}

std::vector<std::uint32_t> CTree::function_declarations(const std::string& name) const {
    const auto it = function_declarations_.find(name);
    return it == function_declarations_.end() ? std::vector<std::uint32_t>{} : it->second;
}

const std::vector<TSNode>& CTree::calls_to(const std::string& function) const {
    static const std::vector<TSNode> none;
    const auto it = calls_.find(function);
    return it == calls_.end() ? none : it->second;
}

TSNode CTree::node_at(std::uint32_t begin, std::uint32_t end) const {
    TSNode n = ts_node_named_descendant_for_byte_range(root(), begin, end);
    if (ts_node_is_null(n) || ts_node_start_byte(n) != begin || ts_node_end_byte(n) != end) return TSNode{};
    return n;
}

TSNode field(TSNode n, const char* name) {
    return ts_node_child_by_field_name(n, name, static_cast<std::uint32_t>(std::char_traits<char>::length(name)));
}

std::vector<TSNode> named_children(TSNode n) {
    std::vector<TSNode> out;
    if (ts_node_is_null(n)) return out;
    // A cursor steps from child to child; ts_node_named_child(n, i) starts
    // from the first child every time, which is quadratic in a file's
    // thousands of top-level definitions.
    TSTreeCursor c = ts_tree_cursor_new(n);
    if (ts_tree_cursor_goto_first_child(&c)) do {
            const TSNode k = ts_tree_cursor_current_node(&c);
            if (ts_node_is_named(k)) out.push_back(k);
        } while (ts_tree_cursor_goto_next_sibling(&c));
    ts_tree_cursor_delete(&c);
    return out;
}

std::string called_function(const CTree& tree, TSNode call) {
    const TSNode f = field(call, "function");
    return is(f, "identifier") ? std::string(tree.text(f)) : std::string();
}

bool has_side_effects(TSNode n) {
    bool effects = false;
    walk(n, [&](TSNode k) {
        effects = effects || is(k, "call_expression") || is(k, "assignment_expression") || is(k, "update_expression");
    });
    return effects;
}

int CTree::user_line(TSNode node) const {
    const int line = static_cast<int>(ts_node_start_point(node).row) + 1;
    const int mapped = map() ? map()->lines().origin(line).line : line;
    return mapped > 0 ? mapped : line;
}

}  // namespace recipe::recipes
