// c_tree.h — the analyzer's parse of a C file, indexed for the few syntactic
// questions the generator asks itself (what type a variable was declared
// with, which conversions C allows and C++ does not, what a loop body does
// besides its nests). The analyzer answers the semantic ones. A view: the
// tree belongs to the analyzer (TranslationUnit::tree) and outlives it.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

#include "analyzer/written_text.h"

namespace recipe::recipes {

class CTree : public analyzer::WrittenText {
public:
    // `map` leads back to the user's file (so that code the generator copies
    // keeps the user's spelling, `W` rather than `8000`); null for a text
    // that went through no preprocessor.
    explicit CTree(const analyzer::SyntaxTree& tree, const analyzer::SourceMap* map = nullptr);
    CTree(const CTree&) = delete;
    CTree& operator=(const CTree&) = delete;

    // The smallest named node that spans exactly [begin, end), or a null node.
    TSNode node_at(std::uint32_t begin, std::uint32_t end) const;

    // The line the node starts on in the user's file (the preprocessed
    // text's own line without a map).
    int user_line(TSNode node) const;

    // Names the text #defines (object- and function-like), and the calls of
    // each function by plain name in source order: read once when parsed, as
    // every nest asks (walking the file per nest made advise quadratic).
    const std::set<std::string>& defined_macros() const { return defined_macros_; }
    const std::vector<TSNode>& calls_to(const std::string& function) const;
    // Whether the text names `word` outside comments and literals.
    bool has_identifier(std::string_view word) const { return identifiers_.count(word) > 0; }
    // Whether it names an identifier that begins with `prefix`.
    bool has_identifier_prefix(std::string_view prefix) const {
        const auto it = identifiers_.lower_bound(prefix);
        return it != identifiers_.end() && std::string_view(*it).substr(0, prefix.size()) == prefix;
    }
    // The function definition around byte `at`, or a null node.
    TSNode function_at(std::uint32_t at) const;
    // The file-scope function definitions by name, and where each function
    // is declared or defined at file scope (start bytes, in order).
    const std::map<std::string, TSNode, std::less<>>& function_definitions() const { return function_definitions_; }
    std::vector<std::uint32_t> function_declarations(const std::string& name) const;
    // The declarations at file scope, in source order.
    const std::vector<TSNode>& file_declarations() const { return file_declarations_; }

private:
    void index();

    std::set<std::string> defined_macros_;
    std::map<std::string, std::vector<TSNode>, std::less<>> calls_;
    std::set<std::string, std::less<>> identifiers_;
    std::vector<TSNode> functions_;  // function definitions, in source order (C does not nest them)
    std::vector<TSNode> file_declarations_;
    std::map<std::string, TSNode, std::less<>> function_definitions_;
    std::map<std::string, std::vector<std::uint32_t>, std::less<>> function_declarations_;
};

// Small helpers over TSNode.
inline std::string_view type_of(TSNode n) { return ts_node_type(n); }
inline bool is(TSNode n, std::string_view type) { return !ts_node_is_null(n) && type_of(n) == type; }
TSNode field(TSNode n, const char* name);
std::vector<TSNode> named_children(TSNode n);
// The name a call_expression calls, "" when it is not a plain name.
std::string called_function(const CTree& tree, TSNode call);
// Whether evaluating `n` may change state: it holds a call, an assignment or
// an increment.
bool has_side_effects(TSNode n);
// Calls `visit` on `n` and every named descendant, parents first, in
// source order. Iterative (a 100,000-deep expression must not overflow the
// stack) and linear in the nodes visited: a cursor steps from sibling to
// sibling.
template <class F>
void walk(TSNode n, F&& visit) {
    if (ts_node_is_null(n)) return;
    visit(n);
    TSTreeCursor c = ts_tree_cursor_new(n);
    for (;;) {
        if (!ts_tree_cursor_goto_first_child(&c)) {
            while (!ts_tree_cursor_goto_next_sibling(&c))
                if (!ts_tree_cursor_goto_parent(&c)) {
                    ts_tree_cursor_delete(&c);
                    return;
                }
        }
        const TSNode k = ts_tree_cursor_current_node(&c);
        if (ts_node_is_named(k)) visit(k);
    }
}

}  // namespace recipe::recipes
